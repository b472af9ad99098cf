"""Destiny phase (destiny, reconcile, initiative) and the battle phase's turn structure."""

from games.engines.yashima import ENGINE, queries
from games.kernel import SYSTEM

from .helpers import P, card, defs, hid, pl, scene, types

A = "0,0"


def two(phase="battle", p0=None, p1=None, **kw):
    return scene(p0 or pl(pos=A), p1 or pl(master="rosamu", kami="dragon", pos="3,-3"), phase=phase, **kw)


# rules: Yashima core, "1. Destiny Step" (default tokens move then attack, one per player; one secret token each; simultaneous reveal)
def test_destiny_tokens_and_secret_choice():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), pl(master="kenta", pos="-3,3"), phase="destiny")
    assert s.status.awaiting == [0, 1, 2]
    ev = s.when(1, "choose_token", token="attack")
    assert s.status.awaiting == [0, 2] and s.legal(1) == []
    # the choice stays secret from the other seats until the reveal
    assert ENGINE.view_for(s.state, 0)["destiny"] == {"1": "chosen"}
    assert ENGINE.view_for(s.state, 1)["destiny"] == {"1": "attack"}
    assert ENGINE.redact_event(ev[0], 0)["payload"] == {"seat": 1}
    assert "attack" not in str(ENGINE.redact_event(ev[-1], 0))
    s.when(0, "choose_token", token="attack")
    s.when(2, "choose_token", token="move")
    # defaults for three players: move, attack, move; plus the three choices
    assert s.state["pool"] == {"move": 3, "attack": 3}
    assert any(e["type"] == "DestinyRevealed" and e["payload"]["chosen"] == {"0": "attack", "1": "attack", "2": "move"} for e in s.events)
    assert s.state["phase"] == "reconcile"


# rules: Yashima core, "2. Reconcile Step" (cards under the deck in any order, then draw one at a time up to hand size; no more tucking once drawn)
def test_reconcile():
    s = two("reconcile", p0=pl(pos=A, hand=["low", "mid"], deck=["plain"] * 10))
    assert s.status.awaiting == [0, 1]
    s.when(0, "tuck", card=hid(s, 0, "mid"))
    s.when(0, "tuck", card=hid(s, 0, "low"))
    assert defs(P(s, 0)["deck"])[-2:] == ["mid", "low"]
    s.when(0, "draw")
    assert "tuck" not in types(s.legal(0))
    while "draw" in types(s.legal(0)):
        s.when(0, "draw")
    assert len(P(s, 0)["hand"]) == queries.hand_size(s.state, 0)
    s.when(0, "end_reconcile")
    assert s.status.awaiting == [1]
    s.when(1, "end_reconcile")
    assert s.state["phase"] in ("battle", "initiative")


# rules: Yashima core, "3. Initiative Step" (highest karma wins; tie: attack value; tie again: reveal more; all revealed cards go to karma)
# rules: Yashima Fairytale, "The Karmic Cycle" ("you place one card into your karma pool each round for initiative")
def test_initiative_karma_then_attack_then_reveal_again():
    s = two("initiative", p0=pl(pos=A, deck=["high", "plain"]), p1=pl(master="rosamu", kami="dragon", pos="3,-3", deck=["mid", "plain"]))
    s.when(SYSTEM, "proceed")
    assert s.state["turn"]["seat"] == 0
    s = two("initiative", custom={"h2": card("h2", karma=7, atk=5)},
            p0=pl(pos=A, deck=["high", "plain"]), p1=pl(master="rosamu", kami="dragon", pos="3,-3", deck=["h2", "plain"]))
    s.when(SYSTEM, "proceed")
    assert s.state["turn"]["seat"] == 1
    s = two("initiative", p0=pl(pos=A, deck=["high", "low", "plain"]), p1=pl(master="rosamu", kami="dragon", pos="3,-3", deck=["high", "mid", "plain"]))
    s.when(SYSTEM, "proceed")
    assert s.state["turn"]["seat"] == 1
    assert defs(P(s, 0)["karma"]) == ["high", "low"] and defs(P(s, 1)["karma"]) == ["high", "mid"]


