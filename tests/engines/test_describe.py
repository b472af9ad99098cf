"""Each game's ``describe``: every event type its play emits has a sentence (or is bookkeeping), the
sentence names things instead of printing ids, and it never tells a seat what its redaction hid.

Events come from seeded engine-level play (random legal commands, the bots, the guided Harakiri
player): a new event type that reaches play without an entry in the engine's ``describe.SENTENCES``
or ``describe.BOOKKEEPING`` fails ``test_every_event_type_played_has_a_sentence``.
"""

import re

import pytest

from games.engines import harakiri, yashima, yokai
from games.engines.harakiri import describe as harakiri_describe
from games.engines.yashima import describe as yashima_describe
from games.engines.yashima.content import CARDS
from games.engines.yokai import describe as yokai_describe
from games.engines.yokai.content import MONSTERS
from games.kernel import SYSTEM, Command, Rng, fold
from tests.engines.harakiri.test_random_play import ACT2, ACT2_VETERANS, VETERANS, VETERANS_2, guided

NAMES = ["Miko", None, "Kenji", None]  # seats 2 and 4 have no username: they read "Seat 2", "Seat 4"
HEX_ID = re.compile(r"\b[0-9a-f]{16}\b")


def play(engine, events, seats, seed, pick, max_steps=3000):
    """Seeded play from ``events`` to the end (or ``max_steps``); every event, in order."""
    state = fold(engine, events)
    log = list(events)
    chooser = Rng(f"describe-{engine.slug}-{seed}".encode(), "choices")
    for step in range(max_steps):
        status = engine.status(state)
        if status.finished:
            break
        seat = status.awaiting[step % len(status.awaiting)]
        if seat == SYSTEM:
            cmd = engine.system_command(state)
        else:
            cmd = pick(engine, state, seat, chooser)
        new = engine.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(f"d{seed}".encode(), str(step)))
        state = fold(engine, new, state)
        log += new
    return log


def random_pick(engine, state, seat, chooser):
    return chooser.choice(engine.legal_commands(state, seat))


def bot_pick(engine, state, seat, chooser):
    return engine.bot_command(state, seat, chooser)


def harakiri_pick(engine, state, seat, chooser):
    return guided(state, engine.legal_commands(state, seat), chooser)


def _setup(engine, options, seats, seed):
    return engine.setup(options, seats, Rng(f"describe-setup-{seed}".encode(), "setup"))


def yokai_games():
    e = yokai.ENGINE
    for seed, (seats, opts) in enumerate([(2, {}), (3, {}), (4, {}), (4, {"teams": True})] * 2):
        yield e, seats, play(e, _setup(e, opts, seats, seed), seats, seed, random_pick if seed < 4 else bot_pick)


def yashima_games():
    e = yashima.ENGINE
    for seed, (seats, opts) in enumerate([(2, {}), (3, {}), (4, {"teams": True}), (2, {})]):
        yield e, seats, play(e, _setup(e, {"round_cap": 8, **opts}, seats, seed), seats, seed,
                             random_pick if seed % 2 else bot_pick)


def harakiri_games():
    e = harakiri.ENGINE
    configs = [
        (1, {}), (2, {"party_vote": True}), (3, {"party": VETERANS}), (4, {"party": VETERANS_2}),
        (2, {"characters": ACT2, "party": ACT2_VETERANS, "control": {c: i % 2 for i, c in enumerate(ACT2)}}),
    ]
    for seed, (seats, opts) in enumerate(configs):
        yield e, seats, play(e, _setup(e, {"round_cap": 6, **opts}, seats, seed), seats, seed, harakiri_pick)
    bridge = {"scenario": "act1_burning_village", "reveal": ["bridge"], "seats": 1,
              "options": {"round_cap": 8, "party": VETERANS},
              "characters": {"akira": {"sq": "30,3"}, "hattori": {"sq": "30,4"}, "hikaru": {"sq": "31,4"},
                             "tomoe": {"sq": "31,3"}},
              "enemies": {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "35,3", "health": 6}},
              "clear_enemies": True}
    for seed in (10, 11):
        yield e, 1, play(e, e.scenario(bridge), 1, seed, harakiri_pick)


