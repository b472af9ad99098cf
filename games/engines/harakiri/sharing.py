"""Interacting with an adjacent character: exchanging equipment (weapons and armor).

Rulebook "Interact": "When interacting with another character, both can swap coins, Heads,
items, equipment, and other tokens (excluding any condition or karma tokens)", 1 action point in
the Exploration Phase; "Share": equipment a character cannot use (not its class) can still be
part of its supply. Items, heads and coins are handled in ``actions`` (``give`` with ``slot`` or
``what``); this module adds, for the same ``give`` command:

- ``{"to", "weapon": mine}``: hand over one of my weapons (the receiver holds fewer than 2);
- ``{"to", "take": theirs}``: receive one of the other character's weapons (I hold fewer than 2);
- ``{"to", "weapon": mine, "take": theirs}``: exchange one weapon for another;
- ``{"to", "what": "armor"}``: exchange armor cards (each character carries exactly one).

After the transfer each character keeps its equipped weapon if it still holds it; otherwise it
equips the weapon just received if its class can, else its other weapon of its class. A transfer
that would leave either character without a weapon of its class to equip is not offered (the
engine has no unarmed attack), nor one giving a character a second copy of a weapon it holds.
"""

from . import content, leaving, rules

MAX_WEAPONS = content.MAX_WEAPONS


def is_equipment_give(args):
    return "weapon" in args or "take" in args or args.get("what") == "armor"


def rearm(ch, weapons, received):
    """The weapon ``ch`` has equipped once it holds ``weapons`` (None: nothing it can wield)."""
    if ch["equipped"] in weapons:
        return ch["equipped"]
    if received is not None and rules.can_wield(ch, received):
        return received
    return next((x for x in weapons if rules.can_wield(ch, x)), None)


def weapon_transfer(ch, och, mine, theirs):
    """The two characters' (weapons, equipped) after the transfer, or None if it is not allowed."""
    new_mine = [x for x in ch["weapons"] if x != mine] + ([theirs] if theirs else [])
    new_theirs = [x for x in och["weapons"] if x != theirs] + ([mine] if mine else [])
    if len(new_mine) > MAX_WEAPONS or len(new_theirs) > MAX_WEAPONS:
        return None
    if len(set(new_mine)) != len(new_mine) or len(set(new_theirs)) != len(new_theirs):
        return None
    eq_mine, eq_theirs = rearm(ch, new_mine, theirs), rearm(och, new_theirs, mine)
    if eq_mine is None or eq_theirs is None:
        return None
    return (new_mine, eq_mine), (new_theirs, eq_theirs)


def equipment_gives(s, c, o):
    """The equipment ``give`` commands of character ``c`` towards the adjacent character ``o``."""
    ch, och = s["characters"][c], s["characters"][o]
    out = []
    pairs = [(m, None) for m in ch["weapons"]] + [(None, t) for t in och["weapons"]]
    pairs += [(m, t) for m in ch["weapons"] for t in och["weapons"] if m != t]  # same card: nothing changes
    for mine, theirs in pairs:
        if weapon_transfer(ch, och, mine, theirs) is None:
            continue
        args = {"to": o}
        if mine:
            args["weapon"] = mine
        if theirs:
            args["take"] = theirs
        out.append({"type": "give", "args": args})
    if ch["armor_card"] != och["armor_card"]:
        out.append({"type": "give", "args": {"to": o, "what": "armor"}})
    return out


def execute(w, c, a):
    s = w.s
    o = a["to"]
    ch = s["characters"][c]
    w.emit("ActionPointsChanged", who=c, set={"ap": ch["ap"] - 1}, reason="interact with a character")
    if a.get("what") == "armor":
        exchange_armor(w, c, o)
        return
    move_weapons(w, c, o, a.get("weapon"), a.get("take"))


def exchange_armor(w, c, o, why="exchanged armor with"):
    """The two characters' armor cards change hands (one with none receives the other's)."""
    s = w.s
    ch, och = s["characters"][c], s["characters"][o]
    mine, theirs = (ch["armor_card"], ch["armor"]), (och["armor_card"], och["armor"])
    # the armor's resistance travels with the card, so trading back and forth repairs nothing
    w.emit("ArmorChanged", who=c, set={"armor_card": theirs[0], "armor": theirs[1]}, reason=f"{why} {o}")
    w.emit("ArmorChanged", who=o, set={"armor_card": mine[0], "armor": mine[1]}, reason=f"{why} {c}")


