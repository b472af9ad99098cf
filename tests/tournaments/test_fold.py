"""The fold refuses records that break the tournament's rules, so a corrupt log never yields standings."""

import pytest

from games.tournaments import rounds, standings
from games.tournaments.records import (
    Adjudicated,
    ClockPaused,
    ClockResumed,
    Dropped,
    Overridden,
    Paired,
    Registered,
    Reported,
    Result,
    Settings,
    Started,
    Table,
    TournamentError,
    Withdrawn,
)
from games.tournaments.state import apply, fold

BASE = [Registered("a", "A"), Registered("b", "B"), Registered("c", "C"), Started(("a", "b", "c")),
        Paired(1, "swiss", (Table(1, ("a", "b")), Table(2, ("c",))))]


def _code(records):
    with pytest.raises(TournamentError) as caught:
        fold(records)
    return caught.value.code


def test_a_result_is_counted_once():
    assert _code(BASE + [Result(1, 1, {"a": 1, "b": 2}), Result(1, 1, {"a": 2, "b": 1})]) == "result_already_recorded"


def test_a_round_is_paired_once_and_only_after_the_previous_one_is_complete():
    assert _code(BASE + [Paired(1, "swiss", (Table(1, ("a", "c")),))]) == "round_already_paired"
    assert _code(BASE + [Paired(2, "swiss", (Table(1, ("a", "c")),))]) == "round_in_progress"
    with pytest.raises(TournamentError) as caught:
        rounds.next_pairing(Settings(), fold(BASE))
    assert caught.value.code == "round_in_progress"


def test_registration_closes_at_the_start_and_withdrawal_becomes_a_drop():
    assert _code(BASE[:4] + [Registered("d", "D")]) == "registration_closed"
    assert _code(BASE[:4] + [Withdrawn("a")]) == "registration_closed"
    assert _code([Registered("a", "A"), Registered("a", "A")]) == "already_registered"
    state = fold([Registered("a", "A"), Registered("b", "B"), Withdrawn("b")])
    assert list(state.entrants) == ["a"]
    assert _code([Registered("a", "A"), Registered("b", "B"), Started(("a",))]) == "invalid_seeding"


def test_invalid_pairings_and_results_are_refused():
    assert _code(BASE[:4] + [Paired(1, "swiss", (Table(1, ("a", "a")),))]) == "invalid_pairing"
    assert _code(BASE[:4] + [Paired(1, "swiss", (Table(1, ("a", "z")),))]) == "invalid_pairing"
    assert _code(BASE[:4] + [Paired(1, "swiss", (Table(2, ("a", "b")),))]) == "invalid_pairing"
    assert _code(BASE + [Result(1, 2, {"c": 1})]) == "bye_table"
    assert _code(BASE + [Result(1, 3, {"a": 1})]) == "unknown_table"
    assert _code(BASE + [Result(1, 1, {"a": 1, "c": 2})]) == "invalid_result"
    assert _code(BASE + [Result(1, 1, {"a": 1, "b": 2}, by="magic")]) == "invalid_result"


def test_a_dropped_entrant_keeps_its_results_and_is_not_paired_again():
    log = BASE + [Result(1, 1, {"a": 1, "b": 2}), Dropped("a")]
    state = fold(log)
    nxt = rounds.next_pairing(Settings(rounds=3), state)
    assert all("a" not in t.entrant_ids for t in nxt.tables)
    row = next(r for r in standings.compute(Settings(), state) if r.entrant_id == "a")
    assert row.points == 3 and row.dropped
    assert _code(log + [Dropped("a")]) == "already_dropped"
    assert _code(log + [nxt, Paired(3, "swiss", ())]) in ("round_in_progress", "invalid_round")


def test_a_judge_upholds_a_result_or_overrides_it_with_a_written_reason():
    log = BASE + [Result(1, 1, {"a": 1, "b": 2})]
    assert _code(BASE + [Adjudicated(1, 1, judge="j")]) == "no_result"
    upheld = fold(log + [Adjudicated(1, 1, judge="j", reason="checked seq 40")])
    assert upheld.rounds[0].results[1].by == "play" and len(upheld.rounds[0].adjudications) == 1
    assert _code(log + [Overridden(1, 1, {"a": 2, "b": 1}, judge="j", reason=" ")]) == "reason_required"
    state = fold(log + [Overridden(1, 1, {"a": 2, "b": 1}, judge="j", reason="illegal move at seq 41")])
    assert state.rounds[0].results[1].by == "judge"
    points = {r.entrant_id: r.points for r in standings.compute(Settings(), state)}
    assert points == {"a": 0, "b": 3, "c": 3}


