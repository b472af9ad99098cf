"""Pebbles: the tiny test-only engine that proves the platform (never listed in the catalog).

2-4 seats. Each seat holds a hidden hand of tiles (value 1-9, each with a secret canary string);
the draw pile is hidden from everyone. On your turn: ``play`` a tile (its value adds to your score,
then you draw) or ``pass`` (you draw). After every full round the SYSTEM seat rolls a d6 that
goes to the lowest score (a worker's step). First to ``target`` or the last tile played ends it;
the highest score wins (ties share). ``turn_seconds`` puts a clock on every turn (timeout = pass).
"""

import copy

from games.kernel import SYSTEM, EngineBase, RuleViolation, Status, event

HAND = 3


class Pebbles(EngineBase):
    slug = "pebbles"
    name = "Pebbles (test engine)"
    version = "1"
    min_seats = 2
    max_seats = 4
    listed = False
    turn_events = frozenset({"TilesDealt", "TilePlayed", "TurnPassed"})  # each hands the turn to a seat
    options_schema = {
        "type": "object",
        "properties": {
            "target": {"type": "integer", "minimum": 5, "maximum": 99, "default": 30, "title": "Target score",
                       "description": "The first to reach it wins."},
            "bonus_rolls": {"type": "boolean", "default": True, "title": "Bonus rolls",
                            "description": "After every round the lowest score gets a die roll."},
            "turn_seconds": {"type": "integer", "minimum": 1, "maximum": 3600, "title": "Turn clock (seconds)",
                             "description": "Leave empty for no clock."},
            "tiles": {"type": "integer", "minimum": 6, "maximum": 60, "default": 24, "title": "Tiles"},
        },
        "additionalProperties": False,
    }

    def content(self):
        return {"provisional": True, "tiles": list(range(1, 10))}

    def setup(self, options, seats, rng):
        n_tiles = options.get("tiles", 24)
        tiles = [{"id": rng.token(), "value": 1 + (i % 9), "secret": f"canary-{rng.token(6)}"} for i in range(n_tiles)]
        tiles = rng.shuffled(tiles)
        hands = {str(s): tiles[s * HAND:(s + 1) * HAND] for s in range(seats)}
        return [event("TilesDealt", {
            "seats": seats,
            "target": options.get("target", 30),
            "bonus_rolls": options.get("bonus_rolls", True),
            "turn_seconds": options.get("turn_seconds"),
            "hands": hands,
            "pile": tiles[seats * HAND:],
        })]

    def scenario(self, document):
        required = {"seats", "hands", "pile"}
        if not isinstance(document, dict) or not required <= set(document):
            raise RuleViolation("bad_scenario", f"a pebbles scenario needs {sorted(required)}")
        return [event("ScenarioLoaded", {"state": {
            "seats": document["seats"], "target": document.get("target", 30),
            "bonus_rolls": document.get("bonus_rolls", True), "turn_seconds": document.get("turn_seconds"),
            "hands": document["hands"], "pile": document["pile"],
            "scores": document.get("scores", [0] * document["seats"]),
            "turn": document.get("turn", 0), "moves_in_round": 0, "awaiting_roll": False, "round": 1,
            "finished": False, "winners": [],
        }})]

    # -- decide -----------------------------------------------------------------------
    def decide(self, state, command, rng):
        if state["finished"]:
            raise RuleViolation("game_over", "the game is over")
        if command.seat == SYSTEM:
            if command.type != "roll_bonus" or not state["awaiting_roll"]:
                raise RuleViolation("unknown_command", "nothing for the system to do")
            scores = state["scores"]
            lowest = min(range(len(scores)), key=lambda s: (scores[s], s))
            return [event("BonusRolled", {"die": rng.randint(1, 6), "seat": lowest})]
        if state["awaiting_roll"] or command.seat != state["turn"]:
            raise RuleViolation("not_your_turn", "wait for your turn")
        hand = state["hands"][str(command.seat)]
        draw = state["pile"][0] if state["pile"] else None
        if command.type == "play":
            tile_id = command.args.get("tile")
            tile = next((t for t in hand if t["id"] == tile_id), None)
            if tile is None:
                raise RuleViolation("illegal_tile", "that tile is not in your hand")
            return [event("TilePlayed", {"seat": command.seat, "tile": tile, "drawn": draw})]
        if command.type == "pass":
            if hand and draw is None:
                raise RuleViolation("must_play", "the pile is empty: play a tile")
            return [event("TurnPassed", {"seat": command.seat, "drawn": draw})]
        raise RuleViolation("unknown_command", f"unknown command {command.type!r}")

    # -- evolve -------------------------------------------------------------------------
    def evolve(self, state, ev):
        t, p = ev["type"], ev["payload"]
        if t == "TilesDealt":
            return {
                "seats": p["seats"], "target": p["target"], "bonus_rolls": p["bonus_rolls"],
                "turn_seconds": p["turn_seconds"], "hands": p["hands"], "pile": p["pile"],
                "scores": [0] * p["seats"], "turn": 0, "moves_in_round": 0, "awaiting_roll": False,
                "round": 1, "finished": False, "winners": [],
            }
        if t == "ScenarioLoaded":
            return copy.deepcopy(p["state"])
        s = copy.deepcopy(state)
        if t == "BonusRolled":
            s["scores"][p["seat"]] += p["die"]
            s["awaiting_roll"] = False
            s["round"] += 1
            return self._check_end(s)
        seat = p["seat"]
        hand = s["hands"][str(seat)]
        if t == "TilePlayed":
            hand[:] = [x for x in hand if x["id"] != p["tile"]["id"]]
            s["scores"][seat] += p["tile"]["value"]
        if p.get("drawn"):
            hand.append(p["drawn"])
            s["pile"] = s["pile"][1:]
        s["turn"] = (seat + 1) % s["seats"]
        s["moves_in_round"] += 1
        if s["moves_in_round"] == s["seats"]:
            s["moves_in_round"] = 0
            if s["bonus_rolls"]:
                s["awaiting_roll"] = True
            else:
                s["round"] += 1
        return self._check_end(s)

    @staticmethod
    def _check_end(s):
        out_of_tiles = not s["pile"] and not any(s["hands"].values())
        if max(s["scores"]) >= s["target"] or out_of_tiles:
            top = max(s["scores"])
            s["finished"], s["winners"], s["awaiting_roll"] = True, [i for i, v in enumerate(s["scores"]) if v == top], False
        return s

    # -- read -------------------------------------------------------------------------
    def status(self, state):
        if state["finished"]:
            return Status(phase="finished", awaiting=[], finished=True, winners=state["winners"])
        if state["awaiting_roll"]:
            return Status(phase="bonus", awaiting=[SYSTEM])
        return Status(phase="play", awaiting=[state["turn"]], deadline_seconds=state["turn_seconds"])

    def legal_commands(self, state, seat):
        if state["finished"] or state["awaiting_roll"] or seat != state["turn"]:
            return []
        hand = state["hands"][str(seat)]
        cmds = [{"type": "play", "args": {"tile": t["id"]}} for t in hand]
        if not hand or state["pile"]:
            cmds.append({"type": "pass", "args": {}})
        return cmds

    def view_for(self, state, seat):
        return {
            "scores": state["scores"], "turn": state["turn"], "round": state["round"], "target": state["target"],
            "pile_size": len(state["pile"]),
            "hand_sizes": {k: len(v) for k, v in state["hands"].items()},
            "my_hand": state["hands"].get(str(seat), []) if seat is not None else [],
            "finished": state["finished"], "winners": state["winners"],
        }

    def redact_event(self, ev, seat):
        t, p = ev["type"], ev["payload"]
        if t == "TilesDealt":
            mine = p["hands"].get(str(seat), []) if seat is not None else []
            public = {k: v for k, v in p.items() if k not in ("hands", "pile")}
            return {**ev, "payload": {**public, "my_hand": mine, "pile_size": len(p["pile"])}}
        if t == "ScenarioLoaded":
            return None
        if t in ("TilePlayed", "TurnPassed") and p.get("drawn") and p["seat"] != seat:
            return {**ev, "payload": {**p, "drawn": bool(p["drawn"])}}
        return ev

    def system_command(self, state):
        return {"type": "roll_bonus", "args": {}} if state["awaiting_roll"] and not state["finished"] else None

    def timeout_command(self, state, seat):
        legal = self.legal_commands(state, seat)
        return next((c for c in legal if c["type"] == "pass"), legal[0] if legal else None)


ENGINE = Pebbles()
