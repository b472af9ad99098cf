"""Yashima: Legend of the Kami Masters (core + Legends from Fairytale), tournament attack rules."""

from games.kernel import SYSTEM, EngineBase, RuleViolation, Status, event, json_member

from . import attack, effects, saru, tasks  # noqa: F401  (each registers its steps in stack.HANDLERS)
from . import clocks, describe as narration, flow, hexgrid, spaces, views
from . import concede as concession
from .bots import choose
from .content import GLOSSARY, PACK
from .scenario import build
from .stack import run
from .state import Sim, clone, evolve, evolve_all


# a SYSTEM-only command: a tournament round's time ran out (docs/games/yashima.md, "Time limit")
TIME_LIMIT = "time_limit"


def _norm(cmd_type, args):
    return {"type": cmd_type, "args": args}


class YashimaEngine(EngineBase):
    slug = "yashima"
    name = "Yashima: Legend of the Kami Masters"
    version = "1"
    min_seats = 2
    max_seats = 6
    turn_events = frozenset({"Note"})  # flow.begin_turn: "Round r: X's turn"
    # concede.py: out of the game as if killed, the setup too goes on without them (docs: "Resigning")
    resign_words = "Your master leaves the game and the other masters play on without you"
    options_schema = {
        "type": "object",
        "properties": {
            "teams": {"type": "boolean", "default": False, "title": "Teams",
                      "description": "4 or 6 players; team-mates sit across the table, never side by side. "
                                     "4 players: 1 and 3 against 2 and 4. 6 players: 1, 3 and 5 against 2, 4 "
                                     "and 6 (or three teams of two, with Team size). The last team with a "
                                     "master standing wins."},
            "team_size": {"enum": list(flow.TEAM_SIZES), "title": "Team size",
                          "x-labels": {"2": "Teams of two", "3": "Teams of three"},
                          "description": "Team games only. Leave on the game default for 2 against 2 at 4 "
                                         "players and 3 against 3 at 6. Teams of two at 6 players: 1 and 4, "
                                         "2 and 5, 3 and 6."},
            "round_cap": {"type": "integer", "minimum": 1, "maximum": 500, "title": "Round limit",
                          "description": "End the match as a draw after this many rounds. Leave empty to play "
                                         "until one side is left standing."},
            "restore_shuffle": {"type": "boolean", "default": True, "title": "Shuffle when restoring",
                                "description": "A restoring master shuffles the discard pile into a new battle deck "
                                               "(Legends from Fairytale rules); unticked, the pile is turned over "
                                               "as it is (core rules)."},
            "defense_seconds": {"type": ["integer", "null"], "minimum": 0, "maximum": clocks.MAX_SECONDS,
                                "default": clocks.DEFAULT_SECONDS["defense_seconds"],
                                "title": "Defense clock (seconds)",
                                "description": "Time to answer during another master's turn (a defense, cards to "
                                               "LOSE). Leave empty for 60 seconds; 0 turns the clock off."},
            "turn_seconds": {"type": ["integer", "null"], "minimum": 0, "maximum": clocks.MAX_SECONDS,
                             "default": clocks.DEFAULT_SECONDS["turn_seconds"], "title": "Turn clock (seconds)",
                             "description": "Time for every other decision: your turn and its prompts, setup, "
                                            "destiny, reconcile, restoration. Leave empty or 0 for no clock."},
        },
        "additionalProperties": False,
    }

    def content(self) -> dict:
        pack = clone(PACK)
        # the board geometry a client needs to preview a terrain board before placing it
        pack["geometry"] = {"dirs": [list(d) for d in hexgrid.DIRS], "slots": [list(c) for c in hexgrid.SLOTS],
                            "board_radius": hexgrid.BOARD_RADIUS,
                            "labels": spaces.table_labels()}  # drawn on each hex; the texts name spaces by them
        return pack

    def glossary(self) -> dict:
        return clone(GLOSSARY)

    def validate_options(self, options: dict, seats: int) -> None:
        if not isinstance(options, dict):
            raise RuleViolation("bad_options", "options must be an object")
        unknown = set(options) - set(self.options_schema["properties"])
        if unknown:
            raise RuleViolation("bad_options", f"unknown options {sorted(unknown)}")
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation("bad_seats", f"Yashima is for {self.min_seats} to {self.max_seats} players")
        if flow.team_error(options, seats):
            raise RuleViolation("bad_options", flow.team_error(options, seats))
        cap = options.get("round_cap")
        if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
            raise RuleViolation("bad_options", "round_cap must be a positive integer")
        for name in clocks.CLOCK_OPTIONS:
            secs = options.get(name)
            if secs is not None and (not isinstance(secs, int) or isinstance(secs, bool)
                                     or not 0 <= secs <= clocks.MAX_SECONDS):
                raise RuleViolation("bad_options", f"{name} must be a number of seconds from 0 to {clocks.MAX_SECONDS}")

    def teams(self, options, seats) -> list[list[int]]:
        """Team-mates grouped (``flow.team_numbers``: 0+2 against 1+3, 0+2+4 against 1+3+5, or 0+3, 1+4,
        2+5); otherwise every seat for itself."""
        numbers = flow.team_numbers(options or {}, seats)
        return [[seat for seat in range(seats) if numbers[seat] == team] for team in sorted(set(numbers))]

    def setup(self, options: dict, seats: int, rng) -> list:
        self.validate_options(options or {}, seats)
        return [event("GameSetUp", {"state": flow.new_state(options or {}, seats)})]

    def scenario(self, document: dict) -> list:
        return [event("ScenarioLoaded", {"state": build(document)})]

    def evolve(self, state, ev):
        return evolve(state, ev)

    def evolve_all(self, state, events):
        return evolve_all(state, events)

    # -- reading --------------------------------------------------------------------------
    def _system_due(self, state) -> bool:
        st = (state.get("stacks") or {}).get("main") or []
        return state["phase"] != "over" and bool(st) and not st[-1].get("prompt")

    def finished_phase(self, state) -> str:
        return "over"  # as ``status`` says of a game played to its end

    def status(self, state) -> Status:
        if state["phase"] == "over":
            return Status(phase="over", awaiting=[], finished=True, winners=list(state["result"]["winners"]))
        if self._system_due(state):
            return Status(phase=state["phase"], awaiting=[SYSTEM])
        awaiting = flow.awaiting(state)
        return Status(phase=state["phase"], awaiting=awaiting, deadline_seconds=clocks.deadline_seconds(state, awaiting))

    def legal_commands(self, state, seat) -> list:
        if seat == SYSTEM:
            return [_norm("proceed", {})] if self._system_due(state) else []
        if self._system_due(state):
            return []
        return flow.legal(state, seat)

    def system_command(self, state):
        return _norm("proceed", {}) if self._system_due(state) else None

    def sides(self, state, seats):
        """Seats grouped by team (``state["teams"]``: teams of 2 or 3, or each master on their own)."""
        teams: dict = {}
        for seat in range(seats):
            teams.setdefault(state["teams"][seat], []).append(seat)
        return list(teams.values())

    def concede(self, state, seat, rng):
        """A resigning master leaves the game as if killed (``concede.py``; docs/games/yashima.md, "Resigning")."""
        return concession.concede(state, seat, rng)

    def concede_refusal(self, state, seat):
        return concession.refusal_of(state, seat)

    def out_of_play(self, state, seat):
        return concession.out_of_play(state, seat)

    def timeout_command(self, state, seat):
        """On a missed deadline the seat takes the most passive choice available (``clocks.ON_TIMEOUT``)."""
        return clocks.timeout_choice(state, seat, self.legal_commands(state, seat))

    def bot_command(self, state, seat, rng):
        return choose(state, seat, self.legal_commands(state, seat), rng)

    def view_for(self, state, seat) -> dict:
        legal = self.legal_commands(state, seat) if isinstance(seat, int) and not isinstance(seat, bool) else []
        return views.view_for(state, seat, legal)

    def view_open(self, state) -> dict:
        return views.view_open(state)

    def redact_event(self, ev, seat):
        return views.redact_event(ev, seat)

    def narration_facts(self, state):
        """The map, public to every seat and only ever growing (a placed space keeps its terrain), so
        the history names a space as the board does: "the road space E4" (``spaces.name``)."""
        return {"cells": state["cells"]} if isinstance(state, dict) and isinstance(state.get("cells"), dict) else None

    def describe(self, ev, seat, names=(), facts=None) -> str:
        return narration.describe(ev, seat, names, facts)

    # -- deciding -------------------------------------------------------------------------
    def decide(self, state, command, rng) -> list:
        if state is None:
            raise RuleViolation("no_match", "the match has not been set up")
        if state["phase"] == "over":
            raise RuleViolation("game_over", "the match is finished")
        args = command.args if isinstance(command.args, dict) else None
        if args is None or not isinstance(command.type, str):
            raise RuleViolation("bad_args", "a command needs a type and an args object")
        cmd = _norm(command.type, args)
        seat = command.seat
        if cmd["type"] == TIME_LIMIT:
            if seat != SYSTEM:
                raise RuleViolation("system_only", "only the platform ends a match on a round's time limit")
            if args:
                raise RuleViolation("bad_args", "time_limit takes no arguments")
            return [event("GameEnded", {"winners": flow.time_limit_winners(state), "reason": TIME_LIMIT})]
        if seat == SYSTEM:
            if not json_member(cmd, self.legal_commands(state, SYSTEM)):
                raise RuleViolation("illegal_command", "nothing for the system to do")
            sim = Sim(state, rng)
            sim.system = True
            try:
                run(sim, "main")
                flow.settle(sim)
            except Exception as exc:
                raise RuleViolation("internal_error", f"{type(exc).__name__}: {exc}")
            return sim.close()
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(state["players"]):
            raise RuleViolation("not_your_decision", "spectators cannot act")
        legal = self.legal_commands(state, seat)
        if not json_member(cmd, legal):
            if self._system_due(state) or seat not in flow.awaiting(state):
                raise RuleViolation("not_your_turn", "this decision is not yours")
            if not any(c["type"] == cmd["type"] for c in legal):
                raise RuleViolation("unknown_command", f"{cmd['type']!r} is not possible now")
            raise RuleViolation("illegal_command", f"{cmd['type']} with these args is not allowed now")
        sim = Sim(state, rng)
        try:
            flow.execute(sim, seat, cmd)
        except RuleViolation:
            raise
        except Exception as exc:  # a bug must never escape as anything but a RuleViolation
            raise RuleViolation("internal_error", f"{type(exc).__name__}: {exc}")
        return sim.close()


ENGINE = YashimaEngine()
