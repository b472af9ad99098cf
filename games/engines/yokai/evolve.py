"""How each event changes the state: ``evolve(state, event)``, never validating, never drawing and
never mutating its input (copy-on-write: a shallow copy, then fresh copies of exactly what changes)."""

from .state import clone, opening_counters, own_monsters, own_player, set_lp


def evolve(state, ev):
    t, p = ev["type"], ev["payload"]
    if t == "GameStarted":
        n = p["seats"]
        clock = {"turn_seconds": p["turn_seconds"]} if p.get("turn_seconds") else {}
        return {
            **clock,
            "seats": n,
            "teams": p["teams"],
            "rows": list(p["rows"]),
            "terrain": dict(p["terrain"]),
            "set_aside": list(p["set_aside"]),
            "monsters": {},
            "players": [
                {
                    "hand": clone(p["hands"][str(s)]),
                    "deck": clone(p["decks"][str(s)]),
                    "discard": [],
                    "no_draw": None,
                }
                for s in range(n)
            ],
            "chakra": [0] * n,
            **opening_counters(),
        }
    if t == "ScenarioLoaded":
        return clone(p["state"])
    # Copy-on-write: a shallow copy of the state, then fresh copies of exactly what changes.
    s = dict(state)
    if t == "RoundStarted":
        s["round"], s["meter"] = p["round"], p["meter"]
        s["chakra"] = [p["meter"]] * s["seats"]
    elif t == "TurnStarted":
        s["turn"] = p["seat"]
        s["summons"] = 0
        if s["players"][p["seat"]]["no_draw"] == "next":
            own_player(s, p["seat"])["no_draw"] = "now"
    elif t == "MonsterSummoned":
        pl = own_player(s, p["seat"])
        pl["hand"] = [c for c in pl["hand"] if c["id"] != p["card"]]
        s["chakra"] = list(s["chakra"])
        s["chakra"][p["seat"]] -= p["cost"]
        s["summons"] += 1
        s["next_uid"] = p["uid"] + 1
        own_monsters(s)[p["at"]] = {
            "uid": p["uid"],
            "card": p["key"],
            "id": p["card"],
            "owner": p["seat"],
            "orientation": p["orientation"],
            "lp": p["lp"],
            "doubled": p["doubled"],
            "stealth": p["stealth"],
        }
    elif t == "LifeChanged":
        set_lp(s, p["at"], p["lp"])
    elif t == "Fought":
        s["chakra"] = list(s["chakra"])
        s["chakra"][p["seat"]] -= p["cost"]
        set_lp(s, p["attacker"], p["attacker_lp"])
        set_lp(s, p["defender"], p["defender_lp"])
    elif t == "LpTransferred":
        set_lp(s, p["from"], p["from_lp"])
        set_lp(s, p["to"], p["to_lp"])
    elif t == "MonsterDied":
        m = own_monsters(s).pop(p["at"])
        pl = own_player(s, m["owner"])
        pl["discard"] = pl["discard"] + [m["card"]]
    elif t == "PendingChanged":
        s["pending"] = clone(p["pending"])
    elif t == "DrawBlocked":
        pl = own_player(s, p["target"])
        pl["no_draw"] = "both" if pl["no_draw"] in ("now", "both") else "next"
    elif t == "DrawPrevented":
        pl = own_player(s, p["seat"])
        pl["no_draw"] = "next" if pl["no_draw"] == "both" else None
    elif t == "CardsDrawn":
        pl = own_player(s, p["seat"])
        pl["hand"] = pl["hand"] + pl["deck"][: p["count"]]
        pl["deck"] = pl["deck"][p["count"]:]
    elif t == "TurnEnded":
        pass
    elif t == "RoundEnded":
        s["chakra"] = [0] * s["seats"]
    elif t == "PlayerConceded":  # actions.concede: the player left; their monsters leave the board for their pile
        s["out"] = list(s.get("out", [])) + [p["seat"]]
        monsters = own_monsters(s)
        pl = own_player(s, p["seat"])
        pl["discard"] = pl["discard"] + [monsters.pop(pos)["card"] for pos in p["removed"]]
    elif t == "GameWon":
        s["finished"] = True
        s["winners"] = list(p["winners"])
        s["pending"] = []
        s["result"] = {k: clone(v) for k, v in p.items() if k != "winners"}
    return s
