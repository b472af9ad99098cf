"""A seat's name as the pages say it (games.application.identities.seat_label, and frontend/static/js/
names.js's seatLabel for the table): a bot's name said once."""

import json
import shutil
import subprocess
from pathlib import Path

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


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_table_names_seats_as_the_server_does():
    names = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "names.js"
    script = (f"import {{ seatLabel }} from {json.dumps(names.as_uri())};\n"
              f"console.log(JSON.stringify({json.dumps([s for s, _ in SEATS])}.map(seatLabel)));")
    out = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [label for _, label in SEATS]