def move_weapons(w, c, o, mine, theirs, why="weapons exchanged with"):
    s = w.s
    ch, och = s["characters"][c], s["characters"][o]
    (new_mine, eq_mine), (new_theirs, eq_theirs) = weapon_transfer(ch, och, mine, theirs)
    what = " for ".join(x for x in (mine, theirs) if x)
    w.emit("WeaponSwapped", who=c, set={"weapons": new_mine, "equipped": eq_mine}, reason=f"{why} {o}: {what}")
    w.emit("WeaponSwapped", who=o, set={"weapons": new_theirs, "equipped": eq_theirs}, reason=f"{why} {c}: {what}")


def can_swap(ch):
    """Swap Weapon needs an unequipped weapon the character's class can equip."""
    return any(x != ch["equipped"] and rules.can_wield(ch, x) for x in ch["weapons"])


# -- exchanging items before the Exploration Phase starts (Exploration Phase Setup, step 2) ---------

SHARE_REASON = "exchanged before the Exploration Phase"


def share_awaiting(s) -> list[int]:
    """The seats still exchanging: every seat still in play until it says it is done."""
    return [seat for seat in leaving.in_play(s) if seat not in s["share"]["ready"]]


def share_commands(s, seat) -> list[dict]:
    """"Characters can exchange items as per the share action during the Adventure Phase before the
    Exploration Phase starts": the Adventure Phase's share ("exchange coins, heads, items,
    equipment"), free, between any two characters (the party is together at the table). A seat
    hands over what its own characters carry (an exchange is a gift each way), within the
    receiver's limits; ``end_share`` says it is done."""
    out = []
    for c in s["roster"]:
        if s["control"][c] != seat:
            continue
        ch = s["characters"][c]
        for o in s["roster"]:
            if o == c:
                continue
            och = s["characters"][o]

            def give(what, amount=1, c=c, o=o):
                return {"type": "share", "args": {"from": c, "to": o, "what": what, "amount": amount}}
            for what in ("coins", "heads", "boss_heads"):
                out += [give(what, n) for n in range(1, ch[what] + 1)]
            out += [give(i) for i in sorted({it["id"] for it in ch["items"]}) if content.can_receive(och, i)]
            out += [give(x) for x in ch["weapons"] if weapon_transfer(ch, och, x, None) is not None]
            if ch["armor_card"] is not None and ch["armor_card"] != och["armor_card"]:
                out.append(give("armor"))
    out.append({"type": "end_share", "args": {}})
    return out


def share_execute(w, seat, command):
    s = w.s
    if command["type"] == "end_share":
        w.emit("ShareReady", seat=seat)
        if not share_awaiting(w.s):
            w.emit("ShareEnded", reason="every player is done exchanging")
        return
    a = command["args"]
    c, o, what, n = a["from"], a["to"], a["what"], a["amount"]
    ch, och = s["characters"][c], s["characters"][o]
    if what in ("coins", "heads", "boss_heads"):
        w.emit("HeadsChanged", who=c, set={what: ch[what] - n}, reason=f"{SHARE_REASON}: {n} {what} to {o}")
        w.emit("HeadsChanged", who=o, set={what: och[what] + n}, reason=f"{SHARE_REASON}: {n} {what} from {c}")
    elif what == "armor":
        exchange_armor(w, c, o, why=f"{SHARE_REASON}: armor with")
    elif what in ch["weapons"]:
        move_weapons(w, c, o, what, None, why=f"{SHARE_REASON}: weapons with")
    else:
        items = list(ch["items"])
        it = items.pop(next(i for i, x in enumerate(items) if x["id"] == what))
        w.emit("ItemsChanged", who=c, set={"items": items}, reason=f"{SHARE_REASON}: {what} to {o}")
        w.emit("ItemsChanged", who=o, set={"items": och["items"] + [it]}, reason=f"{SHARE_REASON}: {what} from {c}")
