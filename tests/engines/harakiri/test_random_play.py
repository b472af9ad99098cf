"""Seeded engine-level random play: setup to the end, SYSTEM steps driven by system_command."""

import json

import pytest

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM, Command, Rng, fold
from games.kernel.errors import RuleViolation


def _goal(state, who):
    """The nearest enemy, closed door or interaction point (for the guided bot)."""
    from games.engines.harakiri import grid

    here = state["characters"][who]["sq"]
    spots = [e["sq"] for e in state["enemies"].values() if not e.get("allied")]
    spots += [d["sq"] for d in state["doors"].values() if not d["open"]]
    spots += [p["sq"] for p in state["points"].values()]
    return min(spots, key=lambda q: grid.range_between(here, q)) if spots else None


def guided(state, legal, chooser):
    """A bot that prefers progress: attacks, interactions, steps toward a goal."""
    from games.engines.harakiri import grid

    by = {}
    for c in legal:
        by.setdefault(c["type"], []).append(c)
    for kind, p in (("interact", 2), ("attack", 2), ("choose", 1), ("resolve_attack", 1)):
        if kind in by and chooser.below(p + 1):
            return chooser.choice(by[kind])
    turn = state.get("turn") or {}
    if "step" in by and turn.get("kind") == "character":
        goal = _goal(state, turn["who"])
        if goal and chooser.below(5):
            return min(by["step"], key=lambda c: (grid.range_between(c["args"]["to"], goal), c["args"]["to"]))
    if "move" in by and chooser.below(3):
        return by["move"][0]
    if "end_move" in by and chooser.below(3):
        return by["end_move"][0]
    pool = [c for c in legal if c["type"] not in ("end_activation", "give", "reroll_ki", "withdraw_ki")]
    if pool and chooser.below(6):
        return chooser.choice(pool)
    return chooser.choice(legal)


VETERANS = {
    "akira": {"level": 4, "skills": ["sixth_sense", "stab", "defensive_stance", "chained_slashes"], "kami": "dosojin",
              "affinity": 6,
              "items": ["healing_potion", "fire_powder"], "weapons": ["ronin_katana", "ronin_tanto"]},
    "hattori": {"level": 4, "skills": ["roll", "metsubushi", "distraction", "evade"], "kami": "izanami", "affinity": 6,
                "items": ["bandages", "holy_water"], "weapons": ["ninja_kodachi", "ninja_shuriken"]},
    "hikaru": {"level": 4, "skills": ["healing", "ebisus_strike", "drain_spirit", "blinding_light"], "kami": "amatsumara",
               "affinity": 3, "items": ["blessed_charm"], "knowledge": 1},
    "tomoe": {"level": 3, "skills": ["military_discipline", "shockwave", "teamwork"], "kami": "hachiman",
              "affinity": 3, "weapons": ["samurai_yumi", "samurai_naginata"]},
}


VETERANS_2 = {  # with the Adventure Phase's level 2-3 cards and market items (one catalogue for both phases)
    "akira": {"level": 5, "skills": ["sixth_sense", "counter_attack", "dodgy", "crescent_strike", "hachimans_wrath"],
              "kami": "izanami", "affinity": 6, "weapons": ["ronin_masamune", "ronin_katana"], "armor": None,
              "items": ["jirobo_omamori", "straw_sandals", "war_fan"], "knowledge": 1},
    "hattori": {"level": 5, "skills": ["roll", "elusive", "slaughter", "evade", "energy_alteration"],
                "kami": "ryujin", "affinity": 6, "attrs": {}, "weapons": ["ninja_kusarigama"],
                "armor": "ninja_night_mail", "items": ["smoke_bomb", "spirit_incense", "ginseng_tea"],
                "item_uses": {"ginseng_tea": 1}, "knowledge": 2},
    "hikaru": {"level": 5, "skills": ["healing", "menacing_shadow", "kamis_assistance", "healing_wave",
                                      "spiritual_protection"], "kami": "shinigami", "affinity": 6,
               "weapons": ["monk_vajra"], "items": ["dragon_scale", "elixir_of_ages", "rice_ball"], "knowledge": 3},
    "tomoe": {"level": 5, "skills": ["military_discipline", "divine_arrow", "escort", "relentless_vengeance",
                                     "arrows_mantle"],
              "kami": "susanoo", "affinity": 6, "weapons": ["samurai_tachi", "samurai_daikyu"],
              "armor": "samurai_kabuto_set", "items": ["blessed_charm", "iron_tessen", "bandages"], "knowledge": 2},
}
for _spec in VETERANS_2.values():
    _spec.pop("attrs", None)

