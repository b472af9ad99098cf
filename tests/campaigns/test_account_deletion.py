"""An account deleted while it plays a campaign (``accounts.selfservice.account_anonymize``): its seat
is freed before the start; after it the seat goes and its characters pass to the first player left,
so no later phase match seats a deleted account; with nobody left the campaign is abandoned.
(docs/campaigns.md, "Seats")"""

import pytest

from accounts.errors import InActiveMatch
from accounts.selfservice import account_anonymize
from campaigns import domain, services
from campaigns.models import CampaignRecord
from campaigns.rebuild import check_campaigns
from games.application.identities import DELETED_PLAYER
from games.eventstore.models import Match

from .helpers import play_to_end

pytestmark = pytest.mark.django_db


def _records(seats: int, creator_seat: int = 0) -> list[dict]:
    control = domain.check_control(None, seats)
    return [{"type": domain.CREATED, "payload": {"game": "harakiri", "act": 1, "seats": seats, "control": control,
                                                 "creator_id": 100 + creator_seat}}] + [
        {"type": domain.SEATED, "payload": {"seat": i, "user_id": 100 + i, "username": f"p{i}"}} for i in range(seats)]


def _left(seat: int, user_id: int) -> dict:
    return {"type": domain.LEFT, "payload": {"seat": seat, "user_id": user_id, "reason": "account_deleted"}}


def test_after_the_start_a_leaving_players_characters_pass_to_the_first_player_left():
    # rules: Harakiri campaign, "fewer than four players, divide the characters between yourselves as you choose"
    # given a started campaign of three: akira and tomoe with seat 0, hattori seat 1, hikaru seat 2
    state = domain.fold(_records(3) + [{"type": domain.STARTED, "payload": {}}])
    assert state["control"] == {"akira": 0, "hattori": 1, "hikaru": 2, "tomoe": 0}
    # when seat 1 leaves, then the creator (seat 0)
    after_one = domain.apply(state, _left(1, 101))
    after_creator = domain.apply(after_one, _left(0, 100))
    # then the seats close up, the characters follow, and the creator's part passes on
    assert [s["user_id"] for s in after_one["seats"]] == [100, 102]
    assert after_one["control"] == {"akira": 0, "hattori": 0, "hikaru": 1, "tomoe": 0}
    assert after_one["creator_id"] == 100 and after_one["status"] == "active"
    assert [s["user_id"] for s in after_creator["seats"]] == [102]
    assert after_creator["control"] == {"akira": 0, "hattori": 0, "hikaru": 0, "tomoe": 0}
    assert after_creator["creator_id"] == 102
    assert domain.check_control(after_creator["control"], 1) == after_creator["control"]
    # and when the last player leaves too, the campaign is abandoned
    assert domain.apply(after_creator, _left(0, 102))["status"] == domain.ABANDONED


def test_before_the_start_a_leaving_players_seat_is_free_again():
    state = domain.fold(_records(2))
    left = domain.apply(state, _left(0, 100))
    assert left["seats"] == [None, {"user_id": 101, "username": "p1"}]
    assert left["creator_id"] == 101 and left["status"] == "open"
    assert left["control"] == state["control"]  # nothing is dealt out until the start


def test_a_deleted_player_leaves_an_open_campaign_and_someone_else_takes_the_seat(make_user,
                                                                                 django_capture_on_commit_callbacks):
    # given an open campaign of two with both seats taken
    creator, leaving, newcomer = make_user(), make_user(), make_user()
    campaign = services.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    services.campaign_join(campaign_id=campaign.pk, user=leaving)
    # when the second player deletes the account
    account_anonymize(leaving)
    # then the seat is free, another player takes it, and the first phase seats them
    assert services.campaign_get(campaign.pk)["seats"][1] is None
    services.campaign_join(campaign_id=campaign.pk, user=newcomer)
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_start(campaign_id=campaign.pk, user=creator)
    match = Match.objects.get(pk=services.campaign_get(campaign.pk)["current_match"])
    from games.application import selectors
    seats = selectors.state_load(match)["lobby"]["seats"]
    assert [s["user_id"] for s in seats] == [creator.pk, newcomer.pk]
    assert check_campaigns(fix=False) == ([], 0)


def test_deletion_is_refused_during_a_phase_match_and_writes_nothing(make_user, django_capture_on_commit_callbacks):
    # given a started campaign of two, its Adventure Phase running
    creator, other = make_user(), make_user()
    campaign = services.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    services.campaign_join(campaign_id=campaign.pk, user=other)
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_start(campaign_id=campaign.pk, user=creator)
    # when a player deletes the account, then it is refused and the campaign keeps the seat
    with pytest.raises(InActiveMatch):
        account_anonymize(other)
    assert not CampaignRecord.objects.filter(campaign=campaign, type=domain.LEFT).exists()
    assert [s["user_id"] for s in services.campaign_get(campaign.pk)["seats"]] == [creator.pk, other.pk]


