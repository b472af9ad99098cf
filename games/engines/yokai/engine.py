"""Yokai Battle engine: decide / evolve / status / legal commands / views / scenarios.

State (JSON-shaped)::

    {"seats": n, "teams": bool, "rows": [3, 4, 4], "terrain": {"r,c": element}, "set_aside": [...],
     "monsters": {"r,c": {"uid", "card", "id", "owner", "orientation", "lp", "doubled", "stealth"}},
     "players": [{"hand": [{"id", "card"}], "deck": [{"id", "card"}] (top first), "discard": [card],
                  "no_draw": None | "next" | "now" | "both"}],  (cannot draw: next turn / this turn / both)
     "chakra": [int per seat], "meter": int, "round": int, "turn": seat, "summons": int,
     "next_uid": int, "pending": [decision...], "finished": bool, "winners": [seats], "result": {...}}

Pending decisions (front first) are taken by their ``seat``:
``summon_attack`` (the freshly summoned monster must attack an adjacent enemy), ``fire_burn``,
``wood_drop``, ``block_draw`` (ability targets) and ``summon_check`` (automatic: the conquest test
once a summoning has fully resolved).
"""

from games.kernel import EngineBase, RuleViolation, Status, event

from . import rules as R
from .board import LAYOUTS, OPPOSITE, ORIENTATIONS, TERRAIN_PER_ELEMENT, direction, parse, squares
from .content import DECK_LIST, MONSTERS, OPENING_HAND, PACK
from .scenario import build_state

CHOICE_KINDS = {"fire_burn", "wood_drop", "block_draw"}