GAMES = {"yokai": (yokai_games, yokai_describe), "yashima": (yashima_games, yashima_describe),
         "harakiri": (harakiri_games, harakiri_describe)}
_played = {}


def played(slug):
    """(engine, seats, events) of each game played for ``slug``, played once per test session."""
    if slug not in _played:
        _played[slug] = list(GAMES[slug][0]())
    return _played[slug]


def sentences(engine, seats, events):
    """(event, viewer, redacted event, text) for every event and every viewer (spectator included)."""
    for ev in events:
        for viewer in list(range(seats)) + [None]:
            seen = engine.redact_event(ev, viewer)
            if seen is not None:
                yield ev, viewer, seen, engine.describe(seen, viewer, NAMES[:seats])


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_event_type_played_has_a_sentence(slug):
    module = GAMES[slug][1]
    types = {ev["type"] for _, _, events in played(slug) for ev in events}
    missing = types - set(module.SENTENCES) - module.BOOKKEEPING
    assert not missing, f"{slug} events with no sentence: {sorted(missing)}"
    assert len(types) >= {"yokai": 13, "yashima": 16, "harakiri": 40}[slug]  # play reached the usual types


@pytest.mark.parametrize("slug", list(GAMES))
def test_sentences_are_words_for_every_viewer_and_bookkeeping_is_empty(slug):
    module = GAMES[slug][1]
    for engine, seats, events in played(slug):
        for ev, viewer, seen, text in sentences(engine, seats, events):
            assert isinstance(text, str)
            if ev["type"] in module.BOOKKEEPING:
                assert text == "", (ev["type"], text)
                continue
            assert text and text[0].isupper(), (ev["type"], text)
            assert not HEX_ID.search(text), f"an opaque id in {text!r}"
            assert "None" not in text and "{" not in text, (ev["type"], text)


def test_sentences_use_seat_and_content_names():
    e = yokai.ENGINE
    summoned = {"type": "MonsterSummoned", "v": 1, "payload": {
        "seat": 0, "card": "6114e43ed8e89f7e", "key": "kappa", "at": "0,1", "orientation": "horizontal", "cost": 2,
        "lp": 3, "uid": 0, "favourable": True, "ability_active": True, "doubled": False, "stealth": False}}
    assert e.describe(summoned, 1, ["Miko", "Kenji"]) == "Miko summons Kappa on (0,1) for 2 chakra, 3 LP"
    assert e.describe(summoned, None, [None, None]).startswith("Seat 1 summons Kappa")
    hit = {"type": "HealthChanged", "v": 1, "payload": {"who": "tomoe", "set": {"health": 9}, "delta": -2,
                                                        "reason": "gate_kachi_red attack"}}
    assert harakiri.ENGINE.describe(hit, 0, ["Akira"]) == "Tomoe loses 2 health, now 9 (Kachi (red) attack)"
    attack = {"type": "AttackDeclared", "v": 1, "payload": {"seat": 0, "card": {"d": "phoenix_17", "o": 0},
                                                            "facing": 1, "cells": [], "targets": [{"seat": 1, "atk": 3}]}}
    assert yashima.ENGINE.describe(attack, 1, ["Miko", "Kenji"]) == (
        f"Miko attacks Kenji with {CARDS['phoenix_17']['name']} facing upper right: 3 damage before defenses")
    # several targets: each one's damage, as the attack brings it before any defense
    attack["payload"]["targets"] = [{"seat": 1, "atk": 3}, {"seat": 2, "atk": 5}]
    assert yashima.ENGINE.describe(attack, 1, ["Miko", "Kenji", "Aoi"]).endswith(
        ": 3 and 5 damage before defenses")
    attack["payload"]["targets"][1]["atk"] = 3
    assert yashima.ENGINE.describe(attack, 1, ["Miko", "Kenji", "Aoi"]).endswith(
        "attacks Kenji and Aoi with " + CARDS['phoenix_17']['name'] + " facing upper right: 3 damage each before defenses")


