"""Before the start a player who joined may leave an open campaign (``PlayerLeft``, reason ``left``:
the seat is free again) and its creator may cancel it (``CampaignCancelled``: shown as cancelled, by
whom and when, no longer open to join and no longer counted toward the creator's open campaigns).
The creator does not leave (403 ``creator_cannot_leave``: they cancel); a started campaign is left and
abandoned as ``tests/campaigns/test_leave_running.py`` checks. Through the domain, the services, the API and the
pages; a refold of the log gives the same state. (docs/campaigns.md, "Leaving and cancelling")"""

import uuid

import pytest

from accounts.selfservice import account_anonymize
from campaigns import domain, services
from campaigns.models import CampaignRecord, CampaignView
from campaigns.rebuild import check_campaigns
from games.application.identities import DELETED_PLAYER
from games.eventstore.models import Match

from tests.frontend.test_account_pages import messages_shown
from tests.frontend.test_campaign_pages import assert_readable, words
from tests.frontend.test_tournament_pages import browser
from tests.rest import api_as, assert_error

pytestmark = pytest.mark.django_db


def _refused(code, status, run):
    with pytest.raises(domain.CampaignRefused) as refused:
        run()
    assert (refused.value.code, refused.value.status) == (code, status)


@pytest.fixture
def open_campaign(make_user):
    """An open 3-seat campaign: its creator and one player who joined; one seat free."""
    creator, joined = make_user(), make_user()
    campaign = services.campaign_create(user=creator, game="harakiri", act=1, seats=3)
    services.campaign_join(campaign_id=campaign.pk, user=joined)
    return campaign, creator, joined


def _refolded(campaign) -> dict:
    return domain.fold({"type": r.type, "payload": r.payload}
                       for r in CampaignRecord.objects.filter(campaign=campaign).order_by("seq"))


# -- the fold ------------------------------------------------------------------------------------


def test_the_fold_frees_a_left_seat_and_shows_a_cancelled_campaign_with_who_and_when():
    # given an open campaign of two, both seats taken
    control = domain.check_control(None, 2)
    records = [{"type": domain.CREATED, "payload": {"game": "harakiri", "act": 1, "seats": 2, "control": control,
                                                    "creator_id": 100}},
               {"type": domain.SEATED, "payload": {"seat": 0, "user_id": 100, "username": "p0"}},
               {"type": domain.SEATED, "payload": {"seat": 1, "user_id": 101, "username": "p1"}}]
    # when the second player leaves, then the seat is free and nothing else changes
    left = domain.fold(records + [{"type": domain.LEFT, "payload": {"seat": 1, "user_id": 101, "reason": "left"}}])
    assert left["seats"] == [{"user_id": 100, "username": "p0"}, None]
    assert (left["status"], left["creator_id"], left["control"]) == ("open", 100, control)
    # and when the creator then cancels, the campaign is cancelled, its seats kept, with who and when
    cancel = {"type": domain.CANCELLED, "payload": {"by": 100, "username": "p0", "at": "2026-12-06T23:50:00+00:00"}}
    cancelled = domain.apply(left, cancel)
    assert cancelled["status"] == "cancelled" and cancelled["seats"] == left["seats"]
    assert domain.public("c", cancelled)["cancelled"] == {"by": 100, "username": "p0", "at": "2026-12-06T23:50:00+00:00"}
    # a campaign never cancelled folds without the key, as the views folded before it existed
    assert "cancelled" not in left and domain.public("c", left)["cancelled"] is None


# -- the services ----------------------------------------------------------------------------------


def test_a_player_who_joined_leaves_and_the_seat_is_taken_again(open_campaign, make_user):
    campaign, creator, joined = open_campaign
    newcomer = make_user()
    # when the player who joined leaves
    state = services.campaign_leave(campaign_id=campaign.pk, user=joined)
    # then the seat is free, the record says they chose to, and the campaign is still theirs to rejoin
    assert state["seats"][1] is None and state["status"] == "open"
    left = CampaignRecord.objects.get(campaign=campaign, type=domain.LEFT)
    assert left.payload == {"seat": 1, "user_id": joined.pk, "reason": "left"}
    assert services.campaign_list(joined) == []
    services.campaign_join(campaign_id=campaign.pk, user=newcomer)
    services.campaign_join(campaign_id=campaign.pk, user=joined)
    assert [s["user_id"] for s in services.campaign_get(campaign.pk)["seats"]] == [creator.pk, newcomer.pk, joined.pk]
    assert check_campaigns(fix=False) == ([], 0)


