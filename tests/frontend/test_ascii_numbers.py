"""Numbers typed into pages are ASCII digits only (``games.kernel.digits.ascii_int``):
"²".isdigit() is true and int("²") raises, so a report from the replay page with ``seq=²`` and a
spectator delay of ``seconds=²`` (by any signed-in user: the value was read before the organizer
check) were 500s. Now each is refused in words, and the spectator delay checks who asks first."""

import pytest

from games.kernel.digits import MAX_DIGITS, ascii_int
from games.tournaments.models import MatchReport, Tournament, TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play
from tests.tournaments.play import end_by_time_limit, yokai_cup

from .test_account_pages import messages_shown
from .test_tournament_pages import browser

pytestmark = pytest.mark.django_db

NOT_ASCII_DIGITS = ["²", "٣", "３", "1²", "+7", "-1", " 7", "7_000", "", "1" * (MAX_DIGITS + 1), "1" * 5000]


@pytest.mark.parametrize("raw", NOT_ASCII_DIGITS, ids=range(len(NOT_ASCII_DIGITS)))
def test_ascii_int_refuses_anything_but_ascii_digits(raw):
    assert ascii_int(raw) is None


def test_ascii_int_reads_ascii_digits_and_nothing_but_text():
    assert [ascii_int(r) for r in ("0", "7", "0042", "9" * MAX_DIGITS)] == [0, 7, 42, int("9" * MAX_DIGITS)]
    assert [ascii_int(r) for r in (None, 7, 7.0, b"7")] == [None] * 4


@pytest.mark.parametrize("seq", ["²", "٣", "1" * 5000], ids=["superscript", "arabic-indic", "5000-digits"])
def test_a_replay_report_with_a_seq_that_is_not_ascii_digits_is_refused_in_words(make_user, seq):
    organizer, t, (alice, _bob) = yokai_cup(make_user, players=2, rounds=1)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    end_by_time_limit(table.match_id)
    tournament_match_finished(match_id=table.match_id)
    as_alice = browser(alice)
    res = as_alice.post(f"/matches/{table.match_id}/replay/report/", {"seq": seq, "text": "look"})
    assert res.status_code == 302 and res["Location"] == f"/matches/{table.match_id}/replay/"
    shown = messages_shown(as_alice.get(res["Location"]).content.decode())
    assert "code-invalid_seq" in shown and MatchReport.objects.count() == 0


@pytest.mark.parametrize("seconds", ["²", "٣", "1" * 5000], ids=["superscript", "arabic-indic", "5000-digits"])
def test_the_spectator_delay_checks_who_asks_first_then_refuses_a_value_that_is_not_ascii_digits(organizer, make_user,
                                                                                                   seconds):
    from games.tournaments import services

    t = services.tournament_create(creator=organizer, name="Delay Open", game="yokai", format="swiss",
                                   table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    url = f"/tournaments/{t.pk}/spectator-delay/"
    res = browser(make_user()).post(url, {"seconds": seconds}, follow=True)
    assert res.status_code == 200 and "code-not_organizer" in messages_shown(res.content.decode())
    res = browser(organizer).post(url, {"seconds": seconds, "turns": "1"}, follow=True)
    shown = messages_shown(res.content.decode())
    assert res.status_code == 200 and "code-invalid_spectator_delay" in shown and "whole number" in shown
    before = Tournament.objects.get(pk=t.pk)
    assert (before.spectator_delay_seconds, before.spectator_delay_turns) == (t.spectator_delay_seconds,
                                                                              t.spectator_delay_turns)
