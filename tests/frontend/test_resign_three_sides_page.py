"""The match page of a game of three sides or more (docs/platform.md, "Resigning"): the Resign button
says the game goes on without the player, and afterwards the page knows they left."""

import re

import pytest

from games.application import services

from tests.api.test_resign_three_sides import started

from .test_pages import boot_of

pytestmark = pytest.mark.django_db


def test_a_player_resigns_from_a_three_player_match_and_the_others_play_on(client, make_user):
    match, users = started(make_user, "yokai", 3)
    client.force_login(users[2])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    form = re.search(r'<form id="resign-form"[^>]*>', page).group(0)
    assert " hidden" not in form
    res = client.post(f"/matches/{match.pk}/resign/")
    assert res.status_code == 302
    doc = boot_of(client.get(f"/matches/{match.pk}/"))["doc"]
    assert doc["match"]["status"] == "active" and doc["match"]["conceded"] == [2] and doc["resignable"] is False
    left = client.get(f"/matches/{match.pk}/").content.decode()
    assert re.search(r'<form id="resign-form"[^>]* hidden', left)
    assert re.search(r'<section id="turn-alerts"[^>]* hidden>', left)  # no turn of theirs is to come
    client.force_login(users[0])
    assert boot_of(client.get(f"/matches/{match.pk}/"))["doc"]["resignable"] is True
    assert not re.search(r'<section id="turn-alerts"[^>]* hidden>', client.get(f"/matches/{match.pk}/").content.decode())


def test_the_resign_button_asks_in_the_words_of_the_game(client, make_user, started_pebbles):
    match, users = started(make_user, "yokai", 3)
    client.force_login(users[1])
    form = re.search(r'<form id="resign-form"[^>]*>', client.get(f"/matches/{match.pk}/").content.decode()).group(0)
    assert "You leave the game and the others play on without you" in form
    two, (alice, _) = started_pebbles()
    client.force_login(alice)
    form = re.search(r'<form id="resign-form"[^>]*>', client.get(f"/matches/{two.pk}/").content.decode()).group(0)
    assert "Your opponents win at once" in form


def test_during_a_yashima_setup_of_three_masters_the_page_offers_resign_in_the_words_of_the_game(client, make_user):
    # given a three-master Yashima match in its setup (a master may leave at any time: docs/games/yashima.md)
    match, users = started(make_user, "yashima", 3, {})
    client.force_login(users[1])
    # when the player opens the match page
    res = client.get(f"/matches/{match.pk}/")
    page = res.content.decode()
    # then the Resign button is there, and its question says what leaving means in Yashima's words
    form = re.search(r'<form id="resign-form"[^>]*>', page).group(0)
    assert " hidden" not in form
    assert ('data-confirm="Resign this match? Your master leaves the game and the other masters play on without '
            'you; this cannot be undone."') in form
    doc = boot_of(res)["doc"]
    assert doc["resignable"] is True and doc["resign_refused"] is None
    assert 'id="resign-later"' not in page


def test_a_team_player_is_told_the_team_loses(client, make_user):
    # given a Yashima team game (two teams of two)
    match, users = started(make_user, "yashima", 4, {"teams": True})
    client.force_login(users[0])
    # when the player opens the match page
    page = client.get(f"/matches/{match.pk}/").content.decode()
    # then the Resign question says the team loses (not only "your opponents win")
    form = re.search(r'<form id="resign-form"[^>]*>', page).group(0)
    assert " hidden" not in form
    assert 'data-confirm="Resign this match? Your team loses and the other team wins at once; this cannot be undone."' in form


def test_a_paused_match_shows_the_organizers_banner_and_offers_no_move(client, started_pebbles):
    # given a running match whose tournament's organizer paused it for a power cut
    match, (alice, bob) = started_pebbles()
    organizer = services.Actor("worker", extra={"task": "test", "purpose": "tournament_pause"})
    services.match_hold_clock(match_id=match.pk, actor=organizer, reason="power cut")
    client.force_login(alice)
    # when the player whose turn it is opens the match page
    res = client.get(f"/matches/{match.pk}/")
    page = res.content.decode()
    # then a banner says the match is paused and why, and no move is offered (resigning still is)
    banner = re.search(r'<p id="paused-banner"[^>]*>([^<]*)</p>', page)
    assert " hidden" not in banner.group(0)
    assert banner.group(1) == ("The round is paused by the organizer: power cut. Moves wait until it resumes; "
                               "clocks are stopped.")
    doc = boot_of(res)["doc"]
    assert doc["legal_commands"] == [] and doc["resignable"] is True
    # and once the organizer resumes, the banner is gone and the move is offered again
    services.match_release_clock(match_id=match.pk, actor=organizer)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert re.search(r'<p id="paused-banner"[^>]* hidden', page)
    assert boot_of(client.get(f"/matches/{match.pk}/"))["doc"]["legal_commands"]


def test_a_page_opened_before_the_start_asks_as_the_match_will_be_played(client, make_user):
    # given a three-seat Yashima match still open in the lobby, and a 2-against-2 one
    users = [make_user() for _ in range(3)]
    match = services.match_create(game="yashima", seats=3, options={}, creator=users[0])
    teams = services.match_create(game="yashima", seats=4, options={"teams": True}, creator=users[0])
    client.force_login(users[0])
    # when its creator opens the page (which goes on live once the match starts, without a reload)
    forms = [re.search(r'<form id="resign-form"[^>]*>', client.get(f"/matches/{m.pk}/").content.decode()).group(0)
             for m in (match, teams)]
    # then the Resign question is already the one of three masters, and of a team of two sides
    assert "Your master leaves the game and the other masters play on without you" in forms[0]
    assert "Your team loses and the other team wins at once" in forms[1]


def test_a_harakiri_player_is_told_their_characters_pass_to_the_first_player_left(client, make_user):
    # given a two-player Harakiri match (cooperative: docs/games/harakiri.md, "Resigning")
    match, users = started(make_user, "harakiri", 2, {})
    client.force_login(users[0])
    # when seat 0 opens the match page, the question says who takes their characters
    page = client.get(f"/matches/{match.pk}/").content.decode()
    form = re.search(r'<form id="resign-form"[^>]*>', page).group(0)
    assert " hidden" not in form and 'data-cooperative="1"' in form
    assert (f"Your characters pass to {users[1].username}; the party plays on without you. "
            "This cannot be undone.") in form
    # and once seat 0 has left, the last player is told the match would end
    client.post(f"/matches/{match.pk}/resign/")
    client.force_login(users[1])
    form = re.search(r'<form id="resign-form"[^>]*>', client.get(f"/matches/{match.pk}/").content.decode()).group(0)
    assert "You are the last player at the table: the party fails and the match ends" in form