def test_leaving_is_refused_to_the_creator_a_stranger_and_after_the_start(open_campaign, make_user,
                                                                        django_capture_on_commit_callbacks):
    campaign, creator, joined = open_campaign
    stranger = make_user()
    _refused("creator_cannot_leave", 403, lambda: services.campaign_leave(campaign_id=campaign.pk, user=creator))
    _refused("not_seated", 403, lambda: services.campaign_leave(campaign_id=campaign.pk, user=stranger))
    _refused("not_found", 404, lambda: services.campaign_leave(campaign_id=uuid.uuid4(), user=joined))
    # given the campaign started (every seat taken)
    services.campaign_join(campaign_id=campaign.pk, user=stranger)
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_start(campaign_id=campaign.pk, user=creator)
    # then someone without a seat leaves nothing and a player who did not create it abandons nothing,
    # and nothing is written
    before = CampaignRecord.objects.filter(campaign=campaign).count()
    outsider = make_user()
    _refused("not_seated", 403, lambda: services.campaign_leave(campaign_id=campaign.pk, user=outsider))
    _refused("not_creator", 403, lambda: services.campaign_cancel(campaign_id=campaign.pk, user=joined))
    assert CampaignRecord.objects.filter(campaign=campaign).count() == before


def test_the_creator_cancels_and_nobody_joins_starts_leaves_or_cancels_it_again(open_campaign, make_user):
    campaign, creator, joined = open_campaign
    stranger = make_user()
    # only the creator cancels
    for user in (joined, stranger):
        _refused("not_creator", 403, lambda: services.campaign_cancel(campaign_id=campaign.pk, user=user))
    # when the creator cancels
    state = services.campaign_cancel(campaign_id=campaign.pk, user=creator)
    # then it is cancelled, says by whom, and its players still find it among theirs
    assert state["status"] == "cancelled"
    doc = services.campaign_get(campaign.pk)
    assert (doc["status"], doc["cancelled"]["by"], doc["cancelled"]["username"]) == (
        "cancelled", creator.pk, creator.get_username())
    assert doc["cancelled"]["at"].startswith(CampaignRecord.objects.get(campaign=campaign, type=domain.CANCELLED)
                                             .at.date().isoformat())
    assert [c["id"] for c in services.campaign_list(joined)] == [str(campaign.pk)]
    # and every way in or out of it is refused as cancelled, writing nothing
    before = CampaignRecord.objects.filter(campaign=campaign).count()
    _refused("campaign_cancelled", 409, lambda: services.campaign_join(campaign_id=campaign.pk, user=stranger))
    _refused("campaign_cancelled", 409, lambda: services.campaign_leave(campaign_id=campaign.pk, user=joined))
    _refused("campaign_cancelled", 409, lambda: services.campaign_cancel(campaign_id=campaign.pk, user=creator))
    _refused("campaign_cancelled", 409, lambda: services.campaign_start(campaign_id=campaign.pk, user=creator))
    # whoever asks: the campaign's own 409 comes before "not seated" or "not its creator"
    _refused("campaign_cancelled", 409, lambda: services.campaign_cancel(campaign_id=campaign.pk, user=joined))
    _refused("campaign_cancelled", 409, lambda: services.campaign_leave(campaign_id=campaign.pk, user=stranger))
    _refused("campaign_cancelled", 409, lambda: services.campaign_start(campaign_id=campaign.pk, user=joined))
    assert CampaignRecord.objects.filter(campaign=campaign).count() == before


def test_a_cancelled_campaign_names_a_creator_who_deleted_the_account_as_deleted(open_campaign):
    campaign, creator, joined = open_campaign
    services.campaign_cancel(campaign_id=campaign.pk, user=creator)
    old_name = creator.get_username()
    # when the creator then deletes the account
    account_anonymize(creator)
    # then every read names who cancelled it "deleted player"; the log keeps the name
    assert services.campaign_get(campaign.pk)["cancelled"]["username"] == DELETED_PLAYER
    assert services.campaign_list(joined)[0]["cancelled"]["username"] == DELETED_PLAYER
    assert CampaignRecord.objects.get(campaign=campaign, type=domain.CANCELLED).payload["username"] == old_name
    assert check_campaigns(fix=False) == ([], 0)


