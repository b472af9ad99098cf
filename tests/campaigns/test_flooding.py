"""Campaigns cannot get around the lobby-flooding limits (a probe opened 40 open 4-seat campaigns in
seconds, and 20 active Harakiri matches in 3.8 s by creating 1-seat campaigns and starting them):
creating one is throttled per user (``campaign_create``) and capped (MAX_OPEN_CAMPAIGNS_PER_USER open
campaigns the user created and still sits in), and starting one, which opens a match, counts against
the match creation rate (``match_create``), on the API and the pages alike."""

import pytest

from campaigns import services
from campaigns.models import Campaign
from games.eventstore.models import Match

from tests.frontend.test_account_pages import messages_shown
from tests.frontend.test_tournament_pages import browser
from tests.rest import api_as

pytestmark = pytest.mark.django_db

ONE_SEAT = {"game": "harakiri", "act": 1, "seats": 1}
FOUR_SEATS = {"game": "harakiri", "act": 1, "seats": 4}


def _status(campaign_id) -> str:
    return services.campaign_get(campaign_id)["status"]


def test_campaign_creation_is_throttled_per_user_with_retry_after(make_user, rates, settings):
    rates(campaign_create="3/minute")
    settings.MAX_OPEN_CAMPAIGNS_PER_USER = 100
    flooder, other = api_as(make_user()), api_as(make_user())
    codes = [flooder.post("/api/campaigns/", FOUR_SEATS, format="json").status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    res = flooder.post("/api/campaigns/", FOUR_SEATS, format="json")
    assert res.status_code == 429 and res.json()["code"] == "throttled" and int(res["Retry-After"]) > 0
    assert other.post("/api/campaigns/", FOUR_SEATS, format="json").status_code == 201  # per user
    assert flooder.get("/api/campaigns/").status_code == 200  # reading the list is not throttled
    assert Campaign.objects.count() == 4


def test_a_user_has_at_most_max_open_campaigns(make_user, settings):
    settings.MAX_OPEN_CAMPAIGNS_PER_USER = 2
    alice, bob = make_user(), make_user()
    c = api_as(alice)
    first = c.post("/api/campaigns/", ONE_SEAT, format="json").json()["id"]
    assert c.post("/api/campaigns/", FOUR_SEATS, format="json").status_code == 201
    res = c.post("/api/campaigns/", FOUR_SEATS, format="json")
    assert res.status_code == 409 and res.json()["code"] == "too_many_open_campaigns"
    assert Campaign.objects.filter(created_by=alice).count() == 2
    # another's open campaign that alice joined does not count against her...
    bobs = services.campaign_create(user=bob, game="harakiri", act=1, seats=2)
    services.campaign_join(campaign_id=bobs.pk, user=alice)
    assert c.post("/api/campaigns/", FOUR_SEATS, format="json").status_code == 409
    # ...and starting one of her own (it is no longer open) frees a place
    assert c.post(f"/api/campaigns/{first}/start/").status_code == 200
    assert c.post("/api/campaigns/", FOUR_SEATS, format="json").status_code == 201


def test_starting_a_campaign_counts_against_the_match_creation_rate(make_user, rates, settings):
    rates(match_create="2/minute")
    alice = make_user()
    campaigns = [services.campaign_create(user=alice, game="harakiri", act=1, seats=1).pk for _ in range(3)]
    c = api_as(alice)
    codes = [c.post(f"/api/campaigns/{cid}/start/").status_code for cid in campaigns]
    assert codes == [200, 200, 429]
    res = c.post(f"/api/campaigns/{campaigns[2]}/start/")
    assert res.status_code == 429 and res.json()["code"] == "throttled" and int(res["Retry-After"]) > 0
    assert [_status(cid) for cid in campaigns] == ["active", "active", "open"]
    assert Match.objects.count() == 2  # the third start opened no match


def test_the_campaign_pages_are_capped_and_throttled_too(make_user, rates, settings):
    settings.MAX_OPEN_CAMPAIGNS_PER_USER = 1
    rates(campaign_create="2/minute", match_create="1/minute")
    alice = make_user()
    page = browser(alice)
    form = {"act": "1", "seats": "1", "akira": "0", "hattori": "0", "hikaru": "0", "tomoe": "0"}
    assert page.post("/campaigns/new/", form).status_code == 302
    capped = page.post("/campaigns/new/", form)
    assert capped.status_code == 400 and "You already have 1 open campaigns" in capped.content.decode()
    throttled = page.post("/campaigns/new/", form)
    assert throttled.status_code == 429 and "Retry-After" in throttled
    assert "You are creating campaigns too quickly" in throttled.content.decode()
    assert Campaign.objects.count() == 1
    (first,) = Campaign.objects.all()
    res = page.post(f"/campaigns/{first.pk}/start/", follow=True)
    assert "The campaign has begun" in messages_shown(res.content.decode())
    mine = services.campaign_create(user=alice, game="harakiri", act=1, seats=1)  # a place is free again
    res = page.post(f"/campaigns/{mine.pk}/start/", follow=True)
    shown = messages_shown(res.content.decode())
    assert "code-throttled" in shown and "You are opening matches too quickly" in shown
    assert _status(mine.pk) == "open" and Match.objects.count() == 1
