"""A player who resigns leaves the party's table; their characters pass to the first player left
and the party plays on (docs/games/harakiri.md, "Resigning"; concede.py).

# rules: Harakiri core, "The Characters" ("If playing with fewer than four players, divide the
# characters between yourselves as you choose. If playing solo, you control all four characters.")
"""

import pytest

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM, Command, Rng, RuleViolation

NAMES = ["ann", "bob", "cy", "di"]


def fold(events, state=None):
    for ev in events:
        state = ENGINE.evolve(state, ev)
    return state


def run_system(s, tag="sys"):
    for i in range(200):
        if SYSTEM not in ENGINE.status(s).awaiting:
            return s
        c = ENGINE.system_command(s)
        s = fold(ENGINE.decide(s, Command(type=c["type"], args=c["args"], seat=SYSTEM), Rng(b"t", f"{tag}{i}")), s)
    return s


def given_a_party(seats, **options):
    """The Exploration Phase of the first scenario, at the first decision a player must take."""
    s = fold(ENGINE.setup(options, seats, Rng(b"t", "setup")))
    return run_system(s)


def when_resigns(s, seat):
    events = ENGINE.concede(s, seat, Rng(b"t", "concede"))
    return events, fold(events, s)


def types(events):
    return [e["type"] for e in events]


def test_solo_the_last_player_leaving_ends_the_match_with_no_winners():
    s = given_a_party(1)
    events, after = when_resigns(s, 0)
    assert types(events) == ["PlayerLeftParty", "PartyLeft"]
    st = ENGINE.status(after)
    assert st.finished and st.winners == []
    assert ENGINE.describe(events[1], None, NAMES) == "Nobody is left to play: the party has failed and the match ends"


def test_two_seats_the_leavers_characters_and_lead_pass_to_the_other_player():
    s = given_a_party(2)
    assert s["control"] == {"akira": 0, "hattori": 1, "hikaru": 0, "tomoe": 1} and s["leader"] == 0
    assert ENGINE.status(s).awaiting == [0]  # the leader's party decision
    events, after = when_resigns(s, 0)
    assert events[0]["payload"] == {"seat": 0, "to": 1, "characters": ["akira", "hikaru"], "leader": True}
    assert after["control"] == {"akira": 1, "hattori": 1, "hikaru": 1, "tomoe": 1}
    assert ENGINE.status(after).awaiting == [1]  # the prompt that awaited seat 0 now awaits seat 1
    assert not ENGINE.status(after).finished
    assert ENGINE.out_of_play(after, 0) and not ENGINE.out_of_play(after, 1)
    assert ENGINE.describe(events[0], 1, NAMES) == (
        "ann's Akira and Hikaru pass to bob; bob now leads the party, and the party plays on")


def test_four_seats_the_characters_pass_to_the_first_player_left():
    s = given_a_party(4)
    _, after = when_resigns(s, 2)
    assert after["control"] == {"akira": 0, "hattori": 1, "hikaru": 0, "tomoe": 3}
    assert after["leader"] == 0
    _, after = when_resigns(after, 0)  # the first player left is now seat 1
    assert after["control"] == {"akira": 1, "hattori": 1, "hikaru": 1, "tomoe": 3} and after["leader"] == 1
    assert ENGINE.concede_refusal(after, 0).code == "already_out"
    with pytest.raises(RuleViolation):
        ENGINE.concede(after, 2, Rng(b"t", "again"))


def test_a_character_turn_of_the_leaver_is_played_by_the_heir():
    s = given_a_party(2)
    for i in range(50):  # play on until a character of seat 1 is activated
        st = ENGINE.status(s)
        turn = s["turn"]
        if not s["pending"] and turn and turn.get("kind") in ("character", "double") and st.awaiting == [1]:
            break
        seat = st.awaiting[0]
        cmd = ENGINE.timeout_command(s, seat)
        s = run_system(fold(ENGINE.decide(s, Command(type=cmd["type"], args=cmd["args"], seat=seat), Rng(b"t", f"p{i}")), s), f"r{i}")
    else:
        pytest.fail("no activation of seat 1")
    who = s["turn"]["who"]
    events, after = when_resigns(s, 1)
    assert who in events[0]["payload"]["characters"]
    assert ENGINE.status(after).awaiting == [0]
    assert ENGINE.legal_commands(after, 0) == ENGINE.legal_commands(s, 1)  # the same activation, new hands