def test_a_cancelled_campaign_no_longer_counts_toward_the_cap(make_user, settings):
    # given a user at the cap of open campaigns
    settings.MAX_OPEN_CAMPAIGNS_PER_USER = 2
    alice = make_user()
    first, _ = (services.campaign_create(user=alice, game="harakiri", act=1, seats=2) for _ in range(2))
    with pytest.raises(domain.CampaignRefused) as capped:
        services.campaign_create(user=alice, game="harakiri", act=1, seats=2)
    assert capped.value.code == "too_many_open_campaigns" and "start or cancel one" in capped.value.message
    # when she cancels one, then she may create another (and only one)
    services.campaign_cancel(campaign_id=first.pk, user=alice)
    services.campaign_create(user=alice, game="harakiri", act=1, seats=2)
    _refused("too_many_open_campaigns", 409,
             lambda: services.campaign_create(user=alice, game="harakiri", act=1, seats=2))


def test_the_rebuild_reproduces_leaving_and_cancelling_and_fixes_a_view_that_differs(open_campaign):
    campaign, creator, joined = open_campaign
    services.campaign_leave(campaign_id=campaign.pk, user=joined)
    services.campaign_cancel(campaign_id=campaign.pk, user=creator)
    view = CampaignView.objects.get(campaign=campaign)
    assert view.state == _refolded(campaign)
    assert check_campaigns(fix=False) == ([], 0)
    # given the stored view lost the cancellation and the leave (as an old projection would)
    view.state = {**view.state, "status": "open", "seats": [view.state["seats"][0], {"user_id": joined.pk,
                                                                                   "username": "x"}, None]}
    view.state.pop("cancelled")
    view.save(update_fields=["state"])
    view.players.add(joined)
    # then the check reports it and --fix restores the refold, its players too
    diffs, fixed = check_campaigns(fix=True)
    assert diffs and fixed == 1
    view.refresh_from_db()
    assert view.state == _refolded(campaign) and view.state["status"] == "cancelled"
    assert list(view.players.all()) == [creator]
    assert check_campaigns(fix=False) == ([], 0)


# -- the API ---------------------------------------------------------------------------------------


def test_the_api_leaves_and_cancels_with_stable_refusals(open_campaign, make_user):
    campaign, creator, joined = open_campaign
    stranger = make_user()
    url = f"/api/campaigns/{campaign.pk}/"
    assert_error(api_as().post(f"{url}leave/"), 401, "not_authenticated")
    assert_error(api_as().post(f"{url}cancel/"), 401, "not_authenticated")
    assert_error(api_as(joined).post(f"/api/campaigns/{uuid.uuid4()}/leave/"), 404, "not_found")
    assert_error(api_as(stranger).post(f"{url}leave/"), 403, "not_seated")
    assert_error(api_as(creator).post(f"{url}leave/"), 403, "creator_cannot_leave")
    assert_error(api_as(joined).post(f"{url}cancel/"), 403, "not_creator")
    # a leave answers with the campaign document, the seat free
    resp = api_as(joined).post(f"{url}leave/")
    assert resp.status_code == 200 and resp.json()["seats"][1] is None and resp.json()["cancelled"] is None
    assert_error(api_as(joined).post(f"{url}leave/"), 403, "not_seated")
    # a cancel answers with the document, cancelled, by whom and when
    resp = api_as(creator).post(f"{url}cancel/")
    assert resp.status_code == 200
    doc = resp.json()
    assert doc["status"] == "cancelled" and doc == api_as().get(url).json()
    assert set(doc["cancelled"]) == {"by", "username", "at"} and doc["cancelled"]["by"] == creator.pk
    assert_error(api_as(creator).post(f"{url}cancel/"), 409, "campaign_cancelled")
    assert_error(api_as(stranger).post(f"{url}join/"), 409, "campaign_cancelled")
    assert_error(api_as(creator).post(f"{url}start/"), 409, "campaign_cancelled")


def test_leaving_counts_against_the_seat_taking_rate(open_campaign, rates):
    # given a player joining and leaving in a loop
    rates(match_join="2/minute")
    campaign, _, joined = open_campaign
    client = api_as(joined)
    url = f"/api/campaigns/{campaign.pk}/"
    assert client.post(f"{url}leave/").status_code == 200
    assert client.post(f"{url}join/").status_code == 200
    assert client.post(f"{url}leave/").status_code == 200
    client.post(f"{url}join/")
    # then the third leave in the minute is throttled, and it wrote nothing
    resp = client.post(f"{url}leave/")
    assert_error(resp, 429, "throttled")
    assert int(resp["Retry-After"]) > 0
    assert CampaignRecord.objects.filter(campaign=campaign, type=domain.LEFT).count() == 2


# -- the pages -------------------------------------------------------------------------------------


