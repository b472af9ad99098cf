"""Tournament services on the database: create, register/withdraw, start, drop, pair, results. The log
rows are the truth (standings rebuild from them) and the unique constraints refuse duplicates."""

import pytest
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.kernel import registry
from games.ratings.models import Rating
from games.tournaments import selectors, services
from games.tournaments.errors import TournamentServiceError
from games.tournaments.models import Entrant, TeamInvitation, Tournament, TournamentRecord, TournamentTable
from games.tournaments.records import Paired, Table, record_to_dict

from .helpers import register_team

pytestmark = pytest.mark.django_db

YASHIMA = {"turn_seconds": 90, "defense_seconds": 60}


@pytest.fixture
def make_tournament(organizer):
    def make(**overrides):
        fields = dict(creator=organizer, name="Spring Open", game="yashima", format="swiss", table_size=2,
                      round_minutes=50, match_options=dict(YASHIMA))
        fields.update(overrides)
        return services.tournament_create(**fields)

    return make


def _code(call, **kwargs):
    with pytest.raises(TournamentServiceError) as caught:
        call(**kwargs)
    return caught.value.code, caught.value.status


def test_only_its_own_organizer_or_staff_run_a_tournament(make_user, make_tournament, organizer):
    t = make_tournament()
    for _ in range(3):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    rival = make_user()
    rival.groups.add(Group.objects.get(name="organizers"))
    assert _code(services.tournament_start, tournament_id=t.pk, user=rival) == ("not_organizer", 403)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    entrant = Entrant.objects.filter(tournament=t).first()
    assert _code(services.tournament_drop, tournament_id=t.pk, user=rival, entrant_id=entrant.pk) == ("not_organizer", 403)
    assert _code(services.tournament_pause_clock, tournament_id=t.pk, user=rival) == ("not_organizer", 403)
    staff = make_user(is_staff=True)
    services.tournament_pause_clock(tournament_id=t.pk, user=staff)
    services.tournament_resume_clock(tournament_id=t.pk, user=organizer)
    services.tournament_drop(tournament_id=t.pk, user=staff, entrant_id=entrant.pk)
    assert services.can_manage(organizer, t) and services.can_manage(staff, t) and not services.can_manage(rival, t)


def test_an_organizer_creates_a_tournament_with_a_published_seed_hash_and_tournament_options(make_tournament):
    t = make_tournament(format="swiss_top_cut", top_cut=4, rounds=3, scoring={"bye_points": 1})
    assert t.status == "registering" and len(t.seed_hash) == 64
    assert t.match_options == {"turn_seconds": 90, "defense_seconds": 60, "teams": False}
    assert services.settings_of(t).bye_points == 1 and services.settings_of(t).top_cut == 4


def test_only_organizers_create_and_start(make_user, make_tournament):
    player = make_user()
    assert _code(services.tournament_create, creator=player, name="x", game="yashima", format="swiss",
                 table_size=2, round_minutes=30, match_options=YASHIMA) == ("not_organizer", 403)
    staff = make_user(is_staff=True)
    assert services.tournament_create(creator=staff, name="staff cup", game="yokai", format="swiss", table_size=4,
                                      round_minutes=30, match_options={"turn_seconds": 60}).match_options == \
        {"teams": False, "turn_seconds": 60}
    assert _code(services.tournament_create, creator=staff, name="x", game="yokai", format="swiss", table_size=2,
                 round_minutes=30) == ("clock_required", 422)  # Yokai Battle's decision clock is mandatory too
    t = make_tournament()
    assert _code(services.tournament_start, tournament_id=t.pk, user=player) == ("not_organizer", 403)


@pytest.mark.parametrize("overrides, code", [
    (dict(game="harakiri"), "invalid_game"),
    (dict(format="ladder"), "invalid_format"),
    (dict(table_size=5), "invalid_table_size"),
    (dict(format="round_robin", table_size=4), "invalid_table_size"),
    (dict(format="swiss_top_cut", top_cut=6), "invalid_top_cut"),
    (dict(round_minutes=0), "invalid_round_minutes"),
    (dict(match_options={"defense_seconds": 60}), "clock_required"),
    (dict(match_options={"turn_seconds": 0}), "clock_required"),
    (dict(match_options={**YASHIMA, "colour": "red"}), "invalid_match_options"),
    (dict(scoring={"pod_scoring": "chaos"}), "invalid_pod_scoring"),
    (dict(scoring={"prize": 1}), "invalid_settings"),
    (dict(name=" "), "invalid_name"),
])
def test_bad_settings_are_refused_with_a_stable_code_and_a_4xx(make_tournament, overrides, code):
    with pytest.raises(TournamentServiceError) as caught:
        make_tournament(**overrides)
    assert caught.value.code == code and 400 <= caught.value.status < 500
    assert not Tournament.objects.exists()


