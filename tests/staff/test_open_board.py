"""The staff review draws the board with all hands open (unredacted), besides as any seat: the
engines' ``view_open`` shows every hidden hand and deck, the staff page offers it first, players'
and spectators' documents never carry it, and the read is recorded (StaffAccess)."""

import json
import re

import pytest
from django.urls import reverse

from games.application import selectors, services
from games.eventstore.models import StaffAccess
from tests.projections.play import play_randomly

pytestmark = pytest.mark.django_db


def boot_of(html: str) -> dict:
    m = re.search(r'<script id="staff-board-boot" type="application/json">(.*?)</script>', html, re.S)
    assert m, "the staff page embeds its board documents"
    return json.loads(m.group(1))


def started(game, make_user, seats=2):
    users = [make_user() for _ in range(seats)]
    match = services.match_create(game=game, seats=seats, options={}, creator=users[0], rated=False)
    for seat, user in enumerate(users[1:], start=1):
        services.match_join(match_id=match.pk, user=user, seat=seat)
    services.match_start(match_id=match.pk, user=users[0])
    match.refresh_from_db()
    return match, users


def hands_dealt(match) -> bool:
    state = selectors.state_load(match)["game"]
    return all(p["hand"] for p in state["players"])


@pytest.mark.parametrize("game", ["yokai", "yashima"])
def test_the_open_board_shows_every_hand_and_deck_and_only_staff_get_it(game, client, make_user,
                                                                       django_capture_on_commit_callbacks):
    match, users = started(game, make_user)
    for seed in range(40):  # past the setup choices, until every seat holds cards
        if hands_dealt(match):
            break
        play_randomly(match, users, django_capture_on_commit_callbacks, seed=seed, stop_at=match.head_seq + 3)
    assert hands_dealt(match)
    state = selectors.state_load(match)
    engine = selectors.engine_of(match)

    opened = engine.view_open(state["game"])
    for seat, player in enumerate(state["game"]["players"]):
        assert opened["players"][seat]["hand"] == player["hand"]
        assert opened["players"][seat]["deck"] == player["deck"]
    # what a player or a spectator gets never has another seat's hand or any deck
    for viewer in (0, 1, None):
        view = engine.view_for(state["game"], viewer)
        for seat, pv in enumerate(view["players"]):
            assert "deck" not in pv and ("hand" not in pv or seat == viewer)

    staff = make_user(is_staff=True)
    client.force_login(staff)
    res = client.get(reverse("staff:match", args=[match.pk]) + f"?at={match.head_seq}")
    assert res.status_code == 200
    boards = boot_of(res.content.decode())["boards"]
    assert [b["key"] for b in boards] == ["open", "0", "1", "spectator"]  # the open board is drawn first
    first = boards[0]
    assert first["label"] == "all hands open" and first["doc"]["open"] is True and first["doc"]["seat"] is None
    assert first["doc"]["view"] == json.loads(json.dumps(opened))
    assert all("open" not in b["doc"] for b in boards[1:])
    assert "All hands open" in res.content.decode()
    assert StaffAccess.objects.filter(user=staff, match=match, what__contains="board=open").count() == 1

    # nobody else reaches the staff page
    client.force_login(users[0])
    assert client.get(reverse("staff:match", args=[match.pk])).status_code in (302, 403)


def test_an_engine_without_an_open_drawing_offers_the_seats_boards_only(client, make_user, started_pebbles):
    match, _ = started_pebbles()
    client.force_login(make_user(is_staff=True))
    html = client.get(reverse("staff:match", args=[match.pk])).content.decode()
    assert [b["key"] for b in boot_of(html)["boards"]] == ["0", "1", "spectator"]
    assert not StaffAccess.objects.filter(what__contains="board=open").exists()
    assert StaffAccess.objects.filter(match=match).exists()