def _clone(x):
    if isinstance(x, dict):
        return {k: _clone(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clone(v) for v in x]
    return x


def _player(s, seat) -> dict:
    """Give the (already shallow-copied) state ``s`` a private copy of one player and return it."""
    players = list(s["players"])
    players[seat] = dict(players[seat])
    s["players"] = players
    return players[seat]


def _monsters(s) -> dict:
    s["monsters"] = dict(s["monsters"])
    return s["monsters"]


def _set_lp(s, pos, lp) -> None:
    monsters = _monsters(s)
    monsters[pos] = dict(monsters[pos], lp=lp)


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class _Tx:
    """Collects events while keeping the state they produce, so later steps see earlier ones."""

    def __init__(self, engine, state):
        self.engine = engine
        self.state = state
        self.events = []

    def emit(self, type_, payload):
        ev = event(type_, payload)
        self.events.append(ev)
        self.state = self.engine.evolve(self.state, ev)


class YokaiEngine(EngineBase):
    slug = "yokai"
    name = "Yokai Battle"
    version = "1"
    min_seats = 2
    max_seats = 4
    options_schema = {
        "type": "object",
        "properties": {"teams": {"type": "boolean", "description": "4 players only: 2 vs 2 (seats 0+2 vs 1+3)"}},
        "additionalProperties": False,
    }

    # -- content -----------------------------------------------------------------------------
    def content(self) -> dict:
        pack = _clone(PACK)
        pack["layouts"] = {str(n): list(rows) for n, rows in LAYOUTS.items()}
        pack["terrain_per_element"] = {str(n): k for n, k in TERRAIN_PER_ELEMENT.items()}
        return pack

    # -- lifecycle ---------------------------------------------------------------------------
    def validate_options(self, options, seats) -> None:
        if not isinstance(options, dict):
            raise RuleViolation("bad_options", "options must be an object")
        unknown = set(options) - {"teams"}
        if unknown:
            raise RuleViolation("bad_options", f"unknown options {sorted(unknown)}")
        if not _is_int(seats) or not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation("bad_seats", "Yokai Battle is played by 2, 3 or 4 players")
        teams = options.get("teams", False)
        if not isinstance(teams, bool):
            raise RuleViolation("bad_options", "teams must be true or false")
        if teams and seats != 4:
            raise RuleViolation("teams_need_four_players", "2 vs 2 cooperation needs exactly 4 players")

    def teams(self, options, seats) -> list[list[int]]:
        """2v2: seats 0+2 against 1+3; otherwise every seat for itself."""
        if (options or {}).get("teams") and seats == 4:
            return [[0, 2], [1, 3]]
        return [[seat] for seat in range(seats)]

    def setup(self, options, seats, rng):
        options = options or {}
        self.validate_options(options, seats)
        rows = LAYOUTS[seats]
        per = TERRAIN_PER_ELEMENT[seats]
        pool = [e for e in PACK["terrain_elements"] for _ in range(per)]
        drawn = rng.shuffled(pool)
        cells = squares(rows)
        terrain = {pos: drawn[i] for i, pos in enumerate(cells)}
        set_aside = drawn[len(cells):]
        decks, hands, rituals = {}, {}, {}
        for seat in range(seats):
            attempts = 0
            while True:
                attempts += 1
                order = rng.shuffled(DECK_LIST)
                if sum(1 for k in order[:OPENING_HAND] if MONSTERS[k]["cost"] == 1) >= 2:
                    break
            cards = [{"id": rng.token(), "card": k} for k in order]
            hands[str(seat)] = cards[:OPENING_HAND]
            decks[str(seat)] = cards[OPENING_HAND:]
            rituals[str(seat)] = attempts
        return [
            event(
                "GameStarted",
                {
                    "seats": seats,
                    "teams": bool(options.get("teams", False)),
                    "rows": list(rows),
                    "terrain": terrain,
                    "set_aside": set_aside,
                    "hands": hands,
                    "decks": decks,
                    "rituals": rituals,
                },
            ),
            event("RoundStarted", {"round": 1, "meter": 2}),
            event("TurnStarted", {"seat": 0}),
        ]

    # -- evolve ------------------------------------------------------------------------------
    def evolve(self, state, ev):
        t, p = ev["type"], ev["payload"]
        if t == "GameStarted":
            n = p["seats"]
            return {
                "seats": n,
                "teams": p["teams"],
                "rows": list(p["rows"]),
                "terrain": dict(p["terrain"]),
                "set_aside": list(p["set_aside"]),
                "monsters": {},
                "players": [
                    {
                        "hand": _clone(p["hands"][str(s)]),
                        "deck": _clone(p["decks"][str(s)]),
                        "discard": [],
                        "no_draw": None,
                    }
                    for s in range(n)
                ],
                "chakra": [0] * n,
                "meter": 0,
                "round": 0,
                "turn": 0,
                "summons": 0,
                "next_uid": 0,
                "pending": [],
                "finished": False,
                "winners": [],
                "result": None,
            }
        if t == "ScenarioLoaded":
            return _clone(p["state"])
        # Copy-on-write: a shallow copy of the state, then fresh copies of exactly what changes.
        s = dict(state)
        if t == "RoundStarted":
            s["round"], s["meter"] = p["round"], p["meter"]
            s["chakra"] = [p["meter"]] * s["seats"]
        elif t == "TurnStarted":
            s["turn"] = p["seat"]
            s["summons"] = 0
            if s["players"][p["seat"]]["no_draw"] == "next":
                _player(s, p["seat"])["no_draw"] = "now"
        elif t == "MonsterSummoned":
            pl = _player(s, p["seat"])
            pl["hand"] = [c for c in pl["hand"] if c["id"] != p["card"]]
            s["chakra"] = list(s["chakra"])
            s["chakra"][p["seat"]] -= p["cost"]
            s["summons"] += 1
            s["next_uid"] = p["uid"] + 1
            _monsters(s)[p["at"]] = {
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
            _set_lp(s, p["at"], p["lp"])
        elif t == "Fought":
            s["chakra"] = list(s["chakra"])
            s["chakra"][p["seat"]] -= p["cost"]
            _set_lp(s, p["attacker"], p["attacker_lp"])
            _set_lp(s, p["defender"], p["defender_lp"])
        elif t == "LpTransferred":
            _set_lp(s, p["from"], p["from_lp"])
            _set_lp(s, p["to"], p["to_lp"])
        elif t == "MonsterDied":
            m = _monsters(s).pop(p["at"])
            pl = _player(s, m["owner"])
            pl["discard"] = pl["discard"] + [m["card"]]
        elif t == "PendingChanged":
            s["pending"] = _clone(p["pending"])
        elif t == "DrawBlocked":
            pl = _player(s, p["target"])
            pl["no_draw"] = "both" if pl["no_draw"] in ("now", "both") else "next"
        elif t == "DrawPrevented":
            pl = _player(s, p["seat"])
            pl["no_draw"] = "next" if pl["no_draw"] == "both" else None
        elif t == "CardsDrawn":
            pl = _player(s, p["seat"])
            pl["hand"] = pl["hand"] + pl["deck"][: p["count"]]
            pl["deck"] = pl["deck"][p["count"]:]
        elif t == "TurnEnded":
            pass
        elif t == "RoundEnded":
            s["chakra"] = [0] * s["seats"]
        elif t == "GameWon":
            s["finished"] = True
            s["winners"] = list(p["winners"])
            s["pending"] = []
            s["result"] = {k: _clone(v) for k, v in p.items() if k != "winners"}
        return s

    # -- reading -----------------------------------------------------------------------------
    def status(self, state) -> Status:
        if state["finished"]:
            return Status("finished", [], True, list(state["winners"]))
        if state["pending"]:
            return Status("choice", [state["pending"][0]["seat"]])
        return Status("combat", [state["turn"]])

    def legal_commands(self, state, seat) -> list[dict]:
        if state["finished"] or seat not in self.status(state).awaiting or not _is_int(seat):
            return []
        if state["pending"]:
            item = state["pending"][0]
            options = R.pending_options(state, item)
            if item["kind"] == "summon_attack":
                attacker = R.find_uid(state, item["uid"])
                return [{"type": "attack", "args": {"attacker": attacker, "defender": d}} for d in options]
            return [{"type": "choose_target", "args": {"target": o}} for o in options]
        out = []
        dakis = R.effective_dakis(state)
        chakra = state["chakra"][seat]
        if state["summons"] < R.MAX_SUMMONS:
            free = [
                pos
                for pos in squares(state["rows"])
                if pos not in state["monsters"] and not R.warded(state, seat, pos, dakis)
            ]
            for c in state["players"][seat]["hand"]:
                if MONSTERS[c["card"]]["cost"] <= chakra:
                    for pos in free:
                        for o in ORIENTATIONS:
                            out.append({"type": "summon", "args": {"card": c["id"], "terrain": pos, "orientation": o}})
        # Board order, not dict order: a state rebuilt from the store may list keys differently.
        for apos in (p for p in squares(state["rows"]) if p in state["monsters"]):
            m = state["monsters"][apos]
            if m["owner"] != seat:
                continue
            for dpos in R.enemy_monsters_near(state, seat, apos, 1):
                if R.duel_values(state, apos, dpos)["cost"] <= chakra:
                    out.append({"type": "attack", "args": {"attacker": apos, "defender": dpos}})
            if R.active_ability(state, apos, dakis) == "water_transfer":
                for tpos in R.ally_monsters_near(state, seat, apos, 2):
                    room = R.MAX_LP - state["monsters"][tpos]["lp"]
                    for amount in range(1, min(m["lp"], room) + 1):
                        out.append(
                            {"type": "transfer_lp", "args": {"source": apos, "target": tpos, "amount": amount}}
                        )
        out.append({"type": "end_turn", "args": {}})
        return out

    def view_for(self, state, seat) -> dict:
        view = {k: _clone(v) for k, v in state.items() if k != "players"}
        view["players"] = []
        for i, pl in enumerate(state["players"]):
            pv = {
                "hand_count": len(pl["hand"]),
                "deck_count": len(pl["deck"]),
                "discard": list(pl["discard"]),
                "no_draw": pl["no_draw"],
            }
            if seat == i and _is_int(seat):
                pv["hand"] = _clone(pl["hand"])
            view["players"].append(pv)
        return view

    def redact_event(self, ev, seat):
        t, p = ev["type"], ev["payload"]
        if t == "GameStarted":
            q = {k: _clone(v) for k, v in p.items() if k not in ("hands", "decks")}
            q["hand_counts"] = {k: len(v) for k, v in p["hands"].items()}
            q["deck_counts"] = {k: len(v) for k, v in p["decks"].items()}
            if _is_int(seat) and str(seat) in p["hands"]:
                q["hand"] = _clone(p["hands"][str(seat)])
            return {"type": t, "v": ev["v"], "payload": q}
        if t == "CardsDrawn" and not (_is_int(seat) and seat == p["seat"]):
            return {"type": t, "v": ev["v"], "payload": {k: v for k, v in p.items() if k != "cards"}}
        if t == "ScenarioLoaded":
            return {"type": t, "v": ev["v"], "payload": {"state": self.view_for(p["state"], seat)}}
        return ev

    # -- decide ------------------------------------------------------------------------------
    def decide(self, state, command, rng):
        if state is None or state.get("finished"):
            raise RuleViolation("game_over", "the game is over")
        seat = command.seat
        if not _is_int(seat) or seat not in self.status(state).awaiting:
            raise RuleViolation("not_your_turn", "it is not your decision")
        args = command.args
        if not isinstance(args, dict):
            raise RuleViolation("bad_args", "args must be an object")
        tx = _Tx(self, state)
        ctype = command.type
        if state["pending"]:
            item = state["pending"][0]
            if item["kind"] == "summon_attack":
                if ctype != "attack":
                    raise RuleViolation("must_attack", "the summoned monster must first attack an adjacent enemy")
                self._summon_attack(tx, seat, item, args)
            else:
                if ctype != "choose_target":
                    raise RuleViolation("choice_pending", "choose a target for the pending ability first")
                self._choose(tx, seat, item, args)
        elif ctype == "summon":
            self._summon(tx, seat, args)
        elif ctype == "attack":
            self._attack(tx, seat, args)
        elif ctype == "transfer_lp":
            self._transfer(tx, seat, args)
        elif ctype == "end_turn":
            if args:
                raise RuleViolation("bad_args", "end_turn takes no arguments")
            self._end_turn(tx, seat)
        elif ctype == "choose_target":
            raise RuleViolation("nothing_to_choose", "no ability is waiting for a target")
        else:
            raise RuleViolation("unknown_command", f"unknown command {ctype!r}")
        self._advance(tx)
        return tx.events

    # arguments ------------------------------------------------------------------------------
    @staticmethod
    def _pos(state, args, name, occupied=None):
        value = args.get(name)
        if parse(value) is None or value not in state["terrain"]:
            raise RuleViolation("bad_args", f"{name} must be a terrain square 'row,col' of the board")
        if occupied is True and value not in state["monsters"]:
            raise RuleViolation("no_monster", f"no monster on {value}")
        return value

    # commands ------------------------------------------------------------------------------
    def _summon(self, tx, seat, args):
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
        pos = self._pos(st, args, "terrain")
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
                    tx.emit("LifeChanged", {"at": p, "lp": lp + 1, "reason": "water_summon_heal", "source": pos})
        elif ability == "colorless_draw":
            pl = tx.state["players"][seat]
            if pl["no_draw"] not in ("now", "both") and pl["deck"]:
                self._draw(tx, seat, 1, "colorless_draw")
        queue = []
        if ability == "fire_summon_burn":
            queue.append({"kind": "fire_burn", "seat": seat, "origin": pos, "range": 2, "source": key})
        if not stealth:
            queue.append({"kind": "summon_attack", "seat": seat, "uid": uid})
        queue.append({"kind": "summon_check", "seat": seat, "uid": uid})
        tx.emit("PendingChanged", {"pending": queue})

    def _summon_attack(self, tx, seat, item, args):
        st = tx.state
        if set(args) != {"attacker", "defender"}:
            raise RuleViolation("bad_args", "attack needs attacker and defender")
        attacker = R.find_uid(st, item["uid"])
        if args["attacker"] != attacker:
            raise RuleViolation("must_attack", "the freshly summoned monster must attack first")
        if args["defender"] not in R.pending_options(st, item):
            raise RuleViolation("illegal_target", "pick an enemy monster next to the summoned one")
        tx.emit("PendingChanged", {"pending": st["pending"][1:]})
        self._fight(tx, attacker, args["defender"], summoning=True)

    def _attack(self, tx, seat, args):
        st = tx.state
        if set(args) != {"attacker", "defender"}:
            raise RuleViolation("bad_args", "attack needs attacker and defender")
        apos = self._pos(st, args, "attacker", occupied=True)
        dpos = self._pos(st, args, "defender", occupied=True)
        if st["monsters"][apos]["owner"] != seat:
            raise RuleViolation("not_your_monster", "attack with one of your own monsters")
        if R.allied(st, st["monsters"][dpos]["owner"], seat):
            raise RuleViolation("illegal_target", "only enemy monsters can be attacked")
        if direction(apos, dpos) is None:
            raise RuleViolation("not_adjacent", "attacks reach the next terrain card in a cross, never diagonally")
        cost = R.duel_values(st, apos, dpos)["cost"]
        if cost > st["chakra"][seat]:
            raise RuleViolation("not_enough_chakra", f"this attack costs {cost} chakra points")
        self._fight(tx, apos, dpos, summoning=False)

    def _transfer(self, tx, seat, args):
        st = tx.state
        if set(args) != {"source", "target", "amount"}:
            raise RuleViolation("bad_args", "transfer_lp needs source, target and amount")
        src = self._pos(st, args, "source", occupied=True)
        dst = self._pos(st, args, "target", occupied=True)
        amount = args["amount"]
        if not _is_int(amount):
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
            {"from": src, "to": dst, "amount": amount, "from_lp": m["lp"] - amount, "to_lp": to_lp + amount},
        )
        if m["lp"] - amount <= 0:
            self._deaths(tx, [src])

    def _choose(self, tx, seat, item, args):
        st = tx.state
        if set(args) != {"target"}:
            raise RuleViolation("bad_args", "choose_target needs target")
        target = args["target"]
        options = R.pending_options(st, item)
        if item["kind"] == "block_draw":
            if not _is_int(target) or target not in options:
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
        tx.emit("LifeChanged", {"at": target, "lp": max(0, new), "reason": item["kind"], "source": item["origin"]})
        if new <= 0:
            self._deaths(tx, [target])

    def _end_turn(self, tx, seat):
        st = tx.state
        n = st["seats"]
        tx.emit("TurnEnded", {"seat": seat})
        pl = tx.state["players"][seat]
        if pl["no_draw"] in ("now", "both"):
            tx.emit("DrawPrevented", {"seat": seat})
        else:
            if not pl["deck"]:
                losers = R.team_seats(st, seat)
                winners = [s for s in range(n) if s not in losers]
                tx.emit("GameWon", {"winners": winners, "reason": "deck_out", "loser": seat})
                return
            self._draw(tx, seat, 1, "turn")
            pl = tx.state["players"][seat]
            refill = min(R.HAND_LIMIT - len(pl["hand"]), len(pl["deck"]))
            if refill > 0:
                self._draw(tx, seat, refill, "refill")
        nxt = (seat + 1) % n
        if nxt == 0:
            tx.emit("RoundEnded", {"round": st["round"]})
            tx.emit("RoundStarted", {"round": st["round"] + 1, "meter": min(R.MAX_METER, st["meter"] + 1)})
        tx.emit("TurnStarted", {"seat": nxt})

    # resolution ----------------------------------------------------------------------------
    def _draw(self, tx, seat, count, reason):
        cards = _clone(tx.state["players"][seat]["deck"][:count])
        tx.emit("CardsDrawn", {"seat": seat, "count": len(cards), "cards": cards, "reason": reason})

    def _fight(self, tx, apos, dpos, summoning):
        st = tx.state
        a, d = st["monsters"][apos], st["monsters"][dpos]
        values = R.duel_values(st, apos, dpos)
        tx.emit(
            "Fought",
            {
                "seat": a["owner"],
                "attacker": apos,
                "defender": dpos,
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
            self._deaths(tx, dead)

    def _deaths(self, tx, positions):
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

    def _advance(self, tx):
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

    # -- automation --------------------------------------------------------------------------
    def bot_command(self, state, seat, rng):
        """A greedy bot: the best-scored legal command (ties broken by ``rng``)."""
        options = self.legal_commands(state, seat)
        if not options:
            return None
        scored = [(self._bot_score(state, seat, c), c) for c in options]
        best = max(score for score, _ in scored)
        return rng.choice([c for score, c in scored if score == best])

    @staticmethod
    def _bot_score(state, seat, command) -> float:
        args = command["args"]
        kind = command["type"]
        if kind == "end_turn":
            return 0.0
        if kind == "transfer_lp":
            return -1.0
        if kind == "choose_target":
            target = args["target"]
            if not isinstance(target, str):
                return 1.0
            lp = state["monsters"][target]["lp"]
            item = state["pending"][0]
            return float(lp) if item["kind"] == "wood_drop" else (10.0 if lp <= 1 else 10.0 / lp)
        if kind == "attack":
            values = R.duel_values(state, args["attacker"], args["defender"])
            kills = values["attacker_deals"] >= state["monsters"][args["defender"]]["lp"]
            dies = values["defender_deals"] >= state["monsters"][args["attacker"]]["lp"]
            return {(True, False): 5.0, (True, True): 2.0, (False, False): 0.5, (False, True): -5.0}[(kills, dies)]
        # summon
        key = next(c["card"] for c in state["players"][seat]["hand"] if c["id"] == args["card"])
        pos = args["terrain"]
        score = 1.0 + MONSTERS[key]["cost"] / 10 + (2.0 if R.favourable(state, pos, key) else 0.0)
        lp = R.summoned_lp(state, pos, key)
        probe = {"uid": -1, "card": key, "owner": seat, "orientation": args["orientation"], "doubled": False}
        for enemy in R.enemy_monsters_near(state, seat, pos, 1):
            way = direction(pos, enemy)
            mine, theirs = R.side_ap(probe, way), R.side_ap(state["monsters"][enemy], OPPOSITE[way])
            if theirs >= lp:
                score -= 3.0
            if mine >= state["monsters"][enemy]["lp"]:
                score += 1.0
        if R.monsters_of(state, seat) >= R.CONQUEST - 1:
            score += 10.0
        return score

    def timeout_command(self, state, seat):
        """A player who lets the clock run out ends the turn (or takes the first pending option)."""
        options = self.legal_commands(state, seat)
        return next((c for c in options if c["type"] == "end_turn"), options[0] if options else None)

    # -- scenarios ---------------------------------------------------------------------------
    def scenario(self, document):
        return [event("ScenarioLoaded", {"state": build_state(document)})]


ENGINE = YokaiEngine()
