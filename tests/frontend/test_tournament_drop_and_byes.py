"""A reviewer's play-through of a Swiss tournament (docs/tournaments.md, "Pages"): dropping out did
not say that the match being played is lost, the message after it said "You have withdrawn." and the
pairings called the match the drop ended "played"; the standings' "Played" counted byes as games, a
bye's points showed while its round was played without a word, head-to-head read 0 where it does not
apply, a bye's result was a bare "3", and a paused round's player still read "Your match is ready"."""

import re

import pytest
from django.test import Client

from accounts.selfservice import account_anonymize
from games.application.identities import DELETED_PLAYER

from games.tournaments import selectors, services
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play

from ..tournaments.play import end_by_time_limit, round_matches, yokai_cup

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page(user, t) -> str:
    return _client(user).get(f"/tournaments/{t.pk}/").content.decode()


def _table_of(t, user) -> dict:
    entrant = next(e for e in selectors.tournament_detail(t)["entrants"] if user.pk in e["user_ids"])
    return next(p for p in selectors.tournament_pairings(t, round_no=1) if entrant["entrant_id"] in p["entrant_ids"])


@pytest.fixture
def running_cup(make_user):
    organizer, t, players = yokai_cup(make_user, players=4, rounds=2)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    return organizer, t, players


def test_the_drop_out_question_says_the_match_being_played_is_lost(running_cup):
    _organizer, t, players = running_cup
    html = _page(players[0], t)
    table = _table_of(t, players[0])
    confirm = re.search(r'data-confirm="(Drop out of [^"]*)"', html).group(1)
    assert confirm == (f"Drop out of Cup? Your match in round 1 (table {table['table']}) ends now and counts as a loss. "
                       "You are not paired again and cannot come back; your results so far stay.")


def test_after_dropping_out_the_page_and_the_pairings_say_so(running_cup, django_capture_on_commit_callbacks):
    _organizer, t, players = running_cup
    leaver = players[0]
    table = _table_of(t, leaver)
    with django_capture_on_commit_callbacks(execute=True):
        res = _client(leaver).post(f"/tournaments/{t.pk}/withdraw/", follow=True).content.decode()
    assert "You have dropped out: you are not paired again, and your results so far stay." in res
    assert "You have withdrawn." not in res
    # the table the drop ended says it was lost by dropping out, not "played"
    html = _page(players[1], t)
    pairings = html[html.index('data-testid="pairings-round-1"'):]
    row = re.search(rf'<tr data-table="{table["table"]}">.*?</tr>', pairings, flags=re.S).group(0)
    name = leaver.get_username()
    assert f'data-testid="result-by">lost: {name} dropped out</span>' in row
    assert ">played<" not in row
    # the API's pairing names who dropped out (an added key; "by" stays "play")
    shown = next(p for p in selectors.tournament_pairings(t, round_no=1) if p["table"] == table["table"])["result"]
    assert shown["by"] == "play" and len(shown["dropped_out"]) == 1


def test_a_result_before_a_later_drop_stays_played(running_cup, django_capture_on_commit_callbacks):
    organizer, t, players = running_cup
    table = _table_of(t, players[0])
    end_by_time_limit(table["match_id"])
    tournament_match_finished(match_id=table["match_id"])
    services.tournament_withdraw(tournament_id=t.pk, user=players[0])
    shown = next(p for p in selectors.tournament_pairings(t, round_no=1) if p["table"] == table["table"])["result"]
    assert "dropped_out" not in shown


def test_a_paused_rounds_player_reads_that_their_match_is_paused(running_cup):
    organizer, t, players = running_cup
    services.tournament_pause_clock(tournament_id=t.pk, user=organizer, reason="lunch")
    box = re.search(r'data-testid="your-match">(.*?)</p>', _page(players[0], t), flags=re.S).group(1)
    text = re.sub(r"<[^>]+>|\s+", " ", box)
    assert "Your match is paused:" in text and "ready" not in text
    assert "waits, with the clocks stopped, until the organizer resumes the round." in text


