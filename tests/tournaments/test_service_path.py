"""The service path's cost and correctness: a finished match folds the tournament log once (twice when
it completes the round and the next one is paired), the log's records are parsed once per process (the
committed prefix is kept, only later rows are read), and a rolled-back append never enters what is kept."""

import pytest
from django.db import transaction

from games.tournaments import policies, services
from games.tournaments.models import TournamentRecord

from .play import end_by_time_limit, round_matches

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_finished_match_folds_the_log_once_and_the_round_end_once_more(four_player_cup, monkeypatch):
    organizer, t = four_player_cup
    policies.tournament_start_and_play(tournament_id=t.pk, user=organizer)
    for match_id in round_matches(t.pk, 1):
        end_by_time_limit(match_id)  # each reaction runs on commit (eager, embedded mode): round 2 is paired
    folds = []
    real = services.fold
    monkeypatch.setattr(services, "fold", lambda records, state=None: folds.append(1) or real(records, state))

    # round 2 is being played: a first match ends, the other plays on
    third, fourth = round_matches(t.pk, 2)
    end_by_time_limit(third)
    assert len(folds) == 1  # counting its result; no pairing attempt folded anything
    end_by_time_limit(fourth)
    assert len(folds) == 3  # its result, then the round's end under the lock (and the event finishes)
    t.refresh_from_db()
    assert t.status == "finished"


def test_records_are_parsed_once_and_a_rolled_back_append_is_never_kept(four_player_cup, make_user, monkeypatch):
    _organizer, t = four_player_cup
    parsed = []
    real = services.record_from_dict
    monkeypatch.setattr(services, "record_from_dict", lambda data: parsed.append(data["kind"]) or real(data))
    services._RECORDS.clear()
    assert len(services.load_records(t.pk)) == 4 and len(parsed) == 4
    assert len(services.load_records(t.pk)) == 4 and len(parsed) == 4  # kept: nothing parsed again
    services.tournament_register(tournament_id=t.pk, user=make_user())
    assert len(services.load_records(t.pk)) == 5
    assert parsed.count("registered") <= 6  # the new row (and, in the append's own fold, once more at most)

    before = parsed[:]
    with pytest.raises(RuntimeError), transaction.atomic():
        services.tournament_register(tournament_id=t.pk, user=make_user())  # read and appended inside...
        assert len(services.load_records(t.pk)) == 6
        raise RuntimeError("...and rolled back")
    assert [type(r).__name__ for r in services.load_records(t.pk)] == ["Registered"] * 5
    assert services._RECORDS[str(t.pk)][-1][0] == 5
    assert TournamentRecord.objects.filter(tournament=t).count() == 5 and len(parsed) > len(before)
    assert len(services.state_of(t.pk, until=2).entrants) == 2  # a prefix of what is kept
    assert len(services.state_of(t.pk).entrants) == 5
