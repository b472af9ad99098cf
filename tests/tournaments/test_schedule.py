"""The schedule, end to end in the embedded mode (eager tasks, no beat): a tournament starts, every
round's matches are created and started for the players, the engines' bots play them to their end
(results ``by: play``), a finished match is counted through the MatchFinished reaction and the next
round (or the top cut) is paired as soon as the last match ends; in one round per event the time limit
ends the unfinished matches by the engines' SYSTEM ``time_limit`` (``by: time``). Every format and
table shape, both games, with drops and withdrawals."""

from collections import Counter
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from games.application.lobby import PLATFORM_EVENTS
from games.eventstore.models import Match, MatchEvent
from games.ratings.models import RatingChange
from games.tournaments import rebuild, rounds, selectors, services
from games.tournaments.models import EntrantMember, RoundDeadline, Tournament, TournamentRecord, TournamentTable
from games.tournaments.policies import finish_of, tournament_round_time_up, tournament_start_and_play
from workers.tasks import sweep_tournaments

from .helpers import register_team
from .play import play, round_matches

pytestmark = pytest.mark.django_db(transaction=True)

YASHIMA = {"turn_seconds": 60, "defense_seconds": 30}


def _create(organizer, make_user, entrants: int, **fields):
    base = dict(creator=organizer, name="Cup", round_minutes=25,
                match_options=YASHIMA if fields.get("game", "yashima") == "yashima" else {"turn_seconds": 60})
    base.setdefault("game", "yashima")
    base.update(fields)
    starts_at = base.pop("starts_at", None)  # a time already passed: as if the event had waited for it
    t = services.tournament_create(**base)
    for _ in range(entrants):
        if t.teams:
            register_team(t.pk, make_user(), make_user())
        else:
            services.tournament_register(tournament_id=t.pk, user=make_user())
    if starts_at is not None:
        Tournament.objects.filter(pk=t.pk).update(starts_at=starts_at)
        t.refresh_from_db()
    return t


def _time_runs_out(t) -> None:
    """The round's clock passes its limit, and beat's sweep fires."""
    RoundDeadline.objects.filter(tournament=t).update(due_at=timezone.now() - timedelta(seconds=1))
    sweep_tournaments()


PLAY_TO_THE_END = 3000  # bot moves: far above what a bot game needs (Yashima 126-674, Yokai far fewer)
SHORT = 3  # bot moves in a match the round's time limit then ends


def _round_by_time(t, round_no: int) -> None:
    """The time-limit round: the first match is played to its end (unless it is the round's only one),
    the others get a few moves each, then the round's time runs out and beat's sweep ends them."""
    matches = round_matches(t.pk, round_no)
    for i, match_id in enumerate(matches):
        to_the_end = i == 0 and len(matches) > 1
        assert play(match_id, PLAY_TO_THE_END if to_the_end else SHORT) == to_the_end
    _time_runs_out(t)


def _round_by_play(t, round_no: int) -> None:
    """Every match is played to its end by the bots; the last MatchFinished pairs the next round (or
    finishes the event) by itself: no sweep, no beat."""
    for match_id in round_matches(t.pk, round_no):
        assert play(match_id, PLAY_TO_THE_END), f"a bot game of round {round_no} did not end"
    t.refresh_from_db()
    assert t.status == "finished" or t.round > round_no, "the round's end did not pair the next one"


def _run(t, organizer, *, time_round: int, drops: dict) -> list[int]:
    """Play the whole event: round ``time_round`` ends by its time limit, every other round is played to
    the end; ``drops`` maps a round to the entrants leaving during it (an organizer's drop, or the
    player's own withdrawal). Returns the rounds seen."""
    seen = []
    for _ in range(20):
        t.refresh_from_db()
        if t.status == "finished":
            return seen
        seen.append(t.round)
        for how, entrant_id in drops.get(t.round, ()):
            if how == "drop":
                services.tournament_drop(tournament_id=t.pk, user=organizer, entrant_id=entrant_id)
            else:  # the player leaves by themselves: after the start, a drop too
                member = EntrantMember.objects.filter(entrant_id=entrant_id).first()
                services.tournament_withdraw(tournament_id=t.pk, user=member.user)
        (_round_by_time if t.round == time_round else _round_by_play)(t, t.round)
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


def _assert_results_as_played(t, time_round: int):
    """Each result says how its match ended, and the match log agrees: ``time`` only in the time-limit
    round (the engine's SYSTEM time_limit), ``play`` everywhere else (the bots played it out)."""
    pairings = selectors.tournament_pairings(t)
    for pairing in pairings:
        by = pairing["result"]["by"]
        if pairing["match_id"] is None:
            assert by == "bye"
            continue
        assert finish_of(pairing["match_id"])[1] == by
        assert by == "play" or (by == "time" and pairing["round"] == time_round), pairing
    counted = Counter(p["result"]["by"] for p in pairings)
    assert counted["play"] >= 1 and counted["time"] >= 1, counted


def _dropped_before_every_seat_moved(match) -> bool:
    """Did a drop's resignation end ``match`` while a seat had not yet made a move of its own?"""
    events = MatchEvent.objects.filter(match=match).values_list("type", "actor")
    finish = next((actor for type_, actor in events if type_ == "MatchFinished"), None) or {}
    moved = {actor.get("seat") for type_, actor in events if actor.get("kind") == "user" and type_ not in PLATFORM_EVENTS}
    return finish.get("purpose") == "tournament_drop" and len(moved) < match.seat_count


