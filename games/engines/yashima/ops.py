"""State-changing primitives (each emits events on a Sim) for the Circle of Life and statuses."""

from . import hexgrid as hx
from . import queries as q

HIDDEN = ("deck", "hand")


def push(sim, task: dict, key=None) -> None:
    sim.s["stacks"].setdefault(key or sim.key, []).append(task)


def move(sim, seat, zone, card, to_seat, to, at="bottom", flags=None) -> dict:
    """Move ``card`` (an object in ``seat``'s ``zone``) to ``to_seat``'s ``to`` zone."""
    new = sim.rng.token() if to in HIDDEN else card["id"]
    payload = {"seat": seat, "zone": zone, "id": card["id"], "to_seat": to_seat, "to": to, "at": at, "new": new,
               "card": {"d": card["d"], "o": card["o"]}}
    if flags:
        payload["card"].update(flags)
    sim.emit("CardMoved", payload)
    return dict(card, id=new, **{k: v for k, v in (flags or {}).items() if v})


def top(sim, seat):
    deck = q.player(sim.s, seat)["deck"]
    return deck[0] if deck else None


def check_top(sim, seat) -> None:
    """An imprinted card that reaches the top of a battle deck is revealed and triggers."""
    c = top(sim, seat)
    if c is not None and c.get("im"):
        stack = sim.s["stacks"].setdefault(sim.key, [])
        last = stack[-1] if stack else None
        if not (last and last["k"] == "reveal" and last["seat"] == seat and last.get("step", 0) == 0):
            push(sim, {"k": "reveal", "seat": seat, "step": 0})


def draw(sim, seat) -> bool:
    c = top(sim, seat)
    if c is None or c.get("im"):
        return False
    move(sim, seat, "deck", c, seat, "hand")
    check_top(sim, seat)
    return True


def use(sim, seat, zone, card) -> None:
    """USE: bottom of the owner's... of this player's battle deck, face down."""
    move(sim, seat, zone, card, seat, "deck", "bottom", {"im": False, "bl": False})
    check_top(sim, seat)


def exert(sim, seat):
    """EXERT: top card of the battle deck to the discard pile. None if EXHAUSTED (nothing happens)."""
    if q.exhausted(sim.s, seat):
        return None
    c = top(sim, seat)
    if c.get("im"):
        return None
    moved = move(sim, seat, "deck", c, seat, "discard", "top")
    check_top(sim, seat)
    return moved


def heal(sim, seat) -> bool:
    pl = q.player(sim.s, seat)
    if not pl["discard"] or q.player(sim.s, seat)["pending"]:
        return False
    c = pl["discard"][-1]
    if q.card_def(sim.s, c["d"]).get("icebreaker"):
        return False
    move(sim, seat, "discard", c, seat, "deck", "bottom")
    check_top(sim, seat)
    return True


def to_karma(sim, seat, zone, card, fate=True) -> dict:
    moved = move(sim, seat, zone, card, seat, "karma", "bottom", {"im": False, "bl": False})
    if zone == "deck":
        check_top(sim, seat)
    fx = q.card_def(sim.s, card["d"]).get("fate") if not card["d"].startswith("tome:") else None
    if fate and fx:
        push(sim, {"k": "effects", "seat": seat, "items": fx, "i": 0, "ctx": {"src": "fate", "card": moved["id"]}, "optional": False})
    return moved


def focus(sim, seat):
    c = top(sim, seat)
    if c is None or c.get("im"):
        return None
    return to_karma(sim, seat, "deck", c)


# -- statuses -----------------------------------------------------------------------------

def gain_master(sim, seat, name, owner) -> bool:
    if not q.can_gain_master(sim.s, seat, name):
        return False
    sim.emit("StatusChanged", {"on": "master", "who": seat, "status": name, "owner": owner, "delta": 1, "supply": q.supply_key(name)})
    return True


def lose_master(sim, seat, name) -> bool:
    owners = q.player(sim.s, seat)["st"].get(name)
    if not owners:
        return False
    sim.emit("StatusChanged", {"on": "master", "who": seat, "status": name, "owner": owners[-1], "delta": -1, "supply": q.supply_key(name)})
    return True


def gain_space(sim, cell, name, owner) -> bool:
    if not q.can_gain_space(sim.s, cell, name):
        return False
    sim.emit("StatusChanged", {"on": "space", "who": cell, "status": name, "owner": owner, "delta": 1, "supply": q.supply_key(name)})
    return True


def lose_space(sim, cell, name, replace=True) -> bool:
    owners = q.space_status(sim.s, cell).get(name)
    if not owners:
        return False
    owner = owners[-1]
    sim.emit("StatusChanged", {"on": "space", "who": cell, "status": name, "owner": owner, "delta": -1, "supply": q.supply_key(name)})
    if name == "SARU" and replace:  # removed SARU: its master puts it next to himself again
        place_saru_later(sim, owner)
    return True


def place_saru_later(sim, seat, key=None) -> None:
    """Queue ``seat``'s choice of an adjacent space for SARU (it resolves before older tasks; the
    ``saru_place`` step is in ``saru.py``)."""
    if q.places_saru(sim.s, seat):
        push(sim, {"k": "saru_place", "seat": seat}, key)


def enter(sim, seat, cell, facing=None) -> None:
    """Put a master on ``cell`` (a move step or a relocation) and apply BURN pickup."""
    pl = q.player(sim.s, seat)
    sim.emit("MasterMoved", {"seat": seat, "pos": cell, "facing": pl["facing"] if facing is None else facing, "from": pl["pos"]})
    if "BURN" in q.space_status(sim.s, cell) and q.status_count(sim.s, seat, "BURN") == 0:
        owner = q.space_status(sim.s, cell)["BURN"][-1]
        lose_space(sim, cell, "BURN")
        gain_master(sim, seat, "BURN", owner)


