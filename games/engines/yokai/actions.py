"""Deciding a command: validate it against the rules, then emit the events that carry it out (each
applied at once, so later steps see earlier ones), then resolve the automatic steps it leaves."""

from games.kernel import SYSTEM, RuleViolation, event

from . import rules as R
from .board import ORIENTATIONS, direction, parse, squares
from .content import MONSTERS
from .evolve import evolve
from .state import clone, is_int
from .views import status


class _Tx:
    """Collects events while keeping the state they produce, so later steps see earlier ones."""

    def __init__(self, state):
        self.state = state
        self.events = []

    def emit(self, type_, payload):
        ev = event(type_, payload)
        self.events.append(ev)
        self.state = evolve(self.state, ev)


TIME_LIMIT = "time_limit"


def decide(state, command):
    if state is None or state.get("finished"):
        raise RuleViolation("game_over", "the game is over")
    seat = command.seat
    if command.type == TIME_LIMIT:
        if seat != SYSTEM:
            raise RuleViolation("system_only", "only the platform ends a match on a round's time limit")
        if command.args:
            raise RuleViolation("bad_args", "time_limit takes no arguments")
        return [event("GameWon", {"winners": time_limit_winners(state), "reason": TIME_LIMIT})]
    if seat == SYSTEM:
        raise RuleViolation("nothing_for_the_system", "Yokai Battle has no other system command")
    if not is_int(seat) or seat not in status(state).awaiting:
        raise RuleViolation("not_your_turn", "it is not your decision")
    args = command.args
    if not isinstance(args, dict):
        raise RuleViolation("bad_args", "args must be an object")
    tx = _Tx(state)
    ctype = command.type
    if state["pending"]:
        item = state["pending"][0]
        if item["kind"] == "summon_attack":
            if ctype != "attack":
                raise RuleViolation("must_attack", "the summoned monster must first attack an adjacent enemy")
            _summon_attack(tx, seat, item, args)
        else:
            if ctype != "choose_target":
                raise RuleViolation("choice_pending", "choose a target for the pending ability first")
            _choose(tx, seat, item, args)
    elif ctype == "summon":
        _summon(tx, seat, args)
    elif ctype == "attack":
        _attack(tx, seat, args)
    elif ctype == "transfer_lp":
        _transfer(tx, seat, args)
    elif ctype == "end_turn":
        if args:
            raise RuleViolation("bad_args", "end_turn takes no arguments")
        _end_turn(tx, seat)
    elif ctype == "choose_target":
        raise RuleViolation("nothing_to_choose", "no ability is waiting for a target")
    else:
        raise RuleViolation("unknown_command", f"unknown command {ctype!r}")
    _advance(tx)
    _hand_on_a_departed_turn(tx)
    return tx.events


def concede_refusal(state, seat) -> RuleViolation | None:
    """Why ``seat``'s player cannot resign from the game now; None when they can."""
    if state is None or state.get("finished"):
        return RuleViolation("game_over", "the game is over")
    if not is_int(seat) or not 0 <= seat < state["seats"]:
        return RuleViolation("bad_seat", "no such seat")
    if not R.in_play(state, seat):
        return RuleViolation("already_out", "this player has already left the game")
    return None


def concede(state, seat) -> list:
    """``seat``'s player resigns and leaves the game (docs/games/yokai.md, "Resigning"): their
    monsters leave the board for their discard pile (they are not killed: no "when killed" ability
    triggers), what waits on them is dropped, their turn passes on, and when the players still in
    the game are one side, that side wins."""
    refusal = concede_refusal(state, seat)
    if refusal is not None:
        raise refusal
    tx = _Tx(state)
    removed = [pos for pos in squares(state["rows"]) if pos in state["monsters"] and state["monsters"][pos]["owner"] == seat]
    tx.emit("PlayerConceded", {"seat": seat, "removed": removed})
    pending = [item for item in tx.state["pending"] if item["seat"] != seat]
    if pending != tx.state["pending"]:
        tx.emit("PendingChanged", {"pending": pending})
    if not _last_side_wins(tx):
        _advance(tx)
        _hand_on_a_departed_turn(tx)
    return tx.events


def _last_side_wins(tx) -> bool:
    st = tx.state
    left = [s for s in range(st["seats"]) if R.in_play(st, s)]
    if len({R.team(st, s) for s in left}) != 1:
        return False
    tx.emit("GameWon", {"winners": R.team_seats(st, left[0]), "reason": "last_standing"})
    return True


