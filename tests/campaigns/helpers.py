"""Playing a campaign's phase matches through the services, with the eager worker, to their end."""

import uuid

from campaigns import services as campaign_services
from games.application import selectors, services
from games.application.lobby import ACTIVE
from games.kernel import SYSTEM, Rng

MAX_COMMANDS = 6000


def started_campaign(make_user, on_commit, seats: int):
    """A started Act 1 campaign of ``seats`` new players, the first its creator (chapter 1's Adventure
    Phase match running): (campaign, users)."""
    users = [make_user() for _ in range(seats)]
    campaign = campaign_services.campaign_create(user=users[0], game="harakiri", act=1, seats=seats)
    for user in users[1:]:
        campaign_services.campaign_join(campaign_id=campaign.pk, user=user)
    with on_commit(execute=True):
        campaign_services.campaign_start(campaign_id=campaign.pk, user=users[0])
    return campaign, users


def play_to_end(match_id, label: str, on_commit) -> int:
    """Random listed commands of the awaited seats (ending an activation less often, so the game
    moves on) until the match finishes; the worker (eager, on commit) takes every SYSTEM step."""
    rng = Rng(label.encode(), "choices")
    for step in range(MAX_COMMANDS):
        match = selectors.match_get(match_id)
        state = selectors.state_load(match)
        if state["lobby"]["status"] != ACTIVE:
            return step
        awaiting = selectors.status_of(match, state)["awaiting"]
        assert awaiting and SYSTEM not in awaiting, "the worker leaves no SYSTEM step behind"
        seat = awaiting[rng.below(len(awaiting))]
        legal = selectors.engine_of(match).legal_commands(state["game"], seat)
        pool = [c for c in legal if c["type"] != "end_activation"] if rng.below(4) else legal
        pick = (pool or legal)[rng.below(len(pool or legal))]
        with on_commit(execute=True):
            services.match_submit_command(match_id=match_id, seat=seat, actor=services.Actor("user"),
                                          command_id=uuid.uuid4(), expected_seq=match.head_seq,
                                          type_=pick["type"], args=pick["args"])
    raise AssertionError(f"{match_id} did not finish")
