"""The Adventure Phase board names every legal command in words (never a command's raw name or
JSON) and reads every effect of the content out: harakiri_adventure_words.js, run under Node on the
legal commands of seeded Adventure Phases (both seats, all stages) and on every content effect."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from games.engines.harakiri.adventure.content import ACT1, INFLUENCE_CARDS, MARKET, TRAVEL_EVENTS
from games.engines.harakiri.engine import ENGINE
from games.kernel import SYSTEM, Command, Rng

ROOT = Path(__file__).resolve().parents[2]
WORDS = ROOT / "frontend" / "static" / "js" / "boards" / "harakiri_adventure_words.js"
RAW = ("undefined", "null", "NaN", "[object", "{", "_")
NODE = shutil.which("node")


def _cases(chapter: int, seed: str, steps: int = 700) -> list[dict]:
    """Every (view, legal command) a seat meets in a seeded two-seat phase, one of each kind."""
    rng = Rng(seed.encode(), "adventure-words")
    state = None
    for ev in ENGINE.setup({"phase": "adventure", "chapter": chapter, "control": {"akira": 0, "hattori": 0, "hikaru": 1,
                                                                                 "tomoe": 1}}, 2, rng):
        state = ENGINE.evolve(state, ev)
    seen, cases = set(), []
    for _ in range(steps):
        status = ENGINE.status(state)
        if status.finished:
            break
        seat = status.awaiting[0]
        legal = ENGINE.legal_commands(state, seat)
        if seat != SYSTEM:
            view = ENGINE.view_for(state, seat)
            for cmd in legal:
                key = ((cmd["type"], json.dumps(cmd["args"], sort_keys=True)) if cmd["type"] == "give"
                       else (cmd["type"], cmd["args"].get("kami") is True))  # a Kami skill's variant too
                if key not in seen:
                    seen.add(key)
                    cases.append({"view": view, "command": cmd})
        pool = [c for c in legal if c["type"] != "end_activation"] if rng.below(3) else legal
        pick = (pool or legal)[rng.below(len(pool or legal))]
        for ev in ENGINE.decide(state, Command(seat=seat, type=pick["type"], args=pick["args"]), rng):
            state = ENGINE.evolve(state, ev)
    return cases


def _content_effects() -> list[list]:
    out = [c[side]["effects"] for c in TRAVEL_EVENTS.values() for side in ("green", "red")]
    out += [c[band] for c in INFLUENCE_CARDS.values() for band in ("low", "medium", "high")]
    out += [c["effects"] for c in MARKET.values()]
    for chapter in ACT1["chapters"]:
        adventure = chapter["adventure"]
        out += [t["effects"] for t in adventure["triggers"].values()]
        out += [adventure["success"]["effects"], adventure["failure"]["effects"]]
        for m in adventure["missions"]:
            out += [m["on_reveal"], m["success"]["effects"], m["failure"]["effects"]]
        out += [pm["success"]["effects"] for pm in adventure["personal_missions"].values()]
        out += [s.get("effects", []) for s in adventure.get("special_locations", [])]
    return out


@pytest.mark.skipif(NODE is None, reason="no node on this machine")
def test_every_legal_command_and_every_content_effect_reads_in_words():
    cases = [c for chapter, seed in ((1, "one"), (2, "two"), (3, "three")) for c in _cases(chapter, seed)]
    effects = _content_effects()
    payload = json.dumps({"pack": ENGINE.content(), "cases": cases, "effects": effects})
    run = subprocess.run([NODE, str(ROOT / "tests" / "frontend" / "adventure_words.mjs"), WORDS.as_uri()],
                         input=payload, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    types = {c["type"] for c in out["labels"]}
    assert len(types) >= 15, sorted(types)  # the seeded phases reach most of the commands
    kami = [c for c in out["labels"] if c["args"].get("kami") is True]
    assert kami and all("once this phase" in c["label"] for c in kami), kami  # a level 1 Kami skill's cost in words
    unknown = sorted({c["type"] for c in out["labels"] if not c["known"]})
    assert not unknown, f"commands the board only names by their type: {unknown}"
    raw = [c for c in out["labels"] if any(r in c["label"] for r in RAW)]
    assert not raw, raw[:5]
    assert len(out["effects"]) == len(effects)
    bad = [(e, text) for e, text in zip(effects, out["effects"]) if any(r in text for r in RAW) or (e and not text)]
    assert not bad, bad[:5]


@pytest.mark.skipif(NODE is None, reason="no node on this machine")
def test_the_share_buttons_name_boss_heads_and_the_blue_die():
    # rules: Harakiri, "Share": "exchange coins, heads, items, equipment" (boss heads are head tokens);
    # "Optional Rule: Replace the Red Die" (a combat test rolls the blue die for the red)
    from tests.engines.harakiri_adventure.helpers import activation

    s = activation("hikaru", characters={"hikaru": {"boss_heads": 2}, "akira": {"location": "hikone"}})
    view = ENGINE.view_for(s.state, 0)
    give = {"type": "give", "args": {"from": "hikaru", "to": "hattori", "what": "boss_heads", "amount": 2}}
    assert give in ENGINE.legal_commands(s.state, 0)
    blue = {**view, "blue_die": True, "flow": {**view["flow"], "active": "akira"}}
    attack = {"type": "attack", "args": {"enemy": "camp", "helpers": []}}
    payload = json.dumps({"pack": ENGINE.content(), "cases": [{"view": view, "command": give},
                                                              {"view": blue, "command": attack}], "effects": []})
    run = subprocess.run([NODE, str(ROOT / "tests" / "frontend" / "adventure_words.mjs"), WORDS.as_uri()],
                         input=payload, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    labels = [c["label"] for c in json.loads(run.stdout)["labels"]]
    assert labels[0] == "Hikaru gives Hattori 2 boss heads"
    assert "roll green die, blue die (for the red) + power" in labels[1], labels[1]
