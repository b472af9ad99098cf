"""Tournament pages through the Django test client: list, create form (real fields, per-game match
options), the tournament page (register/withdraw/start/drop, pairings with watch links, standings with
tiebreaks, the bracket), and the refusals shown as messages."""

import uuid

import pytest
from django.test import Client

from games.tournaments import selectors, services
from games.tournaments.models import TeamInvitation, Tournament
from games.tournaments.policies import tournament_advance, tournament_match_finished

from .test_account_pages import messages_shown, no_inline_scripts

pytestmark = pytest.mark.django_db

FORM = {"name": "Harbour Cup", "game": "yashima", "format": "swiss", "table_size": "2", "round_minutes": "40",
        "rated": "on", "yashima__turn_seconds": "75", "yashima__defense_seconds": "45",
        "yashima__restore_shuffle": "no"}


def browser(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


_messages = messages_shown


def test_header_links_to_the_list_and_the_list_shows_events(organizer):
    services.tournament_create(creator=organizer, name="Listed Open", game="yokai", format="round_robin",
                               table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    html = browser().get("/").content.decode()
    assert 'href="/tournaments/"' in html
    page = browser().get("/tournaments/")
    html = page.content.decode()
    assert page.status_code == 200 and "Listed Open" in html and "Round robin" in html and no_inline_scripts(html)
    assert '<div class="table-wrap" tabindex="0" role="region" aria-label="Tournaments"><table' in html  # phones scroll it
    assert "Create a tournament" not in html
    assert "Create a tournament" in browser(organizer).get("/tournaments/").content.decode()
    running = browser().get("/tournaments/?status=running").content.decode()
    assert "Listed Open" not in running and "No tournament is running now." in running
    # a player who cannot create one learns who does
    assert "Tournaments are set up by the site's organizers" in running
    assert "set up by the site's organizers" not in browser(organizer).get("/tournaments/?status=running").content.decode()


def test_the_create_form_has_real_fields_and_creates(organizer):
    page = browser(organizer).get("/tournaments/new/")
    html = page.content.decode()
    assert page.status_code == 200 and no_inline_scripts(html) and "<textarea" not in html
    for name in ("name", "game", "format", "table_size", "teams", "rounds", "top_cut", "round_minutes", "starts_at",
                 "rated", "yashima__turn_seconds", "yashima__defense_seconds"):
        assert f'name="{name}"' in html, name
    assert 'data-game="yokai"' in html and 'data-game="yashima"' in html
    # the event's own teams setting stands for the games' team options (a table seats 2 to 4)
    assert 'name="yashima__teams"' not in html and 'name="yashima__team_size"' not in html
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
    html = res.content.decode()
    assert res.status_code == 400 and "Each tiebreak is listed once." in html and "invalid_tiebreaks" not in html


def test_the_create_form_shows_refusals_and_keeps_players_out(organizer, make_user):
    res = browser(organizer).post("/tournaments/new/", {**FORM, "yashima__turn_seconds": ""})
    html = res.content.decode()
    assert res.status_code == 400 and "set the seconds per turn" in html and "clock_required" not in html
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
    # the draw's fingerprint in full (a phone has no tooltip to hover), its seed kept back until the start
    t.refresh_from_db()
    assert 'data-testid="draw-check"' in anon and t.seed_hash in anon and t.seed not in anon
    for p in players:
        res = browser(p).post(f"{url}register/", follow=True)
        assert "You are registered." in _messages(res.content.decode())
    again = browser(players[0]).post(f"{url}register/", follow=True).content.decode()
    assert "code-already_registered" in _messages(again)
    refused = browser(players[0]).post(f"{url}start/", follow=True).content.decode()
    assert "code-not_organizer" in _messages(refused)
    assert 'data-testid="start"' in browser(organizer).get(url).content.decode()
    browser(organizer).post(f"{url}start/")

    pairings = selectors.tournament_pairings(selectors.tournament_get(t.pk))
    watching = browser().get(url).content.decode()
    assert f'Seed, revealed at the start: <code class="wrap-anywhere">{t.seed}</code>' in watching
    for p in pairings:  # a spectator may watch every match (behind: the page says how far)
        assert f'href="/matches/{p["match_id"]}/"' in watching
    assert "spectators see each match 1 minute and 1 turn behind the players." in watching
    html = browser(players[0]).get(url).content.decode()
    assert 'data-testid="pairings-round-1"' in html
    entrant_of = {e["entrant_id"]: e["user_ids"] for e in selectors.tournament_detail(t)["entrants"]}
    own = next(p for p in pairings if any(players[0].pk in entrant_of[e] for e in p["entrant_ids"]))
    other = next(p for p in pairings if p is not own)
    assert f'href="/matches/{own["match_id"]}/"' in html  # their own match: watch (play) it
    # fair play: a player's page does not offer the live view it would refuse, and says why
    assert f'href="/matches/{other["match_id"]}/"' not in html and html.count('data-testid="watch-closed"') == 1
    assert "players of this tournament can watch the other matches only once they have ended" in html
    # running, but no match has a result: the seeding is not a standing yet
    assert 'data-testid="standings"' not in html and 'data-testid="no-standings"' in html
    # the table's match and the lobby's row both say which tournament (and round, table) it belongs to
    back = f'<a href="{url}">Page Open</a>'
    match_page = browser(players[0]).get(f'/matches/{own["match_id"]}/').content.decode()
    assert f"This match is part of {back}: round 1, table {own['table']}." in match_page
    lobby = browser(players[0]).get("/lobby/").content.decode()
    assert f"· {back}, round 1, table {own['table']}</span>" in lobby
    tournament_match_finished(match_id=other["match_id"], winners=[0])
    fragment = browser().get(f"{url}?fragment=live").content.decode()
    assert '<span class="muted small" data-testid="result-by">played</span>' in fragment  # words, not the API's "play"
    assert "by play" not in fragment and 'class="winner' in fragment and "<html" not in fragment
    assert 'data-testid="standings"' in fragment
    for name in ("Buchholz cut-1", "Sonneborn-Berger", "Head-to-head"):
        assert f'<th class="num tiebreak">{name}</th>' in fragment  # hidden on a phone: the page says so
    assert "the tie-break columns are hidden" in fragment
    # named for what it is: the seed, revealed at the start, that the draw is computed from
    assert ">Seed draw</th>" not in fragment and "broken by the tie-break draw named above" in fragment
    assert "tie-break draw seed" in fragment and 'data-testid="draw-key"' in fragment
    # the watch and replay links never break mid-word in a narrow column
    assert '<td class="links">' in fragment
    mine = browser(players[0]).get(f"{url}?fragment=live").content.decode()  # once it has ended: open to all
    assert f'href="/matches/{other["match_id"]}/"' in mine and 'data-testid="watch-closed"' not in mine

    assert 'data-testid="pause"' in browser(organizer).get(url).content.decode()
    assert 'data-testid="pause"' not in browser(players[0]).get(url).content.decode()
    res = browser(organizer).post(f"{url}pause/", follow=True).content.decode()
    assert "The round&#x27;s time limit and the players&#x27; turn clocks are stopped." in _messages(res)
    assert 'data-testid="clock-paused"' in res
    assert "code-already_paused" in _messages(browser(organizer).post(f"{url}pause/", follow=True).content.decode())
    res = browser(organizer).post(f"{url}resume/", follow=True).content.decode()
    assert "The round time limit runs again." in _messages(res) and "round ends" in res

    late = browser(make_user()).post(f"{url}register/", follow=True).content.decode()
    assert "code-registration_closed" in _messages(late)
    drop = next(e for e in selectors.tournament_detail(t)["entrants"] if players[3].pk in e["user_ids"])
    res = browser(organizer).post(f"{url}drop/", {"entrant_id": drop["entrant_id"]}, follow=True).content.decode()
    assert f"{drop['name']} was dropped: not paired again, results kept." in _messages(res) and "(dropped)" in res
    unknown = str(uuid.uuid4())  # an entrant no longer there: said in words, never by its id
    res = browser(organizer).post(f"{url}drop/", {"entrant_id": unknown}, follow=True).content.decode()
    shown = _messages(res)
    assert "That entrant is no longer in this tournament." in shown and unknown not in shown
    res = browser(players[2]).post(f"{url}withdraw/", follow=True).content.decode()
    assert "You have dropped out: you are not paired again, and your results so far stay." in _messages(res)


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


def test_a_team_registers_with_a_partner_on_the_page_once_the_partner_accepts(organizer, make_user):
    t = services.tournament_create(creator=organizer, name="Pairs Cup", game="yashima", format="swiss",
                                   table_size=4, teams=True, round_minutes=30, match_options={"turn_seconds": 60})
    url = f"/tournaments/{t.pk}/"
    alice, bob, carol = make_user(), make_user(), make_user()
    as_alice, as_bob, as_carol = browser(alice), browser(bob), browser(carol)
    assert 'name="partner"' in as_alice.get(url).content.decode()
    res = as_alice.post(f"{url}register/", {"partner": "no-such-player"}, follow=True).content.decode()
    assert "code-unknown_partner" in _messages(res)
    res = as_alice.post(f"{url}register/", {"partner": bob.username}, follow=True).content.decode()
    assert f"We asked {bob.username} to be your partner" in _messages(res)
    assert 'data-testid="invitation-sent"' in res and selectors.tournament_detail(t)["entrants"] == []
    listing = as_bob.get("/tournaments/").content.decode()  # bob learns of it on the tournaments page...
    assert 'data-testid="invitations"' in listing and alice.username in listing and "Pairs Cup" in listing
    page = as_bob.get(url).content.decode()  # ...and answers on the tournament's
    assert 'data-testid="invitation-received"' in page and f"<strong>{alice.username}</strong> asks you" in page
    assert 'data-testid="invitation-received"' not in as_carol.get(url).content.decode()
    invitation = TeamInvitation.objects.get(tournament=t)
    res = as_bob.post(f"{url}invitations/{invitation.pk}/accept/", follow=True).content.decode()
    assert "Your team is registered." in _messages(res) and f"{alice.username} &amp; {bob.username}" in res
    assert selectors.tournament_detail(t)["entrants"][0]["user_ids"] == [alice.pk, bob.pk]
    assert 'data-testid="invitations"' not in as_bob.get("/tournaments/").content.decode()

    dave = make_user()
    as_carol.post(f"{url}register/", {"partner": dave.username})
    mine = TeamInvitation.objects.get(tournament=t, inviter=carol)
    res = browser(dave).post(f"{url}invitations/{mine.pk}/decline/", follow=True).content.decode()
    assert "You declined the invitation." in _messages(res)
    res = as_carol.post(f"{url}invitations/{mine.pk}/decline/", follow=True).content.decode()
    assert "code-invitation_closed" in _messages(res) and len(selectors.tournament_detail(t)["entrants"]) == 1


def test_the_organizer_changes_the_spectator_delay_on_the_page(organizer, make_user):
    t = services.tournament_create(creator=organizer, name="Delay Open", game="yokai", format="swiss",
                                   table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    url = f"/tournaments/{t.pk}/"
    assert 'data-testid="spectator-delay-form"' not in browser(make_user()).get(url).content.decode()
    page = browser(organizer).get(url).content.decode()
    assert 'data-testid="spectator-delay-form"' in page and 'name="seconds" type="number" min="60"' in page
    res = browser(organizer).post(f"{url}spectator-delay/", {"seconds": "150", "turns": "2"}, follow=True).content.decode()
    assert "The spectator delay is changed." in _messages(res)
    assert "spectators see each match 2 minutes 30 seconds and 2 turns behind the players." in res
    res = browser(organizer).post(f"{url}spectator-delay/", {"seconds": "30", "turns": "2"}, follow=True).content.decode()
    assert "code-invalid_spectator_delay" in _messages(res)
    assert Tournament.objects.get(pk=t.pk).spectator_delay_seconds == 150
    res = browser(make_user()).post(f"{url}spectator-delay/", {"seconds": "90"}, follow=True).content.decode()
    assert "code-not_organizer" in _messages(res) and Tournament.objects.get(pk=t.pk).spectator_delay_seconds == 150


def test_the_entry_box_is_its_own_fragment_for_the_live_page(organizer, make_user):
    """tournament.js refreshes the entry box from ``?fragment=entry`` when the socket says the tournament
    changed: what it offers follows the tournament (register -> closed, withdraw -> drop out, the report
    form once a match is played)."""
    t = services.tournament_create(creator=organizer, name="Live Entry", game="yashima", format="swiss",
                                   table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    url = f"/tournaments/{t.pk}/"
    entered, late = make_user(), make_user()
    page = browser(entered).get(url).content.decode()
    assert f'<div id="tournament-entry" data-refresh-url="{url}?fragment=entry">' in page
    entry = browser(entered).get(f"{url}?fragment=entry").content.decode()
    assert "<html" not in entry and 'data-testid="entry"' in entry and 'data-testid="register"' in entry
    assert 'data-testid="standings"' not in entry and "data-poll" not in entry  # no team invitations to wait for
    services.tournament_register(tournament_id=t.pk, user=entered)
    services.tournament_register(tournament_id=t.pk, user=make_user())
    entry = browser(entered).get(f"{url}?fragment=entry").content.decode()
    assert ">Withdraw</button>" in entry and 'data-testid="report-problem"' not in entry
    assert 'data-testid="start"' in browser(organizer).get(f"{url}?fragment=entry").content.decode()

    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_advance(tournament_id=t.pk)
    entry = browser(entered).get(f"{url}?fragment=entry").content.decode()
    assert ">Drop out</button>" in entry and 'data-testid="report-problem"' in entry
    closed = browser(late).get(f"{url}?fragment=entry").content.decode()
    assert "Registration is closed." in closed and 'data-testid="register"' not in closed
    assert 'data-testid="start"' not in browser(organizer).get(f"{url}?fragment=entry").content.decode()


def test_a_team_events_entry_box_asks_to_be_polled_while_registering(organizer, make_user):
    t = services.tournament_create(creator=organizer, name="Pairs Poll", game="yashima", format="swiss",
                                   table_size=4, teams=True, round_minutes=30, match_options={"turn_seconds": 60})
    entry = browser(make_user()).get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    assert "data-poll" in entry  # an invitation changes nothing the tournament socket sends
    assert "data-poll" not in browser().get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()  # anonymous


def test_the_standings_scroll_inside_their_card_with_numbers_compact(organizer, make_user):
    t = services.tournament_create(creator=organizer, name="Wide Table", game="yashima", format="swiss",
                                   table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_advance(tournament_id=t.pk)
    match_id = selectors.tournament_pairings(selectors.tournament_get(t.pk))[0]["match_id"]
    tournament_match_finished(match_id=match_id, winners=[0])
    html = browser().get(f"/tournaments/{t.pk}/").content.decode()
    assert '<div class="table-wrap" tabindex="0" role="region" aria-labelledby="standings-heading">' \
           '<table class="matches standings"' in html
    assert '<th class="num tiebreak">Head-to-head</th>' in html and 'aria-label="Round 1 pairings"' in html
