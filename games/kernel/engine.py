"""The decider contract. A game is one package exposing an ``EngineBase`` subclass instance.

All methods are pure functions of their arguments. ``decide`` raises ``RuleViolation`` for any
illegal command and never another exception; ``evolve`` never validates, never draws and never
mutates its input state (return a new value).
"""

from .errors import RuleViolation
from .glossary import empty as empty_glossary
from .narration import generic_sentence
from .types import Command, Event, Status


class EngineBase:
    slug: str = ""
    name: str = ""
    version: str = "1"
    min_seats: int = 2
    max_seats: int = 2
    # JSON schema for the ``options`` object given at match creation.
    options_schema: dict = {"type": "object", "properties": {}, "additionalProperties": False}
    # {(event_type, from_version): callable(payload) -> payload at from_version + 1}
    upcasters: dict = {}
    # Engines that register but must not appear in the public catalog (test engines) set this.
    listed: bool = True
    # Cooperative games (everyone wins or loses together) have no ratings.
    cooperative: bool = False
    # Event types that begin a new turn (a seat's turn, or the enemies'). The platform counts turns
    # with them, e.g. to keep spectators of a tournament match a full turn behind; an engine that
    # leaves this empty is delayed by time alone.
    turn_events: frozenset = frozenset()
    # What resigning from a game of three sides or more means, in the game's own words, for the
    # Resign question ("Resign this match? <words>; this cannot be undone."); empty: the platform's
    # "You leave the game and the others play on without you".
    resign_words: str = ""

    # -- content -------------------------------------------------------------------------
    def content(self) -> dict:
        """The public content pack (cards, boards, dice...) served to clients as JSON."""
        return {}

    def glossary(self) -> dict:
        """The rules glossary served to clients (``games.kernel.glossary``: ``{provisional, note,
        groups, entries}``); a game keeps it in ``content/glossary.json`` and returns ``load(path)``."""
        return empty_glossary()

    # -- lifecycle ------------------------------------------------------------------------
    def validate_options(self, options: dict, seats: int) -> None:
        """Checks beyond the JSON schema (e.g. teams only with 4 seats). Raise RuleViolation."""

    def teams(self, options: dict, seats: int) -> list[list[int]]:
        """The sides of a match created with ``options``: lists of seats that win or lose together.
        By default every seat plays for itself."""
        return [[seat] for seat in range(seats)]

    def setup(self, options: dict, seats: int, rng) -> list[Event]:
        raise NotImplementedError

    def scenario(self, document: dict) -> list[Event]:
        """Events that put a fresh match in the position a scenario document describes."""
        raise RuleViolation("scenario_unsupported", f"{self.slug} cannot load scenarios")

    def decide(self, state, command: Command, rng) -> list[Event]:
        raise NotImplementedError

    def evolve(self, state, event: Event):
        raise NotImplementedError

    def evolve_all(self, state, events: list[Event]):
        """``evolve`` over ``events`` in turn, never mutating ``state``. An engine whose ``evolve``
        copies the whole state may override it to copy once and apply every event to that copy."""
        for event in events:
            state = self.evolve(state, event)
        return state

    # -- reading ------------------------------------------------------------------------
    def status(self, state) -> Status:
        raise NotImplementedError

    def finished_phase(self, state) -> str:
        """The ``phase`` word of a finished match: the one ``status`` gives a game played to its end
        (Yashima's ``over``, Harakiri's ``ended``). The platform shows it for a match it ended itself
        while the game's own state runs on (a resignation of two sides, a tournament drop), so a
        finished match never says it is still in ``combat``."""
        return "finished"

    def legal_commands(self, state, seat) -> list[dict]:
        """Every command ``seat`` may submit now, each ``{"type", "args"}`` ready to post as-is."""
        raise NotImplementedError

    def view_for(self, state, seat) -> dict:
        """What ``seat`` (None = spectator) may see of ``state``."""
        raise NotImplementedError

    def view_open(self, state) -> dict | None:
        """The board with every seat's hidden information face up (every hand, every deck in order),
        in ``view_for``'s shape so the game's board renderer draws it: for staff review only, never
        for a player or spectator. None (the default): the engine offers no such drawing."""
        return None

    def redact_event(self, event: Event, seat) -> Event | None:
        """``event`` as ``seat`` may see it; None hides the payload entirely (seq still advances)."""
        return event

    def narration_facts(self, state) -> dict | None:
        """Public facts of the table that ``describe`` may use besides the event, e.g. Yashima's map
        (to name a space by its terrain and the label the board draws). The platform gives every
        event's sentence the facts of the newest state it holds, so they must be public to every
        seat and never change once true (a placed board keeps its spaces). None (the default): the
        engine's sentences need none, and ``describe`` is called without ``facts``."""
        return None

    def describe(self, event: Event, seat, names=(), facts=None) -> str:
        """One sentence about ``event`` for ``seat`` (None = spectator), using names and not ids.

        ``event`` is already redacted for ``seat`` (``redact_event``): the sentence may only use what
        it shows. ``names`` lists the seats' display names (``narration.seat_name``); ``facts`` is
        ``narration_facts`` of the match's state, passed only when that is not None. A bookkeeping
        event (a work queue, a pending list...) returns ``""`` so the page can hide or fold it.
        Engines override this; the default reads the event type (and its seat) alone."""
        return generic_sentence(event, names)

    # -- automation -----------------------------------------------------------------------
    def system_command(self, state) -> dict | None:
        """The command a worker submits when ``status().awaiting`` contains SYSTEM."""
        return None

    def bot_command(self, state, seat, rng) -> dict | None:
        """A bot's choice for ``seat``; by default a uniformly random legal command."""
        options = self.legal_commands(state, seat)
        return rng.choice(options) if options else None

    def sides(self, state, seats: int) -> list[list[int]]:
        """The sides of a running game: seats that win or lose together (a team). By default each
        seat is a side. Where there are exactly two, a player who resigns hands the other side the
        win at once; with three or more the game goes on without them (``concede``; docs/platform.md,
        "Resigning")."""
        return [[seat] for seat in range(seats)]

    def concede(self, state, seat: int, rng) -> list[Event] | None:
        """The events that take ``seat`` out of play in the game's own terms when its player resigns
        from a game of three or more sides: its pending decisions dropped or answered, its turn
        handed on, and the game ended when only one side is left. Pure like ``decide``: ``rng`` is
        the resign command's own stream, so deciding it again gives the same events. None (the
        default): the game cannot go on without a player, and resigning is refused there. Raise
        ``RuleViolation`` when it cannot be done now (``concede_refusal`` says why); its code reaches
        the player (409)."""
        return None

    def concede_refusal(self, state, seat: int) -> RuleViolation | None:
        """Why ``concede`` would refuse ``seat`` now (the same rule, asked without deciding the
        concession: the view's ``resignable`` asks it on every view), None when it would not."""
        return None

    def out_of_play(self, state, seat: int) -> bool:
        """Whether ``seat`` has already left the game by its rules (a Yashima master killed): such a
        seat has nothing left to resign."""
        return False

    def timeout_command(self, state, seat) -> dict | None:
        """What the platform submits for ``seat`` when its decision deadline passes."""
        options = self.legal_commands(state, seat)
        return options[0] if options else None
