"""Bot-played tournament matches for the schedule tests: each human seat's move is the engine's bot
choice, submitted through the one write path as that seat's player (SYSTEM steps run as follow-ups)."""

from __future__ import annotations

import uuid

from games.application import selectors
from games.application.services import Actor, match_submit_command
from games.eventstore.models import Match
from games.kernel import Rng
from games.tournaments.models import TournamentTable


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
