"""Setup, rounds (destiny, reconcile, initiative), turns, restoration and winning; the command
list (``legal``) and its execution (``execute``)."""

from games.kernel import RuleViolation

from . import hexgrid as hx
from . import ops
from . import queries as q
from .content import BOARDS, KAMI, MASTERS, RELIC, STATUSES
from .attack import start_attack
from .ops import exert_later, return_card, walk
from .queries import reach
from .stack import C, ask, handler, pop, run, system_step

TOKENS = ("move", "attack")


# -- setup ----------------------------------------------------------------------------------

TEAM_SIZES = (2, 3)


def team_size(options: dict, seats: int):
    """Players per team: ``team_size`` when given, else 3 at six seats and 2 otherwise; None when
    every master plays for themself."""
    if not options.get("teams"):
        return None
    return options.get("team_size") or (3 if seats == 6 else 2)


def team_error(options: dict, seats: int):
    """Why the team options cannot seat this table, or None. Core "Playing a Team Game": teams have
    the same number of players and team-mates sit across from each other, never adjacent; seating
    seat i in team ``i % teams`` does that for two or more teams that divide the table evenly."""
    size = options.get("team_size")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size not in TEAM_SIZES):
        return "team_size must be 2 or 3"
    if size is not None and not options.get("teams"):
        return "team_size needs teams: true"
    size = team_size(options, seats)
    if size is not None and (seats % size or seats // size < 2):
        if options.get("team_size") is None:
            return "team games need teams of the same size: 4 seats (2 against 2) or 6 seats (teams of 3 or 2)"
        return f"{seats} seats cannot make teams of {size}: teams of 2 need 4 or 6 seats, teams of 3 need 6"
    return None


def team_numbers(options: dict, seats: int) -> list[int]:
    """Each seat's team: seat i plays for team ``i % teams``, so team-mates sit ``teams`` seats apart
    (4 seats: 0+2 against 1+3; 6 seats in threes: 0+2+4 against 1+3+5; in twos: 0+3, 1+4, 2+5)."""
    size = team_size(options, seats)
    if size is None or team_error(options, seats):
        return list(range(seats))
    return [i % (seats // size) for i in range(seats)]


def new_state(options: dict, seats: int) -> dict:
    teams = team_numbers(options, seats)
    cells = {c: RELIC["cells"].get(c, "blank") for c in hx.hexagon(hx.BOARD_RADIUS)}
    players = [new_player() for _ in range(seats)]
    return {"game": "yashima", "options": dict(options), "teams": teams, "phase": "setup", "round": 0,
            "pool": {"move": 0, "attack": 0}, "turn": None, "stacks": {"main": []}, "recon": {},
            "setup": {"step": "pick", "i": 0, "placed": [], "choice": None}, "last_init": None,
            "cells": cells, "boards": [], "spst": {}, "destiny": {}, "result": None, "custom": {},
            "supply": {k: v["supply"] for k, v in STATUSES.items() if "supply_key" not in v}, "players": players}


def new_player() -> dict:
    return {"master": None, "kami": None, "pos": None, "facing": 0, "deck": [], "hand": [], "discard": [],
            "karma": [], "equip": [], "aside": [], "tome": {"spread": 0, "out": []}, "st": {},
            "restored": False, "pending": False, "dead": False}


def setup_order(s) -> list:
    """The seats the current setup step goes round, in order: picks and boards in seat order (core
    "Setting up the Game" 1 and 4), miniatures in the opposite order of the boards placed (5)."""
    st = s["setup"]
    if st["step"] in ("pick", "board"):
        return list(range(len(s["players"])))
    if st["step"] == "mini":
        return [b["seat"] for b in s["boards"]][::-1]
    return []


def setup_seat(s):
    order = setup_order(s)
    i = s["setup"]["i"]
    return order[i] if i < len(order) else None


def next_in_setup(sim) -> None:
    """The setup goes on with the next master still in the game (one who resigned is passed over,
    ``leave_setup``); past the last seat, the next setup step begins, and after the miniatures the deal."""
    s = sim.s
    st = s["setup"]
    while st["step"] != "done":
        order = setup_order(s)
        while st["i"] < len(order) and s["players"][order[st["i"]]]["dead"]:
            st["i"] += 1
        if st["i"] < len(order):
            return
        if st["step"] == "mini":
            st["step"] = "done"
            system_step(sim, {"k": "deal"})
            return
        st.update(step="board" if st["step"] == "pick" else "mini", i=0)


def leave_setup(sim, seat) -> None:
    """A master who left the game during the setup takes no further step of it (docs/games/yashima.md,
    rules decision 23): a terrain board they chose but did not place goes back to the box, and the
    setup moves on if it was waiting on them. Their pick and their terrain board stay (their miniature
    leaves the board with them, ``concede.leave_the_table``)."""
    if setup_seat(sim.s) == seat:
        sim.s["setup"]["choice"] = None
    next_in_setup(sim)


def setup_cmds(s, seat):
    st = s["setup"]
    if setup_seat(s) != seat:
        return []
    if st["step"] == "pick":
        used_m = {p["master"] for p in s["players"]}
        used_k = {p["kami"] for p in s["players"]}
        return [C("pick", master=m, kami=k) for m in MASTERS if m not in used_m for k in KAMI if k not in used_k]
    if st["step"] == "board":
        if st["choice"] is None:
            used = {b["board"] for b in s["boards"]}
            return [C("choose_board", board=b, side=side) for b in BOARDS if b not in used for side in ("a", "b")]
        used = [b["slot"] for b in s["boards"]]
        slots = [x for x in range(6) if x not in used and (not used or hx.slots_adjacent(x, used[-1]))]
        return [C("place_board", slot=x, rotation=r) for x in slots for r in range(6)]
    if st["step"] == "mini":
        b = next(b for b in s["boards"] if b["seat"] == seat)
        cells = sorted(b["cells"])
        return [C("place_miniature", cell=c, facing=f) for c in cells
                if s["cells"][c] == "blank" and q.occupant(s, c) is None for f in range(6)]
    return []


def setup_exec(sim, seat, cmd):
    s = sim.s
    st = s["setup"]
    a = cmd["args"]
    if cmd["type"] == "pick":
        sim.emit("PlayerSet", {"seat": seat, "set": {"master": a["master"], "kami": a["kami"]}})
        st["i"] += 1
        next_in_setup(sim)
    elif cmd["type"] == "choose_board":
        st["choice"] = [a["board"], a["side"]]
        sim.emit("BoardChosen", {"seat": seat, "board": a["board"], "side": a["side"]})
    elif cmd["type"] == "place_board":
        board, side = st["choice"]
        layout = BOARDS[board]["sides"][side]
        cells = hx.board_cells(a["slot"], a["rotation"], layout)
        s["cells"].update(cells)
        s["boards"].append({"seat": seat, "board": board, "side": side, "slot": a["slot"], "rotation": a["rotation"],
                            "cells": sorted(cells)})
        sim.emit("BoardPlaced", {"seat": seat, "board": board, "side": side, "slot": a["slot"], "rotation": a["rotation"]})
        st["choice"] = None
        st["i"] += 1
        next_in_setup(sim)
    elif cmd["type"] == "place_miniature":
        sim.emit("MasterMoved", {"seat": seat, "pos": a["cell"], "facing": a["facing"], "from": None})
        st["i"] += 1
        next_in_setup(sim)


@handler("deal")
def h_deal(sim, t):
    pop(sim, t)
    deal(sim)
    system_step(sim, {"k": "first_round"})
    for seat in reversed(range(len(sim.s["players"]))):  # SARU placements first, in seat order
        if not q.player(sim.s, seat)["dead"]:
            ops.place_saru_later(sim, seat, "main")


@handler("first_round")
def h_first_round(sim, t):
    pop(sim, t)
    start_destiny(sim)


def deal(sim):
    """Battle deck = kami deck + master's battle cards, shuffled; karma pool (FATE ignored); hand.
    A master who left the game during the setup is dealt nothing."""
    s = sim.s
    for seat, pl in enumerate(s["players"]):
        if pl["dead"]:
            continue
        defs = [c["id"] for c in KAMI[pl["kami"]]["cards"]] + [c["id"] for c in MASTERS[pl["master"]]["cards"]]
        order = sim.rng.shuffled(defs)
        sim.emit("DeckShuffled", {"seat": seat, "deck": [{"id": sim.rng.token(), "d": d, "o": seat} for d in order]})
        for _ in range(q.stats(s, seat)["karma"]):
            ops.to_karma(sim, seat, "deck", pl["deck"][0], fate=False)
        for _ in range(q.hand_size(s, seat)):
            ops.draw(sim, seat)


# -- destiny phase --------------------------------------------------------------------------

def start_destiny(sim):
    s = sim.s
    s["round"] += 1
    s["phase"] = "destiny"
    s["turn"] = None
    s["pool"] = {"move": 0, "attack": 0}


def destiny_exec(sim, seat, cmd):
    s = sim.s
    sim.emit("DestinyChosen", {"seat": seat, "token": cmd["args"]["token"]})
    alive = [i for i, pl in enumerate(s["players"]) if not pl["dead"]]
    if all(str(i) in s["destiny"] for i in alive):
        system_step(sim, {"k": "destiny_reveal"})


@handler("destiny_reveal")
def h_destiny_reveal(sim, t):
    s = sim.s
    pop(sim, t)
    alive = [i for i, pl in enumerate(s["players"]) if not pl["dead"]]
    pool = {"move": (len(alive) + 1) // 2, "attack": len(alive) // 2}
    chosen = dict(s["destiny"])
    for tok in chosen.values():
        pool[tok] += 1
    sim.emit("DestinyRevealed", {"chosen": chosen, "pool": pool})
    s["phase"] = "reconcile"
    s["recon"] = {str(i): {"drawn": False, "done": False} for i in alive}
    for i in alive:
        s["stacks"][str(i)] = []


def recon_prompt(s, seat):
    """(stack key, prompt) of a reconcile-time prompt awaiting ``seat`` on any seat's stack."""
    for key, st in s["stacks"].items():
        if key in s["recon"] and st and st[-1].get("prompt") and st[-1]["prompt"]["seat"] == seat:
            return key, st[-1]["prompt"]
    return None, None


def recon_cmds(s, seat):
    key, pr = recon_prompt(s, seat)
    if pr:
        return list(pr["cmds"])
    r = s["recon"].get(str(seat))
    if not r or r["done"] or s["stacks"].get(str(seat)):
        return []
    pl = q.player(s, seat)
    cmds = []
    if not r["drawn"]:
        cmds += [C("tuck", card=c["id"]) for c in pl["hand"]]
    if len(pl["hand"]) < q.hand_size(s, seat) and pl["deck"] and not pl["deck"][0].get("im"):
        cmds.append(C("draw"))
    cmds.append(C("end_reconcile"))
    return cmds


def recon_exec(sim, seat, cmd):
    s = sim.s
    key = str(seat)
    pkey, pr = recon_prompt(s, seat)
    if pr:
        key = pkey
        st = s["stacks"][key]
        st[-1]["ans"] = cmd
        st[-1]["prompt"] = None
    elif cmd["type"] == "tuck":
        c = next(x for x in q.player(s, seat)["hand"] if x["id"] == cmd["args"]["card"])
        ops.move(sim, seat, "hand", c, seat, "deck", "bottom")
    elif cmd["type"] == "draw":
        s["recon"][key]["drawn"] = True
        sim.key = key
        ops.draw(sim, seat)
    elif cmd["type"] == "end_reconcile":
        s["recon"][key]["done"] = True
        while ops.lose_master(sim, seat, "SHOCK"):  # SHOCK (project definition) lasts one reconcile step
            pass
    run(sim, key)
    close_reconcile(sim)


def close_reconcile(sim) -> None:
    """Once every master left in the game is done reconciling and nothing is resolving, the
    initiative step begins (after the last ``end_reconcile``, or a master's leaving the game)."""
    s = sim.s
    if not all(r["done"] for r in s["recon"].values()) or any(s["stacks"].get(k) for k in s["recon"]):
        return
    for k in s["recon"]:
        s["stacks"].pop(k, None)
    s["recon"] = {}
    s["phase"] = "initiative"
    alive = [i for i, pl in enumerate(s["players"]) if not pl["dead"]]
    system_step(sim, {"k": "initiative", "step": "frost", "fi": 0, "i": 0, "cont": alive, "vals": {},
                      "exh": {}, "first": True})


def karma_total(s, seat) -> int:
    return sum(q.card_def(s, c["d"])["karma"] for c in q.player(s, seat)["karma"])


def pay(sim, seat, cost, src) -> None:
    """Karma cost of ``src`` (an ability source such as ``"page:3"``, or ``"frost"``): push the
    payment task (the player picks the cards, see ``h_pay``)."""
    if cost > 0:
        ops.push(sim, {"k": "pay", "seat": seat, "cost": cost, "chosen": [], "src": src})


def _val(s, c) -> int:
    return q.card_def(s, c["d"])["karma"]


@handler("pay")
def h_pay(sim, t):
    """USE the fewest karma-pool cards whose karma reaches the cost; the player picks them one at a
    time among the cards that still allow a payment with that fewest number (excess is lost)."""
    s, seat, cost = sim.s, t["seat"], t["cost"]
    pool = q.player(s, seat)["karma"]
    if "ans" in t:
        t["chosen"].append(t.pop("ans")["args"]["card"])
    if "n" not in t:
        vals = sorted((_val(s, c) for c in pool), reverse=True)
        total, n = 0, 0
        for v in vals:
            if total >= cost:
                break
            total += v
            n += 1
        if total < cost:
            raise RuleViolation("not_enough_karma", "the karma pool cannot pay this cost")
        t["n"] = n
    chosen = [c for cid in t["chosen"] for c in pool if c["id"] == cid]
    paid = sum(_val(s, c) for c in chosen)
    if len(chosen) >= t["n"]:
        pop(sim, t)
        for c in chosen:
            ops.use(sim, seat, "karma", c)
        return
    need = t["n"] - len(chosen)
    rest = [c for c in pool if c["id"] not in t["chosen"]]
    cmds, seen = [], set()
    for c in rest:
        others = sorted((_val(s, x) for x in rest if x is not c), reverse=True)[:need - 1]
        if paid + _val(s, c) + sum(others) >= cost and c["d"] not in seen:
            seen.add(c["d"])
            cmds.append(C("pay_card", card=c["id"]))
    info = {"cost": cost, "cards": t["n"], "left": need}
    if t.get("src"):  # a payment queued before the source was recorded has none
        info["src"] = t["src"]
    ask(t, seat, "pay", cmds, info)


@handler("initiative")
def h_initiative(sim, t):
    s = sim.s
    if t["step"] == "frost":
        if "ans" in t:
            a = t.pop("ans")
            who = t["cont"][t["fi"]]
            t["fi"] += 1
            if a["type"] == "pay_frost":
                ops.lose_master(sim, who, "FROST")
                pay(sim, who, 4, "frost")
            return
        while t["fi"] < len(t["cont"]):
            who = t["cont"][t["fi"]]
            if q.status_count(s, who, "FROST") and karma_total(s, who) >= 4:
                ask(t, who, "frost", [C("pay_frost"), C("keep_frost")])
                return
            t["fi"] += 1
        t["step"] = "reveal"
        return
    if t["step"] == "reveal":
        if t["i"] < len(t["cont"]):
            who = t["cont"][t["i"]]
            t["i"] += 1
            reveal_initiative(sim, t, who)
            return
        t["step"] = "decide"
        return
    cont = in_the_game(s, t["cont"])
    if all(t["exh"].get(str(x)) for x in cont):
        last = s["last_init"]
        winner = last if last in cont else cont[0]
    else:
        best = max(tuple(t["vals"][str(x)]) for x in cont)
        tied = [x for x in cont if tuple(t["vals"][str(x)]) == best]
        if len(tied) > 1:
            t.update(cont=tied, i=0, first=False, step="reveal")
            return
        winner = tied[0]
    pop(sim, t)
    sim.emit("InitiativeWon", {"seat": winner})
    s["last_init"] = winner
    s["phase"] = "battle"
    s["turn"] = {"seat": winner, "seen": []}
    # a master whose initiative card was their last (no hand, no deck) has no life left: they will
    # soon restore and skip their turns ("Restoration and Winning the Game"), initiative winner or not
    ops.deplete_check(sim)
    for who in q.turn_order_from(s, winner):
        if q.active(s, who):
            begin_turn(sim, who, [])
            return
    end_round(sim)


def in_the_game(s, seats) -> list:
    """The masters of ``seats`` still in the game: one killed during the initiative step (its BURN
    damage took a restored master's last card) "is out of the game" and cannot win the initiative."""
    return [x for x in seats if not q.player(s, x)["dead"]] or list(seats)


def reveal_initiative(sim, t, who):
    """Each master places the top card of the battle deck into the karma pool. An EXHAUSTED master
    (no deck, or FROST) "has a karma value of 0": a FROSTed master still places its card (that is not
    an EXERT) but counts 0 for the initiative and for the BLIND / BURN checks."""
    s = sim.s
    deck = q.player(s, who)["deck"]
    if deck and deck[0].get("im"):  # an imprinted card on top resolves first, then this master reveals again
        t["i"] -= 1
        ops.push(sim, {"k": "reveal", "seat": who, "step": 0})
        return
    exhausted = q.exhausted(s, who)
    karma, atk = 0, 0
    if deck:
        c = deck[0]
        d = q.card_def(s, c["d"])
        if not exhausted:
            karma, atk = d["karma"], d["atk"]
        sim.emit("InitiativeRevealed", {"seat": who, "karma": karma, "atk": atk, "card": {"d": c["d"], "o": c["o"]},
                                        "exhausted": exhausted})
        ops.to_karma(sim, who, "deck", c)
    else:
        sim.emit("InitiativeRevealed", {"seat": who, "karma": 0, "atk": 0, "exhausted": True})
    t["vals"][str(who)] = [karma, atk]
    t["exh"][str(who)] = exhausted
    if t["first"]:
        if karma >= 5:
            ops.lose_master(sim, who, "BLIND")
            ops.lose_master(sim, who, "BURN")
        elif q.status_count(s, who, "BURN"):
            ops.damage(sim, who, 1, src="burn")


# -- battle phase ---------------------------------------------------------------------------

def begin_turn(sim, seat, seen):
    s = sim.s
    first = seat not in seen
    s["turn"] = {"seat": seat, "tome": False, "token": None, "bonus": 0, "stupor": False,
                 "seen": seen + ([seat] if first else [])}
    sim.emit("Note", {"turn": seat, "round": s["round"]})
    if first and q.status_count(s, seat, "RANCOR"):
        ops.lose_master(sim, seat, "RANCOR")
    pl = q.player(s, seat)
    if pl["discard"] and q.card_def(s, pl["discard"][-1]["d"]).get("plague"):
        ops.to_karma(sim, seat, "discard", pl["discard"][-1])
        for who in reversed(q.turn_order_from(s, seat)):
            if q.status_count(s, who, "PLAGUE"):
                ops.damage(sim, who, 1, src="plague")


@handler("end_turn")
def h_end_turn(sim, t):
    s = sim.s
    pop(sim, t)
    for cell, st in list(s["spst"].items()):
        if "SARU" in st:
            for n in hx.neighbours(cell):
                who = q.occupant(s, n)
                if who is not None and not q.places_saru(s, who):
                    ops.face(sim, who, hx.direction_to(n, cell))
    ops.deplete_check(sim)
    if win_check(sim):
        return
    system_step(sim, {"k": "next_turn"})


@handler("next_turn")
def h_next_turn(sim, t):
    """The next active master to the left begins a turn while the pool holds tokens, else the round ends."""
    s = sim.s
    pop(sim, t)
    pool = s["pool"]
    cur = s["turn"]["seat"]
    seen = s["turn"]["seen"]
    if pool["move"] + pool["attack"] > 0:
        n = len(s["players"])
        for i in range(1, n + 1):
            nxt = (cur + i) % n
            if q.active(s, nxt):
                begin_turn(sim, nxt, seen)
                return
    end_round(sim)


def time_limit_score(s, side: list[int]) -> tuple[int, int, int]:
    """How far a side is from defeat ("Restoration and Winning the Game"): masters still in the game,
    then masters still on their first life (not yet restored), then life left (hand + deck cards)."""
    players = [s["players"][i] for i in side]
    return (sum(1 for pl in players if not pl["dead"]),
            sum(1 for pl in players if not pl["dead"] and not pl["restored"]),
            sum(len(pl["hand"]) + len(pl["deck"]) for pl in players if not pl["dead"]))


def time_limit_winners(s) -> list[int]:
    """A tournament round's time ran out: the side furthest from defeat wins (``time_limit_score``);
    sides tied at the top share the win; every side tied is a draw (no winner)."""
    sides: dict = {}
    for seat in range(len(s["players"])):
        sides.setdefault(s["teams"][seat], []).append(seat)
    scores = {team: time_limit_score(s, side) for team, side in sides.items()}
    best = max(scores.values())
    top = [team for team, score in scores.items() if score == best]
    if len(top) == len(sides):
        return []
    return sorted(seat for team in top for seat in sides[team])


def win_check(sim) -> bool:
    s = sim.s
    teams = {s["teams"][i] for i in range(len(s["players"])) if q.standing(s, i)}
    if len(teams) > 1:
        return False
    if teams:
        team = teams.pop()
        winners = [i for i in range(len(s["players"])) if s["teams"][i] == team]
        sim.emit("GameEnded", {"winners": winners, "reason": "last_standing"})
    else:
        sim.emit("GameEnded", {"winners": [], "reason": "tie"})
    return True


def end_round(sim):
    s = sim.s
    s["turn"] = None
    s["phase"] = "restoration"
    system_step(sim, {"k": "round_end"})
    for seat in reversed(range(len(s["players"]))):
        if q.player(s, seat)["pending"]:
            system_step(sim, {"k": "restore", "seat": seat, "step": 1})


@handler("round_end")
def h_round_end(sim, t):
    s = sim.s
    pop(sim, t)
    cap = s["options"].get("round_cap")
    if cap and s["round"] >= cap:
        sim.emit("GameEnded", {"winners": [], "reason": "round_cap"})
        return
    start_destiny(sim)


@handler("restore")
def h_restore(sim, t):
    """End-of-round restoration, steps 1-7 in order."""
    s, seat = sim.s, t["seat"]
    pl = q.player(s, seat)
    step = t["step"]
    if step == 1:
        for c in list(pl["karma"]):
            ops.move(sim, seat, "karma", c, seat, "discard", "top")
        t["step"] = 2
    elif step == 2:
        if "ans" in t:
            a = t.pop("ans")
            if a["type"] == "restore_keep_statuses":
                t["step"] = 3
            else:
                ops.lose_master(sim, seat, a["args"]["status"])
            return
        if not pl["st"]:
            t["step"] = 3
            return
        ask(t, seat, "restore_statuses", [C("restore_remove_status", status=n) for n in sorted(pl["st"])] + [C("restore_keep_statuses")])
    elif step == 3:
        if "ans" in t:
            a = t.pop("ans")
            if a["type"] == "restore_keep_equipment":
                t["step"] = 4
            else:
                c = next(x for x in pl["equip"] if x["id"] == a["args"]["card"])
                return_card(sim, seat, "equip", c)
            return
        if not pl["equip"]:
            t["step"] = 4
            return
        ask(t, seat, "restore_equipment", [C("restore_unequip", card=c["id"]) for c in pl["equip"]] + [C("restore_keep_equipment")])
    elif step == 4:
        pile = list(pl["discard"])
        if s["options"].get("restore_shuffle", True):
            pile = sim.rng.shuffled(pile)
        deck = [{"id": sim.rng.token(), "d": c["d"], "o": c["o"]} for c in pile] + list(pl["deck"])
        sim.emit("PlayerSet", {"seat": seat, "set": {"discard": []}})
        sim.emit("DeckShuffled", {"seat": seat, "deck": deck})
        t["step"] = 5
    elif step == 5:
        sim.emit("PlayerSet", {"seat": seat, "set": {"restored": True, "pending": False}})
        t["step"] = 6
        t["left"] = q.stats(s, seat)["karma"]
    elif step == 6:
        if t["left"] > 0 and pl["deck"]:
            t["left"] -= 1
            ops.focus(sim, seat)
            return
        t["step"] = 7
    elif step == 7:
        if len(pl["hand"]) < q.hand_size(s, seat) and pl["deck"]:
            ops.draw(sim, seat)
            return
        pop(sim, t)


def abilities(s, seat):
    """(src, cost) of every karma ability the master could pay for now."""
    pl = q.player(s, seat)
    out = []
    for page, ti, face in q.tome_pages(s, seat):
        f = q.MASTERS[pl["master"]]["tome"][ti]["faces"][face]
        out.append((f"page:{page}", f["cost"]))
    for i, ab in enumerate(q.MASTERS[pl["master"]]["abilities"]):
        if ab["kind"] == "karma":
            out.append((f"avatar:{i}", ab.get("cost", 0)))
    for c in pl["equip"]:
        torn = q.card_def(s, c["d"]).get("torn", {})
        if "effects" in torn:
            out.append((f"equip:{c['id']}", torn.get("cost", 0)))
    total = karma_total(s, seat)
    return [(src, cost) for src, cost in out if cost <= total]


def quick_cmds(s, seat):
    pl = q.player(s, seat)
    cmds = []
    dash_cells = None
    for c in pl["hand"]:
        if (q.card_def(s, c["d"]).get("quick") or {}).get("k") == "DASH":
            if dash_cells is None:
                paths = reach(s, seat, q.speed(s, seat))
                dash_cells = sorted(x for x in paths if x != pl["pos"] and q.adjacent_opponents(s, seat, x))
            cmds += [C("dash", card=c["id"], to=x) for x in dash_cells]
    for i, ab in enumerate(q.MASTERS[pl["master"]]["abilities"]):
        if ab["kind"] == "quick":
            if ab.get("exert") and not q.can_exert(s, seat, ab["exert"]):
                continue
            if ab.get("cost", 0) > karma_total(s, seat):
                continue
            cmds.append(C("quick", src=f"avatar:{i}"))
    if q.status_count(s, seat, "WIND"):
        cmds.append(C("wind"))
    return cmds


def no_token(s, seat, card) -> bool:
    return any(m["k"] == "NO_TOKEN" for m in q.effective(s, seat, card["d"])["mods"])


def turn_cmds(s, seat):
    t = s["turn"]
    if not t or t["seat"] != seat:
        return []
    pl = q.player(s, seat)
    cmds = []
    if not t["tome"]:
        if pl["deck"]:
            cmds.append(C("focus"))
        cmds += [C("delve", dir=d) for d in (1, -1) if q.spread_after(s, seat, d) is not None]
        cmds += [C("ability", src=src) for src, _ in abilities(s, seat)]
    free = [c for c in pl["hand"] if no_token(s, seat, c)]
    cmds += [C("attack", card=c["id"], facing=f) for c in free for f in range(6)]
    if t["token"] is None:
        if s["pool"]["attack"] > 0:
            cmds += [C("attack", card=c["id"], facing=f) for c in pl["hand"] if c not in free for f in range(6)]
        if s["pool"]["move"] > 0:
            cmds.append(C("move_action"))
        cmds += [C("take_token", token=k) for k in TOKENS if s["pool"][k] > 0]
    else:
        cmds.append(C("end_turn"))
    cmds += quick_cmds(s, seat)
    return cmds


def turn_exec(sim, seat, cmd):
    s = sim.s
    t = s["turn"]
    a = cmd["args"]
    typ = cmd["type"]
    main = s["stacks"]["main"]
    if typ == "focus":
        t["tome"] = True
        main.append({"k": "focus_action", "seat": seat, "step": 0})
    elif typ == "delve":
        t["tome"] = True
        sim.emit("TomeTurned", q.tome_turned(s, seat, q.spread_after(s, seat, a["dir"])))
    elif typ == "ability":
        t["tome"] = True
        karma_ability(sim, seat, a["src"])
    elif typ == "attack":
        card = next(c for c in q.player(s, seat)["hand"] if c["id"] == a["card"])
        if no_token(s, seat, card):  # 1.1.2: the attack needs no attack action
            start_attack(sim, seat, a["card"], a["facing"], no_token=True)
        else:
            s["pool"]["attack"] -= 1
            t["token"] = "attack"
            start_attack(sim, seat, a["card"], a["facing"])
    elif typ == "move_action":
        s["pool"]["move"] -= 1
        t["token"] = "move"
        main.append({"k": "move", "seat": seat, "left": q.speed(s, seat), "road": False, "mode": "action"})
        if q.places_saru(s, seat):  # before stepping, Mitsuo may send SARU up to 4 spaces away
            main.append({"k": "saru_move", "seat": seat})
    elif typ == "take_token":
        s["pool"][a["token"]] -= 1
        t["token"] = a["token"]
    elif typ == "end_turn":
        main.append({"k": "end_turn"})
    elif typ == "dash":
        pl = q.player(s, seat)
        card = next(c for c in pl["hand"] if c["id"] == a["card"])
        path = reach(s, seat, q.speed(s, seat))[a["to"]][1]
        ops.move(sim, seat, "hand", card, seat, "discard", "top")
        walk(sim, seat, path)
    elif typ == "quick":
        ab = q.MASTERS[q.player(s, seat)["master"]]["abilities"][int(a["src"].split(":")[1])]
        main.append({"k": "effects", "seat": seat, "items": ab["effects"], "i": 0, "ctx": {"src": "quick"}, "optional": False})
        pay(sim, seat, ab.get("cost", 0), a["src"])
        exert_later(sim, seat, ab.get("exert", 0), "main")  # resolves first: the EXERT cost is paid before the effects
    elif typ == "wind":
        ops.lose_master(sim, seat, "WIND")
        main.append({"k": "move", "seat": seat, "left": 2, "road": True, "mode": "wind"})  # not a move action: no free road
    run(sim, "main")
    settle(sim)


ABANDON = ("move", "walk", "dodge", "forced", "relocate", "focus_action", "eff", "effects", "pay", "ability", "imprint_into")


def settle(sim):
    """Depletion checks; a master who enters restoration (or dies) during their own turn ends it."""
    for _ in range(10):
        ops.deplete_check(sim)
        s = sim.s
        t = s.get("turn")
        if s["phase"] == "battle" and t and not q.active(s, t["seat"]):
            # the turn player's unfinished own steps (a move, a choice of theirs) are abandoned
            main = s["stacks"]["main"]
            main[:] = [x for x in main if not (x.get("seat") == t["seat"] and x["k"] in ABANDON)]
        if s["phase"] == "battle" and t and not s["stacks"]["main"] and not q.active(s, t["seat"]):
            s["stacks"]["main"].append({"k": "end_turn"})
            run(sim, "main")
            continue
        return


def ability_cost(s, seat, src) -> int:
    pl = q.player(s, seat)
    kind, ref = src.split(":", 1)
    if kind == "page":
        page = int(ref)
        return q.MASTERS[pl["master"]]["tome"][(page - 1) // 2]["faces"]["front" if page % 2 else "back"]["cost"]
    if kind == "avatar":
        return q.MASTERS[pl["master"]]["abilities"][int(ref)].get("cost", 0)
    c = next(x for x in pl["equip"] if x["id"] == ref)
    return q.card_def(s, c["d"])["torn"].get("cost", 0)


def karma_ability(sim, seat, src):
    """Karma ability: pay first (the payment task sits on top), then the ability resolves."""
    sim.s["stacks"]["main"].append({"k": "ability", "seat": seat, "src": src})
    pay(sim, seat, ability_cost(sim.s, seat, src), src)


@handler("ability")
def h_ability(sim, t):
    s, seat = sim.s, t["seat"]
    pop(sim, t)
    pl = q.player(s, seat)
    kind, ref = t["src"].split(":", 1)
    main = s["stacks"]["main"]
    if kind == "page":
        page = int(ref)
        ti = (page - 1) // 2
        face = "front" if page % 2 else "back"
        f = q.MASTERS[pl["master"]]["tome"][ti]["faces"][face]
        d = f"tome:{pl['master']}:{ti}:{face}"
        if f.get("kind") == "IMPRINT" and "into" in f.get("torn", {}):
            main.append({"k": "imprint_into", "seat": seat, "d": d, "ti": ti, "range": f["torn"]["into"]["range"]})
        elif f.get("kind") == "IMPRINT":
            sim.emit("CardMoved", {"seat": seat, "zone": "tome", "id": None, "to_seat": seat, "to": "deck", "at": "bottom",
                                   "new": sim.rng.token(), "card": {"d": d, "o": seat, "im": True}, "tc": ti})
            ops.check_top(sim, seat)
        elif f.get("kind") == "EQUIP":
            sim.emit("CardMoved", {"seat": seat, "zone": "tome", "id": None, "to_seat": seat, "to": "equip", "at": "bottom",
                                   "new": sim.rng.token(), "card": {"d": d, "o": seat}, "tc": ti})
        if f["effects"]:
            main.append({"k": "effects", "seat": seat, "items": f["effects"], "i": 0, "ctx": {"src": "tome"}, "optional": False})
    elif kind == "avatar":
        ab = q.MASTERS[pl["master"]]["abilities"][int(ref)]
        main.append({"k": "effects", "seat": seat, "items": ab["effects"], "i": 0, "ctx": {"src": "avatar"}, "optional": False})
    elif kind == "equip":
        c = next(x for x in pl["equip"] if x["id"] == ref)
        torn = q.card_def(s, c["d"])["torn"]
        main.append({"k": "effects", "seat": seat, "items": torn["effects"], "i": 0, "ctx": {"src": "equip"}, "optional": False})


# -- the command list and its execution ------------------------------------------------------

def main_prompt(s):
    st = s["stacks"].get("main") or []
    if st and st[-1].get("prompt"):
        return st[-1]["prompt"]
    return None


def legal(s, seat) -> list:
    if s is None or s["phase"] == "over" or not isinstance(seat, int) or isinstance(seat, bool) \
            or not 0 <= seat < len(s["players"]):
        return []
    ph = s["phase"]
    if ph == "setup":
        pr = main_prompt(s)
        if pr:
            return list(pr["cmds"]) if pr["seat"] == seat else []
        return setup_cmds(s, seat)
    if ph == "destiny":
        if q.player(s, seat)["dead"] or str(seat) in s["destiny"]:
            return []
        return [C("choose_token", token=k) for k in TOKENS]
    if ph == "reconcile":
        return recon_cmds(s, seat)
    pr = main_prompt(s)
    if pr:
        return list(pr["cmds"]) if pr["seat"] == seat else []
    if ph == "battle" and not s["stacks"]["main"]:
        return turn_cmds(s, seat)
    return []


def awaiting(s) -> list:
    if s["phase"] == "over":
        return []
    if s["phase"] == "setup":
        pr = main_prompt(s)
        return [pr["seat"]] if pr else [setup_seat(s)]
    if s["phase"] == "destiny":
        return [i for i, pl in enumerate(s["players"]) if not pl["dead"] and str(i) not in s["destiny"]]
    if s["phase"] == "reconcile":
        return [i for i in range(len(s["players"])) if recon_cmds(s, i)]
    pr = main_prompt(s)
    if pr:
        return [pr["seat"]]
    if s["phase"] == "battle" and s["turn"] and not s["stacks"]["main"]:
        return [s["turn"]["seat"]]
    return []


def execute(sim, seat, cmd) -> None:
    s = sim.s
    ph = s["phase"]
    if ph == "setup" and not main_prompt(s):
        setup_exec(sim, seat, cmd)
        return
    if ph == "destiny":
        destiny_exec(sim, seat, cmd)
        return
    if ph == "reconcile":
        recon_exec(sim, seat, cmd)
        return
    st = s["stacks"]["main"]
    if st and st[-1].get("prompt"):
        st[-1]["ans"] = cmd
        st[-1]["prompt"] = None
        run(sim, "main")
        settle(sim)
        return
    turn_exec(sim, seat, cmd)


@handler("imprint_into")
def h_imprint_into(sim, t):
    """Mulan's traps: IMPRINT the tome card beneath another master's battle deck (within range)."""
    s, seat = sim.s, t["seat"]
    me = q.player(s, seat)
    cands = [w for w, p in enumerate(s["players"]) if w != seat and not p["dead"] and p["pos"] and me["pos"]
             and hx.distance(me["pos"], p["pos"]) <= t["range"]]
    if "ans" in t:
        who = t.pop("ans")["args"]["master"]
        pop(sim, t)
        sim.emit("CardMoved", {"seat": seat, "zone": "tome", "id": None, "to_seat": who, "to": "deck", "at": "bottom",
                               "new": sim.rng.token(), "card": {"d": t["d"], "o": seat, "im": True}, "tc": t["ti"]})
        ops.check_top(sim, who)
        return
    if not cands:
        pop(sim, t)
        sim.emit("CardMoved", {"seat": seat, "zone": "tome", "id": None, "to_seat": seat, "to": "deck", "at": "bottom",
                               "new": sim.rng.token(), "card": {"d": t["d"], "o": seat, "im": True}, "tc": t["ti"]})
        ops.check_top(sim, seat)
        return
    ask(t, seat, "imprint_into", [C("choose_master", master=w) for w in cands])