def _hand_on_a_departed_turn(tx) -> None:
    """The turn of a player who left passes on once nothing is pending (they draw nothing)."""
    st = tx.state
    if not st["finished"] and not st["pending"] and not R.in_play(st, st["turn"]):
        tx.emit("TurnEnded", {"seat": st["turn"]})
        _next_turn(tx, st["turn"])


def time_limit_score(state, side: list[int]) -> tuple[int, int]:
    """How close a side is to conquest: monsters on the board, then their total life points."""
    mine = [m for m in state["monsters"].values() if m["owner"] in side]
    return len(mine), sum(m["lp"] for m in mine)


def time_limit_winners(state) -> list[int]:
    """A round's time ran out: the side nearest to conquest (most monsters on the board, then most life
    points on them) wins; sides tied at the top all win; if every side is tied it is a draw (no winner)."""
    sides = []
    for seat in range(state["seats"]):
        side = R.team_seats(state, seat)
        if side not in sides and any(R.in_play(state, s) for s in side):  # a side that left cannot win
            sides.append(side)
    scores = [time_limit_score(state, side) for side in sides]
    best = max(scores)
    top = [side for side, score in zip(sides, scores) if score == best]
    if len(top) == len(sides):
        return []
    return sorted(seat for side in top for seat in side)


# -- arguments -----------------------------------------------------------------------------
def _pos(state, args, name, occupied=None):
    value = args.get(name)
    if parse(value) is None or value not in state["terrain"]:
        raise RuleViolation("bad_args", f"{name} must be a terrain square 'row,col' of the board")
    if occupied is True and value not in state["monsters"]:
        raise RuleViolation("no_monster", f"no monster on {value}")
    return value


# -- commands ------------------------------------------------------------------------------
def _summon(tx, seat, args):
    st = tx.state
    if set(args) != {"card", "terrain", "orientation"}:
        raise RuleViolation("bad_args", "summon needs card, terrain and orientation")
    card_id = args["card"]
    hand = st["players"][seat]["hand"]
    entry = next((c for c in hand if isinstance(card_id, str) and c["id"] == card_id), None)
    if entry is None:
        raise RuleViolation("card_not_in_hand", "that card is not in your hand")
    if args["orientation"] not in ORIENTATIONS:
        raise RuleViolation("bad_args", "orientation is 'vertical' or 'horizontal'")
    pos = _pos(st, args, "terrain")
    if st["summons"] >= R.MAX_SUMMONS:
        raise RuleViolation("summon_limit", "no more than 2 monsters can be summoned per combat phase")
    if pos in st["monsters"]:
        raise RuleViolation("terrain_occupied", "only one monster can be summoned per terrain card")
    if R.warded(st, seat, pos):
        raise RuleViolation("terrain_warded", "an enemy metal monster forbids summoning on metal terrain")
    key = entry["card"]
    info = MONSTERS[key]
    if info["cost"] > st["chakra"][seat]:
        raise RuleViolation("not_enough_chakra", f"{info['name']} costs {info['cost']} chakra points")
    uid = st["next_uid"]
    probe = dict(st)
    probe["monsters"] = dict(st["monsters"])
    probe["monsters"][pos] = {"uid": uid, "card": key, "owner": seat, "orientation": args["orientation"]}
    ability = R.active_ability(probe, pos)
    stealth = ability == "metal_stealth"
    tx.emit(
        "MonsterSummoned",
        {
            "seat": seat,
            "card": card_id,
            "key": key,
            "at": pos,
            "orientation": args["orientation"],
            "cost": info["cost"],
            "lp": R.summoned_lp(st, pos, key),
            "uid": uid,
            "favourable": R.favourable(st, pos, key),
            "ability_active": ability is not None,
            "doubled": ability == "colorless_double",
            "stealth": stealth,
        },
    )
    if ability == "water_summon_heal":
        for p in R.ally_monsters_near(tx.state, seat, pos, 1):
            lp = tx.state["monsters"][p]["lp"]
            if lp < R.MAX_LP:
                tx.emit("LifeChanged", {"at": p, "lp": lp + 1, "reason": "water_summon_heal", "source": pos,
                                        **_life_cards(tx.state, p, key, seat)})
    elif ability == "colorless_draw":
        pl = tx.state["players"][seat]
        if pl["no_draw"] not in ("now", "both") and pl["deck"]:
            _draw(tx, seat, 1, "colorless_draw")
    queue = []
    if ability == "fire_summon_burn":
        queue.append({"kind": "fire_burn", "seat": seat, "origin": pos, "range": 2, "source": key})
    if not stealth:
        queue.append({"kind": "summon_attack", "seat": seat, "uid": uid})
    queue.append({"kind": "summon_check", "seat": seat, "uid": uid})
    tx.emit("PendingChanged", {"pending": queue})