def test_the_page_offers_leave_to_a_joined_player_and_cancel_to_the_creator_both_asking_first(open_campaign, make_user):
    campaign, creator, joined = open_campaign
    path = f"/campaigns/{campaign.pk}/"
    as_joined = browser(joined).get(path).content.decode()
    assert 'data-testid="campaign-leave"' in as_joined and 'data-testid="campaign-cancel"' not in as_joined
    assert f'action="{path}leave/"' in as_joined and 'data-confirm="Leave this campaign?' in as_joined
    as_creator = browser(creator).get(path).content.decode()
    assert 'data-testid="campaign-cancel"' in as_creator and 'data-testid="campaign-leave"' not in as_creator
    assert f'action="{path}cancel/"' in as_creator and 'data-confirm="Cancel this campaign?' in as_creator
    for html in (browser(make_user()).get(path).content.decode(), browser().get(path).content.decode()):
        assert 'data-testid="campaign-leave"' not in html and 'data-testid="campaign-cancel"' not in html
    assert_readable(as_joined)
    assert_readable(as_creator)


def test_leaving_on_the_page_frees_the_seat_and_the_live_fragment_shows_it(open_campaign):
    campaign, creator, joined = open_campaign
    path = f"/campaigns/{campaign.pk}/"
    watcher = browser(creator)
    assert "2 of 3 players have joined" in words(watcher.get(f"{path}?fragment=live").content.decode())
    # when the player who joined leaves from the page
    res = browser(joined).post(f"{path}leave/", follow=True)
    # then they are back on the campaigns list, told so, and it is open to them again
    assert res.redirect_chain[-1][0] == "/campaigns/"
    html = res.content.decode()
    assert "You have left the campaign" in messages_shown(html)
    assert 'data-testid="open-campaigns"' in html and f'data-campaign-id="{campaign.pk}"' in html
    # and the creator's page, refreshing its live part, shows the free seat
    live = words(watcher.get(f"{path}?fragment=live").content.decode())
    assert "1 of 3 players has joined" in live and joined.get_username() not in live


def test_cancelling_on_the_page_says_who_and_when_and_hides_it_from_the_open_list(open_campaign, make_user):
    campaign, creator, joined = open_campaign
    path = f"/campaigns/{campaign.pk}/"
    # a player who is not the creator is told so, and nothing happens
    res = browser(joined).post(f"{path}cancel/", follow=True)
    shown = messages_shown(res.content.decode())
    assert "code-not_creator" in shown and "Only the player who created the campaign can cancel it." in shown
    assert services.campaign_get(campaign.pk)["status"] == "open"
    # when the creator cancels from the page
    res = browser(creator).post(f"{path}cancel/", follow=True)
    html = res.content.decode()
    assert res.redirect_chain[-1][0] == path and "The campaign is cancelled" in messages_shown(html)
    # then its page says it was cancelled, by whom and when, offers nothing more
    at = services.campaign_get(campaign.pk)["cancelled"]["at"]
    for viewer in (joined, make_user(), None):
        page = words(browser(viewer).get(path).content.decode())
        assert f"Cancelled by {creator.get_username()} on {int(at[8:10])} " in page and "UTC" in page
        assert "Join this campaign" not in page and "Leave the campaign" not in page and "a free seat" not in page
        assert "You play" not in page and "set up when the campaign starts" not in page  # it never will
    assert_readable(browser(joined).get(path).content.decode())
    # and the campaigns list shows it among the players' own, never as open to join
    listing = browser(joined).get("/campaigns/").content.decode()
    assert "Cancelled by" in words(listing)
    stranger_list = browser(make_user()).get("/campaigns/").content.decode()
    assert f'data-campaign-id="{campaign.pk}"' not in stranger_list
    # a leave or a join on the cancelled campaign is refused in words
    res = browser(joined).post(f"{path}leave/", follow=True)
    assert "This campaign was cancelled." in messages_shown(res.content.decode())
    res = browser(make_user()).post(f"/campaigns/{campaign.pk}/join/", follow=True)
    assert "This campaign was cancelled." in messages_shown(res.content.decode())


def test_the_creator_leaving_on_the_page_is_told_to_cancel(open_campaign):
    campaign, creator, _ = open_campaign
    res = browser(creator).post(f"/campaigns/{campaign.pk}/leave/", follow=True)
    shown = messages_shown(res.content.decode())
    assert "code-creator_cannot_leave" in shown and "cancel it instead" in shown
    assert services.campaign_get(campaign.pk)["status"] == "open" and Match.objects.count() == 0