# Star Rain, Multi-Form, Divine Fire and Amaterasu's Kami Mode in play.
VETERANS_3 = {
    "akira": {"level": 3, "skills": ["sixth_sense", "counter_attack", "dodgy"], "kami": "amaterasu", "affinity": 3},
    "hattori": {"level": 5, "skills": ["roll", "metsubushi", "slaughter", "evade", "star_rain"], "kami": "amaterasu",
                "affinity": 6},
    "hikaru": {"level": 5, "skills": ["healing", "ebisus_strike", "drain_spirit", "blinding_light", "multi_form"],
               "kami": "amaterasu", "affinity": 6},
    "tomoe": {"level": 2, "skills": ["military_discipline", "shockwave"], "kami": "hachiman", "affinity": 3},
}


def play(seed: int, seats: int, round_cap: int = 10, max_steps: int = 6000, options=None, smart=False,
         document=None):
    opts = {"round_cap": round_cap, **(options or {})}
    rng = Rng(f"setup-{seed}".encode(), "setup")
    events = ENGINE.scenario(document) if document else ENGINE.setup(opts, seats, rng)
    state = fold(ENGINE, events)
    chooser = Rng(f"bot-{seed}".encode(), "bot")
    steps = 0
    stats = {"commands": 0, "system": 0}
    while True:
        st = ENGINE.status(state)
        if st.finished:
            break
        assert st.awaiting, f"stuck: nobody awaited in phase {st.phase}"
        seat = st.awaiting[0]
        if seat == SYSTEM:
            cmd = ENGINE.system_command(state)
            assert cmd is not None
            assert ENGINE.legal_commands(state, SYSTEM) == [cmd]
            stats["system"] += 1
        else:
            legal = ENGINE.legal_commands(state, seat)
            assert legal, f"seat {seat} awaited with no legal command ({st.phase})"
            if smart:
                cmd = guided(state, legal, chooser)
            else:
                # prefer not to end the activation at once so the game moves on
                pool = [c for c in legal if c["type"] != "end_activation"] if chooser.below(4) else legal
                cmd = chooser.choice(pool or legal)
        try:
            new = ENGINE.decide(state, Command(type=cmd["type"], args=cmd["args"], seat=seat),
                                Rng(f"play-{seed}".encode(), f"{steps}"))
        except RuleViolation as v:  # pragma: no cover - the failure message is the point
            raise AssertionError(f"listed command refused: {cmd} -> {v}") from None
        before = json.dumps(state, sort_keys=True)
        nxt = fold(ENGINE, new, state)
        assert json.dumps(state, sort_keys=True) == before, "evolve mutated its input"
        state = nxt
        stats.setdefault("types", {})
        stats["types"][cmd["type"]] = stats["types"].get(cmd["type"], 0) + 1
        events.extend(new)
        stats["commands"] += 1
        steps += 1
        assert steps < max_steps, "did not terminate"
    # the fold of every event from nothing equals the live state, and it round-trips JSON
    rebuilt = fold(ENGINE, events)
    assert rebuilt == state
    assert json.loads(json.dumps(state)) == state
    return state, stats, len(events)


@pytest.mark.parametrize("seed", range(32))
def test_random_play_terminates(seed):
    seats = 1 + seed % 4
    state, stats, n = play(seed, seats, options={"party_vote": seed % 5 == 0}, smart=seed % 3 != 0)
    assert state["phase"] == "ended"
    assert state["result"] in ("victory", "failure", "round_cap")


@pytest.mark.parametrize("seed", range(8))
def test_random_play_with_veterans(seed):
    """Level 3 characters with items, two weapons and kami skills (Kami Mode included)."""
    party = VETERANS if seed % 2 else VETERANS_2
    state, stats, n = play(100 + seed, 1 + seed % 4, options={"party": party}, smart=True)
    assert state["phase"] == "ended"


@pytest.mark.parametrize("seed", range(6))
def test_random_play_with_the_level_5_and_amaterasu_skills(seed):
    state, stats, n = play(400 + seed, 1 + seed % 4, options={"party": VETERANS_3}, smart=seed % 2 == 0)
    assert state["phase"] == "ended"


@pytest.mark.parametrize("seed", range(8))
def test_random_play_from_the_red_bridge(seed):
    """From a scenario document at the last zone, so victories and the aftermath are played."""
    document = {"scenario": "act1_burning_village", "reveal": ["bridge"], "seats": 1 + seed % 4,
                "options": {"round_cap": 8, "party": VETERANS if seed % 2 else {}},
                "characters": {"akira": {"sq": "30,3"}, "hattori": {"sq": "30,4"}, "hikaru": {"sq": "31,4"},
                               "tomoe": {"sq": "31,3"}},
                "enemies": {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "35,3", "health": 6}},
                "clear_enemies": True}
    state, stats, n = play(200 + seed, 1, smart=True, document=document)
    assert state["phase"] == "ended"


