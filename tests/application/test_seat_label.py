"""A seat's name as the pages say it (games.application.identities.seat_label; the table's twin in
frontend/static/js/words.js is checked against it in tests/frontend/test_words_js.py): a bot's name
said once."""

import pytest

from games.application.identities import seat_label

SEATS = [
    ({"username": "Bot 2", "bot": True, "user_id": None}, "Bot 2"),
    ({"username": "Kagemusha", "bot": True, "user_id": None}, "Kagemusha (bot)"),
    ({"username": "alice", "user_id": 3}, "alice"),
    ({"username": "botanist", "user_id": 4}, "botanist"),  # a person whose name has "bot" in it
    (None, None),
]


@pytest.mark.parametrize(("seat", "label"), SEATS)
def test_a_bots_name_is_said_once(seat, label):
    assert seat_label(seat) == label
