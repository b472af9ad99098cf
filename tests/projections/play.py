"""Play Pebbles matches to the end through the real write path (humans pick random legal moves;
bots and SYSTEM rolls are the workers' follow-ups, run on commit)."""

import random
import uuid

from games.application import selectors, services
from games.kernel import SYSTEM
from workers.tasks import advance_match_task


def play_randomly(match, users, capture, *, seed=0, max_moves=500, stop_at=None):
    """Play until the match ends (or ``stop_at`` events). ``capture`` is pytest-django's
    ``django_capture_on_commit_callbacks`` so follow-ups run inside the test transaction."""
    rng = random.Random(seed)
    for _ in range(max_moves):
        match.refresh_from_db()
        if stop_at is not None and match.head_seq >= stop_at:
            break
        state = selectors.state_load(match)
        if state["lobby"]["status"] != "active":
            break
        engine = selectors.engine_of(match)
        awaiting, bots = selectors.awaiting_automation(state)
        humans = [s for s in awaiting if s != SYSTEM and s not in bots]
        with capture(execute=True):
            if humans:
                seat = humans[0]
                command = rng.choice(engine.legal_commands(state["game"], seat))
                services.match_submit_command(
                    match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                    command_id=uuid.uuid4(), expected_seq=match.head_seq,
                    type_=command["type"], args=command["args"],
                )
            else:  # a follow-up the test transaction swallowed (e.g. right after the start)
                advance_match_task.apply(args=(str(match.pk), match.head_seq))
    match.refresh_from_db()
    return match
