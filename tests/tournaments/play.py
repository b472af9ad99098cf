"""Tournament matches for the tests that run them: bot-played moves (each human seat's move is the
engine's bot choice, submitted through the one write path as that seat's player, SYSTEM steps run as
follow-ups), a small Yokai event to play them in, and a match ended by its time limit."""

from __future__ import annotations

import uuid

from games.application import selectors
from games.application.services import Actor, match_submit_command, match_submit_system_command
from games.eventstore.models import Match
from games.kernel import Rng
from games.tournaments import services
from games.tournaments.models import TournamentTable


def yokai_cup(make_user, *, players: int, rounds: int):
    """A Swiss Yokai event of 2-seat tables (20-minute rounds, 60-second turns), created by a staff
    organizer, with ``players`` new users registered: (organizer, tournament, players)."""
    organizer = make_user(is_staff=True)
    t = services.tournament_create(creator=organizer, name="Cup", game="yokai", format="swiss", table_size=2,
                                   rounds=rounds, round_minutes=20, match_options={"turn_seconds": 60})
    entrants = [make_user() for _ in range(players)]
    for p in entrants:
        services.tournament_register(tournament_id=t.pk, user=p)
    return organizer, t, entrants


def end_by_time_limit(match_id):
    """End a match now (the engine's SYSTEM time_limit), without its reaction: the caller runs
    tournament_match_finished (or lets the commit run it) as the worker would."""
    match_submit_system_command(match_id=match_id, actor=Actor(kind="worker", extra={"purpose": "time_limit"}),
                                command_id=uuid.uuid4(), type_="time_limit", args={})


def play(match_id, max_moves: int) -> bool:
    """Play up to ``max_moves`` bot moves; True if the match finished."""
    for n in range(max_moves):
        match = Match.objects.get(pk=match_id)
        state = selectors.state_load(match)
        engine = selectors.engine_of(match)
        if state["lobby"]["status"] != "active":
            return True
        awaiting = [s for s in engine.status(state["game"]).awaiting if isinstance(s, int)]
        if not awaiting:
            return False
        seat = awaiting[0]
        command = engine.bot_command(state["game"], seat, Rng(bytes.fromhex(match.seed), f"test:{n}:{seat}"))
        user_id = state["lobby"]["seats"][seat]["user_id"]
        match_submit_command(match_id=match_id, seat=seat, actor=Actor(kind="user", user_id=user_id),
                             command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=command["type"],
                             args=command.get("args", {}))
    state = selectors.state_load(Match.objects.get(pk=match_id))
    return state["lobby"]["status"] != "active"


def round_matches(tournament_id, round_no: int) -> list:
    return [t.match_id for t in TournamentTable.objects.filter(tournament_id=tournament_id, round=round_no,
                                                                match__isnull=False).order_by("table")]