def test_registration_once_per_user_never_after_the_start_and_never_beyond_the_cap(make_user, make_tournament, organizer):
    t = make_tournament(max_entrants=3)
    a, b, c, d = (make_user() for _ in range(4))
    for user in (a, b, c):
        services.tournament_register(tournament_id=t.pk, user=user)
    assert _code(services.tournament_register, tournament_id=t.pk, user=a) == ("already_registered", 409)
    assert _code(services.tournament_register, tournament_id=t.pk, user=d) == ("tournament_full", 409)
    services.tournament_withdraw(tournament_id=t.pk, user=c)  # frees a place, and c may come back
    services.tournament_register(tournament_id=t.pk, user=c)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    assert _code(services.tournament_register, tournament_id=t.pk, user=d) == ("registration_closed", 409)
    assert _code(services.tournament_start, tournament_id=t.pk, user=organizer) == ("already_started", 409)
    kinds = list(TournamentRecord.objects.filter(tournament=t).values_list("kind", flat=True))
    assert kinds == ["registered"] * 3 + ["withdrawn", "registered", "started", "paired"]


def test_a_team_is_entered_only_once_the_partner_consents(make_user, organizer):
    """Naming a partner asks them (a pending invitation, nobody entered); the partner accepts (or names
    the asker back) and the team is one entrant with both players; a declined or cancelled invitation
    enters nobody; entering a team closes its players' other invitations; the start expires the rest."""
    t = services.tournament_create(creator=organizer, name="Pairs", game="yokai", format="swiss", table_size=4,
                                   teams=True, round_minutes=40, match_options={"turn_seconds": 60})
    a, b, c, d, e = (make_user() for _ in range(5))
    assert _code(services.tournament_register, tournament_id=t.pk, user=a) == ("partner_required", 422)
    asked = services.tournament_register(tournament_id=t.pk, user=a, partner=b)
    assert isinstance(asked, TeamInvitation) and asked.status == "pending"
    assert not Entrant.objects.filter(tournament=t).exists()
    assert not TournamentRecord.objects.filter(tournament=t).exists()  # nothing is decided yet
    assert services.tournament_register(tournament_id=t.pk, user=a, partner=b) == asked  # asking again: the same
    also = services.tournament_register(tournament_id=t.pk, user=c, partner=b)  # b is asked twice
    assert _code(services.tournament_invitation_accept, tournament_id=t.pk, invitation_id=asked.pk,
                 user=c) == ("not_invited", 403)
    assert _code(services.tournament_invitation_accept, tournament_id=t.pk, invitation_id=999999,
                 user=b) == ("not_found", 404)

    entrant = services.tournament_invitation_accept(tournament_id=t.pk, invitation_id=asked.pk, user=b)
    assert [m.user_id for m in entrant.members.order_by("id")] == [a.pk, b.pk]
    assert entrant.name == f"{a.username} & {b.username}"
    record = TournamentRecord.objects.get(tournament=t, kind="registered")
    assert record.payload["user_ids"] == [a.pk, b.pk] and record.actor["user_id"] == b.pk  # b's consent entered it
    asked.refresh_from_db(), also.refresh_from_db()
    assert (asked.status, asked.entrant_id, also.status) == ("accepted", entrant.pk, "cancelled")
    assert _code(services.tournament_invitation_accept, tournament_id=t.pk, invitation_id=also.pk,
                 user=b) == ("invitation_closed", 409)
    assert _code(services.tournament_register, tournament_id=t.pk, user=c, partner=b) == ("partner_registered", 409)
    assert _code(services.tournament_register, tournament_id=t.pk, user=b, partner=c) == ("already_registered", 409)

    # c asks d, then changes their mind and asks e: d's invitation is cancelled; e declines
    to_d = services.tournament_register(tournament_id=t.pk, user=c, partner=d)
    to_e = services.tournament_register(tournament_id=t.pk, user=c, partner=e)
    to_d.refresh_from_db()
    assert to_d.status == "cancelled" and to_e.status == "pending"
    assert services.tournament_invitation_decline(tournament_id=t.pk, invitation_id=to_e.pk, user=e).status == "declined"
    assert Entrant.objects.filter(tournament=t).count() == 1
    # naming back the player who asked is accepting
    services.tournament_register(tournament_id=t.pk, user=d, partner=e)
    team = services.tournament_register(tournament_id=t.pk, user=e, partner=d)
    assert isinstance(team, Entrant) and [m.user_id for m in team.members.order_by("id")] == [d.pk, e.pk]
    # the start expires what is still pending
    pending = services.tournament_register(tournament_id=t.pk, user=c, partner=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    pending.refresh_from_db()
    assert pending.status == "expired"
    assert _code(services.tournament_invitation_accept, tournament_id=t.pk, invitation_id=pending.pk,
                 user=pending.partner) == ("invitation_closed", 409)
    assert t.match_options == {"teams": True, "turn_seconds": 60}


def test_a_full_team_event_refuses_the_acceptance_and_the_invitation_stays_open(make_user, organizer):
    t = services.tournament_create(creator=organizer, name="Pairs", game="yokai", format="swiss", table_size=4,
                                   teams=True, round_minutes=40, match_options={"turn_seconds": 60}, max_entrants=2)
    a, b = make_user(), make_user()
    late = services.tournament_register(tournament_id=t.pk, user=a, partner=b)
    for _ in range(2):
        register_team(t.pk, make_user(), make_user())
    assert _code(services.tournament_invitation_accept, tournament_id=t.pk, invitation_id=late.pk,
                 user=b) == ("tournament_full", 409)
    assert _code(services.tournament_register, tournament_id=t.pk, user=make_user(), partner=a) == ("tournament_full", 409)
    late.refresh_from_db()
    assert late.status == "pending" and Entrant.objects.filter(tournament=t).count() == 2


def test_start_seeds_by_rating_pairs_round_one_and_records_one_table_row_per_table(make_user, make_tournament, organizer):
    t = make_tournament()
    users = [make_user() for _ in range(5)]
    entrants = [services.tournament_register(tournament_id=t.pk, user=u) for u in users]
    # The seeding rating is the player's display rating in the game, read as the field closes.
    Rating.objects.create(user=users[4], game=t.game, mu=30.0, sigma=3.0, display=1120, matches=9,
                          updated_at=timezone.now())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    t.refresh_from_db()
    assert (t.status, t.round) == ("running", 1)
    state = services.state_of(t.pk)
    assert state.order[0] == str(entrants[4].pk)
    assert Entrant.objects.get(pk=entrants[4].pk).rating == 1120 and Entrant.objects.get(pk=entrants[0].pk).rating == 1000
    tables = list(TournamentTable.objects.filter(tournament=t, round=1))
    assert [tt.table for tt in tables] == [1, 2, 3]
    assert tables[-1].entrant_ids == [str(entrants[3].pk)]  # the bye: the lowest seed
    assert services.tournament_pair_next_round(tournament_id=t.pk, actor=services.Actor("worker", task="t")) is None


def test_a_full_swiss_runs_to_the_end_through_the_services_with_a_drop(make_user, make_tournament, organizer):
    t = make_tournament(rounds=3)
    entrants = [services.tournament_register(tournament_id=t.pk, user=make_user()) for _ in range(6)]
    services.tournament_start(tournament_id=t.pk, user=organizer)
    worker = services.Actor("worker", task="test")
    services.tournament_drop(tournament_id=t.pk, user=organizer, entrant_id=entrants[5].pk)
    while True:
        t.refresh_from_db()
        if t.status == "finished":
            break
        for table in TournamentTable.objects.filter(tournament=t, round=t.round):
            if len(table.entrant_ids) == 2:
                a, b = table.entrant_ids
                assert services.tournament_record_result(tournament_id=t.pk, round=t.round, table=table.table,
                                                         places={a: 1, b: 2}, by="play", actor=worker)
                # a duplicated delivery is a no-op; a different result is refused
                assert not services.tournament_record_result(tournament_id=t.pk, round=t.round, table=table.table,
                                                             places={a: 1, b: 2}, by="play", actor=worker)
                assert _code(services.tournament_record_result, tournament_id=t.pk, round=t.round, table=table.table,
                             places={a: 2, b: 1}, by="play", actor=worker) == ("result_already_recorded", 409)
        services.tournament_pair_next_round(tournament_id=t.pk, actor=worker)
        services.tournament_pair_next_round(tournament_id=t.pk, actor=worker)  # duplicated task: no-op
    assert t.round == 3
    assert TournamentRecord.objects.filter(tournament=t, kind="paired").count() == 3
    later = TournamentTable.objects.filter(tournament=t, round__gt=1)
    assert all(str(entrants[5].pk) not in tt.entrant_ids for tt in later)
    rows = selectors.tournament_standings(t)
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert next(r for r in rows if r["entrant_id"] == str(entrants[5].pk))["dropped"] is True


def test_withdrawing_after_the_start_is_a_drop_that_keeps_results(make_user, make_tournament, organizer):
    t = make_tournament()
    users = [make_user() for _ in range(4)]
    for u in users:
        services.tournament_register(tournament_id=t.pk, user=u)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    entrant = services.tournament_withdraw(tournament_id=t.pk, user=users[0])
    assert entrant.status == "dropped"
    assert _code(services.tournament_withdraw, tournament_id=t.pk, user=users[0]) == ("already_dropped", 409)
    assert _code(services.tournament_drop, tournament_id=t.pk, user=organizer,
                 entrant_id=entrant.pk) == ("already_dropped", 409)
    assert _code(services.tournament_drop, tournament_id=t.pk, user=organizer, entrant_id="nope") == ("not_registered", 409)


def test_nobody_withdraws_from_a_finished_tournament(make_user, make_tournament, organizer):
    """BUG-3: once the tournament is over, leaving it is refused (409 tournament_finished) and the log
    gets no ``dropped`` record after the end."""
    t = make_tournament(rounds=1)
    alice, bob = make_user(), make_user()
    for u in (alice, bob):
        services.tournament_register(tournament_id=t.pk, user=u)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    (table,) = TournamentTable.objects.filter(tournament=t, round=1)
    first, second = table.entrant_ids
    services.tournament_record_result(tournament_id=t.pk, round=1, table=1, places={first: 1, second: 2}, by="play",
                                      actor=services.Actor("worker"))
    assert services.tournament_pair_next_round(tournament_id=t.pk, actor=services.Actor("worker")) is None
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    head = Tournament.objects.get(pk=t.pk).head_seq
    assert _code(services.tournament_withdraw, tournament_id=t.pk, user=alice) == ("tournament_finished", 409)
    assert Tournament.objects.get(pk=t.pk).head_seq == head
    assert not TournamentRecord.objects.filter(tournament=t, kind="dropped").exists()
    assert set(Entrant.objects.filter(tournament=t).values_list("status", flat=True)) == {"registered"}


def test_the_database_refuses_a_second_pairing_of_a_round_and_a_second_result_for_a_table(make_user, make_tournament, organizer):
    t = make_tournament()
    for _ in range(4):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    paired = TournamentRecord.objects.get(tournament=t, kind="paired")
    again = record_to_dict(Paired(1, "swiss", (Table(1, ("1", "2")),)))
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentRecord.objects.create(tournament=t, seq=99, kind="paired", payload=again, round=1, at=timezone.now())
    result = {"kind": "result", "round": 1, "table": 1, "places": {}, "by": "play"}
    TournamentRecord.objects.create(tournament=t, seq=100, kind="result", payload=result, round=1, table=1, at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentRecord.objects.create(tournament=t, seq=101, kind="result", payload=result, round=1, table=1,
                                        at=timezone.now())
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentTable.objects.create(tournament=t, round=1, table=1, entrant_ids=[])
    assert paired.seq == 6


def test_an_unknown_tournament_is_not_found(make_user):
    assert _code(services.tournament_register, tournament_id="5f0c1e9e-0000-4000-8000-000000000000",
                 user=make_user()) == ("not_found", 404)
    assert _code(services.tournament_register, tournament_id="garbage", user=make_user()) == ("not_found", 404)


def test_projections_rebuild_from_the_log_and_differences_are_reported_and_fixed(make_user, make_tournament, organizer):
    from games.tournaments import rebuild

    t = make_tournament()
    users = [make_user() for _ in range(5)]
    entrants = [services.tournament_register(tournament_id=t.pk, user=u) for u in users]
    services.tournament_withdraw(tournament_id=t.pk, user=users[4])
    services.tournament_start(tournament_id=t.pk, user=organizer)
    services.tournament_drop(tournament_id=t.pk, user=organizer, entrant_id=entrants[0].pk)
    assert rebuild.check(t.pk) == []
    Tournament.objects.filter(pk=t.pk).update(round=7)
    Entrant.objects.filter(pk=entrants[0].pk).update(status="registered")
    TournamentTable.objects.filter(tournament=t, table=1).update(entrant_ids=["x", "y"])
    diffs = rebuild.check(t.pk, fix=True)
    assert sorted(d.what for d in diffs) == sorted(["tournament.round", f"entrant {entrants[0].pk}.status",
                                                    "round 1 table 1"])
    assert rebuild.check(t.pk) == []
    assert rebuild.expected(services.settings_of(t), services.load_records(t.pk))["entrants"][str(entrants[4].pk)] == "withdrawn"


def test_manage_rebuild_tournaments_reports_then_fixes_a_drifted_projection(make_user, make_tournament, organizer):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    t = make_tournament()
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    call_command("rebuild_tournaments", stdout=StringIO())
    Tournament.objects.filter(pk=t.pk).update(status="finished")
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("rebuild_tournaments", "--tournament", str(t.pk), stdout=out)
    assert "tournament.status: stored 'finished', rebuilt 'running'" in out.getvalue()
    call_command("rebuild_tournaments", "--fix", stdout=StringIO())
    assert Tournament.objects.get(pk=t.pk).status == "running"
    with pytest.raises(CommandError):
        call_command("rebuild_tournaments", "--tournament", "nope", stdout=StringIO())


def test_a_judge_upholds_or_overrides_with_a_reason_and_the_standings_follow(make_user, make_tournament, organizer):
    t = make_tournament()
    entrants = [services.tournament_register(tournament_id=t.pk, user=make_user()) for _ in range(2)]
    services.tournament_start(tournament_id=t.pk, user=organizer)
    a, b = TournamentTable.objects.get(tournament=t, round=1, table=1).entrant_ids
    worker = services.Actor("worker", task="t")
    services.tournament_record_result(tournament_id=t.pk, round=1, table=1, places={a: 1, b: 2}, by="play", actor=worker)
    judge, player = make_user(is_staff=True), make_user()
    assert _code(services.tournament_uphold, tournament_id=t.pk, user=player, round=1, table=1) == ("not_judge", 403)
    services.tournament_uphold(tournament_id=t.pk, user=judge, round=1, table=1, reason="log checked at seq 40")
    assert _code(services.tournament_override, tournament_id=t.pk, user=judge, round=1, table=1,
                 places={a: 2, b: 1}, reason="") == ("reason_required", 422)
    assert _code(services.tournament_override, tournament_id=t.pk, user=judge, round=1, table=1,
                 places={a: 2}, reason="x") == ("invalid_result", 422)
    services.tournament_override(tournament_id=t.pk, user=judge, round=1, table=1, places={a: 2, b: 1},
                                 reason="illegal attack at seq 41")
    pairing = selectors.tournament_pairings(t, round_no=1)[0]
    assert pairing["result"] == {"points": {a: 0, b: 3}, "winners": [b], "by": "judge"}
    assert selectors.tournament_standings(t)[0]["entrant_id"] == b
    kinds = list(TournamentRecord.objects.filter(tournament=t).values_list("kind", flat=True))
    assert kinds[-3:] == ["result", "adjudicated", "overridden"]
    assert {str(e.pk) for e in entrants} == {a, b}


def test_an_elimination_result_cannot_change_once_the_bracket_has_moved_on(make_user, organizer):
    t = services.tournament_create(creator=organizer, name="KO", game="yashima", format="single_elimination",
                                   table_size=2, round_minutes=30, match_options=dict(YASHIMA))
    for _ in range(4):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    worker = services.Actor("worker", task="t")
    for table in TournamentTable.objects.filter(tournament=t, round=1):
        x, y = table.entrant_ids
        services.tournament_record_result(tournament_id=t.pk, round=1, table=table.table, places={x: 1, y: 2},
                                          by="play", actor=worker)
    services.tournament_pair_next_round(tournament_id=t.pk, actor=worker)
    x, y = TournamentTable.objects.get(tournament=t, round=1, table=1).entrant_ids
    judge = make_user(is_staff=True)
    assert _code(services.tournament_override, tournament_id=t.pk, user=judge, round=1, table=1,
                 places={x: 2, y: 1}, reason="late report") == ("bracket_moved_on", 409)


def test_a_players_profile_lists_the_tournaments_they_entered(make_user, make_tournament, client):
    t = make_tournament()
    player, other = make_user(), make_user()
    entrant = services.tournament_register(tournament_id=t.pk, user=player)
    body = client.get(f"/api/users/{player.username}/").json()
    assert body["tournaments"] == [{"id": str(t.pk), "name": t.name, "game": t.game, "format": t.format,
                                    "status": "registering", "entrant_id": str(entrant.pk),
                                    "entrant_status": "registered"}]
    assert client.get(f"/api/users/{other.username}/").json()["tournaments"] == []
    page = client.get(f"/users/{player.username}/")
    assert page.status_code == 200 and f"/tournaments/{t.pk}/" in page.content.decode()
    assert f"· {registry.get(t.game).name} · registering" in page.content.decode()  # the game's name, not its slug
