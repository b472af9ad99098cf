"""The Yashima history names a space as the board labels it, wherever a player or staff read it: the
command's answer, ``/events/`` (the match page's history, its last-move box and the replay's moves)
and the staff log review. The engine's sentence is given the public map (``narration_facts``)."""

import html
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games.application import selectors, services

pytestmark = pytest.mark.django_db

# seat 0 (Akiko) on 0,0 at the start of her turn; the road space 0,1 below her, which the map labels H8
SCENARIO = {
    "map": {"radius": 4}, "terrain": {"0,1": "road"}, "phase": "battle", "turn": 0,
    "players": [{"master": "akiko", "kami": "tiger", "pos": "0,0", "facing": 0, "deck": ["tiger_01"] * 10},
                {"master": "rosamu", "kami": "dragon", "pos": "3,-3", "facing": 3, "deck": ["dragon_01"] * 10}],
}
MOVED = "{name}'s master moves to the road space H8, facing down"


@pytest.fixture
def stepped(make_user, client_for):
    """A two-seat match started from ``SCENARIO``, in which seat 0 has taken a move action and
    stepped onto the road space below her through the API: (match, users, the step's answer)."""
    users = [make_user(), make_user()]
    match = services.match_create(game="yashima", seats=2, options={}, creator=users[0])
    services.match_join(match_id=match.pk, user=users[1], seat=1)
    services.match_load_scenario(match_id=match.pk, user=users[0], document=SCENARIO)
    player = client_for(users[0])
    answers = []
    for type_, args in (("move_action", {}), ("step", {"to": "0,1"})):
        match.refresh_from_db()
        body = {"command_id": str(uuid.uuid4()), "expected_seq": match.head_seq, "type": type_, "args": args}
        res = player.post(f"/api/matches/{match.pk}/commands/", body, format="json")
        assert res.status_code == 201, res.json()
        answers.append(res.json())
    match.refresh_from_db()
    assert selectors.view_for_seat(match, 1)["view"]["space_names"]["0,1"] == "the road space H8"  # the board's words
    return match, users, answers[-1]


# rules: Yashima core, "Move Action" and "Terrain" (a master moves across the board's terrain spaces)
def test_the_history_of_a_move_names_the_space_in_words_for_every_reader(stepped, client_for, make_user):
    match, users, answer = stepped
    moved = MOVED.format(name=users[0].username)
    # the mover's own answer
    assert moved in [ev["text"] for ev in answer["events"]]
    # the opponent's and a spectator's history (/events/), as the match page and the replay read it
    for reader in (client_for(users[1]), client_for(make_user())):
        texts = [ev["text"] for ev in reader.get(f"/api/matches/{match.pk}/events/?after=0").json()["events"]]
        assert moved in texts
        assert not any("(0,1)" in text for text in texts)
    # the staff log review
    staff = Client()
    staff.force_login(make_user(is_staff=True))
    page = html.unescape(staff.get(reverse("staff:match", args=[match.pk])).content.decode())
    assert moved in page
