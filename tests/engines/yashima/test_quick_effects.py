"""The quick-effect window: during your own turn, between actions, never while one resolves and never
during another master's turn (docs/games/yashima.md, rules decision 12)."""

from games.engines.yashima.content import CARDS, MASTERS

from .helpers import attack, card, hid, pl, prompt, scene

A, FRONT = "0,0", "0,-1"
QUICK = ("dash", "quick", "wind")


def quick_types(cmds):
    return sorted({c["type"] for c in cmds if c["type"] in QUICK})


# rules: Yashima core, "Quick Effects" ("played outside of other actions you take") and "Glossary" DASH ("During your
# turn ..."); Yashima Fairytale, "Quick Effect" ("does not require a combat or tome action")
def test_the_pack_has_no_quick_effect_worded_for_another_players_turn():
    # Every quick effect in the pack is either a DASH card (its text: "During your turn") or one of the two
    # masters' quick abilities (Scorching Aura, Two Heavens), effects "outside of other actions you take".
    # A new kind of quick effect in the content must be read against the texts before this passes again.
    assert {c["quick"]["k"] for c in CARDS.values() if c.get("quick")} == {"DASH"}
    abilities = {(m, ab["name"]) for m, d in MASTERS.items() for ab in d["abilities"] if ab["kind"] == "quick"}
    assert abilities == {("akiko", "Scorching Aura"), ("musashi", "Two Heavens")}


def quick_ready_defender():
    """Seat 0 (Musashi, WIND) attacks seat 1 (Akiko with a DASH card, WIND and an opponent within reach)."""
    return scene(pl(master="musashi", pos=A, hand=["seven", "dash"], statuses={"WIND": 1}),
                 pl(master="akiko", kami="tiger", pos=FRONT, facing=3, hand=["dash", "block"], statuses={"WIND": 1}))


# rules: Yashima core, "Glossary" DASH ("You can play this quick effect during your own turn")
def test_no_quick_effect_during_another_masters_turn():
    s = quick_ready_defender()
    assert quick_types(s.legal(0)) == ["dash", "quick", "wind"]  # the turn player, between actions
    assert s.legal(1) == []
    assert s.rejects(1, "quick", src="avatar:0").code == "not_your_turn"
    assert s.rejects(1, "wind").code == "not_your_turn"
    attack(s, 0, "seven")
    assert prompt(s)["kind"] == "defense" and prompt(s)["seat"] == 1
    assert quick_types(s.legal(1)) == []  # defending is not a window for quick effects
    assert s.rejects(1, "quick", src="avatar:0").code == "unknown_command"
    assert s.rejects(1, "dash", card=hid(s, 1, "dash"), to="1,-1").code == "unknown_command"
    assert s.rejects(1, "wind").code == "unknown_command"


# rules: Yashima core, "Glossary" DASH ("but not while resolving an action (like during an attack action or in
# the middle of a move action)")
def test_no_quick_effect_while_an_action_resolves():
    s = quick_ready_defender()
    s.when(0, "move_action")
    assert prompt(s)["kind"] == "move"
    assert quick_types(s.legal(0)) == []  # in the middle of a move action
    assert s.rejects(0, "quick", src="avatar:0").code == "unknown_command"
    assert s.rejects(0, "wind").code == "unknown_command"
    s.when(0, "end_move", facing=0)
    assert quick_types(s.legal(0)) == ["dash", "quick", "wind"]  # the action is over: the window opens again


# rules: Yashima core, "Glossary" DASH ("not while resolving an action (like during an attack action ...)")
def test_no_quick_effect_during_ones_own_attack():
    s = scene(pl(master="musashi", pos=A, hand=["drawer", "dash"], statuses={"WIND": 1}),
              pl(master="akiko", kami="tiger", pos=FRONT, facing=3, hand=["block"]),
              custom={"drawer": card("drawer", atk=0, attack=[{"k": "DRAW", "n": 1}])})
    attack(s, 0, "drawer")
    s.when(1, "no_defense")
    assert prompt(s)["kind"] == "optional_effect" and prompt(s)["seat"] == 0  # step 4 of the attack
    assert quick_types(s.legal(0)) == []
    assert s.rejects(0, "quick", src="avatar:0").code == "unknown_command"
    s.when(0, "use_effect", effect="DRAW")
    assert prompt(s) is None and quick_types(s.legal(0)) == ["dash", "quick", "wind"]