@pytest.fixture
def odd_cup(make_user):
    """Three players: round 1 pairs one table and a bye; the bye counts at once."""
    organizer, t, players = yokai_cup(make_user, players=3, rounds=2)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    return organizer, t, players


def _standings(html: str) -> str:
    return html[html.index('data-testid="standings"'):html.index("</table>", html.index('data-testid="standings"'))]


def test_standings_count_games_and_show_a_bye_beside_them(odd_cup):
    organizer, t, players = odd_cup
    bye = next(p for p in selectors.tournament_pairings(t, round_no=1) if len(p["entrant_ids"]) == 1)
    bye_name = next(e["name"] for e in selectors.tournament_detail(t)["entrants"] if e["entrant_id"] == bye["entrant_ids"][0])
    html = _page(organizer, t)
    # a bye at the start already gives standings: the empty-standings line no longer claims otherwise
    assert 'data-testid="no-standings"' not in html
    standings = _standings(html)
    assert '<th class="num" title="Games played; a bye is shown beside them, not counted as a game">Games</th>' in standings
    assert ">Played<" not in standings
    row = re.search(rf'<tr data-entrant-id="{bye["entrant_ids"][0]}".*?</tr>', standings, flags=re.S).group(0)
    assert re.search(r'<td class="num games">0 <span class="muted small nowrap" data-testid="standing-byes">\+ 1 bye</span>', row)
    # the bye's points are counted while the round's other table is still played: the page says so
    note = re.search(r'data-testid="byes-explained">(.*?)</p>', html, flags=re.S).group(1)
    assert note == ("Games are the matches played. A bye (a round without an opponent, when the field is odd) is "
                    "not a game: it is shown beside them and gives 3 points, counted as soon as its round is paired: "
                    f"{bye_name}'s bye of round 1 is already in the points while that round's other "
                    "tables are still played.")
    # the bye's result has its unit
    pairings = html[html.index('data-testid="pairings-round-1"'):]
    assert '<span data-testid="bye-points">3 points</span>' in pairings


def test_head_to_head_reads_a_dash_where_it_does_not_apply(odd_cup):
    organizer, t, players = odd_cup
    (match_id,) = round_matches(t.pk, 1)
    end_by_time_limit(match_id)
    tournament_match_finished(match_id=match_id)
    rows = {r["entrant_id"]: r for r in selectors.tournament_standings(t)}
    html = _page(organizer, t)
    standings = _standings(html)
    assert '<th class="num tiebreak">Head-to-head</th>' in standings
    for entrant_id, row in rows.items():
        cells = re.findall(r'<td class="num tiebreak">([^<]*)</td>',
                           re.search(rf'<tr data-entrant-id="{entrant_id}".*?</tr>', standings, flags=re.S).group(0))
        key = (row["points"], row["tiebreaks"]["buchholz_cut1"], row["tiebreaks"]["sonneborn_berger"])
        tied = sum(1 for r in rows.values()
                   if (r["points"], r["tiebreaks"]["buchholz_cut1"], r["tiebreaks"]["sonneborn_berger"]) == key)
        # then an entrant tied with nobody reads "–"; a tied one its head-to-head points
        assert cells[2] == ("–" if tied == 1 else str(row["tiebreaks"]["head_to_head"]))
    assert any(c == "–" for c in re.findall(r'<td class="num tiebreak">([^<]*)</td>', standings))



def test_each_players_standing_links_to_their_profile_but_a_deleted_accounts_does_not(running_cup,
                                                                                    django_capture_on_commit_callbacks):
    # given a player who dropped out of round 1 (their table has a result) and then deleted their account
    _organizer, t, players = running_cup
    gone = players[3]
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_withdraw(tournament_id=t.pk, user=gone)
    account_anonymize(gone)
    # then each other player's row links to their profile under their name; the deleted one's does not
    standings = _standings(_page(players[1], t))
    links = re.findall(r'<a href="/users/([^/"]+)/" data-testid="standing-profile">([^<]+)</a>', standings)
    assert sorted(links) == sorted((p.username, p.username) for p in players[:3]), standings
    assert f">{DELETED_PLAYER}<" in standings or f">{DELETED_PLAYER} " in standings