def test_party_vote_the_leavers_missing_vote_no_longer_holds_the_decision():
    s = given_a_party(2, party_vote=True)
    assert s["pending"]["by"] == "party" and ENGINE.status(s).awaiting == [0, 1]
    s = fold(ENGINE.decide(s, Command(type="choose", args={"option": 0}, seat=0), Rng(b"t", "v")), s)
    assert ENGINE.status(s).awaiting == [1]
    events, after = when_resigns(s, 1)
    assert "DecisionMade" in types(events)  # seat 0's vote decides: nobody else is left to vote
    assert after["pending"] is None or after["pending"]["kind"] != s["pending"]["kind"]


def test_share_the_leaver_no_longer_holds_the_exchange():
    s = given_a_party(2, share=True)
    assert ENGINE.status(s).phase == "share"
    s = fold(ENGINE.decide(s, Command(type="end_share", args={}, seat=1), Rng(b"t", "sh")), s)
    events, after = when_resigns(s, 0)
    assert types(events) == ["PlayerLeftParty", "ShareEnded"]
    assert ENGINE.status(after).awaiting == [SYSTEM]


def test_a_finished_phase_refuses_resigning():
    s = given_a_party(1)
    _, after = when_resigns(s, 0)
    assert ENGINE.concede_refusal(after, 0).code == "game_over"


# -- the Adventure Phase (docs/games/harakiri-adventure.md, "Resigning") -------------------------

def given_an_adventure(seats):
    s = fold(ENGINE.setup({"phase": "adventure"}, seats, Rng(b"t", "adv")))
    return run_system(s, "adv")


def test_adventure_two_seats_the_characters_pass_and_the_party_plays_on():
    s = given_an_adventure(2)
    waiting = ENGINE.status(s).awaiting
    assert 0 in waiting
    events, after = when_resigns(s, 0)
    assert events[0]["payload"]["to"] == 1
    assert set(after["control"].values()) == {1}
    assert ENGINE.status(after).awaiting and 0 not in ENGINE.status(after).awaiting
    assert not ENGINE.status(after).finished


def test_adventure_the_last_player_leaving_ends_the_phase_failed():
    s = given_an_adventure(1)
    events, after = when_resigns(s, 0)
    assert types(events) == ["PlayerLeftParty", "PartyLeft"]
    st = ENGINE.status(after)
    assert st.finished and st.winners == []


# -- an absent player's characters taken over (docs/games/harakiri.md, "An absent player") ----------

def test_an_absent_players_characters_pass_to_the_player_who_takes_them_over():
    s = given_a_party(4)
    assert ENGINE.status(s).awaiting == [0]
    events = ENGINE.take_over(s, 0, 3, Rng(b"t", "take"))
    after = fold(events, s)
    assert events[0]["payload"] == {"seat": 0, "to": 3, "characters": ["akira"], "leader": True, "taken_over": True}
    assert after["control"]["akira"] == 3 and after["leader"] == 3 and ENGINE.status(after).awaiting == [3]
    assert ENGINE.out_of_play(after, 0)
    assert ENGINE.describe(events[0], None, NAMES) == "ann's Akira passes to di; di now leads the party, and the party plays on"
    with pytest.raises(RuleViolation):
        ENGINE.take_over(after, 1, 0, Rng(b"t", "x"))  # a player who left takes nothing over
    with pytest.raises(RuleViolation):
        ENGINE.take_over(after, 1, 1, Rng(b"t", "x"))


def test_the_last_player_leaving_has_no_line_of_its_own_the_party_failing_says_it():
    # the platform's "ann resigns and leaves the game" comes first, then "Nobody is left to play..."
    left = {"type": "PlayerLeftParty", "v": 1, "payload": {"seat": 0, "to": None, "characters": [], "leader": False}}
    assert ENGINE.describe(left, None, NAMES) == ""
