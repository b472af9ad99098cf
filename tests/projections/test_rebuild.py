"""rebuild_projections: a from-scratch rebuild agrees with the incremental projections after
normal play, and every kind of corruption is reported (and repaired by --fix)."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.eventstore.models import Snapshot
from games.projections import rebuild
from games.projections.models import MatchDeadline, MatchSummary, PlayerRecord

from .play import play_randomly

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(started_pebbles, django_capture_on_commit_callbacks, settings):
    """Five random Pebbles matches (2-4 seats, some bots, clocks, snapshots every 7 events),
    most played to the end, one left mid-game, plus an open lobby."""
    settings.SNAPSHOT_EVERY = 7
    matches = []
    specs = [
        dict(seats=2, options={"target": 15}),
        dict(seats=3, options={"target": 20, "turn_seconds": 60}, bots=(2,)),
        dict(seats=4, options={"tiles": 18}, bots=(1, 3)),
        dict(seats=2, options={"bonus_rolls": False, "target": 12}, bots=(1,)),
    ]
    for i, spec in enumerate(specs):
        match, users = started_pebbles(**spec)
        play_randomly(match, users, django_capture_on_commit_callbacks, seed=i)
        matches.append((match, users))
    # The same players again (their records accumulate over several matches) and one unfinished.
    match, users = started_pebbles(seats=2, options={"turn_seconds": 30})
    play_randomly(match, users, django_capture_on_commit_callbacks, seed=9, stop_at=9)
    matches.append((match, users))
    return matches


def run(*args):
    out = StringIO()
    call_command("rebuild_projections", *args, stdout=out)
    return out.getvalue()


def test_no_difference_after_normal_play(played):
    finished = [m for m, _ in played if MatchSummary.objects.get(match=m).status == "finished"]
    assert len(finished) >= 4  # the fixture really played matches to the end
    assert Snapshot.objects.count() >= 5
    assert MatchDeadline.objects.exists()  # the unfinished clocked match has a running clock
    assert PlayerRecord.objects.filter(played__gt=0).exists()

    report = rebuild.check()
    assert report.matches == len(played)
    assert report.lines() == []
    out = run()
    assert f"checked {len(played)} match(es): 0 difference(s)" in out
    for match, _ in played:
        assert rebuild.check(match.pk).clean


def test_corrupted_summary_field_is_reported_and_fixed(played):
    match = played[1][0]
    stored_phase = MatchSummary.objects.get(match=match).phase
    MatchSummary.objects.filter(match=match).update(phase="bogus", seq=1)

    with pytest.raises(CommandError) as err:
        run()
    assert err.value.returncode == 1
    report = rebuild.check()
    lines = report.lines()
    assert f"{match.pk} summary phase: stored=\"bogus\" rebuilt=\"{stored_phase}\"" in lines
    assert f"{match.pk} summary seq: stored=1 rebuilt={match.head_seq}" in lines
    assert len(lines) == 2
    assert MatchSummary.objects.get(match=match).phase == "bogus"  # a check changes nothing

    out = run("--fix")
    assert "all projections now match the log" in out
    summary = MatchSummary.objects.get(match=match)
    assert (summary.phase, summary.seq) == (stored_phase, match.head_seq)
    assert rebuild.check().clean


def test_missing_summary_and_players_are_reported(played):
    match, users = played[0]
    summary = MatchSummary.objects.get(match=match)
    summary.players.remove(users[1])
    report = rebuild.check(match.pk)
    assert [(d.projection, d.field) for d in report.differences] == [("summary", "players")]

    MatchSummary.objects.filter(match=match).delete()
    report = rebuild.check(match.pk)
    assert [(d.projection, d.field) for d in report.differences] == [("summary", "*")]
    run("--match", str(match.pk), "--fix")
    assert sorted(MatchSummary.objects.get(match=match).players.values_list("pk", flat=True)) == sorted(u.pk for u in users)


def test_corrupted_player_record_is_reported_and_fixed(played):
    match, users = played[0]
    record = PlayerRecord.objects.get(user=users[0], game="pebbles")
    PlayerRecord.objects.filter(pk=record.pk).update(won=record.won + 5)
    # A record for a user who never finished a match is a difference too.
    stranger = played[4][1][1]
    PlayerRecord.objects.create(user=stranger, game="pebbles", played=3, won=1)

    report = rebuild.check()
    lines = report.lines()
    assert f"- player_record user={users[0].pk} game=pebbles won: stored={record.won + 5} rebuilt={record.won}" in lines
    assert f"- player_record user={stranger.pk} game=pebbles played: stored=3 rebuilt=0" in lines
    assert len(lines) == 3
    # --match limits the records checked to that match's players (across all their matches).
    only = rebuild.check(match.pk).lines()
    assert only == [f"- player_record user={users[0].pk} game=pebbles won: stored={record.won + 5} rebuilt={record.won}"]

    rebuild.check(fix=True)
    assert PlayerRecord.objects.get(pk=record.pk).won == record.won
    assert not PlayerRecord.objects.filter(user=stranger).exists()
    assert rebuild.check().clean


def test_corrupted_snapshot_is_reported_and_fixed(played):
    match = played[2][0]
    snap = Snapshot.objects.filter(match=match).order_by("seq").first()
    assert snap is not None
    state = snap.state
    true_score = state["game"]["scores"][1]
    state["game"]["scores"][1] = true_score + 100
    Snapshot.objects.filter(pk=snap.pk).update(state=state)

    report = rebuild.check()
    assert report.lines() == [
        f"{match.pk} snapshot seq={snap.seq} state.game.scores[1]: stored={true_score + 100} rebuilt={true_score}"
    ]
    with pytest.raises(CommandError):
        run("--match", str(match.pk))

    out = run("--match", str(match.pk), "--fix")
    assert "fixed 1 difference(s)" in out
    assert Snapshot.objects.get(pk=snap.pk).state["game"]["scores"][1] == true_score
    assert rebuild.check().clean


def test_deadline_corruption_is_reported_and_fixed(played):
    match = played[4][0]
    deadline = MatchDeadline.objects.get(match=match)
    MatchDeadline.objects.filter(match=match).update(due_at=deadline.due_at.replace(year=2001))
    MatchDeadline.objects.filter(match=played[0][0]).delete()  # finished: none expected, none stored
    lines = rebuild.check().lines()
    assert len(lines) == 1 and lines[0].startswith(f"{match.pk} deadline due_at: stored=2001-")

    MatchDeadline.objects.filter(match=match).delete()
    assert [d.field for d in rebuild.check(match.pk).differences] == ["*"]
    rebuild.check(match.pk, fix=True)
    assert MatchDeadline.objects.get(match=match).due_at == deadline.due_at


def test_unknown_match_is_a_command_error(db):
    with pytest.raises(CommandError, match="no such match"):
        run("--match", "00000000-0000-0000-0000-000000000000")
    with pytest.raises(CommandError, match="no such match"):
        run("--match", "not-a-uuid")


def test_a_stream_that_no_longer_folds_is_reported_and_not_fixable(played):
    from games.eventstore.models import Match

    match = played[0][0]
    records = sorted(PlayerRecord.objects.values_list("user_id", "game", "played", "won"))
    Match.objects.filter(pk=match.pk).update(game="ghost")
    lines = rebuild.check().lines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{match.pk} stream fold: stored=\"-\" rebuilt=\"error: RuleViolation: unknown_game")
    with pytest.raises(CommandError, match="remain after --fix"):
        run("--fix")
    assert MatchSummary.objects.filter(match=match).exists()  # nothing was rewritten from a bad fold
    # its players' records are not "repaired" by a recount that is missing this match
    assert sorted(PlayerRecord.objects.values_list("user_id", "game", "played", "won")) == records
