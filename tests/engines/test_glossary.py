"""Every keyword, status, terrain and tag a game's content (and its engine) uses has glossary text.

The tables show these words on cards, squares and prompts and explain each one on hover or focus from
the game's glossary (``content/glossary.json``, served by ``GET /api/games/{slug}/glossary/``); a word
the content uses without an entry would be shown bare. The collectors walk the content packs, so a new
card with a new keyword fails here until its text is written."""

import json

import pytest

from games.engines.harakiri import ENGINE as HARAKIRI
from games.engines.harakiri import content as hk
from games.engines.harakiri.setup import TERRAIN as HK_TERRAIN
from games.engines.harakiri.setup import no_conditions
from games.engines.yashima import ENGINE as YASHIMA
from games.engines.yashima import effects as ys_effects
from games.engines.yashima.content import PACK as YS
from games.engines.yashima.queries import ATTACK_MODS
from games.engines.yokai import ENGINE as YOKAI
from games.engines.yokai.content import PACK as YK
from games.kernel import glossary
from games.kernel.canonical import dicts_in


def yashima_terms() -> set:
    out = set()
    for d in dicts_in(YS["masters"] + YS["kami"]):
        if "k" in d:
            out.add(f"keyword:{d['k']}")
        if isinstance(d.get("status"), str):
            out.add(f"status:{d['status']}")
        if isinstance(d.get("defense"), str):
            out.add(f"defense:{d['defense']}")
        if "torn" in d:
            out.add("tome:TORN")
        if d.get("kind") in ("IMPRINT", "EQUIP"):
            out.add(f"tome:{d['kind']}")
        if d.get("kind") in ("karma", "quick", "passive"):
            out.add(f"ability:{d['kind']}")
        for hook in (d.get("hook") or {}):
            if hook != "n":
                out.add(f"passive:{hook}")
        for flag, marker in (("fate", "FATE"), ("endure", "ENDURE"), ("icebreaker", "ICEBREAKER"),
                             ("plague", "PLAGUE"), ("quick", "QUICK")):
            if "pattern" in d and d.get(flag):
                out.add(f"marker:{marker}")
        if isinstance(d.get("pattern"), str):
            out.add(f"pattern:{d['pattern']}")
    for kami in YS["kami"]:
        out.update(f"keyword:{k.replace(' ', '_')}" for k in kami["abilities"])
        out.update(f"defense:{k.replace(' ', '_')}" for k in kami["defenses"])
    out.update(f"status:{name}" for name in YS["statuses"])
    out.update(f"pattern:{name}" for name in YS["patterns"])
    out.add("terrain:blank")
    for d in dicts_in(YS["boards"]):
        out.update(f"terrain:{t}" for t in d.values() if isinstance(t, str) and t != d.get("name") and "," not in t
                   and t not in (d.get("id"), d.get("set")))
    # what the engine itself can resolve (scenario cards may use any of it)
    out.update(f"keyword:{k}" for k in ys_effects.EFFECTS)
    out.update(f"keyword:{k}" for k in ATTACK_MODS)
    return out


def harakiri_terms() -> set:
    out = {f"condition:{c}" for c in no_conditions()}
    out.update(f"terrain:{t}" for t in HK_TERRAIN.values())
    out.update({"terrain:wall", "terrain:height", "terrain:spawn", "terrain:point"})
    for d in dicts_in([hk.ENEMIES_DOC, hk.SKILLS_DOC, hk.KAMI_DOC, hk.ITEMS, hk.SCENARIOS]):
        if d.get("condition") in no_conditions():
            out.add(f"condition:{d['condition']}")
        if isinstance(d.get("kind"), str) and d["kind"] in ("passive", "technique", "attack", "move"):
            out.add(f"skill:{d['kind']}")
        if "priority" in d:
            out.add(f"line:{d['priority'] or 'none'}")
        if isinstance(d.get("move"), dict):
            out.add(f"line:{d['move']['cond']}")
        if isinstance(d.get("attack"), dict) and d["attack"].get("focus"):
            out.add("line:focus")
    out.update(f"enemy:{kind}" for kind in hk.ENEMY_KINDS)
    out.update(f"dice:{colour}" for colour in hk.DICE["attack"])
    out.update({"dice:test", "dice:focus", "dice:ki", "dice:yinyang"})
    out.update(f"dice:{face['s']}" for face in hk.DICE["test"])
    out.update(f"dice:{face['f']}" for face in hk.DICE["focus"])
    out.update(f"yinyang:{w['yinyang']}" for w in hk.WEAPONS.values() if w["yinyang"])
    out.update(f"item:{it['type']}" for it in hk.ITEMS.values())
    for w in hk.WEAPONS.values():
        out.update(f"mode:{m}" for m in ("fast", "strong") if w[m])
    return out


def yokai_terms() -> set:
    out = {f"element:{e}" for e in YK["elements"]}
    for ability in YK["abilities"].values():
        out.add(f"trigger:{ability['trigger']}")
        out.add(f"target:{ability['target']}")
    return out


@pytest.mark.parametrize("engine,terms", [(YASHIMA, yashima_terms), (HARAKIRI, harakiri_terms), (YOKAI, yokai_terms)],
                         ids=["yashima", "harakiri", "yokai"])
def test_every_term_the_content_uses_has_glossary_text(engine, terms):
    entries = engine.glossary()["entries"]
    wanted = terms()
    assert len(wanted) > 10
    missing = sorted(wanted - set(entries))
    assert not missing, f"{engine.slug}: no glossary entry for {missing}"
    for key, entry in entries.items():
        assert entry["text"].strip() and entry["term"].strip(), key
        assert entry["provisional"] or entry.get("source"), f"{key}: neither a rulebook source nor provisional"


# rules: Yashima core, "Glossary" (the keywords the issue names must never be shown bare)
def test_the_keywords_players_asked_about_are_explained():
    entries = YASHIMA.glossary()["entries"]
    for key in ("keyword:KINDLE", "keyword:DELVE", "keyword:ADAPT", "defense:CLASH", "tome:IMPRINT", "keyword:GUST"):
        assert len(entries[key]["text"]) > 20 and entries[key]["short"], key
    assert "BURN" in entries["keyword:KINDLE"]["text"]


def test_a_glossary_file_must_say_where_each_text_comes_from(tmp_path):
    bad = tmp_path / "glossary.json"
    bad.write_text('{"provisional": true, "groups": {"keyword": {"title": "K", "entries": '
                   '{"X": {"term": "X", "text": "made up"}}}}}')
    with pytest.raises(ValueError, match="keyword:X"):
        glossary.load(bad)
    bad.write_text('{"provisional": true, "groups": {"keyword": {"title": "K", "entries": '
                   '{"X": {"term": "X", "text": "made up", "provisional": true}}}}}')
    assert glossary.load(bad)["entries"]["keyword:X"]["provisional"] is True


def test_a_how_to_play_step_that_points_nowhere_is_refused_on_load(tmp_path):
    doc = {"provisional": True,
           "guide": {"summary": "A game.", "steps": [{"title": "Win", "text": "Win it.", "see": ["keyword:NOPE"]}]},
           "groups": {"keyword": {"title": "Keywords", "entries": {"YES": {"term": "YES", "text": "y", "provisional": True}}}}}
    path = tmp_path / "glossary.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(ValueError, match="keyword:NOPE"):
        glossary.load(path)
    doc["guide"]["steps"][0]["see"] = ["keyword", "keyword:YES"]
    path.write_text(json.dumps(doc))
    assert glossary.load(path)["guide"]["steps"][0]["see"] == ["keyword", "keyword:YES"]
