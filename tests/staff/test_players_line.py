"""The staff match page says at the top which game it is and who plays with whom (review finding: a
Yashima 2v2 read "yashima match ... 4 seats", the teams only in the board's legend far below, and a
Harakiri party looked like opponents), and what the event shown did even when the engine gives it no
sentence."""

import html as htmllib
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.application import selectors, services
from games.eventstore.models import MatchEvent
from games.staff.words import sides_words

pytestmark = pytest.mark.django_db


def _started(make_user, game, seats, options):
    users = [make_user(username=name) for name in ("alice", "bob", "carol", "dave")[:seats]]
    match = services.match_create(game=game, seats=seats, options=options, creator=users[0], join=False)
    for seat, user in enumerate(users):
        services.match_join(match_id=match.pk, user=user, seat=seat)
    services.match_start(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    return match


def _page(make_user, match, at=None) -> str:
    client = Client()
    client.force_login(make_user(is_staff=True))
    return client.get(reverse("staff:match", args=[match.pk]), {"at": at} if at else {}).content.decode()


def _header(make_user, match) -> tuple[str, str]:
    html = _page(make_user, match)
    heading = re.search(r"<h1>(.*?) match <code>", html).group(1)
    players = re.search(r'<p data-testid="match-players">players: (.*?)</p>', html).group(1)
    return htmllib.unescape(heading), htmllib.unescape(players)


# rules: Yashima core, "Playing a Team Game" (team-mates sit across from each other: seats 1 and 3 against 2 and 4)
def test_a_yashima_team_match_names_its_game_and_its_two_teams(make_user):
    # given a started Yashima match of two teams of two
    match = _started(make_user, "yashima", 4, {"teams": True})
    # when staff open its log review
    heading, players = _header(make_user, match)
    # then the header names the game and each team's seats and players
    assert heading == "Yashima: Legend of the Kami Masters"
    assert players == "seat 1 (alice) and seat 3 (carol) vs seat 2 (bob) and seat 4 (dave)"


def test_a_harakiri_party_reads_as_playing_together(make_user):
    # given a started Harakiri match (a cooperative game: the party wins or loses together)
    match = _started(make_user, "harakiri", 2, {})
    # when staff open its log review, then its players are one party against the game
    heading, players = _header(make_user, match)
    assert heading == "Harakiri: Blades of Honor"
    assert players == "seat 1 (alice) and seat 2 (bob), together against the game"


def test_the_event_shown_says_what_a_bookkeeping_event_did(make_user):
    # given a Yashima match where the first master was picked: the engine then hands the setup on in a
    # ControlSet, an event it gives no sentence
    match = _started(make_user, "yashima", 2, {})
    seat = selectors.status_of(match, selectors.state_load(match))["awaiting"][0]
    view = selectors.view_for_seat(match, seat)
    pick = view["legal_commands"][0]
    services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(match.created_by),
                                  command_id=uuid.uuid4(), expected_seq=view["seq"], type_=pick["type"], args=pick["args"])
    control = MatchEvent.objects.filter(match=match, type="ControlSet").order_by("-seq").first()
    # when staff open the log review at that event
    html = _page(make_user, match, at=control.seq)
    # then the line about the event shown says what it did, as its history row does
    line = re.search(r'<p class="event-at">(.*?)</p>', html, re.S).group(1)
    assert 'ControlSet</strong>: <span class="muted">control changes: setup step' in line, line


def test_sides_in_words():
    names = ["alice", "bob", "carol"]
    assert sides_words([[0], [1], [2]], names) == "seat 1 (alice) vs seat 2 (bob) vs seat 3 (carol)"
    assert sides_words([[0, 1, 2]], names, together=True) == \
        "seat 1 (alice), seat 2 (bob) and seat 3 (carol), together against the game"
    assert sides_words([[0], [1]], ["alice", None]) == "seat 1 (alice) vs seat 2"  # a seat nobody holds
