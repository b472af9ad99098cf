"""Campaign pages through the Django test client: the list (my campaigns, open ones to join, the
create form with real fields), the campaign page (where the party stands in words, continue, join
and start, the party's progress, the sheet, the chapters with match and replay links, the live
fragment), the refusals shown in words, and what a visitor may and may not do. Never a 500, never a
developer term on a page."""

import html as htmllib
import re
import uuid

import pytest

from campaigns import services
from campaigns.models import Campaign
from frontend.campaign_views import standing_words
from games.application import selectors
from games.eventstore.models import Match
from tests.campaigns.helpers import play_to_end
from tests.engines.harakiri_adventure import unread

from .test_account_pages import no_inline_scripts
from .test_csp import check_page
from .test_tournament_pages import browser

pytestmark = pytest.mark.django_db

CONTROL_FORM = {"act": "1", "seats": "2", "akira": "0", "hattori": "0", "hikaru": "1", "tomoe": "1"}
# what a player must never read: ids, raw JSON, Python/JS values, seat numbers counted from 0
DEVELOPER_TERMS = re.compile(r"\b[a-z]+_[a-z0-9_]+\b|\{\"|\bNone\b|\bnull\b|\bseat 0\b|[0-9a-f]{8}-[0-9a-f]{4}-")


def words(html: str) -> str:
    """The page's text as a reader sees it (no tags, attributes, scripts or styles)."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return htmllib.unescape(re.sub(r"<[^>]+>", " ", body))


def messages_of(html: str) -> str:
    return " ".join(re.findall(r'<li class="message[^"]*">(.*?)</li>', html, re.S))


def assert_readable(html: str):
    text = words(html)
    found = DEVELOPER_TERMS.search(text)
    assert not found, f"developer term on the page: {found.group(0)!r} in …{text[max(0, found.start() - 80):found.end() + 80]}…"
    assert no_inline_scripts(html)


def test_the_list_shows_my_campaigns_and_open_ones_and_needs_a_login_to_act(make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    mine = services.campaign_create(user=alice, game="harakiri", act=1, seats=2)
    services.campaign_create(user=bob, game="harakiri", act=1, seats=3)

    page = browser().get("/campaigns/")
    html = page.content.decode()
    assert page.status_code == 200 and 'href="/campaigns/"' in html  # in the site navigation
    assert "Sign in" in html and 'data-testid="campaign-form"' not in html
    assert html.count('data-testid="open-campaigns"') == 1 and f'data-campaign-id="{mine.pk}"' in html
    assert_readable(html)

    html = browser(alice).get("/campaigns/").content.decode()
    my_list = html.split('data-testid="my-campaigns"')[1].split("</ul>")[0]
    assert f'data-campaign-id="{mine.pk}"' in my_list and "Gathering the party: 1 of 2 players has joined." in words(my_list)
    open_list = html.split('data-testid="open-campaigns"')[1]
    assert f'data-campaign-id="{mine.pk}"' not in open_list  # not offered to join what I am in
    assert bob.username in open_list and "Join" in open_list
    assert_readable(html)

    # the create form has real fields: act, players, who plays each character
    form = html.split('data-testid="campaign-form"')[1].split("</form>")[0]
    assert "<textarea" not in form
    for name in ("act", "seats", "akira", "hattori", "hikaru", "tomoe"):
        assert re.search(rf'<select name="{name}"', form), name
    assert "Akira (ronin) is played by" in form and "Player 1 (you)" in form
    assert browser(carol).get("/campaigns/").status_code == 200

    # acting needs a login; pages that only act refuse GET (the form's own address goes back to the list)
    for path in ("/campaigns/new/", f"/campaigns/{mine.pk}/join/", f"/campaigns/{mine.pk}/start/"):
        res = browser().post(path, CONTROL_FORM)
        assert res.status_code == 302 and res["Location"].startswith("/login/?next="), path
        assert browser(alice).get(path).status_code == (302 if path == "/campaigns/new/" else 405), path
    assert Campaign.objects.count() == 2


def test_creating_a_campaign_from_the_form(make_user):
    alice = make_user()
    client = browser(alice)
    res = client.post("/campaigns/new/", CONTROL_FORM)
    assert res.status_code == 302
    campaign = Campaign.objects.get(created_by=alice)
    assert res["Location"] == f"/campaigns/{campaign.pk}/"
    doc = services.campaign_get(campaign.pk)
    assert (doc["act"], len(doc["seats"]), doc["control"]) == (1, 2, {"akira": 0, "hattori": 0, "hikaru": 1, "tomoe": 1})
    html = client.get(res["Location"]).content.decode()
    assert "Your campaign is open" in messages_of(html)
    assert "Gathering the party: 1 of 2 players has joined." in words(html)
    assert "Next: the other players join." in words(html) and 'data-testid="campaign-start"' not in html
    assert_readable(html)


@pytest.mark.parametrize("change,needle", [
    ({"akira": "1", "hattori": "1", "hikaru": "1", "tomoe": "1"}, "Every player needs at least one character: player 1 has none."),
    ({"tomoe": "2"}, "There is no player 3 in a campaign for 2."),
    ({"seats": "5"}, "Select a valid choice."),
    ({"act": "9"}, "Select a valid choice."),
    ({"hikaru": "x"}, "Select a valid choice."),
])
def test_a_bad_form_is_shown_again_with_the_reason_in_words(make_user, change, needle):
    alice = make_user()
    res = browser(alice).post("/campaigns/new/", {**CONTROL_FORM, **change})
    html = res.content.decode()
    assert res.status_code == 400 and needle in html, words(html)[:2000]
    assert not Campaign.objects.exists()
    assert_readable(html)


def test_reloading_the_address_a_refused_form_was_shown_at_goes_back_to_the_list(make_user):
    # given a refused form shown at /campaigns/new/, when the player reloads that address (a GET)
    res = browser(make_user()).get("/campaigns/new/")
    # then they are back on the campaigns page (before: a bare 405)
    assert res.status_code == 302 and res["Location"] == "/campaigns/"


def test_join_and_start_from_the_page_and_their_refusals(make_user, django_capture_on_commit_callbacks):
    alice, bob, carol = make_user(), make_user(), make_user()
    cid = services.campaign_create(user=alice, game="harakiri", act=1, seats=2,
                                   control={"akira": 0, "hattori": 1, "hikaru": 0, "tomoe": 1}).pk
    page = f"/campaigns/{cid}/"

    html = browser().get(page).content.decode()  # a visitor may look, and is asked to sign in to join
    assert "Sign in to join" in html and 'data-testid="campaign-start"' not in html
    assert_readable(html)
    html = browser(bob).get(page).content.decode()
    assert 'data-testid="campaign-join"' in html

    res = browser(alice).post(f"{page}start/", follow=True)
    assert "Every seat must be taken before the campaign can start." in messages_of(res.content.decode())
    res = browser(alice).post(f"{page}join/", follow=True)
    assert "You already have a seat in this campaign." in messages_of(res.content.decode())
    res = browser(bob).post(f"{page}join/", follow=True)
    html = res.content.decode()
    assert "You have joined the campaign." in messages_of(html)
    assert "Everyone has joined: waiting for the campaign to start." in words(html)
    assert f"Next: {alice.username}, who created the campaign, starts it." in words(html)
    res = browser(carol).post(f"{page}join/", follow=True)
    assert "Every seat of this campaign is taken." in messages_of(res.content.decode())
    res = browser(bob).post(f"{page}start/", follow=True)
    assert "Only the player who created the campaign can start it." in messages_of(res.content.decode())

    html = browser(alice).get(page).content.decode()
    assert 'data-testid="campaign-start"' in html
    with django_capture_on_commit_callbacks(execute=True):
        res = browser(alice).post(f"{page}start/", follow=True)
    html = res.content.decode()
    doc = services.campaign_get(cid)
    assert "The campaign has begun" in messages_of(html) and doc["phase"] == "adventure"
    # both players choose their characters' weapons first: each page names the player's own
    assert "Chapter 1, Adventure Phase: your move (Akira, Hikaru)." in words(html)
    assert f'href="/matches/{doc["current_match"]}/"' in html and "Continue: it is your move" in html
    assert "Chapter 1, Adventure Phase: your move (Hattori, Tomoe)." in words(browser(bob).get(page).content.decode())
    # rules: Harakiri Adventure, "Character's Setup" step 3: a first chapter's Kami is chosen, not given
    assert "chosen in the Preparation" in words(html)
    back = f'<a href="{page}">campaign</a>'
    match_page = browser(alice).get(f'/matches/{doc["current_match"]}/').content.decode()
    assert f"This match is part of a {back}: chapter 1, Adventure Phase." in match_page
    assert f"· {back}, chapter 1, Adventure Phase</span>" in browser(alice).get("/lobby/").content.decode()
    spectator = browser(carol).get(page).content.decode()
    assert "Watch the current phase" in spectator and "your move" not in words(spectator)
    assert_readable(html)
    assert_readable(spectator)
    res = browser(alice).post(f"{page}start/", follow=True)
    assert "This campaign has already started." in messages_of(res.content.decode())

    # the live fragment: the same region, without the page around it
    frag = browser(bob).get(f"{page}?fragment=live")
    text = frag.content.decode()
    assert frag.status_code == 200 and "<html" not in text and f'data-current-match="{doc["current_match"]}"' in text


def test_unknown_campaigns_are_a_404_page(make_user):
    alice = make_user()
    for path in (f"/campaigns/{uuid.uuid4()}/", f"/campaigns/{uuid.uuid4()}/?fragment=live"):
        res = browser(alice).get(path)
        assert res.status_code == 404 and "No such campaign" in res.content.decode()
    assert browser().get("/campaigns/not-a-uuid/").status_code == 404
    res = browser(alice).post(f"/campaigns/{uuid.uuid4()}/join/", follow=True)
    assert res.status_code == 404 and "There is no such campaign." in messages_of(res.content.decode())


def test_after_a_finished_phase_the_page_shows_the_sheet_the_party_and_the_replay(make_user,
                                                                                django_capture_on_commit_callbacks):
    alice = make_user()
    cid = services.campaign_create(user=alice, game="harakiri", act=1, seats=1).pk
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_start(campaign_id=cid, user=alice)
    adventure = services.campaign_get(cid)["current_match"]
    play_to_end(adventure, f"pages-{cid}", django_capture_on_commit_callbacks)
    doc = services.campaign_get(cid)
    assert doc["phase"] == "exploration" and doc["history"][0]["outcome"] in ("success", "failure")

    html = browser(alice).get(f"/campaigns/{cid}/").content.decode()
    text = words(html)
    assert "Chapter 1, Exploration Phase" in text
    assert f'href="/matches/{adventure}/replay/"' in html and f'href="/matches/{adventure}/"' in html
    assert f'href="/matches/{doc["current_match"]}/"' in html
    chapters = words(html.split('data-testid="campaign-chapters"')[1].split("</section>")[0])
    assert f"Adventure Phase: {doc['history'][0]['outcome']}" in re.sub(r"\s+", " ", chapters)
    assert "Exploration Phase: being played" in re.sub(r"\s+", " ", chapters)
    sheet = doc["sheet"]
    mark = sheet["marks"][0]
    from games.engines.harakiri.adventure.content import ACT1
    assert ACT1["marks"][mark] in text and mark not in text  # the chapter's mark, by its name
    for cid_, case in sheet["characters"].items():
        hero = html.split(f'data-character="{cid_}"')[1].split("</article>")[0]
        assert f"level {case['level']}" in hero and f"{case['health']} of" in hero
        assert f"{case['coins']} coin" in hero and "affinity" in hero
    assert "As the last finished phase handed the characters on." in text
    assert_readable(html)
    # the page names no campaign-book entry the finished Adventure Phase did not read (chapters 2
    # and 3 are not begun: none of theirs)
    texts, _ = unread.secrets()
    reached = unread.moments(1, selectors.events_unredacted(Match.objects.get(pk=adventure)))
    unknown = [t for t, at in unread.known_from(texts, reached).items() if at == unread.NEVER]
    assert unknown and not [t for t in unknown if t in htmllib.unescape(html)]


def test_the_campaign_pages_satisfy_the_content_security_policy(make_user, django_capture_on_commit_callbacks):
    alice = make_user()
    cid = services.campaign_create(user=alice, game="harakiri", act=1, seats=1).pk
    for client in (browser(), browser(alice)):
        for path in ("/campaigns/", f"/campaigns/{cid}/", f"/campaigns/{cid}/?fragment=live"):
            check_page(client.get(path))
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_start(campaign_id=cid, user=alice)
    check_page(browser(alice).get(f"/campaigns/{cid}/"))
    check_page(browser(alice).get(f"/matches/{services.campaign_get(cid)['current_match']}/"))


@pytest.mark.parametrize("standing,sentence", [
    ({"status": "open", "seats_taken": 1, "seats": 3}, "Gathering the party: 1 of 3 players has joined."),
    ({"status": "open", "seats_taken": 2, "seats": 4}, "Gathering the party: 2 of 4 players have joined."),
    ({"status": "open", "seats_taken": 2, "seats": 2}, "Everyone has joined: waiting for the campaign to start."),
    ({"status": "finished", "outcome": "success"}, "The campaign is over: its last phase ended in success."),
    ({"status": "active", "chapter": 2, "phase": "between", "match_id": None, "failed": True},
     "Chapter 2: the next phase could not be opened. The staff has been told and can retry it."),
    ({"status": "active", "chapter": 2, "phase": "between", "match_id": None}, "Chapter 2: the next phase is being prepared."),
    ({"status": "active", "chapter": 2, "phase": "exploration", "match_id": "m", "system": False,
      "waiting": [{"username": "bob", "you": False, "characters": ["Tomoe"]}]},
     "Chapter 2, Exploration Phase, waiting for Tomoe (bob)."),
    ({"status": "active", "chapter": 1, "phase": "adventure", "match_id": "m", "system": False,
      "waiting": [{"username": "ann", "you": False, "characters": []}, {"username": "bob", "you": False, "characters": ["Hikaru", "Tomoe"]}]},
     "Chapter 1, Adventure Phase, waiting for ann or Hikaru, Tomoe (bob)."),
    ({"status": "active", "chapter": 1, "phase": "adventure", "match_id": "m", "system": False,
      "waiting": [{"username": "ann", "you": True, "characters": ["Akira"]}]}, "Chapter 1, Adventure Phase: your move (Akira)."),
    ({"status": "active", "chapter": 3, "phase": "adventure", "match_id": "m", "system": True, "waiting": []},
     "Chapter 3, Adventure Phase: the Shōgun and the enemies are moving."),
])
def test_where_the_party_stands_in_one_sentence(standing, sentence):
    assert standing_words(standing) == sentence


def test_yomi_mode_from_the_form_and_a_next_phase_that_could_not_open(make_user, django_capture_on_commit_callbacks,
                                                                     monkeypatch):
    from campaigns import domain

    alice = make_user()
    client = browser(alice)
    assert 'name="yomi_mode"' in client.get("/campaigns/").content.decode()
    res = client.post("/campaigns/new/", {"act": "1", "seats": "1", "akira": "0", "hattori": "0", "hikaru": "0",
                                          "tomoe": "0", "yomi_mode": "on"})
    cid = Campaign.objects.get(created_by=alice).pk
    assert res.status_code == 302 and services.campaign_get(cid)["yomi"]["marks"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        services.campaign_start(campaign_id=cid, user=alice)
    real = domain.exploration_options

    def refused(state, chapter, outcome, missions=None):  # a party the Exploration Phase's option validation refuses
        options = real(state, chapter, outcome, missions)
        return {**options, "party": {**options["party"], "akira": {**options["party"]["akira"], "level": 9}}}

    monkeypatch.setattr(domain, "exploration_options", refused)
    play_to_end(services.campaign_get(cid)["current_match"], f"yomi-{cid}", django_capture_on_commit_callbacks)
    doc = services.campaign_get(cid)
    assert doc["failure"] and doc["failure"]["code"] == "bad_options"
    html = client.get(f"/campaigns/{cid}/").content.decode()
    text = re.sub(r"\s+", " ", words(html))
    assert "Chapter 1: the next phase could not be opened. The staff has been told and can retry it." in text
    assert "bad_options" not in html and 'data-testid="campaign-continue"' not in html
    marks = doc["yomi"]["marks"]
    assert f"Yomi track {marks} box" in text and "the next bold square is" in text
    assert_readable(html)