def _summon_attack(tx, seat, item, args):
    st = tx.state
    if set(args) != {"attacker", "defender"}:
        raise RuleViolation("bad_args", "attack needs attacker and defender")
    attacker = R.find_uid(st, item["uid"])
    if args["attacker"] != attacker:
        raise RuleViolation("must_attack", "the freshly summoned monster must attack first")
    if args["defender"] not in R.pending_options(st, item):
        raise RuleViolation("illegal_target", "pick an enemy monster next to the summoned one")
    tx.emit("PendingChanged", {"pending": st["pending"][1:]})
    _fight(tx, attacker, args["defender"], summoning=True)


def _attack(tx, seat, args):
    st = tx.state
    if set(args) != {"attacker", "defender"}:
        raise RuleViolation("bad_args", "attack needs attacker and defender")
    apos = _pos(st, args, "attacker", occupied=True)
    dpos = _pos(st, args, "defender", occupied=True)
    if st["monsters"][apos]["owner"] != seat:
        raise RuleViolation("not_your_monster", "attack with one of your own monsters")
    if R.allied(st, st["monsters"][dpos]["owner"], seat):
        raise RuleViolation("illegal_target", "only enemy monsters can be attacked")
    if direction(apos, dpos) is None:
        raise RuleViolation("not_adjacent", "attacks reach the next terrain card in a cross, never diagonally")
    cost = R.duel_values(st, apos, dpos)["cost"]
    if cost > st["chakra"][seat]:
        raise RuleViolation("not_enough_chakra", f"this attack costs {cost} chakra points")
    _fight(tx, apos, dpos, summoning=False)


def _transfer(tx, seat, args):
    st = tx.state
    if set(args) != {"source", "target", "amount"}:
        raise RuleViolation("bad_args", "transfer_lp needs source, target and amount")
    src = _pos(st, args, "source", occupied=True)
    dst = _pos(st, args, "target", occupied=True)
    amount = args["amount"]
    if not is_int(amount):
        raise RuleViolation("bad_args", "amount must be an integer")
    m = st["monsters"][src]
    if m["owner"] != seat:
        raise RuleViolation("not_your_monster", "transfer from one of your own monsters")
    if R.active_ability(st, src) != "water_transfer":
        raise RuleViolation("ability_unavailable", "this monster cannot transfer its LPs here")
    if dst == src or dst not in R.ally_monsters_near(st, seat, src, 2):
        raise RuleViolation("illegal_target", "transfer to an ally monster within 2 terrain cards")
    to_lp = st["monsters"][dst]["lp"]
    if amount < 1 or amount > m["lp"] or to_lp + amount > R.MAX_LP:
        raise RuleViolation("bad_amount", "transfer 1 to its LPs, never raising a monster above 10")
    tx.emit(
        "LpTransferred",
        {"from": src, "to": dst, "amount": amount, "from_lp": m["lp"] - amount, "to_lp": to_lp + amount,
         "seat": seat, "card": m["card"], "to_card": st["monsters"][dst]["card"]},
    )
    if m["lp"] - amount <= 0:
        _deaths(tx, [src])


def _life_cards(st, at, source_card, source_seat) -> dict:
    """Who a life change hits and what caused it, so the history names both (the board is public;
    the source may already have died)."""
    target = st["monsters"][at]
    return {"card": target["card"], "owner": target["owner"], "source_card": source_card, "source_seat": source_seat}


def _choose(tx, seat, item, args):
    st = tx.state
    if set(args) != {"target"}:
        raise RuleViolation("bad_args", "choose_target needs target")
    target = args["target"]
    options = R.pending_options(st, item)
    if item["kind"] == "block_draw":
        if not is_int(target) or target not in options:
            raise RuleViolation("illegal_target", "choose an opposing player")
    elif not isinstance(target, str) or target not in options:
        raise RuleViolation("illegal_target", "choose an enemy monster in range")
    tx.emit("PendingChanged", {"pending": st["pending"][1:]})
    if item["kind"] == "block_draw":
        tx.emit("DrawBlocked", {"seat": seat, "target": target, "origin": item.get("origin")})
        return
    lp = tx.state["monsters"][target]["lp"]
    if item["kind"] == "fire_burn":
        new = lp - 1
    else:  # wood_drop
        new = min(lp, 1)
    tx.emit("LifeChanged", {"at": target, "lp": max(0, new), "reason": item["kind"], "source": item["origin"],
                            **_life_cards(tx.state, target, item.get("source"), item["seat"])})
    if new <= 0:
        _deaths(tx, [target])


