"""The Adventure Phase played as a Harakiri match (``phase: "adventure"``) THROUGH THE REST API, to its
end: every seat picks among its listed commands from its own /view/, the eager worker plays the
game's own steps (the Shōgun's turn, enemy activations, travel-event draws) as after a real request,
and no deck order, nor any card before it is drawn, ever shows in a response."""

import pytest

from games.application import selectors
from games.eventstore.models import Match
from games.kernel import SYSTEM

from tests.games.api_client import open_recorded_match
from tests.games.harakiri.adventure_canary import deck_runs, leaked_runs, seen_before_drawn

pytestmark = pytest.mark.django_db

MAX_COMMANDS = 3000


@pytest.mark.parametrize("seats,chapter", [(1, 1), (2, 2)])
def test_a_seeded_adventure_phase_plays_through_the_api_to_its_end(seats, chapter, make_user, fixed_match_seed,
                                                                   django_capture_on_commit_callbacks):
    rng, responses, match_id, url, clients, spectator = open_recorded_match(
        "harakiri", f"adventure-api-{seats}-{chapter}", seats, {"phase": "adventure", "chapter": chapter},
        make_user, fixed_match_seed, django_capture_on_commit_callbacks)
    for _ in range(MAX_COMMANDS):
        doc = clients[0].view()
        if doc["status"]["finished"]:
            break
        awaiting = doc["status"]["awaiting"]
        assert awaiting and SYSTEM not in awaiting, "the worker leaves no SYSTEM step behind"
        client = clients[awaiting[rng.below(len(awaiting))]]
        own = client.view()
        legal = own["legal_commands"]
        assert legal, own["view"]["flow"]
        client.command(legal[rng.below(len(legal))], own["seq"])
    else:
        raise AssertionError("the Adventure Phase did not end")
    match = Match.objects.get(pk=match_id)
    game = selectors.state_load(match)["game"]
    assert game["flow"]["stage"] == "finished" and game["result"]["outcome"] in ("success", "failure")
    system_steps = sum(1 for row in match.events.all() if row.actor.get("seat") == SYSTEM)
    assert system_steps > 0, "the Shōgun's turns were taken by the worker"
    for c in [*clients, spectator]:
        c.follow()
    runs = deck_runs(match_id)  # the decks as dealt at setup
    assert runs
    leaked = leaked_runs(runs, [body for _, _, body in responses])
    assert not leaked, f"a deck order left the server: {leaked}"
    early = seen_before_drawn(match_id, responses)
    assert not early, f"a card left the server before it was drawn: {early[:5]}"
