"""An organizer's settings mean what they say: ``rounds`` only where it applies, no start time in the
past, changes before the start (recorded and rebuilt), cancelling an event that has not started."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.tournaments import rebuild, selectors, services
from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import TeamInvitation, Tournament, TournamentRecord
from workers.tasks import sweep_tournaments

from .helpers import register_team
from tests.rest import api_as

pytestmark = pytest.mark.django_db

YASHIMA = {"turn_seconds": 90, "defense_seconds": 60}


def _make(organizer, **overrides):
    fields = dict(creator=organizer, name="Spring Open", game="yashima", format="swiss", table_size=2,
                  round_minutes=50, match_options=dict(YASHIMA))
    fields.update(overrides)
    return services.tournament_create(**fields)


def _code(call, **kwargs):
    with pytest.raises(TournamentServiceError) as caught:
        call(**kwargs)
    return caught.value.code, caught.value.status


# -- rounds ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("format_", ["round_robin", "single_elimination"])
def test_rounds_are_refused_where_the_field_decides_them(organizer, format_):
    assert _code(_make, organizer=organizer, format=format_, rounds=2) == ("rounds_not_applicable", 422)
    assert not Tournament.objects.exists()
    res = api_as(organizer).post("/api/tournaments/", {"name": "RR", "game": "yashima", "format": format_,
                                                     "table_size": 2, "rounds": 5, "round_minutes": 30,
                                                     "match_options": YASHIMA}, format="json")
    assert res.status_code == 422 and res.json()["code"] == "rounds_not_applicable"
    assert _make(organizer, format=format_).rounds is None  # without rounds it is created


def test_rounds_still_set_the_swiss_rounds_of_swiss_and_top_cut(organizer):
    assert _make(organizer, rounds=2).rounds == 2
    assert _make(organizer, format="swiss_top_cut", top_cut=4, rounds=3).rounds == 3


def test_a_stored_round_robin_with_rounds_still_plays_by_its_field(organizer, make_user):
    t = _make(organizer, format="round_robin")
    Tournament.objects.filter(pk=t.pk).update(rounds=2)  # stored before the check
    for _ in range(6):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    assert selectors.tournament_detail(Tournament.objects.get(pk=t.pk))["rounds"] == 5


# -- the start time ----------------------------------------------------------------------------------


def test_a_start_time_in_the_past_is_refused(organizer):
    past = timezone.now() - timedelta(minutes=1)
    assert _code(_make, organizer=organizer, starts_at=past) == ("starts_at_in_past", 422)
    res = api_as(organizer).post("/api/tournaments/", {"name": "Typo", "game": "yashima", "format": "swiss",
                                                     "table_size": 2, "round_minutes": 30, "match_options": YASHIMA,
                                                     "starts_at": past.isoformat()}, format="json")
    assert res.status_code == 422 and res.json()["code"] == "starts_at_in_past"
    assert not Tournament.objects.exists()
    assert _make(organizer, starts_at=timezone.now() + timedelta(hours=2)).starts_at is not None


# -- changes before the start ------------------------------------------------------------------------


def test_the_organizer_changes_the_event_before_the_start_recorded_and_rebuilt(organizer, make_user):
    t = _make(organizer, starts_at=timezone.now() + timedelta(hours=1))
    services.tournament_register(tournament_id=t.pk, user=make_user())
    later = (timezone.now() + timedelta(days=2)).replace(microsecond=0)
    res = api_as(organizer).patch(f"/api/tournaments/{t.pk}/", {
        "name": "Summer Open", "starts_at": later.isoformat(), "round_minutes": 35, "max_entrants": 8,
        "rated": False, "rounds": 3}, format="json")
    assert res.status_code == 200, res.json()
    body = res.json()
    assert body["name"] == "Summer Open" and body["round_minutes"] == 35 and body["rated"] is False
    assert body["rounds"] == 3 and body["starts_at"] == later.isoformat()
    t.refresh_from_db()
    assert (t.name, t.starts_at, t.round_minutes, t.max_entrants, t.rated, t.rounds) == \
        ("Summer Open", later, 35, 8, False, 3)
    record = TournamentRecord.objects.filter(tournament=t, kind="settings_changed").get()
    assert record.payload["changes"] == {"name": "Summer Open", "starts_at": later.isoformat(), "round_minutes": 35,
                                         "max_entrants": 8, "rated": False, "rounds": 3}
    assert record.actor == {"kind": "user", "user_id": organizer.pk}
    assert rebuild.check(t.pk) == []
    # clearing the start time, and sending the same values again, records only what changed
    res = api_as(organizer).patch(f"/api/tournaments/{t.pk}/", {"starts_at": None, "name": "Summer Open"}, format="json")
    assert res.status_code == 200 and res.json()["starts_at"] is None
    assert list(TournamentRecord.objects.filter(tournament=t, kind="settings_changed")
                .order_by("seq").values_list("payload", flat=True))[-1]["changes"] == {"starts_at": None}
    assert api_as(organizer).patch(f"/api/tournaments/{t.pk}/", {"name": "Summer Open"}, format="json").status_code == 200
    assert TournamentRecord.objects.filter(tournament=t, kind="settings_changed").count() == 2
    assert rebuild.check(t.pk) == []
    # a projection that drifted from the log is found and fixed
    Tournament.objects.filter(pk=t.pk).update(name="Drifted", round_minutes=99)
    diffs = rebuild.check(t.pk, fix=True)
    assert {d.what for d in diffs} == {"tournament.name", "tournament.round_minutes"}
    t.refresh_from_db()
    assert t.name == "Summer Open" and t.round_minutes == 35 and rebuild.check(t.pk) == []


@pytest.mark.parametrize("body, code, status", [
    ({"starts_at": "2001-01-01T10:00:00Z"}, "starts_at_in_past", 422),
    ({"name": "   "}, "malformed", 400),  # as at creation (the service: invalid_name)
    ({"max_entrants": 2}, "max_entrants_below_field", 422),
    ({"rounds": 0}, "malformed", 400),
    ({"format": "round_robin"}, "malformed", 400),
])
def test_bad_changes_are_refused_with_a_stable_code(organizer, make_user, body, code, status):
    t = _make(organizer)
    for _ in range(3):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    res = api_as(organizer).patch(f"/api/tournaments/{t.pk}/", body, format="json")
    assert (res.status_code, res.json()["code"]) == (status, code)
    assert not TournamentRecord.objects.filter(tournament=t, kind="settings_changed").exists()


def test_rounds_cannot_be_set_on_a_round_robin_later_either(organizer):
    t = _make(organizer, format="round_robin")
    res = api_as(organizer).patch(f"/api/tournaments/{t.pk}/", {"rounds": 2}, format="json")
    assert (res.status_code, res.json()["code"]) == (422, "rounds_not_applicable")


def test_changes_are_the_organizers_and_only_before_the_start(organizer, make_user):
    t = _make(organizer)
    player = make_user()
    res = api_as(player).patch(f"/api/tournaments/{t.pk}/", {"name": "Mine"}, format="json")
    assert (res.status_code, res.json()["code"]) == (403, "not_organizer")
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    res = api_as(organizer).patch(f"/api/tournaments/{t.pk}/", {"name": "Late", "spectator_delay_seconds": 120},
                                format="json")
    assert (res.status_code, res.json()["code"]) == (409, "already_started")
    t.refresh_from_db()
    assert t.name == "Spring Open" and t.spectator_delay_seconds == 60  # all or nothing
    res = api_as(organizer).patch(f"/api/tournaments/{t.pk}/", {"spectator_delay_seconds": 120}, format="json")
    assert res.status_code == 200 and res.json()["spectator_delay_seconds"] == 120  # the delay still changes


def test_a_start_time_passed_with_too_few_entrants_is_recorded_and_rebuilt(organizer, make_user):
    t = _make(organizer, starts_at=timezone.now() + timedelta(hours=1))
    services.tournament_register(tournament_id=t.pk, user=make_user())
    Tournament.objects.filter(pk=t.pk).update(starts_at=timezone.now() - timedelta(seconds=1))  # time passes
    sweep_tournaments()
    t.refresh_from_db()
    assert t.status == "registering" and t.starts_at is None
    record = TournamentRecord.objects.get(tournament=t, kind="settings_changed")
    assert record.payload == {"kind": "settings_changed", "changes": {"starts_at": None}, "reason": "too_few_entrants"}
    assert selectors.start_notes(t)["cleared_at"] == record.at
    assert rebuild.check(t.pk) == []
    # a new start time replaces the note
    api_as(organizer).patch(f"/api/tournaments/{t.pk}/", {"starts_at": (timezone.now() + timedelta(hours=3)).isoformat()},
                          format="json")
    assert selectors.start_notes(Tournament.objects.get(pk=t.pk))["cleared_at"] is None


# -- cancel ------------------------------------------------------------------------------------------


def test_the_organizer_cancels_an_event_that_has_not_started(organizer, make_user):
    t = _make(organizer, name="Rainy Cup", format="swiss", table_size=4, teams=True, game="yokai",
              match_options={"turn_seconds": 60})
    a, b, c, d = (make_user() for _ in range(4))
    register_team(t.pk, a, b)
    services.tournament_register(tournament_id=t.pk, user=c, partner=d)  # pending
    assert _code(services.tournament_cancel, tournament_id=t.pk, user=a) == ("not_organizer", 403)
    res = api_as(organizer).post(f"/api/tournaments/{t.pk}/cancel/", {"reason": "The venue is closed."}, format="json")
    assert res.status_code == 200 and res.json()["status"] == "cancelled"
    t.refresh_from_db()
    assert t.status == "cancelled"
    assert TeamInvitation.objects.get(inviter=c).status == "cancelled"
    assert TournamentRecord.objects.filter(tournament=t).order_by("-seq").first().payload == \
        {"kind": "cancelled", "reason": "The venue is closed."}
    assert rebuild.check(t.pk) == []
    # it leaves the list of events (unless asked for), and nothing more happens to it
    assert "Rainy Cup" not in [row["name"] for row in selectors.tournament_list()]
    assert "Rainy Cup" in [row["name"] for row in selectors.tournament_list(status="cancelled")]
    assert _code(services.tournament_register, tournament_id=t.pk, user=make_user(), partner=make_user()) == \
        ("tournament_cancelled", 409)
    assert _code(services.tournament_start, tournament_id=t.pk, user=organizer) == ("tournament_cancelled", 409)
    assert _code(services.tournament_withdraw, tournament_id=t.pk, user=a) == ("tournament_cancelled", 409)
    assert _code(services.tournament_cancel, tournament_id=t.pk, user=organizer) == ("tournament_cancelled", 409)
    res = api_as(organizer).patch(f"/api/tournaments/{t.pk}/", {"name": "Again"}, format="json")
    assert (res.status_code, res.json()["code"]) == (409, "tournament_cancelled")
    assert selectors.start_notes(t)["cancel_reason"] == "The venue is closed."
    # the registrants still see it among their tournaments, cancelled
    assert [row["status"] for row in selectors.tournaments_of(a)] == ["cancelled"]
    # a drifted status is found by the rebuild
    Tournament.objects.filter(pk=t.pk).update(status="registering")
    assert [d.what for d in rebuild.check(t.pk)] == ["tournament.status"]


def test_a_started_event_cannot_be_cancelled(organizer, make_user):
    t = _make(organizer)
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    res = api_as(organizer).post(f"/api/tournaments/{t.pk}/cancel/", {}, format="json")
    assert (res.status_code, res.json()["code"]) == (409, "already_started")