@pytest.mark.parametrize("seed", range(4))
def test_random_play_from_the_old_shrine(seed):
    """From the shrine (scripted events, spectral onryō, allied Daimyō, stairs) next to the point
    that travels to the Red Bridge."""
    document = {"scenario": "act1_burning_village", "reveal": ["courtyard", "shrine"], "seats": 1 + seed % 4,
                "options": {"round_cap": 8},
                "characters": {"akira": {"sq": "14,-5"}, "hattori": {"sq": "13,-6"}, "hikaru": {"sq": "11,-3"},
                               "tomoe": {"sq": "12,-3"}}}
    state, stats, n = play(300 + seed, 1, smart=True, document=document)
    assert state["phase"] == "ended"


@pytest.mark.parametrize("party", ["starting", "veterans", "veterans_2"])
def test_first_legal_command_policy_terminates(party):
    """The platform's timeout/driver policy (always the first legal command) cannot loop."""
    opts = {"round_cap": 2, "party": {"starting": {}, "veterans": VETERANS, "veterans_2": VETERANS_2}[party]}
    state = fold(ENGINE, ENGINE.setup(opts, 1, Rng(b"first", party)))
    for step in range(3000):
        st = ENGINE.status(state)
        if st.finished:
            break
        seat = st.awaiting[0]
        cmd = ENGINE.system_command(state) if seat == SYSTEM else ENGINE.legal_commands(state, seat)[0]
        state = fold(ENGINE, ENGINE.decide(state, Command(cmd["type"], cmd["args"], seat), Rng(b"f", str(step))), state)
    assert ENGINE.status(state).finished


ACT2 = ["akane", "byakuei", "hanako", "takashi"]
ACT2_VETERANS = {
    "akane": {"level": 5, "skills": ["my_loyal_friend", "self_taught", "one_for_each", "bite", "lightnings_dance"],
              "kami": "dosojin", "affinity": 6},
    "byakuei": {"level": 5, "skills": ["additional_help", "necessary_sacrifice", "ill_change_it", "powered_hit",
                                       "come_here"], "kami": "amatsumara", "affinity": 3},
    "hanako": {"level": 5, "skills": ["nemesis", "voracious_blade", "blood_thirsty", "smell_the_blood", "you_and_me"],
               "kami": "izanami", "affinity": 6, "items": ["fire_powder", "bandages"]},
    "takashi": {"level": 5, "skills": ["intimidation", "inspiration", "reborn_strength", "team_hit", "the_last_word"],
                "kami": "ryujin", "affinity": 6},
}
ACT2_VETERANS_2 = {
    "akane": {"level": 5, "skills": ["my_loyal_friend", "recovery", "patch", "adrenaline", "full_of_resources_akane"]},
    "byakuei": {"level": 5, "skills": ["additional_help", "good_for_both", "more_additional_help", "come_together",
                                       "hits_rain"]},
    "hanako": {"level": 5, "skills": ["nemesis", "deadly", "craft_improvement", "cautious", "duel_to_death"],
               "items": ["fire_powder"]},
    "takashi": {"level": 5, "skills": ["intimidation", "upward_cut", "fluid_tactic", "tactical_retreat", "new_breath"]},
}


@pytest.mark.parametrize("seed", range(9))
def test_random_play_with_the_act2_party(seed):
    """Akane, Byakuei, Hanako and Takashi: starting boards and two level 5 skill sets."""
    party = [{}, ACT2_VETERANS, ACT2_VETERANS_2][seed % 3]
    seats = 1 + seed % 4
    control = {c: i % seats for i, c in enumerate(ACT2)}
    state, stats, n = play(400 + seed, seats, options={"characters": ACT2, "party": party, "control": control},
                           smart=seed % 4 != 3)
    assert state["phase"] == "ended" and list(state["characters"]) == ACT2


@pytest.mark.parametrize("seed", range(4))
def test_random_play_act2_from_the_red_bridge(seed):
    """The Act 2 party at the last zone: victories, the aftermath and the hand-over."""
    document = {"scenario": "act1_burning_village", "reveal": ["bridge"], "seats": 1,
                "options": {"round_cap": 8, "characters": ACT2,
                            "party": ACT2_VETERANS if seed % 2 else ACT2_VETERANS_2},
                "characters": {"akane": {"sq": "30,3"}, "byakuei": {"sq": "30,4"}, "hanako": {"sq": "31,4"},
                               "takashi": {"sq": "31,3"}},
                "enemies": {"hunter": {"kind": "chosen", "type": "demon_hunter", "at": "35,3", "health": 6}},
                "clear_enemies": True}
    state, stats, n = play(500 + seed, 1, smart=True, document=document)
    assert state["phase"] == "ended"