def test_between_phases_the_next_match_opens_without_the_deleted_player(make_user, fixed_match_seed,
                                                                        django_capture_on_commit_callbacks, monkeypatch):
    on_commit = django_capture_on_commit_callbacks
    # given a campaign of two whose Adventure Phase has ended, its policy not run yet
    fixed_match_seed("campaign-leaver")
    creator, leaving = make_user(), make_user()
    campaign = services.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    services.campaign_join(campaign_id=campaign.pk, user=leaving)
    with on_commit(execute=True):
        services.campaign_start(campaign_id=campaign.pk, user=creator)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    from games.application import hooks
    monkeypatch.setattr(hooks, "_finished_listeners", [])
    play_to_end(adventure_id, "leaver", on_commit)
    # when the second player deletes the account and the policy then runs
    account_anonymize(leaving)
    with on_commit(execute=True):
        assert services.policy_run(adventure_id) == "exploration_opened"
    # then the Exploration Phase seats the creator alone, controlling all four characters
    doc = services.campaign_get(campaign.pk)
    exploration = Match.objects.get(pk=doc["current_match"])
    assert exploration.seat_count == 1 and set(exploration.options["control"].values()) == {0}
    assert [s["user_id"] for s in doc["seats"]] == [creator.pk]
    assert check_campaigns(fix=False) == ([], 0)
    # and when the creator leaves too (between phases), the campaign is abandoned and opens nothing more
    play_to_end(doc["current_match"], "leaver-2", on_commit)
    account_anonymize(creator)
    assert services.campaign_get(campaign.pk)["status"] == domain.ABANDONED
    assert services.policy_run(doc["current_match"]) == "abandoned"
    assert Match.objects.filter(game="harakiri").count() == 2


def test_a_finished_campaign_names_a_deleted_player_as_deleted(make_user):
    # given a campaign whose log seated a player who has since deleted the account (a finished
    # campaign keeps its seats; here the seat is read before the player could leave it)
    creator, other = make_user(), make_user()
    campaign = services.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    services.campaign_join(campaign_id=campaign.pk, user=other)
    from campaigns.models import CampaignView
    view = CampaignView.objects.get(campaign=campaign)
    view.state = {**view.state, "status": "finished"}
    view.save(update_fields=["state"])
    old_name = other.get_username()
    # when the player deletes the account
    account_anonymize(other)
    # then every read names the seat "deleted player"; the log keeps the name
    assert services.campaign_get(campaign.pk)["seats"][1]["username"] == DELETED_PLAYER
    assert services.campaign_list(creator)[0]["seats"][1]["username"] == DELETED_PLAYER
    seated = CampaignRecord.objects.get(campaign=campaign, type=domain.SEATED, payload__seat=1)
    assert seated.payload["username"] == old_name


def test_the_page_of_a_campaign_everyone_left_says_it_was_abandoned(make_user, client):
    # given an open solo campaign
    alone = make_user()
    campaign = services.campaign_create(user=alone, game="harakiri", act=1, seats=1)
    # when its only player deletes the account
    account_anonymize(alone)
    # then its page says it was abandoned, offers no seat, and it is not listed as open to join
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert "the campaign was abandoned" in page and "nobody (every player left)" in page and "a free seat" not in page
    assert str(campaign.pk) not in client.get("/campaigns/").content.decode()


def test_a_deactivated_account_takes_no_seat(make_user):
    creator, inactive = make_user(), make_user(is_active=False)
    campaign = services.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    for attempt in (lambda: services.campaign_join(campaign_id=campaign.pk, user=inactive),
                    lambda: services.campaign_create(user=inactive, game="harakiri", act=1, seats=1)):
        with pytest.raises(domain.CampaignRefused) as refused:
            attempt()
        assert (refused.value.code, refused.value.status) == ("account_inactive", 403)
    assert services.campaign_get(campaign.pk)["seats"][1] is None


def test_joining_a_campaign_everyone_left_before_its_start_says_it_was_abandoned(make_user, client_for):
    # given an open solo campaign whose only player deleted the account
    alone = make_user()
    campaign = services.campaign_create(user=alone, game="harakiri", act=1, seats=2)
    account_anonymize(alone)
    # when someone tries to join it
    res = client_for(make_user()).post(f"/api/campaigns/{campaign.pk}/join/")
    # then it is refused as abandoned (before: "the campaign has already started", which it never had)
    assert (res.status_code, res.json()["code"]) == (409, "campaign_abandoned")
