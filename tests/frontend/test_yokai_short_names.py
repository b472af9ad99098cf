"""The Yokai Battle board's short monster names (frontend/static/js/boards/yokai.js ``shortName``, run
under Node): the narrow squares of a 4-column board (3 and 4 players) show them in place of the full
name, which stays in the card's title and the square's help. Every monster of the content pack gets one
that fits the square, reads as the start of its name, and tells it apart from every other monster."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engines.yokai.content import MONSTERS

YOKAI_JS = Path(__file__).resolve().parents[2] / "frontend" / "static" / "js" / "boards" / "yokai.js"
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
WIDEST_WHOLE = 7  # letters a narrow square shows whole ("Onikuma"); a cut keeps at most 6 and a full stop


def short_names(names: list[str]) -> dict:
    script = (f"globalThis.window = globalThis;\nconst yokai = await import({json.dumps(YOKAI_JS.as_uri())});\n"
              f"console.log(JSON.stringify(Object.fromEntries({json.dumps(names)}.map((n) => [n, yokai.shortName(n)]))));")
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_every_monster_has_a_short_name_that_fits_and_is_its_own():
    names = [monster["name"] for monster in MONSTERS.values()]
    short = short_names(names)
    for name in names:
        if short[name] == name:
            assert len(name) <= WIDEST_WHOLE, name
        else:
            cut = short[name].removesuffix(".")
            assert short[name].endswith(".") and name.startswith(cut) and 3 <= len(cut) <= 6, (name, short[name])
    assert len(set(short.values())) == len(names), short


def test_short_names_cut_after_a_syllable_of_the_first_word():
    assert short_names(["Gashadokuro", "Akuro-Jin no Hi", "Mikari Baba", "Onikuma", "Kappa"]) == {
        "Gashadokuro": "Gasha.", "Akuro-Jin no Hi": "Akuro.", "Mikari Baba": "Mikari.",
        "Onikuma": "Onikuma", "Kappa": "Kappa"}
