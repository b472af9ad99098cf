"""A player play-through of the organizer's tournament page with a paused round: it said the pause four
times (the status line, a notice, the next-round line, the controls' help), its pairings said "playing"
for the table held by the pause, and the spectator delay read "1 minute" there but "60 s" on the match
page. Now the organizer reads the pause once, beside the Resume button, in its one wording ("the round
is paused: <reason>", "round over and paused: the next round waits for the organizer"); the status line
and the pairings only badge it; and every page words a duration with one formatter
(``frontend.wording.duration_words``; docs/tournaments.md, "The round clock" and "Fair play")."""

import re

import pytest
from django.test import Client

from frontend.wording import delay_words, duration_words
from games.tournaments import services
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play

from ..tournaments.play import end_by_time_limit, round_matches, yokai_cup

REASON = "power cut"


def _page(user, t) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tournaments/{t.pk}/").content.decode()


def _text(html: str) -> str:
    """The page's words as a reader meets them (tags, comments and scripts left out)."""
    html = re.sub(r"<script.*?</script>|<!--.*?-->|<[^>]+>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", html)


def _end(match_id):
    end_by_time_limit(match_id)
    tournament_match_finished(match_id=match_id)  # the test database never commits: react by hand


@pytest.fixture
def paused_cup(make_user):
    """Round 1 of 2 of a four-player cup: table 1 over, table 2 still played, paused for a power cut."""
    organizer, t, players = yokai_cup(make_user, players=4, rounds=2)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    first, second = round_matches(t.pk, 1)
    _end(first)
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason=REASON)
    return organizer, t, players, second


@pytest.mark.django_db
def test_the_organizer_reads_a_paused_round_once_beside_the_resume_button(paused_cup):
    organizer, t, _players, _second = paused_cup
    # when the organizer opens the page of their paused tournament
    html = _page(organizer, t)
    text = _text(html)
    # then one notice, in the entry box with the Resume button, says it in the one wording
    assert html.count('data-testid="pause-reason"') == 1
    entry = html[html.index('data-testid="entry"'):html.index('id="tournament-live"')]
    assert re.search(r'data-testid="pause-reason"[^>]*><strong>The round is paused: “power cut”\.</strong></p>', entry)
    assert 'data-testid="resume">Resume the round</button>' in entry
    # and nothing else says it again: the reason once, no notice to the players, no next-round line
    assert text.count(REASON) == 1
    assert "paused by the organizer" not in text and "While the round is paused" not in text
    assert "is not paired while the round is paused" not in text
    # the status line only badges it
    assert '<span class="badge paused" data-testid="clock-paused">round paused</span>' in html


@pytest.mark.django_db
def test_the_pairings_say_a_table_held_by_the_pause_is_paused(paused_cup):
    organizer, t, players, _second = paused_cup
    for viewer in (organizer, players[0]):
        html = _page(viewer, t)
        pairings = html[html.index('data-testid="pairings-round-1"'):]
        pairings = pairings[:pairings.index("</table>")]
        # then the table still played reads "paused", never "playing"; the table over keeps its result
        assert pairings.count('<span class="muted" data-testid="table-paused">paused</span>') == 1
        assert "playing" not in pairings and 'data-testid="result-by">on time</span>' in pairings


@pytest.mark.django_db
def test_a_player_reads_the_pause_once_in_the_notice(paused_cup):
    _organizer, t, players, _second = paused_cup
    html = _page(players[0], t)
    # then the notice says it, with what waits (the next-round line no longer says it again)
    notice = re.search(r'data-testid="pause-reason">([^<]*)</p>', html).group(1)
    assert notice.startswith("The round is paused by the organizer: “power cut”.")
    assert notice.endswith("Until then round 2 is not paired, even once every match of round 1 has ended.")
    assert html.count('data-testid="pause-reason"') == 1 and _text(html).count(REASON) == 1
    assert 'data-testid="next-round"' not in html and 'data-testid="resume"' not in html


@pytest.mark.django_db
def test_once_the_paused_round_is_over_the_organizer_reads_that_the_next_round_waits(paused_cup):
    organizer, t, _players, second = paused_cup
    # when the last match of the round ends during the pause
    _end(second)
    html = _page(organizer, t)
    # then the one notice says the round is over and paused, and the status line badges it
    assert html.count('data-testid="pause-reason"') == 1 and _text(html).count(REASON) == 1
    assert ("<strong data-testid=\"next-round-waits\">Round over and paused (“power cut”): the next round waits "
            "for the organizer.</strong>") in html
    assert 'data-testid="resume">Resume and pair round 2</button>' in html
    assert '<span class="badge paused" data-testid="clock-paused">round over, paused</span>' in html
    assert 'data-testid="table-paused"' not in html


def test_one_formatter_words_every_duration():
    # the match page said "60 s", the tournament page "1 minute": one wording now
    assert duration_words(60) == "1 minute"
    assert duration_words(150) == "2 minutes 30 seconds"
    assert duration_words(45) == "45 seconds"
    assert duration_words(3600) == "1 hour"
    assert delay_words(60, 1) == "1 minute and 1 turn"
    assert delay_words(90, 0) == "1 minute 30 seconds"
    assert delay_words(120, 3) == "2 minutes and 3 turns"
    assert delay_words(0, 0) == ""
