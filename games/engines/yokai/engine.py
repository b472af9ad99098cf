"""Yokai Battle engine: the facade the platform registers (``ENGINE``). Setup, options and the bot
live here; deciding is ``actions.py``, applying events ``evolve.py``, reading ``views.py``.

State (JSON-shaped)::

    {"seats": n, "teams": bool, "rows": [3, 4, 4], "terrain": {"r,c": element}, "set_aside": [...],
     "monsters": {"r,c": {"uid", "card", "id", "owner", "orientation", "lp", "doubled", "stealth"}},
     "players": [{"hand": [{"id", "card"}], "deck": [{"id", "card"}] (top first), "discard": [card],
                  "no_draw": None | "next" | "now" | "both"}],  (cannot draw: next turn / this turn / both)
     "chakra": [int per seat], "meter": int, "round": int, "turn": seat, "summons": int,
     "next_uid": int, "pending": [decision...], "finished": bool, "winners": [seats], "result": {...},
     "turn_seconds": int (only with the decision clock option)}

Pending decisions (front first) are taken by their ``seat``:
``summon_attack`` (the freshly summoned monster must attack an adjacent enemy), ``fire_burn``,
``wood_drop``, ``block_draw`` (ability targets) and ``summon_check`` (automatic: the conquest test
once a summoning has fully resolved).
"""

from games.kernel import EngineBase, RuleViolation, Status, event

from . import actions, bot, describe as narration, evolve, rules as R, views
from .board import LAYOUTS, TERRAIN_PER_ELEMENT, squares
from .content import DECK_LIST, GLOSSARY, MONSTERS, OPENING_HAND, PACK
from .scenario import build_state
from .state import clone, is_int


class YokaiEngine(EngineBase):
    slug = "yokai"
    name = "Yokai Battle"
    version = "1"
    min_seats = 2
    max_seats = 4
    turn_events = frozenset({"TurnStarted"})
    options_schema = {
        "type": "object",
        "properties": {
            "teams": {"type": "boolean", "default": False, "title": "2 against 2",
                      "description": "4 players only: players 1 and 3 play against players 2 and 4, and abilities "
                                     "help team-mates."},
            "turn_seconds": {"type": ["integer", "null"], "minimum": 0, "maximum": views.MAX_CLOCK_SECONDS,
                             "default": None, "title": "Turn clock (seconds)",
                             "description": "Time for each decision (a move, a target); when it runs out the turn "
                                            "ends. Leave empty or 0 for no clock."},
        },
        "additionalProperties": False,
    }

    # -- content -----------------------------------------------------------------------------
    def content(self) -> dict:
        pack = clone(PACK)
        pack["layouts"] = {str(n): list(rows) for n, rows in LAYOUTS.items()}
        pack["terrain_per_element"] = {str(n): k for n, k in TERRAIN_PER_ELEMENT.items()}
        return pack

    def glossary(self) -> dict:
        return clone(GLOSSARY)

    # -- lifecycle ---------------------------------------------------------------------------
    def validate_options(self, options, seats) -> None:
        if not isinstance(options, dict):
            raise RuleViolation("bad_options", "options must be an object")
        unknown = set(options) - {"teams", "turn_seconds"}
        if unknown:
            raise RuleViolation("bad_options", f"unknown options {sorted(unknown)}")
        clock = options.get("turn_seconds")
        if clock is not None and (not is_int(clock) or not 0 <= clock <= views.MAX_CLOCK_SECONDS):
            raise RuleViolation("bad_options", f"turn_seconds is 0..{views.MAX_CLOCK_SECONDS} seconds (or null)")
        if not is_int(seats) or not self.min_seats <= seats <= self.max_seats:
            raise RuleViolation("bad_seats", "Yokai Battle is played by 2, 3 or 4 players")
        teams = options.get("teams", False)
        if not isinstance(teams, bool):
            raise RuleViolation("bad_options", "teams must be true or false")
        if teams and seats != 4:
            raise RuleViolation("teams_need_four_players", "2 against 2 needs exactly 4 players: players 1 and 3 play against players 2 and 4")

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
        started = {
            "seats": seats,
            "teams": bool(options.get("teams", False)),
            "rows": list(rows),
            "terrain": terrain,
            "set_aside": set_aside,
            "hands": hands,
            "decks": decks,
            "rituals": rituals,
        }
        if options.get("turn_seconds"):  # only a clocked match carries it: untimed logs are unchanged
            started["turn_seconds"] = options["turn_seconds"]
        return [
            event("GameStarted", started),
            event("RoundStarted", {"round": 1, "meter": 2}),
            event("TurnStarted", {"seat": 0}),
        ]

    # -- the decider (actions.py, evolve.py) and what each seat sees (views.py) ------------------
    def evolve(self, state, ev):
        return evolve.evolve(state, ev)

    def decide(self, state, command, rng):
        return actions.decide(state, command)

    def status(self, state) -> Status:
        return views.status(state)

    def legal_commands(self, state, seat) -> list[dict]:
        return views.legal_commands(state, seat)

    def view_for(self, state, seat) -> dict:
        return views.view_for(state, seat)

    def view_open(self, state) -> dict:
        return views.view_open(state)

    def redact_event(self, ev, seat):
        return views.redact_event(ev, seat)

    def describe(self, ev, seat, names=()) -> str:
        return narration.describe(ev, seat, names)

    # -- automation --------------------------------------------------------------------------
    def bot_command(self, state, seat, rng):
        """The bot plays to win: a bounded lookahead over its own turn (``bot.py``; docs/games/yokai.md,
        "Bot"), reading only what ``seat`` may know; equal choices are split by ``rng``."""
        return bot.choose(self, state, seat, rng)

    def sides(self, state, seats):
        """Seats grouped by team (2 against 2), or each player on their own."""
        sides = []
        for seat in range(seats):
            side = R.team_seats(state, seat)
            if side not in sides:
                sides.append(side)
        return sides

    def concede(self, state, seat, rng):
        """A resigning player leaves the game and the others play on (``actions.concede``;
        docs/games/yokai.md, "Resigning"). Nothing is drawn: ``rng`` goes unused."""
        return actions.concede(state, seat)

    def concede_refusal(self, state, seat):
        return actions.concede_refusal(state, seat)

    def out_of_play(self, state, seat):
        return not R.in_play(state, seat)

    def timeout_command(self, state, seat):
        """A player who lets the clock run out ends the turn (or takes the first pending option)."""
        options = self.legal_commands(state, seat)
        return next((c for c in options if c["type"] == "end_turn"), options[0] if options else None)

    # -- scenarios ---------------------------------------------------------------------------
    def scenario(self, document):
        return [event("ScenarioLoaded", {"state": build_state(document)})]


ENGINE = YokaiEngine()