# rules: Yashima core, "3. Initiative Step" (an EXHAUSTED player has karma 0; all EXHAUSTED: last round's winner)
def test_initiative_exhausted():
    s = two("initiative", p0=pl(pos=A, deck=[]), p1=pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low"], hand=["plain"]))
    s.when(SYSTEM, "proceed")
    assert s.state["turn"]["seat"] == 1
    s = two("initiative", last_init=1, p0=pl(pos=A, deck=[], hand=["plain"]), p1=pl(master="rosamu", kami="dragon", pos="3,-3", deck=[], hand=["plain"]))
    s.when(SYSTEM, "proceed")
    assert s.state["turn"]["seat"] == 1


# rules: Yashima core, "Note: Look for any FATE cards" (FATE triggers when the initiative card enters the karma pool)
def test_initiative_fate():
    s = two("initiative", p0=pl(pos=A, deck=["fate_draw", "low", "plain"]), p1=pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain"]))
    s.when(SYSTEM, "proceed")
    assert defs(P(s, 0)["hand"]) == ["low"]


# rules: Yashima core, "FATE" (not optional), "IMPRINT" and "Multiple Effects" (newest first): a FATE DRAW whose card
# uncovered an imprinted card lets it resolve (and go beneath) and then draws the card under it, instead of drawing nothing
def test_initiative_fate_draw_past_an_uncovered_imprint():
    pact = {"d": "tome:akiko:4:front", "im": True}  # Phoenix Pact: HEAL 2
    s = two("initiative", p0=pl(pos=A, deck=["fate_draw", pact, "low", "plain"], discard=["mid"]),
            p1=pl(master="rosamu", kami="dragon", pos="3,-3", deck=["low", "plain"]))
    s.when(SYSTEM, "proceed")
    assert defs(P(s, 0)["hand"]) == ["low"]
    assert defs(P(s, 0)["deck"]) == ["plain", "mid", "tome:akiko:4:front"] and P(s, 0)["discard"] == []


# rules: Yashima core, "Battle Phase" (turns proceed to the left; one tome action and one combat action per turn)
def test_turn_structure():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"), pl(master="kenta", pos="-3,3"),
              pool={"move": 2, "attack": 1})
    cmds = types(s.legal(0))
    assert "end_turn" not in cmds and {"focus", "delve", "take_token", "move_action"} <= set(cmds)
    s.when(0, "focus")
    assert not {"focus", "delve", "ability"} & set(types(s.legal(0)))
    s.when(0, "take_token", token="attack")  # the combat action may go unused but a token is still taken
    assert s.state["pool"] == {"move": 2, "attack": 0}
    assert "attack" not in types(s.legal(0)) and "end_turn" in types(s.legal(0))
    s.when(0, "end_turn")
    assert s.status.awaiting == [1]
    assert s.rejects(0, "focus").code == "not_your_turn"


# rules: Yashima core, "Battle Phase" ("Once the action pool is empty, the round is over and a new round begins")
def test_round_ends_when_pool_is_empty():
    s = two(pool={"move": 1, "attack": 0})
    s.when(0, "take_token", token="move")
    s.when(0, "end_turn")
    assert s.state["phase"] == "destiny" and s.state["round"] == 2
    assert s.status.awaiting == [0, 1]


# rules: Yashima core, "Tome Actions" (only abilities face up and affordable; torn-off halves not playable from the tome)
def test_only_affordable_face_up_abilities():
    s = two(p0=pl(master="rosamu", pos=A, spread=1, karma=["mid"]))
    srcs = {c["args"]["src"] for c in s.legal(0) if c["type"] == "ability"}
    assert srcs == {"page:3"}  # Beggar's Alms (2); One With All costs 8
    assert s.rejects(0, "ability", src="page:2").code == "illegal_command"


# rules: Yashima core, "Attack Action" / kernel contract (anything not listed is refused with a RuleViolation)
def test_garbage_commands_are_refused():
    s = two(p0=pl(pos=A, hand=["plain"]))
    for typ, args in [("attack", {"card": "nope", "facing": 0}), ("attack", {"card": hid(s, 0, "plain"), "facing": 6}),
                      ("attack", {"card": hid(s, 0, "plain"), "facing": "0"}), ("move_action", {"x": 1}), ("fly", {}),
                      ("delve", {"dir": 2}), ("ability", {"src": ["x"]}), ("take_token", {"token": None})]:
        assert s.rejects(0, typ, **args).code in ("illegal_command", "unknown_command")
    from games.kernel import Command, Rng, RuleViolation
    for seat in (None, 7, -1, "0", True):
        try:
            ENGINE.decide(s.state, Command("focus", {}, seat), Rng(b"x", "y"))
            raise AssertionError("accepted")
        except RuleViolation:
            pass
    try:
        ENGINE.decide(s.state, Command("focus", None, 0), Rng(b"x", "y"))
        raise AssertionError("accepted")
    except RuleViolation as exc:
        assert exc.code == "bad_args"


# rules: Yashima core, "Restoration" (players in restoration are skipped; others take their tokens)
def test_pending_players_are_skipped():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3", deck=[], hand=[], pending=True),
              pl(master="kenta", pos="-3,3"), pool={"move": 2, "attack": 1})
    s.when(0, "take_token", token="move")
    s.when(0, "end_turn")
    assert s.state["turn"]["seat"] == 2
    s.when(2, "take_token", token="move")
    s.when(2, "end_turn")
    assert s.state["turn"]["seat"] == 0


# rules: Yashima core, "Multiple Effects" during the simultaneous reconcile step: a prompt for another seat is awaited from it
def test_reconcile_prompt_for_another_seat():
    s = scene(pl(pos=A, hand=[], deck=["plain", "plain", "plain"]), pl(master="rosamu", kami="dragon", pos="0,-1", hand=["low", "mid"]),
              phase="reconcile")
    # hand-craft an imprint-like damage effect on seat 0's own stack, prompting seat 1 to LOSE
    s.state["stacks"]["0"] = [{"k": "lose", "seat": 1, "n": 1, "src": "damage", "karma_first": False, "by": 0,
                               "prompt": {"seat": 1, "kind": "lose", "cmds": [{"type": "lose_card", "args": {"zone": "deck"}},
                                                                           {"type": "lose_card", "args": {"zone": "hand", "card": hid(s, 1, "low")}}]}}]
    assert 1 in s.status.awaiting and s.legal(0) == []
    s.when(1, "lose_card", zone="hand", card=hid(s, 1, "low"))
    assert defs(P(s, 1)["discard"]) == ["low"] and s.state["stacks"]["0"] == []
    assert "draw" in types(s.legal(0))
