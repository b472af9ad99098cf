"""The organizer's and the players' tournament pages say what a setting means and what happens next:
the tiebreak form keeps the defaults, changes and cancelling before the start, the start time and the
event's facts, "your match is ready", the winner, confirmations on destructive actions."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from frontend.tournament_forms import TournamentCreateForm, tiebreak_order
from games.tournaments import selectors, services
from games.tournaments.models import TeamInvitation, Tournament, TournamentRecord
from games.tournaments.policies import tournament_advance, tournament_match_finished
from tests.tournaments.helpers import register_team

from .test_account_pages import messages_shown, no_inline_scripts

pytestmark = pytest.mark.django_db

FORM = {"name": "Harbour Cup", "game": "yashima", "format": "swiss", "table_size": "2", "round_minutes": "40",
        "rated": "on", "yashima__turn_seconds": "75", "yashima__defense_seconds": "45",
        "yashima__restore_shuffle": "no"}
DEFAULT_2 = ["buchholz_cut1", "sonneborn_berger", "head_to_head"]


def browser(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _create(organizer, **fields):
    base = dict(creator=organizer, name="Page Cup", game="yashima", format="swiss", table_size=2, round_minutes=30,
                match_options={"turn_seconds": 60})
    base.update(fields)
    return services.tournament_create(**base)


# -- item 1: the form means what it says -------------------------------------------------------------


@pytest.mark.parametrize("chosen, expected", [
    (["omw", None, None], ["omw", *DEFAULT_2]),
    ([None, "omw", None], ["buchholz_cut1", "omw", "sonneborn_berger", "head_to_head"]),
    ([None, None, "omw"], ["buchholz_cut1", "sonneborn_berger", "omw", "head_to_head"]),
    (["head_to_head", None, None], ["head_to_head", "buchholz_cut1", "sonneborn_berger"]),
    (["head_to_head", "buchholz_cut1", "sonneborn_berger"], ["head_to_head", "buchholz_cut1", "sonneborn_berger"]),
])
def test_a_chosen_tiebreak_takes_its_place_and_empty_places_keep_the_defaults(chosen, expected):
    assert tiebreak_order(chosen, tuple(DEFAULT_2)) == expected


@pytest.mark.parametrize("posted, expected", [
    ({"tiebreak_2": "omw"}, ["buchholz_cut1", "omw", "sonneborn_berger", "head_to_head"]),
    ({"tiebreak_1": "head_to_head"}, ["head_to_head", "buchholz_cut1", "sonneborn_berger"]),
])
def test_the_create_form_keeps_the_default_tiebreaks_around_the_chosen_one(organizer, posted, expected):
    res = browser(organizer).post("/tournaments/new/", {**FORM, **posted})
    assert res.status_code == 302
    t = Tournament.objects.get(name="Harbour Cup")
    assert t.scoring == {"tiebreaks": expected}
    assert selectors.tournament_detail(t)["scoring"]["tiebreaks"] == [*expected, "seed_draw"]


def test_pods_keep_their_default_first_when_only_the_second_tiebreak_is_chosen(organizer):
    res = browser(organizer).post("/tournaments/new/", {**FORM, "game": "yokai", "table_size": "4",
                                                        "yokai__turn_seconds": "60", "tiebreak_2": "buchholz_cut1"})
    assert res.status_code == 302
    assert Tournament.objects.get().scoring == {"tiebreaks": ["omw", "buchholz_cut1"]}


def test_the_pod_scoring_is_offered_once_per_choice(organizer):
    form = TournamentCreateForm()
    values = [value for value, _label in form.fields["pod_scoring"].choices]
    assert sorted(values) == ["placement", "shared_win"]
    html = browser(organizer).get("/tournaments/new/").content.decode()
    assert html.count("by placement") == 1
    # an older form's (or a script's) empty value and the explicit default both mean placement
    for value in ("", "placement"):
        res = browser(organizer).post("/tournaments/new/", {**FORM, "name": f"P{value}", "pod_scoring": value})
        assert res.status_code == 302 and Tournament.objects.get(name=f"P{value}").scoring == {}


def test_rounds_on_a_round_robin_are_refused_on_the_form(organizer):
    res = browser(organizer).post("/tournaments/new/", {**FORM, "format": "round_robin", "rounds": "2"})
    html = res.content.decode()
    assert res.status_code == 400 and "A round robin plays as many rounds as its field needs" in html
    assert "rounds_not_applicable" not in html and not Tournament.objects.exists()


def test_the_format_is_said_in_words_in_a_table_size_refusal(organizer):
    res = browser(organizer).post("/tournaments/new/", {**FORM, "format": "single_elimination", "table_size": "3"})
    html = res.content.decode()
    assert res.status_code == 400 and "A single elimination is played at 2-entrant tables" in html
    assert "Single_elimination" not in html


# -- item 2: change and cancel before the start --------------------------------------------------------


def test_the_organizer_changes_the_tournament_on_the_page(organizer, make_user):
    t = _create(organizer)
    url = f"/tournaments/{t.pk}/"
    assert 'data-testid="edit-form"' not in browser(make_user()).get(url).content.decode()
    page = browser(organizer).get(url).content.decode()
    assert 'data-testid="edit-form"' in page and no_inline_scripts(page)
    soon = (timezone.now() + timedelta(days=1)).replace(second=0, microsecond=0)
    form = {"name": "Renamed Cup", "starts_at": soon.strftime("%Y-%m-%dT%H:%M"), "round_minutes": "45",
            "max_entrants": "", "rated": "on", "rounds": "4"}
    res = browser(organizer).post(f"{url}settings/", form, follow=True).content.decode()
    assert "The tournament is changed." in messages_shown(res)
    t.refresh_from_db()
    assert (t.name, t.starts_at, t.round_minutes, t.rounds) == ("Renamed Cup", soon, 45, 4)
    assert f"Starts <time datetime=\"{soon.isoformat()}\">{soon.day} {soon:%b %Y, %H:%M} UTC</time>" in res
    # the same form again: nothing changes, nothing is recorded, and the page says so
    res = browser(organizer).post(f"{url}settings/", form, follow=True).content.decode()
    assert "Nothing changed." in messages_shown(res)
    assert TournamentRecord.objects.filter(tournament=t, kind="settings_changed").count() == 1
    res = browser(organizer).post(f"{url}settings/", {**form, "starts_at": "2001-01-01T10:00"}, follow=True)
    assert "code-starts_at_in_past" in messages_shown(res.content.decode())
    res = browser(make_user()).post(f"{url}settings/", form, follow=True).content.decode()
    assert "code-not_organizer" in messages_shown(res)


def test_the_organizer_cancels_on_the_page_and_the_entrants_see_it(organizer, make_user):
    t = _create(organizer, name="Storm Cup")
    url = f"/tournaments/{t.pk}/"
    player = make_user()
    services.tournament_register(tournament_id=t.pk, user=player)
    page = browser(organizer).get(url).content.decode()
    assert 'data-testid="cancel-form"' in page and 'data-confirm="Cancel Storm Cup?' in page
    res = browser(organizer).post(f"{url}cancel/", {"reason": "A storm."}, follow=True).content.decode()
    assert "The tournament is cancelled." in messages_shown(res)
    seen = browser(player).get(url).content.decode()
    assert "This tournament was cancelled" in seen and "A storm." in seen
    assert 'data-testid="withdraw"' not in seen and 'data-testid="register"' not in seen
    assert "Storm Cup" not in browser().get("/tournaments/").content.decode()
    assert "Storm Cup" in browser().get("/tournaments/?status=cancelled").content.decode()


# -- item 4: what happens next ------------------------------------------------------------------------


def test_the_page_and_list_say_when_it_starts_and_what_the_event_is(organizer, make_user):
    at = (timezone.now() + timedelta(days=3)).replace(hour=18, minute=30, second=0, microsecond=0)
    t = _create(organizer, name="Facts Cup", starts_at=at, max_entrants=2, rated=False,
                match_options={"turn_seconds": 75, "defense_seconds": 40})
    words = f"{at.day} {at:%b %Y}, 18:30 UTC"
    listing = browser().get("/tournaments/").content.decode()
    assert words in listing
    page = browser().get(f"/tournaments/{t.pk}/").content.decode()
    assert f"Starts <time datetime=\"{at.isoformat()}\">{words}</time>" in page
    facts = page[page.index('data-testid="event-facts"'):]
    for text in ("Swiss: enough rounds for the field", "1 minute 15 seconds per decision",
                 "40 seconds to answer in another player", "0 of 2", "Rated</dt><dd>no"):
        assert text in facts, text
    assert "Sign in</a> to register." in page
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    full = browser(make_user()).get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-testid="register"' not in full and "The tournament is full (2 of 2 entrants)." in full
    assert "2 of 2" in full and "(1 for the 2 entrants so far)" in full


def test_a_start_time_passed_with_too_few_entrants_is_said(organizer, make_user):
    from workers.tasks import sweep_tournaments

    t = _create(organizer, starts_at=timezone.now() + timedelta(hours=1))
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    sweep_tournaments()
    page = browser().get(f"/tournaments/{t.pk}/").content.decode()
    assert "The start time passed with too few entrants" in page


def test_a_player_is_told_their_match_is_ready_and_what_comes_next(organizer, make_user):
    t = _create(organizer, rounds=2)
    url = f"/tournaments/{t.pk}/"
    players = [make_user() for _ in range(4)]
    for p in players:
        services.tournament_register(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_advance(tournament_id=t.pk)
    entry = browser(players[0]).get(f"{url}?fragment=entry").content.decode()
    mine = next(p for p in selectors.tournament_pairings(t) if any(
        players[0].pk in e["user_ids"] for e in selectors.tournament_detail(t)["entrants"] if e["entrant_id"] in p["entrant_ids"]))
    assert "Your match is ready:" in entry and f'href="/matches/{mine["match_id"]}/"' in entry
    assert "Your match is ready" not in browser(make_user()).get(f"{url}?fragment=entry").content.decode()
    live = browser().get(f"{url}?fragment=live").content.decode()
    assert "Round 2 is paired automatically as soon as the last match of round 1 ends." in live
    tournament_match_finished(match_id=mine["match_id"], winners=[0])
    assert "Your match is ready" not in browser(players[0]).get(f"{url}?fragment=entry").content.decode()


def test_signed_out_visitors_of_a_running_event_are_not_asked_to_register(organizer, make_user):
    t = _create(organizer)
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    page = browser().get(f"/tournaments/{t.pk}/").content.decode()
    assert "to register." not in page and "The tournament is under way: registration is closed." in page
    own = browser(organizer).get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    assert "You organize this tournament: it is under way." in own and "Registration is closed." not in own


def test_a_finished_event_shows_its_winner_at_the_top(organizer, make_user):
    t = _create(organizer, format="single_elimination")
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_advance(tournament_id=t.pk)
    (pairing,) = selectors.tournament_pairings(t)
    tournament_match_finished(match_id=pairing["match_id"], winners=[1])
    t.refresh_from_db()
    assert t.status == "finished"
    champion = next(e["name"] for e in selectors.tournament_detail(t)["entrants"]
                    if e["entrant_id"] == pairing["entrant_ids"][1])
    live = browser().get(f"/tournaments/{t.pk}/?fragment=live").content.decode()
    assert f'data-testid="tournament-winner">Winner: <strong>{champion}</strong>' in live
    assert live.index("tournament-winner") < live.index("tournament-status")
    # elimination: places follow the bracket, so no tiebreak column
    assert "Buchholz" not in live and "Places follow the bracket" in live
    own = browser(organizer).get(f"/tournaments/{t.pk}/?fragment=entry").content.decode()
    assert "You organize this tournament: it is over." in own and "Registration is closed." not in own


def test_the_pause_says_what_it_stops_and_shows_its_reason(organizer, make_user):
    t = _create(organizer)
    player = make_user()
    services.tournament_register(tournament_id=t.pk, user=player)
    services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    url = f"/tournaments/{t.pk}/"
    own = browser(organizer).get(url).content.decode()
    assert "Pause the round" in own and "every player's turn clock" in own
    browser(organizer).post(f"{url}pause/", {"reason": "Power cut in hall B"})
    seen = browser(player).get(url).content.decode()
    assert "Power cut in hall B" in seen and "its time limit and the players' turn clocks are stopped" in seen


# -- item 5: confirmations -----------------------------------------------------------------------------


def test_destructive_actions_ask_first_and_a_team_drop_says_it_drops_the_team(organizer, make_user):
    t = _create(organizer, name="Duo Cup", game="yokai", table_size=4, teams=True)
    url = f"/tournaments/{t.pk}/"
    a, b, c, d = (make_user() for _ in range(4))
    register_team(t.pk, a, b)
    register_team(t.pk, c, d)
    own = browser(organizer).get(url).content.decode()
    assert 'data-confirm="Start Duo Cup now with 2 entrants?' in own
    assert "This withdraws your whole team" in browser(a).get(url).content.decode()
    services.tournament_start(tournament_id=t.pk, user=organizer)
    page = browser(a).get(url).content.decode()
    assert "Drop out of Duo Cup? This drops your whole team" in page and "your partner too" in page
    own = browser(organizer).get(url).content.decode()
    assert own.count('data-confirm="Drop ') == 2  # each entrant's drop button asks first
    page = browser(a).get(url).content.decode()
    assert '<script type="module" src="/static/js/tournament.js">' in page and no_inline_scripts(page)


# -- item 6: wording -----------------------------------------------------------------------------------


def test_an_empty_spectator_delay_says_nothing_changed(organizer):
    t = _create(organizer)
    url = f"/tournaments/{t.pk}/"
    res = browser(organizer).post(f"{url}spectator-delay/", {"seconds": "", "turns": ""}, follow=True)
    assert "Nothing changed" in messages_shown(res.content.decode())
    assert not TournamentRecord.objects.filter(tournament=t, kind="spectator_delay_set").exists()


def test_the_inviter_is_told_their_invitation_was_declined(organizer, make_user):
    t = _create(organizer, game="yokai", table_size=4, teams=True)
    url = f"/tournaments/{t.pk}/"
    alice, bob = make_user(), make_user()
    browser(alice).post(f"{url}register/", {"partner": bob.username})
    assert 'data-testid="invitation-sent"' in browser(alice).get(f"{url}?fragment=entry").content.decode()
    invitation = TeamInvitation.objects.get()
    browser(bob).post(f"{url}invitations/{invitation.pk}/decline/")
    entry = browser(alice).get(f"{url}?fragment=entry").content.decode()
    assert 'data-testid="invitation-sent"' not in entry
    assert f"<strong>{bob.username}</strong> declined your invitation" in entry
    assert "declined your invitation" not in browser(bob).get(f"{url}?fragment=entry").content.decode()


def test_a_tournament_match_leads_back_to_its_tournament(organizer, make_user):
    t = _create(organizer, name="Way Back")
    url = f"/tournaments/{t.pk}/"
    players = [make_user() for _ in range(4)]
    for p in players:
        services.tournament_register(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_advance(tournament_id=t.pk)
    entrants = {e["entrant_id"]: e["user_ids"] for e in selectors.tournament_detail(t)["entrants"]}
    pairings = selectors.tournament_pairings(t)
    own = next(p for p in pairings if any(players[0].pk in entrants[e] for e in p["entrant_ids"]))
    other = next(p for p in pairings if p is not own)
    match_page = browser(players[0]).get(f"/matches/{own['match_id']}/").content.decode()
    end = match_page[match_page.index('data-testid="end-screen"'):]
    assert f'<a href="{url}" data-testid="back-to-event">Back to Way Back</a>' in end
    refused = browser(players[0]).get(f"/matches/{other['match_id']}/")
    html = refused.content.decode()
    assert refused.status_code == 403 and f'<a href="{url}" data-testid="back-to-tournament">Back to Way Back</a>' in html


def test_dispute_badges_wrap_inside_the_tournament_tables():
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "frontend/static/css/kamiza.css").read_text()
    assert "table.standings .dispute, table.pairings .dispute { white-space: normal;" in css