def _assert_rated(t):
    """Every match was rated (tournament matches are, by default): one rating change per seated player;
    but a match a drop ended before every side had moved is not rated at all, like an aborted game
    (docs/ratings.md, "Tournaments")."""
    matches = Match.objects.filter(pk__in=TournamentTable.objects.filter(tournament=t).exclude(match=None)
                                   .values_list("match_id", flat=True))
    expected = {m.pk: 0 if _dropped_before_every_seat_moved(m) else m.seat_count for m in matches}
    assert dict(Counter(RatingChange.objects.filter(match_id__in=expected).values_list("match_id", flat=True))) == {
        match_id: n for match_id, n in expected.items() if n}


def _assert_champion(t):
    """The final is the last round, one table; its sole winner tops the standings (a drawn final sends
    the better seed on, who tops them too)."""
    final = [p for p in selectors.tournament_pairings(t) if p["round"] == t.round]
    assert len(final) == 1 and final[0]["stage"] == "elimination" and len(final[0]["entrant_ids"]) == 2
    top = selectors.tournament_standings(t)[0]["entrant_id"]
    assert top in final[0]["entrant_ids"]
    if len(final[0]["result"]["winners"]) == 1:
        assert top == final[0]["result"]["winners"][0]


# Every format and table shape, played by the engines' bots through the services: both games, 2-player
# tables, 3- and 4-player pods and 2v2 teams. Small fields keep CI time reasonable (Yashima, whose bot
# games are the longer, plays the 2-player and a 3-pod case). Each case has one time-limit round
# (``time_round``) and plays every other round to its end; ``drops`` (round -> [(how, seed index)],
# "drop" by the organizer or "withdraw" by the player) leave during that round.
CASES = [
    # (id, game, fields, entrants, time_round, drops)
    ("swiss-2p-bye", "yashima", dict(format="swiss", table_size=2, rounds=2), 5, 1, {1: [("withdraw", 4)]}),
    ("swiss-pods-3", "yashima", dict(format="swiss", table_size=3, rounds=2), 3, 1, {}),
    ("swiss-pods-3-drop", "yokai", dict(format="swiss", table_size=3, rounds=2), 7, 2, {1: [("drop", 6)]}),
    ("swiss-pods-4", "yokai", dict(format="swiss", table_size=4, rounds=2), 8, 1, {1: [("drop", 0)]}),
    ("swiss-teams", "yokai", dict(format="swiss", table_size=4, teams=True, rounds=2), 3, 2, {}),
    ("round-robin-2p", "yokai", dict(format="round_robin", table_size=2), 4, 2, {1: [("withdraw", 3)]}),
    ("round-robin-teams", "yokai", dict(format="round_robin", table_size=4, teams=True), 3, 1, {}),
    ("single-elimination-2p", "yokai", dict(format="single_elimination", table_size=2), 5, 1, {1: [("drop", 0)]}),
    ("single-elimination-teams", "yokai", dict(format="single_elimination", table_size=4, teams=True), 3, 1, {}),
    ("swiss-top-cut-2p", "yokai", dict(format="swiss_top_cut", table_size=2, rounds=2, top_cut=4), 6, 2,
     {1: [("drop", 5)]}),
    ("swiss-top-cut-teams", "yokai", dict(format="swiss_top_cut", table_size=4, teams=True, rounds=1, top_cut=4), 5, 1,
     {}),
]


@pytest.mark.parametrize("game,fields,entrants,time_round,drops", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_bot_played_tournament_runs_to_the_end_by_itself(organizer, make_user, game, fields, entrants, time_round,
                                                          drops):
    t = _create(organizer, make_user, entrants, game=game, **fields)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    assert all(round_matches(t.pk, 1))  # round 1's matches were created and started for the players
    order = TournamentRecord.objects.get(tournament=t, kind="started").payload["order"]  # the seeding
    leaving = {r: [(how, order[i]) for how, i in plan] for r, plan in drops.items()}
    dropped = [e for plan in leaving.values() for _how, e in plan]
    seen = _run(t, organizer, time_round=time_round, drops=leaving)
    planned = rounds.planned_rounds(services.settings_of(t), entrants)
    if dropped and fields["format"] == "swiss_top_cut":
        planned = len(seen)  # the cut of the field still in the event
    _assert_complete(t, planned)
    assert seen == list(range(1, planned + 1))
    _assert_results_as_played(t, time_round)
    _assert_rated(t)
    for entrant in dropped:
        later = TournamentTable.objects.filter(tournament=t, round__gt=1)
        assert all(entrant not in tt.entrant_ids for tt in later)  # never paired again...
        row = next(r for r in selectors.tournament_standings(t) if r["entrant_id"] == entrant)
        assert row["dropped"] and row["played"] >= 1  # ...and keeps its results
    if fields["format"] in ("swiss_top_cut", "single_elimination"):
        stages = TournamentRecord.objects.filter(tournament=t, kind="paired").values_list("payload__stage", flat=True)
        assert list(stages)[-1] == "elimination"  # the bracket (the top cut) was started by the schedule
        _assert_champion(t)


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
