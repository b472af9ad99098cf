"""The schedule, end to end in the embedded mode (eager tasks, no beat): a tournament starts, every
round's matches are created and started for the players, bots play them, a finished match is counted
through the MatchFinished reaction, round time limits end the rest by the engines' SYSTEM
``time_limit``, and the next round (or the top cut) is paired as soon as the last match ends."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.utils import timezone

from games.eventstore.models import MatchEvent
from games.tournaments import rebuild, rounds, selectors, services
from games.tournaments.models import RoundDeadline, Tournament, TournamentRecord, TournamentTable
from games.tournaments.policies import tournament_round_time_up, tournament_start_and_play
from workers.tasks import sweep_tournaments

from .helpers import register_team
from .play import play, round_matches

pytestmark = pytest.mark.django_db(transaction=True)

YASHIMA = {"turn_seconds": 60, "defense_seconds": 30}


@pytest.fixture
def organizer(make_user):
    user = make_user()
    user.groups.add(Group.objects.get_or_create(name="organizers")[0])
    return user


def _create(organizer, make_user, entrants: int, **fields):
    base = dict(creator=organizer, name="Cup", round_minutes=25,
                match_options=YASHIMA if fields.get("game", "yashima") == "yashima" else {"turn_seconds": 60})
    base.setdefault("game", "yashima")
    base.update(fields)
    t = services.tournament_create(**base)
    for _ in range(entrants):
        if t.teams:
            register_team(t.pk, make_user(), make_user())
        else:
            services.tournament_register(tournament_id=t.pk, user=make_user())
    return t


def _time_runs_out(t) -> None:
    """The round's clock passes its limit, and beat's sweep fires."""
    RoundDeadline.objects.filter(tournament=t).update(due_at=timezone.now() - timedelta(seconds=1))
    sweep_tournaments()


def _run(t, moves: int, drop_after_start=None, organizer=None) -> list[int]:
    """Play every round: ``moves`` bot moves per match, then the time limit; returns the rounds seen."""
    seen = []
    for _ in range(20):
        t.refresh_from_db()
        if t.status == "finished":
            return seen
        seen.append(t.round)
        if drop_after_start is not None and len(seen) == 1:
            services.tournament_drop(tournament_id=t.pk, user=organizer, entrant_id=drop_after_start)
        for match_id in round_matches(t.pk, t.round):
            play(match_id, moves)
        _time_runs_out(t)
    raise AssertionError("the tournament did not finish")


def _assert_complete(t, planned: int):
    t.refresh_from_db()
    assert t.status == "finished" and t.round == planned
    kinds = list(TournamentRecord.objects.filter(tournament=t).values_list("kind", "round", "table"))
    paired = [r for k, r, _ in kinds if k == "paired"]
    assert paired == list(range(1, planned + 1))  # every round paired exactly once, in order
    tables = TournamentTable.objects.filter(tournament=t)
    games = tables.exclude(match=None)
    results = [(r, tb) for k, r, tb in kinds if k == "result"]
    assert len(results) == len(set(results)) == games.count()  # every match counted once
    assert all(len(tt.entrant_ids) == 1 for tt in tables.filter(match=None))  # only byes have no match
    assert not RoundDeadline.objects.filter(tournament=t).exists()
    assert rebuild.check(t.pk) == []
    standings = selectors.tournament_standings(t)
    assert [row["rank"] for row in standings] == list(range(1, len(standings) + 1))


CASES = [
    # (id, game, fields, entrants, drop)
    ("swiss-2p-bye", "yashima", dict(format="swiss", table_size=2, rounds=2), 5, False),
    ("swiss-pods-3", "yokai", dict(format="swiss", table_size=3, rounds=2), 5, True),
    ("swiss-pods-4", "yashima", dict(format="swiss", table_size=4, rounds=2), 6, False),
    ("swiss-teams", "yokai", dict(format="swiss", table_size=4, teams=True, rounds=2), 3, False),
    ("round-robin-2p", "yokai", dict(format="round_robin", table_size=2), 3, False),
    ("round-robin-teams", "yashima", dict(format="round_robin", table_size=4, teams=True), 3, False),
    ("single-elimination", "yokai", dict(format="single_elimination", table_size=2), 5, False),
    ("swiss-top-cut", "yokai", dict(format="swiss_top_cut", table_size=2, rounds=2, top_cut=4), 6, True),
]


@pytest.mark.parametrize("game,fields,entrants,drop", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_simulated_tournament_runs_to_the_end_by_itself(organizer, make_user, game, fields, entrants, drop):
    t = _create(organizer, make_user, entrants, game=game, **fields)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    assert all(round_matches(t.pk, 1))  # round 1's matches were created and started for the players
    dropped = None
    if drop:
        dropped = TournamentTable.objects.filter(tournament=t, round=1).exclude(match=None).first().entrant_ids[0]
    seen = _run(t, moves=3, drop_after_start=dropped, organizer=organizer)
    n = entrants
    planned = rounds.planned_rounds(services.settings_of(t), n)
    if dropped and fields["format"] == "swiss_top_cut":
        planned = len(seen)  # the cut of the field still in the event
    _assert_complete(t, planned)
    assert seen == list(range(1, planned + 1))
    if dropped:
        later = TournamentTable.objects.filter(tournament=t, round__gt=1)
        assert all(dropped not in tt.entrant_ids for tt in later)
        row = next(r for r in selectors.tournament_standings(t) if r["entrant_id"] == dropped)
        assert row["dropped"] and row["played"] >= 1  # keeps its results
    if fields["format"] == "swiss_top_cut":
        stages = TournamentRecord.objects.filter(tournament=t, kind="paired").values_list("payload__stage", flat=True)
        assert list(stages)[-1] == "elimination"  # the top cut was started by the schedule


def test_a_time_limit_is_a_system_command_in_the_match_log_and_the_result_says_time(organizer, make_user):
    t = _create(organizer, make_user, 2, game="yokai", format="swiss", table_size=2, rounds=1)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    (match_id,) = round_matches(t.pk, 1)
    play(match_id, 4)
    sweep_tournaments()  # not due yet: nothing happens
    assert not MatchEvent.objects.filter(match_id=match_id, type="MatchFinished").exists()
    _time_runs_out(t)
    ended = MatchEvent.objects.filter(match_id=match_id, type="GameWon").get()
    assert ended.payload["reason"] == "time_limit" and ended.actor["seat"] == "system"
    assert ended.actor["purpose"] == "time_limit" and ended.actor["kind"] == "worker"
    (pairing,) = selectors.tournament_pairings(Tournament.objects.get(pk=t.pk))
    assert pairing["result"]["by"] == "time"
    assert Tournament.objects.get(pk=t.pk).status == "finished"


def test_a_paused_round_clock_holds_the_time_limit_and_resuming_moves_it_by_the_pause(organizer, make_user):
    t = _create(organizer, make_user, 2, game="yokai", format="swiss", table_size=2, rounds=1)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    (match_id,) = round_matches(t.pk, 1)
    paired = TournamentRecord.objects.get(tournament=t, kind="paired")
    assert RoundDeadline.objects.get(tournament=t).due_at == paired.at + timedelta(minutes=25)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="fire alarm")
    assert RoundDeadline.objects.get(tournament=t).due_at is None  # the sweep has nothing to fire
    assert tournament_round_time_up(tournament_id=t.pk, round_no=1) == []
    sweep_tournaments()
    assert not MatchEvent.objects.filter(match_id=match_id, type="MatchFinished").exists()
    services.tournament_resume_clock(tournament_id=t.pk, user=organizer)
    pause, resume = TournamentRecord.objects.filter(tournament=t, kind__in=("clock_paused", "clock_resumed")).order_by("seq")
    due = RoundDeadline.objects.get(tournament=t).due_at
    assert due == paired.at + timedelta(minutes=25) + (resume.at - pause.at)
    assert selectors.tournament_detail(Tournament.objects.get(pk=t.pk))["clock"]["ends_at"] == due.isoformat()
    _time_runs_out(t)  # and once it does run out, the round ends as usual
    assert MatchEvent.objects.filter(match_id=match_id, type="MatchFinished").exists()


def test_a_match_played_to_its_end_is_counted_by_play_and_finishes_the_event(organizer, make_user):
    t = _create(organizer, make_user, 2, game="yokai", format="swiss", table_size=2, rounds=1)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    (match_id,) = round_matches(t.pk, 1)
    assert play(match_id, 600)
    finished = MatchEvent.objects.get(match_id=match_id, type="MatchFinished")
    (pairing,) = selectors.tournament_pairings(Tournament.objects.get(pk=t.pk))
    assert pairing["result"]["by"] == "play"
    winners = {pairing["entrant_ids"][s] for s in finished.payload["winners"]}
    assert set(pairing["result"]["winners"]) == winners
    assert Tournament.objects.get(pk=t.pk).status == "finished"


def test_beat_starts_a_tournament_at_starts_at(organizer, make_user):
    soon = _create(organizer, make_user, 3, format="swiss", table_size=2, rounds=1,
                   starts_at=timezone.now() + timedelta(hours=1))
    due = _create(organizer, make_user, 3, format="swiss", table_size=2, rounds=1,
                  starts_at=timezone.now() - timedelta(seconds=1))
    lonely = _create(organizer, make_user, 1, format="swiss", table_size=2, rounds=1,
                     starts_at=timezone.now() - timedelta(seconds=1))
    sweep_tournaments()
    sweep_tournaments()  # a second sweep (a duplicated start) changes nothing
    soon.refresh_from_db(), due.refresh_from_db(), lonely.refresh_from_db()
    assert soon.status == "registering"
    assert due.status == "running" and due.round == 1 and len(round_matches(due.pk, 1)) == 1
    assert TournamentRecord.objects.filter(tournament=due, kind="started").count() == 1
    started = TournamentRecord.objects.get(tournament=due, kind="started")
    assert started.actor == {"kind": "worker", "user_id": None, "task": "tournament_start"}
    assert lonely.status == "registering" and lonely.starts_at is None  # too few: left for the organizer


def test_the_embedded_clock_loop_runs_the_tournament_clocks_too(organizer, make_user):
    due = _create(organizer, make_user, 2, game="yokai", format="swiss", table_size=2, rounds=1,
                  starts_at=timezone.now() - timedelta(seconds=1))
    call_command("run_clocks", "--once")  # what `dev.py serve` runs beside the server
    due.refresh_from_db()
    assert due.status == "running" and len(round_matches(due.pk, 1)) == 1
    _time_runs_out(due)
    due.refresh_from_db()
    assert due.status == "finished"