def face(sim, seat, facing) -> None:
    pl = q.player(sim.s, seat)
    if pl["facing"] != facing:
        sim.emit("MasterMoved", {"seat": seat, "pos": pl["pos"], "facing": facing, "from": pl["pos"]})


def damage(sim, seat, n, src="damage", karma_first=False, by=None) -> None:
    """Deal ``n`` damage (LOSE n, one card at a time, the loser choosing)."""
    if n > 0:
        push(sim, {"k": "lose", "seat": seat, "n": n, "src": src, "karma_first": karma_first, "by": by})


def relocation_ok(s, seat, cell) -> bool:
    """A legal destination for relocating ``seat`` (entering deadly terrain still needs an EXERT)."""
    if not q.legal_space(s, cell):
        return False
    if q.is_deadly(s, cell) and not q.can_exert(s, seat):
        return False
    return True


def relocate(sim, seat, cell, chooser=None, chain=None) -> None:
    """RELOCATE (no combat movement) then slick / splice point follow-ups, resolved by the
    ``relocate`` task: a deadly destination's EXERT is paid first, one card at a time past any
    imprinted card on top. ``chain``: the spaces already visited by a forced relocation chain."""
    push(sim, {"k": "relocate", "seat": seat, "to": cell, "chooser": chooser, "chain": chain})


def forced_relocation(sim, seat, chooser=None, visited=None) -> None:
    pos = q.player(sim.s, seat)["pos"]
    t = q.terrain(sim.s, pos)
    if t not in ("slick", "splice_point"):
        return
    opts = forced_options(sim.s, seat, visited or [pos])
    if opts:
        push(sim, {"k": "forced", "seat": seat, "chooser": seat if chooser is None else chooser, "visited": visited or [pos], "opts": opts})


def forced_options(s, seat, visited) -> list:
    pos = q.player(s, seat)["pos"]
    t = q.terrain(s, pos)
    if t == "slick":
        cands = hx.neighbours(pos)
    elif t == "splice_point":
        cands = set()
        for cell, typ in s["cells"].items():
            if typ == "splice_point" and cell != pos:
                cands.update(hx.neighbours(cell))
        cands = sorted(cands)
    else:
        return []
    return [c for c in cands if c not in visited and relocation_ok(s, seat, c)]


def deplete_check(sim, lost=None) -> None:
    """Masters with no cards in hand and deck enter restoration (or are killed if restored).

    A card set aside (the attacker's revealed attack, an imprint resolving) is coming back, so it
    keeps its master in the game between steps - but not ``lost``, the master whose LOSE just ended
    with hand and deck empty: that damage took their last life ("no cards in hand AND battle deck")."""
    for seat, pl in enumerate(sim.s["players"]):
        if pl["dead"] or pl["pending"] or pl.get("master") is None:
            continue
        if pl["deck"] or pl["hand"] or (pl["aside"] and seat != lost):
            continue
        if pl["restored"]:
            kill(sim, seat)
        else:
            sim.emit("PlayerSet", {"seat": seat, "set": {"pending": True}})


def kill(sim, seat) -> None:
    pl = q.player(sim.s, seat)
    for name in list(pl["st"]):
        while lose_master(sim, seat, name):
            pass
    sim.emit("PlayerSet", {"seat": seat, "set": {"dead": True, "pending": False}})
    sim.emit("MasterMoved", {"seat": seat, "pos": None, "facing": pl["facing"], "from": pl["pos"]})


# -- queued steps and returning cards (the steps themselves: tasks.py, attack.py, effects.py, saru.py) --

def return_card(sim, seat, zone, c):
    """Returning cards: tome cards to their spot in the owner's tome, battle cards to the bottom of
    the owner's battle deck, face down."""
    if c["d"].startswith("tome:"):
        ti = int(c["d"].split(":")[2])
        sim.emit("CardMoved", {"seat": seat, "zone": zone, "id": c["id"], "to_seat": c["o"], "to": "tome", "at": "bottom",
                               "new": c["id"], "card": {"d": c["d"], "o": c["o"], "im": False}, "tc": ti})
    else:
        move(sim, seat, zone, c, c["o"], "deck", "bottom", {"im": False, "bl": False})
        check_top(sim, c["o"])


def place(sim, owner, name, masters=(), spaces=()):
    left = [["master", m] for m in masters] + [["space", c] for c in spaces]
    if left:
        push(sim, {"k": "place", "owner": owner, "status": name, "left": left})


def exert_or_wait(sim, seat):
    """One EXERT: (True, exerted card or None when EXHAUSTED), or (False, None) when an imprinted
    card is on top: its reveal is queued to resolve first and the caller EXERTs on its next visit."""
    if q.exhausted(sim.s, seat):
        return True, None
    if q.player(sim.s, seat)["deck"][0].get("im"):
        check_top(sim, seat)
        return False, None
    return True, exert(sim, seat)


def exert_later(sim, seat, n, key=None) -> None:
    """Queue ``n`` EXERTs for ``seat`` (resolved one at a time by ``tasks.h_exert``)."""
    if n > 0:
        push(sim, {"k": "exert", "seat": seat, "n": n}, key)


def walk(sim, seat, path):
    """Move along ``path`` paying combat-movement and deadly-terrain EXERTs step by step, then
    apply any forced relocation (see ``tasks.h_walk``)."""
    push(sim, {"k": "walk", "seat": seat, "path": list(path)}, "main")
