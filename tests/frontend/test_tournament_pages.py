"""Tournament pages through the Django test client: list, create form (real fields, per-game match
options), the tournament page (register/withdraw/start/drop, pairings with watch links, standings with
tiebreaks, the bracket), and the refusals shown as messages."""

import re
import uuid

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from games.tournaments import selectors, services
from games.tournaments.models import Tournament
from games.tournaments.policies import tournament_match_finished

from .test_account_pages import no_inline_scripts

pytestmark = pytest.mark.django_db

FORM = {"name": "Harbour Cup", "game": "yashima", "format": "swiss", "table_size": "2", "round_minutes": "40",
        "rated": "on", "yashima__turn_seconds": "75", "yashima__defense_seconds": "45",
        "yashima__restore_shuffle": "no"}


@pytest.fixture
def organizer(make_user):
    user = make_user()
    user.groups.add(Group.objects.get(name="organizers"))
    return user


def browser(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _messages(html: str) -> str:
    return " ".join(re.findall(r'<li class="message[^"]*">(.*?)</li>', html, re.S))


def test_header_links_to_the_list_and_the_list_shows_events(organizer):
    services.tournament_create(creator=organizer, name="Listed Open", game="yokai", format="round_robin",
                               table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    html = browser().get("/").content.decode()
    assert 'href="/tournaments/"' in html
    page = browser().get("/tournaments/")
    html = page.content.decode()
    assert page.status_code == 200 and "Listed Open" in html and "Round robin" in html and no_inline_scripts(html)
    assert "Create a tournament" not in html
    assert "Create a tournament" in browser(organizer).get("/tournaments/").content.decode()
    assert "Listed Open" not in browser().get("/tournaments/?status=running").content.decode()


def test_the_create_form_has_real_fields_and_creates(organizer):
    page = browser(organizer).get("/tournaments/new/")
    html = page.content.decode()
    assert page.status_code == 200 and no_inline_scripts(html) and "<textarea" not in html
    for name in ("name", "game", "format", "table_size", "teams", "rounds", "top_cut", "round_minutes", "starts_at",
                 "rated", "yashima__turn_seconds", "yashima__defense_seconds"):
        assert f'name="{name}"' in html, name
    assert 'data-game="yokai"' in html and 'data-game="yashima"' in html
    res = browser(organizer).post("/tournaments/new/", FORM)
    t = Tournament.objects.get(name="Harbour Cup")
    assert res.status_code == 302 and res["Location"] == f"/tournaments/{t.pk}/"
    assert t.match_options == {"turn_seconds": 75, "defense_seconds": 45, "restore_shuffle": False, "teams": False}
    assert t.round_minutes == 40 and t.rated and t.format == "swiss"
    assert t.scoring == {}  # every scoring setting left at its default


def test_the_create_form_sets_the_provisional_scoring(organizer):
    html = browser(organizer).get("/tournaments/new/").content.decode()
    for name in ("pod_scoring", "bye_points", "tiebreak_1", "tiebreak_2", "tiebreak_3"):
        assert f'name="{name}"' in html, name
    res = browser(organizer).post("/tournaments/new/", {
        **FORM, "name": "Pod Night", "game": "yokai", "table_size": "4", "yokai__turn_seconds": "60",
        "pod_scoring": "shared_win", "bye_points": "1", "tiebreak_1": "omw", "tiebreak_2": "head_to_head"})
    t = Tournament.objects.get(name="Pod Night")
    assert res.status_code == 302
    assert t.scoring == {"pod_scoring": "shared_win", "bye_points": 1, "tiebreaks": ["omw", "head_to_head"]}
    assert selectors.tournament_detail(t)["scoring"] == {"pod_scoring": "shared_win", "bye_points": 1,
                                                         "tiebreaks": ["omw", "head_to_head", "seed_draw"]}
    res = browser(organizer).post("/tournaments/new/", {**FORM, "name": "Twice", "tiebreak_1": "omw",
                                                        "tiebreak_2": "omw"})
    assert res.status_code == 400 and "invalid_tiebreaks" in res.content.decode()


def test_the_create_form_shows_refusals_and_keeps_players_out(organizer, make_user):
    res = browser(organizer).post("/tournaments/new/", {**FORM, "yashima__turn_seconds": ""})
    assert res.status_code == 400 and "clock_required" in res.content.decode()
    res = browser(organizer).post("/tournaments/new/", {**FORM, "round_minutes": "0"})
    assert res.status_code == 400
    assert browser(make_user()).get("/tournaments/new/").status_code == 403
    assert browser(make_user()).post("/tournaments/new/", FORM).status_code == 403
    assert browser().get("/tournaments/new/").status_code == 302  # to the login
    assert not Tournament.objects.exists()


def test_register_start_pairings_results_and_withdraw(organizer, make_user):
    t = services.tournament_create(creator=organizer, name="Page Open", game="yashima", format="swiss",
                                   table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    url = f"/tournaments/{t.pk}/"
    players = [make_user() for _ in range(4)]
    anon = browser().get(url).content.decode()
    assert "Sign in" in anon and 'data-testid="register"' not in anon and no_inline_scripts(anon)
    assert f'data-ws-path="/ws/tournaments/{t.pk}/"' in anon
    assert 'data-testid="standings"' not in anon  # no standings before anyone has played
    for p in players:
        res = browser(p).post(f"{url}register/", follow=True)
        assert "You are registered." in _messages(res.content.decode())
    again = browser(players[0]).post(f"{url}register/", follow=True).content.decode()
    assert "already_registered" in _messages(again)
    refused = browser(players[0]).post(f"{url}start/", follow=True).content.decode()
    assert "not_organizer" in _messages(refused)
    assert 'data-testid="start"' in browser(organizer).get(url).content.decode()
    browser(organizer).post(f"{url}start/")

    pairings = selectors.tournament_pairings(selectors.tournament_get(t.pk))
    html = browser(players[0]).get(url).content.decode()
    assert 'data-testid="pairings-round-1"' in html
    for p in pairings:
        assert f'href="/matches/{p["match_id"]}/"' in html  # watch links
    for name in ("Buchholz cut-1", "Sonneborn-Berger", "Head-to-head"):
        assert f"<th>{name}</th>" in html
    assert "<th>Seed draw</th>" not in html and "draw from the published seed hash" in html
    tournament_match_finished(match_id=pairings[0]["match_id"], winners=[0])
    fragment = browser().get(f"{url}?fragment=live").content.decode()
    assert "by play" in fragment and 'class="winner' in fragment and "<html" not in fragment

    assert 'data-testid="pause"' in browser(organizer).get(url).content.decode()
    assert 'data-testid="pause"' not in browser(players[0]).get(url).content.decode()
    res = browser(organizer).post(f"{url}pause/", follow=True).content.decode()
    assert "The round clock is paused." in _messages(res) and 'data-testid="clock-paused"' in res
    assert "already_paused" in _messages(browser(organizer).post(f"{url}pause/", follow=True).content.decode())
    res = browser(organizer).post(f"{url}resume/", follow=True).content.decode()
    assert "The round clock runs again." in _messages(res) and "round ends" in res

    late = browser(make_user()).post(f"{url}register/", follow=True).content.decode()
    assert "registration_closed" in _messages(late)
    drop = next(e for e in selectors.tournament_detail(t)["entrants"] if players[3].pk in e["user_ids"])
    res = browser(organizer).post(f"{url}drop/", {"entrant_id": drop["entrant_id"]}, follow=True).content.decode()
    assert "The entrant was dropped." in _messages(res) and "(dropped)" in res
    res = browser(players[2]).post(f"{url}withdraw/", follow=True).content.decode()
    assert "You have withdrawn." in _messages(res)


def test_elimination_page_draws_the_bracket(organizer, make_user):
    t = services.tournament_create(creator=organizer, name="Knockout", game="yashima", format="single_elimination",
                                   table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    for _ in range(5):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    html = browser().get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="bracket"' in html
    # 5 entrants: a bracket of 8 - quarter-finals (with byes), semi-finals, final
    assert html.count('class="bracket-round"') == 3
    assert "Quarter-finals" in html and "Semi-finals" in html and "Final" in html
    assert html.count('class="bracket-match"') == 4 + 2 + 1


def test_unknown_tournament_page_is_404():
    assert browser().get(f"/tournaments/{uuid.uuid4()}/").status_code == 404


def test_a_team_registers_with_a_partner_on_the_page(organizer, make_user):
    t = services.tournament_create(creator=organizer, name="Pairs Cup", game="yashima", format="swiss",
                                   table_size=4, teams=True, round_minutes=30, match_options={"turn_seconds": 60})
    url = f"/tournaments/{t.pk}/"
    alice, bob = make_user(), make_user()
    assert 'name="partner"' in browser(alice).get(url).content.decode()
    res = browser(alice).post(f"{url}register/", {"partner": "no-such-player"}, follow=True).content.decode()
    assert "unknown_partner" in _messages(res)
    res = browser(alice).post(f"{url}register/", {"partner": bob.username}, follow=True).content.decode()
    assert "You are registered." in _messages(res) and f"{alice.username} &amp; {bob.username}" in res
    assert selectors.tournament_detail(t)["entrants"][0]["user_ids"] == [alice.pk, bob.pk]
