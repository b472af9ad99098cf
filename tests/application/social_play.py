"""Play a match to its end through the write path: humans take random legal moves, and when only
the system or a bot is awaited its worker step runs here (a test transaction holds the on-commit
follow-ups back)."""

import random
import uuid

from games.application import selectors, services
from games.kernel import SYSTEM
from workers.tasks import advance_match_task


def play_to_the_end(match, users, *, seed=0, max_moves=600):
    rng = random.Random(seed)
    for _ in range(max_moves):
        match.refresh_from_db()
        state = selectors.state_load(match)
        if state["lobby"]["status"] != "active":
            return match
        awaiting, bots = selectors.awaiting_automation(state)
        humans = [s for s in awaiting if s != SYSTEM and s not in bots]
        if humans:
            seat = humans[0]
            command = rng.choice(selectors.engine_of(match).legal_commands(state["game"], seat))
            services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                                          command_id=uuid.uuid4(), expected_seq=match.head_seq,
                                          type_=command["type"], args=command["args"])
        else:
            advance_match_task.apply(args=(str(match.pk), match.head_seq))
    raise AssertionError("the match did not end")
