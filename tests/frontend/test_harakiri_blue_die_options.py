"""The optional rule "Replace the Red Die" (Harakiri option ``blue_die``) is offered where matches and
campaigns are created: the lobby's form, the new-campaign form, the campaigns API (and its schema)."""

import re

import pytest
from rest_framework.test import APIClient

from campaigns import services
from campaigns.models import Campaign
from games.projections.models import MatchSummary

from .test_tournament_pages import browser

pytestmark = pytest.mark.django_db

LABEL = "Blue die instead of red"


def test_the_lobbys_create_form_offers_the_blue_die_and_creates_a_match_with_it(client, make_user):
    # rules: Harakiri, "Optional Rule: Replace the Red Die"
    client.force_login(make_user(username="mika"))
    html = client.get("/lobby/?game=harakiri").content.decode()
    field = re.search(r'<input[^>]*name="harakiri__blue_die"[^>]*>', html)
    assert field and 'type="checkbox"' in field.group(0) and "checked" not in field.group(0)  # off by default
    assert LABEL in html and "same average" in html
    resp = client.post("/matches/new/", {"game": "harakiri", "seats": "1", "harakiri__blue_die": "on",
                                         "harakiri__failure_procedure": "on"})
    assert resp.status_code == 302, resp.context["create_form"].errors if resp.context else resp
    match = MatchSummary.objects.get(match_id=resp["Location"].split("/")[2]).match
    assert match.options == {"blue_die": True}
    resp = client.post("/matches/new/", {"game": "harakiri", "seats": "1", "harakiri__failure_procedure": "on"})
    assert MatchSummary.objects.get(match_id=resp["Location"].split("/")[2]).match.options == {}


def test_the_new_campaign_form_offers_the_blue_die_and_the_campaign_page_says_it(make_user):
    # rules: Harakiri, "Optional Rule: Replace the Red Die"
    alice = make_user()
    client = browser(alice)
    html = client.get("/campaigns/").content.decode()
    assert 'name="blue_die"' in html and "Blue die instead of red (optional rule, Souls of Yomi)" in html
    res = client.post("/campaigns/new/", {"act": "1", "seats": "1", "akira": "0", "hattori": "0", "hikaru": "0",
                                          "tomoe": "0", "blue_die": "on"})
    cid = Campaign.objects.get(created_by=alice).pk
    assert res.status_code == 302 and services.campaign_get(cid)["blue_die"] is True
    page = client.get(f"/campaigns/{cid}/").content.decode()
    assert 'data-testid="campaign-blue-die"' in page and "Replace the Red Die" in page
    bob = make_user()
    browser(bob).post("/campaigns/new/", {"act": "1", "seats": "1", "akira": "0", "hattori": "0", "hikaru": "0",
                                          "tomoe": "0"})
    other = Campaign.objects.get(created_by=bob).pk
    assert services.campaign_get(other)["blue_die"] is False
    assert 'data-testid="campaign-blue-die"' not in browser(bob).get(f"/campaigns/{other}/").content.decode()


def test_the_campaigns_api_schema_offers_the_blue_die(make_user):
    # rules: Harakiri, "Optional Rule: Replace the Red Die"
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()["components"]["schemas"]
    create = schema["CampaignCreateRequest"] if "CampaignCreateRequest" in schema else schema["CampaignCreate"]
    assert create["properties"]["blue_die"]["type"] == "boolean" and "blue_die" not in create.get("required", [])
    assert schema["Campaign"]["properties"]["blue_die"]["type"] == "boolean" and "blue_die" in schema["Campaign"]["required"]
    api = APIClient()
    api.force_authenticate(make_user())
    assert api.post("/api/campaigns/", {"game": "harakiri", "act": 1, "seats": 1, "blue_die": "perhaps"},
                    format="json").json()["code"] == "malformed"
    cid = api.post("/api/campaigns/", {"game": "harakiri", "act": 1, "seats": 1}, format="json").json()["id"]
    assert api.get(f"/api/campaigns/{cid}/").json()["blue_die"] is False
