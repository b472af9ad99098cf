"""Scenario helpers for the Yashima rules tests (see docs/games/yashima.md, "Scenario format")."""

from games.engines.yashima import ENGINE
from games.kernel import SYSTEM
from games.kernel.scenario import Scenario


class Played(Scenario):
    """A scenario in which the SYSTEM steps a seat's command leads to are taken at once, as the
    platform's workers do (dealing, destiny reveal, initiative, the next turn, restoration): ``when``
    returns the seat's events followed by the system's."""

    def when(self, seat, type_: str, **args) -> list:
        events = super().when(seat, type_, **args)
        if seat != SYSTEM:
            while self.status.awaiting == [SYSTEM]:
                events = events + super().when(SYSTEM, "proceed")
        return events


def card(cid, karma=3, atk=4, pattern="jab", attack=(), defense=None, **kw):
    d = {"id": cid, "name": cid, "owner": "test", "karma": karma, "atk": atk, "pattern": pattern, "attack": list(attack)}
    if defense:
        d["defense"] = defense
    d.update(kw)
    return d


CUSTOM = {
    "plain": card("plain"),
    "low": card("low", karma=1, atk=1),
    "mid": card("mid", karma=4, atk=2),
    "high": card("high", karma=7, atk=2),
    "seven": card("seven", karma=7, atk=7),
    "block": card("block", karma=2, atk=1, defense="BLOCK"),
    "clash": card("clash", karma=2, atk=1, defense="CLASH"),
    "dodge": card("dodge", karma=2, atk=1, defense="DODGE"),
    "riposte": card("riposte", karma=2, atk=1, defense="RIPOSTE"),
    "barrier": card("barrier", karma=2, atk=1, defense="BARRIER"),
    "occupy": card("occupy", karma=2, atk=1, defense="OCCUPY"),
    "shield": card("shield", karma=2, atk=1, defense="SPIRIT_SHIELD"),
    "counter": card("counter", karma=2, atk=1, defense="COUNTER"),
    "icebreaker": card("icebreaker", karma=2, atk=1, icebreaker=True),
    "endure_draw": card("endure_draw", karma=2, atk=1, endure=[{"k": "DRAW", "n": 1}]),
    "fate_draw": card("fate_draw", karma=6, atk=1, fate=[{"k": "DRAW", "n": 1}]),
    "plague": card("plague", karma=1, atk=1, plague=True),
    "dash": card("dash", karma=2, atk=1, quick={"k": "DASH"}),
}


def pl(master="akiko", kami="tiger", pos="0,0", facing=0, deck=None, hand=(), **kw):
    d = {"master": master, "kami": kami, "pos": pos, "facing": facing,
         "deck": list(deck) if deck is not None else ["plain"] * 10, "hand": list(hand)}
    d.update(kw)
    return d


def scene(*players, radius=5, terrain=None, custom=None, **kw):
    doc = {"map": {"radius": radius}, "players": list(players), "custom_cards": dict(CUSTOM, **(custom or {})),
           "terrain": terrain or {}}
    doc.update(kw)
    return Played(ENGINE, doc)


def P(s, seat):
    return s.state["players"][seat]


def defs(zone):
    return [c["d"] for c in zone]


def hid(s, seat, d, zone="hand"):
    for c in P(s, seat)[zone]:
        if c["d"] == d:
            return c["id"]
    raise AssertionError(f"{d} not in seat {seat}'s {zone}: {defs(P(s, seat)[zone])}")


def types(cmds):
    return sorted({c["type"] for c in cmds})


def prompt(s):
    st = s.state["stacks"]["main"]
    return st[-1].get("prompt") if st else None


def lose_from_deck(s, seat, times=99):
    """Answer ``seat``'s LOSE prompts with the top of the deck (prompts with one choice resolve alone)."""
    for _ in range(times):
        pr = prompt(s)
        if not pr or pr["kind"] != "lose" or pr["seat"] != seat:
            return
        s.when(seat, "lose_card", zone="deck")


def attack(s, seat, d, facing=None):
    facing = P(s, seat)["facing"] if facing is None else facing
    return s.when(seat, "attack", card=hid(s, seat, d), facing=facing)


def life(s, seat):
    return len(P(s, seat)["deck"]) + len(P(s, seat)["hand"])
