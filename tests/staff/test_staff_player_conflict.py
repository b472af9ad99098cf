"""A staff member who plays in a match does not read it unredacted while it runs (the probe: the
admin, seated in a Yokai match against bob, read bob's hand and deck order from
``GET /api/admin/matches/{id}/state/`` and the match's secret seed, which decides every later
shuffle and roll, from ``/log/``). As for judging a tournament they play in, they are refused with
403 ``conflict_of_interest`` on every staff read of that match (the API's log, state and chat; the
staff page, its log download) until the match is over; another staff member reads it as before."""

import uuid

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from games.application import selectors, services
from games.eventstore.models import Match, MatchCommand, MatchEvent, StaffAccess
from games.tournaments import services as tournaments
from games.tournaments.models import EntrantMember, TournamentTable
from games.tournaments.policies import tournament_start_and_play

pytestmark = pytest.mark.django_db


def _staff_seated(make_user, started_pebbles):
    match, (p0, p1) = started_pebbles()
    p0.is_staff = True
    p0.save(update_fields=["is_staff"])
    return match, p0, p1


@pytest.mark.parametrize("what", ["log", "state", "chat"])
def test_the_probe_a_staff_player_cannot_read_their_running_match_through_the_api(
        make_user, started_pebbles, client_for, what):
    match, staff_player, _other = _staff_seated(make_user, started_pebbles)
    res = client_for(staff_player).get(f"/api/admin/matches/{match.pk}/{what}/")
    assert res.status_code == 403, res.content
    assert res.json()["code"] == "conflict_of_interest"
    assert "seed" not in res.json() and not StaffAccess.objects.filter(user=staff_player).exists()
    other_staff = make_user(is_staff=True)
    assert client_for(other_staff).get(f"/api/admin/matches/{match.pk}/{what}/").status_code == 200


@pytest.mark.parametrize("page", ["staff:match", "staff:log"])
def test_a_staff_player_cannot_open_the_staff_page_of_their_running_match(client, make_user, started_pebbles, page):
    match, staff_player, _other = _staff_seated(make_user, started_pebbles)
    client.force_login(staff_player)
    res = client.get(reverse(page, args=[match.pk]))
    assert res.status_code == 403
    assert match.seed not in res.content.decode()


def test_once_the_match_is_over_the_staff_player_reads_it(make_user, started_pebbles, client_for):
    match, staff_player, other = _staff_seated(make_user, started_pebbles)
    services.match_resign(match_id=match.pk, user=other)
    res = client_for(staff_player).get(f"/api/admin/matches/{match.pk}/log/")
    assert res.status_code == 200 and res.json()["seed"] == match.seed


def test_the_check_reads_seats_and_the_status_only(make_user, started_pebbles):
    from games.application.selectors import staff_read_check
    from games.application.watch import StaffConflict

    match, staff_player, _other = _staff_seated(make_user, started_pebbles)
    with pytest.raises(StaffConflict):
        staff_read_check(match, staff_player)
    staff_read_check(match, make_user(is_staff=True))
    staff_read_check(match, AnonymousUser())


def _staff_player_and_another_table(make_user, organizer):
    """A running one-round Yokai tournament of four in which a staff member plays: they and the
    match of a table they do not sit at."""
    t = tournaments.tournament_create(creator=organizer, name="Cup", game="yokai", format="swiss", table_size=2,
                                      rounds=1, round_minutes=20, match_options={"turn_seconds": 60})
    staff_player = make_user(is_staff=True)
    for player in (staff_player, make_user(), make_user(), make_user()):
        tournaments.tournament_register(tournament_id=t.pk, user=player)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    tables = TournamentTable.objects.filter(tournament=t, round=1)
    other = next(tb for tb in tables if staff_player.pk not in _users_at(tb))
    return staff_player, Match.objects.get(pk=other.match_id)


def _users_at(table) -> set:
    return set(EntrantMember.objects.filter(entrant_id__in=table.entrant_ids).values_list("user_id", flat=True))


def test_a_staff_player_of_a_tournament_cannot_read_its_other_running_matches(make_user, organizer, client_for):
    staff_player, other = _staff_player_and_another_table(make_user, organizer)
    res = client_for(staff_player).get(f"/api/admin/matches/{other.pk}/state/")
    assert res.status_code == 403 and res.json()["code"] == "conflict_of_interest"


def _a_move(match, users) -> None:
    state = selectors.state_load(match)
    seat = selectors.status_of(match, state)["awaiting"][0]
    legal = selectors.view_for_seat(match, seat, state)["legal_commands"][0]
    services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                                  command_id=uuid.uuid4(), expected_seq=match.head_seq,
                                  type_=legal["type"], args=legal.get("args") or {})


def _admin_page(model, match) -> str:
    row = (MatchEvent if model == "matchevent" else MatchCommand).objects.filter(match=match).last()
    return reverse(f"admin:eventstore_{model}_change", args=[row.pk])


@pytest.mark.parametrize("model", ["matchevent", "matchcommand"])
def test_the_admin_event_and_command_pages_refuse_a_staff_player(client, make_user, started_pebbles, model):
    match, staff_player, other = _staff_seated(make_user, started_pebbles)
    _a_move(match, [staff_player, other])
    url = _admin_page(model, match)
    client.force_login(staff_player)
    assert client.get(url).status_code == 403
    client.force_login(make_user(is_staff=True))
    assert client.get(url).status_code == 200


def test_the_admin_event_page_refuses_a_staff_player_of_the_tournament_another_tables_events(client, make_user, organizer):
    staff_player, other = _staff_player_and_another_table(make_user, organizer)
    url = _admin_page("matchevent", other)
    client.force_login(staff_player)
    assert client.get(url).status_code == 403
    client.force_login(make_user(is_staff=True))
    assert client.get(url).status_code == 200
