"""The optional rule "Replace the Red Die" chosen at a campaign's creation reaches every phase match."""

import pytest
from rest_framework.test import APIClient

from campaigns import domain, services
from games.application import selectors
from games.eventstore.models import Match

from .helpers import play_to_end

pytestmark = pytest.mark.django_db


def _options_and_state(match_id):
    match = Match.objects.get(pk=match_id)
    return match.options, selectors.state_load(selectors.match_get(match_id))["game"]


def test_the_blue_die_chosen_at_creation_reaches_both_phase_matches(make_user, fixed_match_seed,
                                                                      django_capture_on_commit_callbacks):
    # rules: Harakiri, "Optional Rule: Replace the Red Die": one can be substituted for the other (for the campaign)
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-twice")
    alice = make_user()
    client = APIClient()
    client.force_authenticate(alice)
    resp = client.post("/api/campaigns/", {"game": "harakiri", "act": 1, "seats": 1, "blue_die": True}, format="json")
    assert resp.status_code == 201
    cid = resp.json()["id"]
    with on_commit(execute=True):
        assert client.post(f"/api/campaigns/{cid}/start/").status_code == 200
    doc = client.get(f"/api/campaigns/{cid}/").json()
    assert doc["blue_die"] is True
    adventure_id = doc["current_match"]
    options, state = _options_and_state(adventure_id)
    assert options["blue_die"] is True and state["blue_die"] is True
    play_to_end(adventure_id, "twice", on_commit)
    exploration_id = services.campaign_get(cid)["current_match"]
    assert exploration_id != adventure_id
    options, state = _options_and_state(exploration_id)
    assert (options["phase"], options["blue_die"], state["blue_die"]) == ("exploration", True, True)


def test_the_next_chapters_adventure_phase_keeps_it_and_a_campaign_without_it_opens_matches_as_before(make_user):
    # rules: Harakiri, "Optional Rule: Replace the Red Die" (optional: off unless chosen)
    def created(**extra):
        return domain.apply(None, {"type": domain.CREATED, "payload": {
            "game": "harakiri", "act": 1, "seats": 1, "control": domain.default_control(1), "creator_id": 1, **extra}})

    sheet = {"characters": {}, "marks": []}
    on = {**created(blue_die=True), "sheet": sheet}
    assert domain.adventure_options(on, 2)["blue_die"] is True
    assert domain.public("x", on)["blue_die"] is True
    for off in (created(), created(blue_die=False)):  # a log written before the option, and the option off
        assert "blue_die" not in off
        assert "blue_die" not in domain.adventure_options({**off, "sheet": sheet}, 2)
        assert domain.public("x", off)["blue_die"] is False
    with pytest.raises(domain.CampaignRefused) as refused:
        services.campaign_create(user=make_user(), game="harakiri", act=1, seats=1, blue_die="yes")
    assert refused.value.code == "bad_blue_die"