def _end_turn(tx, seat):
    st = tx.state
    n = st["seats"]
    tx.emit("TurnEnded", {"seat": seat})
    pl = tx.state["players"][seat]
    if pl["no_draw"] in ("now", "both"):
        tx.emit("DrawPrevented", {"seat": seat})
    else:
        if not pl["deck"]:
            losers = R.team_seats(st, seat)
            winners = [s for s in range(n) if s not in losers and R.in_play(st, s)]
            tx.emit("GameWon", {"winners": winners, "reason": "deck_out", "loser": seat})
            return
        _draw(tx, seat, 1, "turn")
        pl = tx.state["players"][seat]
        refill = min(R.HAND_LIMIT - len(pl["hand"]), len(pl["deck"]))
        if refill > 0:
            _draw(tx, seat, refill, "refill")
    _next_turn(tx, seat)


def _next_turn(tx, seat):
    """The next player still in the game plays; going round past the first seat starts a new round."""
    st = tx.state
    nxt = R.next_in_play(st, seat)
    if nxt <= seat:
        tx.emit("RoundEnded", {"round": st["round"]})
        tx.emit("RoundStarted", {"round": st["round"] + 1, "meter": min(R.MAX_METER, st["meter"] + 1)})
    tx.emit("TurnStarted", {"seat": nxt})


# -- resolution --------------------------------------------------------------------------
def _draw(tx, seat, count, reason):
    cards = clone(tx.state["players"][seat]["deck"][:count])
    tx.emit("CardsDrawn", {"seat": seat, "count": len(cards), "cards": cards, "reason": reason})


def _fight(tx, apos, dpos, summoning):
    st = tx.state
    a, d = st["monsters"][apos], st["monsters"][dpos]
    values = R.duel_values(st, apos, dpos)
    tx.emit(
        "Fought",
        {
            "seat": a["owner"],
            "attacker": apos,
            "defender": dpos,
            "attacker_card": a["card"],  # public (face up on the board): named in the history
            "defender_card": d["card"],
            "defender_seat": d["owner"],
            "summoning": summoning,
            "cost": 0 if summoning else values["cost"],
            "attacker_deals": values["attacker_deals"],
            "defender_deals": values["defender_deals"],
            "attacker_lp": max(0, a["lp"] - values["defender_deals"]),
            "defender_lp": max(0, d["lp"] - values["attacker_deals"]),
        },
    )
    dead = [p for p in (apos, dpos) if tx.state["monsters"][p]["lp"] <= 0]
    if dead:
        _deaths(tx, dead)


def _deaths(tx, positions):
    """Monsters at 0 LP go to their owner's discard pile; their 'when killed' abilities (judged
    on the board as it stood, all the dead still on it) queue in front of pending decisions."""
    st = tx.state
    dakis = R.effective_dakis(st)
    triggers = []
    for pos in positions:
        m = st["monsters"][pos]
        ability = R.active_ability(st, pos, dakis)
        owner = m["owner"]
        if ability == "fire_death_burn":
            triggers.append({"kind": "fire_burn", "seat": owner, "origin": pos, "range": 1, "source": m["card"]})
        elif ability == "wood_drop":
            triggers.append({"kind": "wood_drop", "seat": owner, "origin": pos, "source": m["card"]})
        elif ability == "wood_no_draw":
            triggers.append({"kind": "block_draw", "seat": owner, "origin": pos, "source": m["card"]})
    for pos in positions:
        m = st["monsters"][pos]
        tx.emit("MonsterDied", {"at": pos, "owner": m["owner"], "card": m["card"], "uid": m["uid"]})
    if triggers:
        tx.emit("PendingChanged", {"pending": triggers + tx.state["pending"]})


def _advance(tx):
    """Resolve automatic steps; skip pending choices that have nothing to choose from."""
    while not tx.state["finished"] and tx.state["pending"]:
        st = tx.state
        item = st["pending"][0]
        if item["kind"] == "summon_check":
            tx.emit("PendingChanged", {"pending": st["pending"][1:]})
            pos = R.find_uid(tx.state, item["uid"])
            if pos is not None and R.monsters_of(tx.state, item["seat"]) >= R.CONQUEST:
                tx.emit(
                    "GameWon",
                    {"winners": R.team_seats(st, item["seat"]), "reason": "conquest", "seat": item["seat"]},
                )
            continue
        if not R.pending_options(st, item):
            tx.emit("PendingChanged", {"pending": st["pending"][1:], "skipped": item["kind"]})
            continue
        break
