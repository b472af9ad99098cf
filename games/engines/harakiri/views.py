"""What clients see: hidden deck orders (oracle, chosen AI decks, zone event decks, the market
deck) and the campaign book's unrevealed zones never leave the engine."""

from games.kernel import json_copy

from .act2_values import lad_square, lad_target
from .state import headless_zone


def _hide_zone_state(zs):
    out = dict(zs)
    out["events"] = {k: len(v) for k, v in zs["events"].items()}
    return out


def _zone_view(s, z):
    """A zone's public state; ``no_heads`` says whether its enemies still give heads (Failure, step 7:
    the rule's own answer, a zone an old log's failure reset included), for the board's mark."""
    return {**_hide_zone_state(s["zones"][z]), "no_heads": headless_zone(s, z)}


def _hide_enemy(e):
    if "ai" not in e:
        return e
    out = dict(e)
    out["ai"] = {"deck": len(e["ai"]["deck"]), "discard": list(e["ai"]["discard"]),
                 "in_play": list(e["ai"].get("in_play", []))}
    return out


def view(state):
    s = state
    out = {k: v for k, v in s.items() if k not in ("zones_def", "forced", "next_initiative", "oracle", "zones",
                                                    "enemies", "market")}
    out = json_copy(out)
    if "deck" in s["initiative"]:  # initiative revealed card by card: the face-down cards
        out["initiative"] = {**out["initiative"], "deck": len(s["initiative"]["deck"])}
    out["oracle"] = {"deck": len(s["oracle"]["deck"]), "drawn": list(s["oracle"]["drawn"]),
                     "current": s["oracle"]["current"], "color": s["oracle"]["color"]}
    out["zones"] = {z: _zone_view(s, z) for z in s["zones"]}
    if s.get("market") is not None:
        out["market"] = len(s["market"])
    out["enemies"] = {e: _hide_enemy(json_copy(en)) for e, en in s["enemies"].items()}
    revealed = {}
    for z in s["zones"]:
        zd = s["zones_def"][z]
        shown = set(s["zones"][z]["revealed"])
        revealed[z] = {"name": zd["name"], "tile": zd.get("tile"), "special": zd.get("special"),
                       "events": [e for deck in zd["events"].values() for e in deck if e["id"] in shown]}
    out["zones_info"] = revealed
    out["yastun_lad"] = [{"owner": c, "sq": lad_square(s, c), "on": lad_target(s, c)} for c in s["characters"]
                         if lad_square(s, c)]
    return out


def redact(ev):
    t, p = ev["type"], ev["payload"]
    if t in ("PhaseStarted", "ScenarioLoaded"):
        return {**ev, "payload": {"state": view(p["state"])}}
    if t in ("OracleReshuffled", "OracleCardsAdded"):
        return {**ev, "payload": {"deck": len(p["deck"]), **({"added": p["added"]} if "added" in p else {})}}
    if t == "MarketDeckSet":
        return {**ev, "payload": {**p, "deck": len(p["deck"])}}
    if t == "InitiativeDeckSet":
        return {**ev, "payload": {**p, "deck": len(p["deck"])}}
    if t == "AIDeckShuffled":
        return {**ev, "payload": {"who": p["who"], "deck": len(p["deck"])}}
    if t in ("ZoneRevealed", "ZoneReset"):
        q = dict(p)
        q["zone_state"] = _hide_zone_state(p["zone_state"])
        q["enemies"] = {e: _hide_enemy(en) for e, en in p["enemies"].items()}
        return {**ev, "payload": q}
    if t == "EnemySpawned":
        return {**ev, "payload": {**p, "enemy": _hide_enemy(p["enemy"])}}
    return ev
