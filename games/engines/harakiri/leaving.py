"""Who is still at the table once a player resigns (docs/games/harakiri.md, "Resigning").

Harakiri is played "using all of the 4 characters ... If playing with fewer than four players,
divide the characters between yourselves as you choose" (The Characters): a player who resigns
leaves, their characters stay in the party. They pass to the first player left (the lowest seat
still in play), as between two phases of a campaign (docs/campaigns.md, "Leaving a running
campaign"), and every decision that waited on the leaver waits on that player. Both phases
(the Exploration Phase's state and the Adventure Phase's) keep ``seats`` and ``control``; the
seats that left are ``out`` (the key appears with the first one).
"""

SEAT_LEFT = "PlayerLeftParty"  # {seat, to, characters, leader}: to is None when nobody is left
PARTY_LEFT = "PartyLeft"  # {seat}: the last player left; the match ends, the party has failed


def out(s) -> list[int]:
    return list(s.get("out", []))


def in_play(s) -> list[int]:
    """The seats still at the table, in order."""
    gone = set(s.get("out", []))
    return [i for i in range(s["seats"]) if i not in gone]


def heir(s, seat) -> int | None:
    """The first player left once ``seat`` goes; None when ``seat`` is the last one."""
    return next((i for i in in_play(s) if i != seat), None)


def left_payload(s, seat, taken_by=None) -> dict:
    """The seat leaves; ``taken_by``: another player in play took its characters over (an idle seat,
    docs/games/harakiri.md "An absent player"), else they pass to the first player left."""
    payload = {"seat": seat, "to": heir(s, seat) if taken_by is None else taken_by,
               "characters": sorted(c for c, v in s["control"].items() if v == seat),
               "leader": s.get("leader") == seat}
    if taken_by is not None:
        payload["taken_over"] = True
    return payload


def apply_left(s, p) -> None:
    """The seat is out; its characters (and the party's lead) pass to ``to`` (in place)."""
    s["out"] = sorted(set(s.get("out", [])) | {p["seat"]})
    if p["to"] is None:
        return
    s["control"] = {c: p["to"] if v == p["seat"] else v for c, v in s["control"].items()}
    if s.get("leader") == p["seat"]:
        s["leader"] = p["to"]