def test_a_players_report_is_a_record_open_until_a_judge_answers_it():
    log = BASE + [Result(1, 1, {"a": 1, "b": 2}), Reported(1, 1, report_id=7, entrant_id="b", seq=12)]
    state = fold(log)
    assert [(r.report_id, r.entrant_id, r.seq, r.status) for r in state.reports()] == [(7, "b", 12, "open")]
    rows = {r.entrant_id: r.to_dict()["reports"] for r in standings.compute(Settings(), state)}
    assert rows == {"a": [{"round": 1, "table": 1, "status": "open"}], "b": [{"round": 1, "table": 1, "status": "open"}],
                    "c": []}  # both players of the table carry the marker; the bye does not
    upheld = fold(log + [Adjudicated(1, 1, judge="j", reason="as played", report_id=7)])
    assert upheld.reports()[0].status == "upheld"
    overridden = fold(log + [Overridden(1, 1, {"a": 2, "b": 1}, judge="j", reason="misclick", report_id=7)])
    assert overridden.reports()[0].status == "overridden" and overridden.rounds[0].results[1].by == "judge"
    # a report a judge has answered is not answered again; an unknown one cannot be
    assert _code(log + [Adjudicated(1, 1, judge="j", report_id=7), Adjudicated(1, 1, judge="j", report_id=7)]) \
        == "already_resolved"
    assert _code(log + [Adjudicated(1, 1, judge="j", report_id=8)]) == "unknown_report"
    # the reporter plays that table; a bye has no match to report; a report id is recorded once
    assert _code(BASE + [Reported(1, 1, report_id=1, entrant_id="c", seq=3)]) == "not_a_player"
    assert _code(BASE + [Reported(1, 2, report_id=1, entrant_id="c", seq=3)]) == "bye_table"
    assert _code(log + [Reported(1, 1, report_id=7, entrant_id="a", seq=3)]) == "invalid_report"
    assert _code(BASE + [Reported(1, 1, report_id=1, entrant_id="a", seq=0)]) == "invalid_seq"
    # before its result comes in a table can be reported too (a running match)
    assert fold(BASE + [Reported(1, 1, report_id=2, entrant_id="a", seq=5)]).reports()[0].status == "open"


def test_apply_checks_one_new_record_like_the_fold():
    state = fold(BASE)
    apply(state, Result(1, 1, {"a": 1, "b": 1}))
    with pytest.raises(TournamentError):
        apply(state, Result(1, 1, {"a": 1, "b": 1}))


@pytest.mark.parametrize("bad", [
    dict(format="ladder"), dict(table_size=5), dict(teams=True, table_size=2), dict(pod_scoring="x"),
    dict(format="swiss_top_cut", top_cut=6), dict(format="swiss", top_cut=4), dict(rounds=0),
    dict(format="round_robin", table_size=4), dict(tiebreaks=("coin",)), dict(bye_points=-1),
    dict(rounds=True), dict(bye_points=True), dict(table_size=2.0), dict(format="swiss_top_cut", top_cut="4"),
])
def test_invalid_settings_are_refused_with_a_stable_code(bad):
    with pytest.raises(TournamentError) as caught:
        Settings(**bad)
    assert caught.value.code.startswith("invalid_")


def test_the_round_clock_pauses_and_resumes_only_in_the_round_being_played():
    base = [Registered("a", "A", (1,)), Registered("b", "B", (2,)), Started(("a", "b")),
            Paired(1, "swiss", (Table(1, ("a", "b")),))]
    state = fold(base + [ClockPaused(1, "drill")])
    assert state.rounds[-1].clock_paused
    assert not fold(base + [ClockPaused(1), ClockResumed(1)]).rounds[-1].clock_paused
    for records, code in (([ClockPaused(1), ClockPaused(1)], "already_paused"), ([ClockResumed(1)], "not_paused"),
                          ([ClockPaused(2)], "not_current_round"),
                          ([Result(1, 1, {"a": 1, "b": 2}), ClockPaused(1)], "round_over")):
        with pytest.raises(TournamentError) as caught:
            fold(base + records)
        assert caught.value.code == code