def _names_in(text, names):
    return {n for n in names if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)}


MONSTER_NAMES = {m["name"] for m in MONSTERS.values()}
CARD_NAMES = {c["name"] for c in CARDS.values()}


def test_yokai_sentences_never_name_another_seats_hidden_cards():
    checked = 0
    for engine, seats, events in played("yokai"):
        for ev, viewer, seen, text in sentences(engine, seats, events):
            p = ev["payload"]
            if ev["type"] == "CardsDrawn" and viewer != p["seat"]:
                assert not _names_in(text, MONSTER_NAMES), f"seat {viewer} reads {text!r}"
                checked += 1
            if ev["type"] == "GameStarted":
                own = {MONSTERS[c["card"]]["name"] for c in p["hands"].get(str(viewer), [])}
                assert _names_in(text, MONSTER_NAMES) <= own, f"seat {viewer} reads {text!r}"
                checked += 1
    assert checked > 100


def test_yashima_sentences_never_name_a_hidden_card_or_destiny():
    checked = 0
    for engine, seats, events in played("yashima"):
        for ev, viewer, seen, text in sentences(engine, seats, events):
            p = ev["payload"]
            if ev["type"] in ("CardMoved", "DeckReordered") and "card" not in seen["payload"] \
                    and "cards" not in seen["payload"]:
                assert not _names_in(text, CARD_NAMES), f"seat {viewer} reads {text!r}"
                checked += 1
            if ev["type"] == "DestinyChosen" and viewer != p["seat"]:
                assert p["token"] not in text.split(), f"seat {viewer} reads {text!r}"
                checked += 1
    assert checked > 100


def test_harakiri_sentences_never_tell_a_deck_order():
    checked = 0
    for engine, seats, events in played("harakiri"):
        for ev, viewer, seen, text in sentences(engine, seats, events):
            deck = ev["payload"].get("deck")
            if ev["type"] in ("OracleReshuffled", "OracleCardsAdded", "InitiativeDeckSet", "AIDeckShuffled") and deck:
                hidden = {str(c) for c in deck} | {str(c).split(":")[-1] for c in deck}
                assert not {w.strip(",.()") for w in text.split()} & hidden, f"seat {viewer} reads {text!r}"
                assert not _names_in(text, {harakiri_describe.name(c.split(":")[-1]) for c in hidden if ":" in c})
                checked += 1
    assert checked > 0


def test_a_sentence_keeps_a_players_name_as_written():
    turn = {"type": "TurnStarted", "v": 1, "payload": {"seat": 1}}
    assert yokai.ENGINE.describe(turn, 0, ["alice", "bob"]).startswith("bob")
    assert yokai.ENGINE.describe(turn, 0, ["alice", None]).startswith("Seat 2")


def test_a_villager_has_the_name_the_board_gives_it():
    hit = {"type": "ResistanceRemoved", "v": 1, "payload": {"resistor": "villager", "tokens": 1, "reason": "gate_kachi_red attack"}}
    assert harakiri.ENGINE.describe(hit, 0, ["Akira"]) == "Villager has 1 resistance left (Kachi (red) attack)"


def test_the_winners_verb_agrees_with_their_number():
    one = {"type": "GameWon", "v": 1, "payload": {"winners": [1], "reason": "conquest"}}
    two = {"type": "GameWon", "v": 1, "payload": {"winners": [0, 2], "reason": "conquest"}}
    names = ["alice", "Bot 2", "carol", "dan"]
    assert yokai.ENGINE.describe(one, 0, names) == "Bot 2 wins by conquest"
    assert yokai.ENGINE.describe(two, 0, names) == "alice, carol win by conquest"
    ended = {"type": "GameEnded", "v": 1, "payload": {"winners": [1], "reason": "last_standing"}}
    assert yashima.ENGINE.describe(ended, 0, names) == "Bot 2 wins as the last master standing"
