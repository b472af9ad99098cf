"""Keyword effects on battle cards, tome pages and avatar abilities."""

from games.engines.yashima import queries

from .helpers import P, attack, card, defs, hid, pl, prompt, scene, types

A, FRONT = "0,0", "0,-1"


def use_effect(s, seat=0):
    pr = prompt(s)
    assert pr["kind"] == "optional_effect", pr
    s.when(seat, "use_effect", effect=pr["cmds"][0]["args"]["effect"])


def hit_with(effects, atk=2, pattern="jab", target_pos=FRONT, target=None, attacker=None, extra_players=(), **kw):
    custom = dict(kw.pop("custom", {}), fx=card("fx", atk=atk, pattern=pattern, attack=effects))
    s = scene(attacker or pl(pos=A, hand=["fx"]), target or pl(master="rosamu", kami="dragon", pos=target_pos, facing=3),
              *extra_players, custom=custom, **kw)
    attack(s, 0, "fx")
    return s


# rules: Yashima core, "Glossary" BLAZE ("Each hit master and up to 2 unoccupied targeted spaces gain BURN"), "Example Two Player Game" (Fireball)
def test_blaze_fireball():
    s = scene(pl(pos=A, hand=["akiko_01"]), pl(master="rosamu", kami="dragon", pos="0,-2", facing=3))
    attack(s, 0, "akiko_01")
    assert len(P(s, 1)["deck"]) == 4  # Fireball: 6 damage
    use_effect(s)
    assert P(s, 1)["st"] == {"BURN": [0]}
    assert prompt(s)["kind"] == "blaze_spaces"
    assert {c["args"].get("cell") for c in s.legal(0)} == {"0,-3", None}
    s.when(0, "choose_space", cell="0,-3")
    assert s.state["spst"] == {"0,-3": {"BURN": [0]}}


# rules: Yashima core, "Status Tokens" ("When placing multiple instances of the same status, the owner of the
# status chooses which order the statuses are placed. When you run out of tokens for a status, you cannot use
# replacements") and glossary BLAZE ("Each hit master and up to 2 unoccupied targeted spaces gain BURN
# status"): one BURN token left, the attacker may give it to a targeted space instead of the hit master
def test_blaze_short_of_tokens_the_owner_orders_masters_and_spaces():
    s = scene(pl(pos=A, hand=["akiko_01"]), pl(master="rosamu", kami="dragon", pos="0,-2", facing=3), supply={"BURN": 1})
    attack(s, 0, "akiko_01")  # Fireball: ranged, targets 0,-2 (Rosamu) and 0,-3
    use_effect(s)
    assert prompt(s)["kind"] == "place_status" and P(s, 1)["st"] == {}
    assert {(c["args"]["on"], c["args"]["who"]) for c in s.legal(0)} == {("master", 1), ("space", "0,-3")}
    s.when(0, "place_status", on="space", who="0,-3")
    assert s.state["spst"] == {"0,-3": {"BURN": [0]}} and P(s, 1)["st"] == {} and prompt(s) is None
    # with tokens enough for everyone, the hit master gains BURN at once, then the spaces are chosen
    s = scene(pl(pos=A, hand=["akiko_01"]), pl(master="rosamu", kami="dragon", pos="0,-2", facing=3), supply={"BURN": 2})
    attack(s, 0, "akiko_01")
    use_effect(s)
    assert P(s, 1)["st"] == {"BURN": [0]} and prompt(s)["kind"] == "blaze_spaces"


# rules: Yashima core, "Glossary" BLIND ("Each hit master gains BLIND status") and "Status Tokens" (BLIND: SPEED -1)
def test_blind_on_hit_and_speed():
    s = hit_with([{"k": "BLIND"}])
    use_effect(s)
    assert P(s, 1)["st"] == {"BLIND": [0]}
    assert queries.speed(s.state, 1) == queries.stats(s.state, 1)["speed"] - 1


# rules: Yashima core, "Glossary" FURY (relocate each hit master one space, in any order you choose)
def test_fury_relocates_hit_masters():
    s = hit_with([{"k": "FURY"}])
    use_effect(s)
    assert prompt(s)["kind"] == "fury"
    assert {"type": "relocate_master", "args": {"master": 1, "to": A}} not in s.legal(0)
    s.when(0, "relocate_master", master=1, to="1,-2")
    assert P(s, 1)["pos"] == "1,-2"


# rules: Yashima Fairytale, "Status Tokens" RANCOR ("Fury Attacks are +2 against targets with rancor status")
def test_rancor_fury_bonus():
    s = hit_with([{"k": "FURY"}], target=pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, statuses={"RANCOR": 1}))
    assert s.events[-1]["type"] != "AttackDeclared"
    decl = next(e for e in s.events if e["type"] == "AttackDeclared")["payload"]
    assert decl["targets"] == [{"seat": 1, "atk": 4}]


# rules: Yashima core, "Glossary" OVERRUN (relocate adjacent to any target hit by this attack)
def test_overrun():
    s = hit_with([{"k": "OVERRUN"}], pattern="thrust", target_pos="0,-2")
    use_effect(s)
    assert prompt(s)["kind"] == "overrun"
    s.when(0, "relocate_to", to="1,-3")
    assert P(s, 0)["pos"] == "1,-3" and len(P(s, 0)["discard"]) == 0


# rules: Yashima core, "Glossary" OVERRUN ("adjacent to any master dealt one or more damage by this attack") and
# FURY ("Relocate each hit master"), HIT; "Restoration" (a master waiting to restore stays on the board)
def test_overrun_and_fury_count_a_master_the_hit_sent_into_restoration():
    s = hit_with([{"k": "OVERRUN"}], atk=4, pattern="thrust", target_pos="0,-2",
                 target=pl(master="rosamu", kami="dragon", pos="0,-2", facing=3, deck=["plain"] * 2),
                 extra_players=[pl(master="kenta", pos="3,-3")])
    assert P(s, 1)["pending"]
    use_effect(s)
    s.when(0, "relocate_to", to="1,-3")
    assert P(s, 0)["pos"] == "1,-3"
    s = hit_with([{"k": "FURY"}], atk=4, target=pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain"] * 2),
                 extra_players=[pl(master="kenta", pos="3,-3")])
    use_effect(s)
    s.when(0, "relocate_master", master=1, to="1,-2")
    assert P(s, 1)["pos"] == "1,-2" and P(s, 1)["pending"]


# rules: Yashima core, "Glossary" PURIFY (remove one status from a targeted master or space; a hit is not needed)
def test_purify_needs_only_a_target():
    s = hit_with([{"k": "PURIFY"}], atk=3, target=pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, hand=["block"], statuses={"BLIND": 1}))
    s.when(1, "defend", card=hid(s, 1, "block"))
    use_effect(s)
    assert P(s, 1)["st"] == {}


# rules: Yashima core, "Glossary" EXPLODE (remove the status from a space; on or adjacent take 4, two spaces away take 2, yourself included)
def test_explode():
    s = hit_with([{"k": "EXPLODE", "status": "BURN"}], pattern="none", space_statuses={"0,-2": {"BURN": 0}})
    use_effect(s)
    assert s.state["spst"] == {}
    assert len(P(s, 1)["deck"]) == 6  # adjacent to the space
    assert len(P(s, 0)["deck"]) == 10 - 2 + 1  # two spaces away; the attack card came back under the deck


# rules: Yashima Fairytale, "Glossary" BURST (remove all SEED from a master, 2 damage for each)
def test_burst():
    s = hit_with([{"k": "BURST"}], pattern="none", target=pl(master="rosamu", kami="dragon", pos="3,-3", statuses={"SEED": 2}))
    use_effect(s)
    assert P(s, 1)["st"] == {} and len(P(s, 1)["deck"]) == 6
    assert s.state["supply"]["PLANT"] == 2


# rules: Yashima Fairytale, "Glossary" GROW (relocate any PLANT to an unoccupied space adjacent to you) and PLANT (solid)
def test_grow_and_plant_is_solid():
    s = hit_with([{"k": "GROW"}], pattern="none", target_pos="3,-3", space_statuses={"2,2": {"PLANT": 1}})
    use_effect(s)
    assert prompt(s)["kind"] == "grow"
    s.when(0, "grow", frm="2,2", to="1,0")
    assert s.state["spst"] == {"1,0": {"PLANT": [1]}}
    assert queries.is_solid(s.state, "1,0") and not queries.legal_space(s.state, "1,0")


# rules: Yashima Fairytale, "Glossary" GUST ("Gain WIND status") and WIND (project definition: remove it to move up to 2 spaces)
def test_gust_and_wind_move():
    s = scene(pl(master="musashi", pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"))
    assert {"type": "quick", "args": {"src": "avatar:0"}} in s.legal(0)
    s.when(0, "quick", src="avatar:0")  # Two Heavens: EXERT, GUST
    assert P(s, 0)["st"] == {"WIND": [0]} and len(P(s, 0)["discard"]) == 1
    s.when(0, "wind")
    assert P(s, 0)["st"] == {} and prompt(s)["info"]["speed_left"] == 2
    s.when(0, "step", to="0,1")
    s.when(0, "step", to="0,2")
    assert [c["type"] for c in s.legal(0)] == ["end_move"] * 6
    s.when(0, "end_move", facing=0)
    assert s.state["turn"]["token"] is None  # a quick effect, not the combat action


# rules: Yashima core, "Glossary" FEINT (relocate to an adjacent space) and RELOCATE (no combat movement)
def test_feint_relocates_without_combat_movement():
    s = hit_with([{"k": "FEINT"}], atk=0)
    use_effect(s)
    s.when(0, "relocate_to", to="0,1")
    assert P(s, 0)["pos"] == "0,1" and P(s, 0)["discard"] == []


# rules: Yashima Fairytale, "Glossary Continued" FROSTBITE and "Status Tokens" FROST (a master with FROST is EXHAUSTED)
def test_frostbite_and_frost_exhausts():
    s = hit_with([{"k": "FROSTBITE"}], pattern="thrust")
    use_effect(s)
    assert P(s, 1)["st"] == {"FROST": [0]}
    assert queries.exhausted(s.state, 1) and not queries.can_exert(s.state, 1)
    assert prompt(s)["kind"] == "blaze_spaces"
    s.when(0, "choose_space", cell="0,-2")
    assert s.state["spst"] == {"0,-2": {"FROST": [0]}} and queries.is_deadly(s.state, "0,-2")


# rules: Yashima Fairytale, "Glossary" BLEED (IMPRINT this card into a hit master's deck; revealed: that player EXERTs)
def test_bleed_imprints_into_the_hit_masters_deck():
    s = scene(pl(master="mulan", pos=A, hand=["mulan_02"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3))
    attack(s, 0, "mulan_02")
    use_effect(s)
    bottom = P(s, 1)["deck"][-1]
    assert bottom["d"] == "mulan_02" and bottom.get("im") and bottom.get("bl") and bottom["o"] == 0
    assert "mulan_02" not in defs(P(s, 0)["deck"])


def test_bleed_revealed_makes_the_holder_exert():
    bleed = {"d": "mulan_02", "o": 0, "im": True, "bl": True}
    s = scene(pl(pos=A, hand=["low"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain", bleed, "mid", "mid"]),
              custom={"low": card("low", karma=1, atk=1)})
    attack(s, 0, "low")
    # lost "plain"; BLEED revealed: EXERT (a "mid"), then BLEED goes back under the deck
    assert defs(P(s, 1)["discard"]) == ["plain", "mid"]
    assert defs(P(s, 1)["deck"]) == ["mid", "mulan_02"]


def test_bleed_without_face_down_cards_returns_to_its_owner():
    bleed = {"d": "mulan_02", "o": 0, "im": True, "bl": True}
    s = scene(pl(pos=A, hand=["low"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain", bleed], hand=["mid"]),
              custom={"low": card("low", karma=1, atk=1)})
    attack(s, 0, "low")
    s.when(1, "lose_card", zone="deck")
    assert defs(P(s, 1)["deck"]) == []
    assert P(s, 0)["deck"][-2]["d"] == "mulan_02" and not P(s, 0)["deck"][-2].get("im")


# rules: Yashima Fairytale, "Akkorokamui" WEAKEN (project definition: each hit master discards a karma card of their choice)
def test_weaken():
    s = hit_with([{"k": "WEAKEN"}], target=pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, karma=["low", "mid"]))
    use_effect(s)
    assert prompt(s)["seat"] == 1 and prompt(s)["kind"] == "weaken"
    s.when(1, "discard_karma", card=hid(s, 1, "low", "karma"))
    assert defs(P(s, 1)["karma"]) == ["mid"] and defs(P(s, 1)["discard"])[-1] == "low"


# rules: Yashima Fairytale, "Foo Dog" SPIRITUAL LINK (project definition: HEAL 1 for each master hit)
def test_spiritual_link():
    s = hit_with([{"k": "SPIRITUAL_LINK"}], attacker=pl(pos=A, hand=["fx"], discard=["low", "mid"]))
    use_effect(s)
    assert defs(P(s, 0)["discard"]) == ["low"] and P(s, 0)["deck"][-2]["d"] == "mid"


# rules: Yashima core, "Glossary" DRAW ("Draw a card from your battle deck")
def test_draw():
    s = hit_with([{"k": "DRAW", "n": 1}])
    use_effect(s)
    assert defs(P(s, 0)["hand"]) == ["plain"]


# rules: Yashima core, "Glossary" EMPOWER (after the attack, the card may go to the karma pool or the top of the deck)
def test_empower_to_karma_pool():
    s = hit_with([{"k": "EMPOWER"}])
    use_effect(s)
    assert prompt(s)["kind"] == "empower"
    s.when(0, "empower", to="karma")
    assert defs(P(s, 0)["karma"]) == ["fx"] and "fx" not in defs(P(s, 0)["deck"])


def test_empower_to_top_of_deck():
    s = hit_with([{"k": "EMPOWER"}])
    use_effect(s)
    s.when(0, "empower", to="top")
    assert P(s, 0)["deck"][0]["d"] == "fx"


# rules: Yashima core, "Glossary" CHAIN (reveal the top card: karma 6 or higher is drawn, otherwise it goes under the deck)
def test_chain_draws_high_karma():
    s = hit_with([{"k": "CHAIN"}], attacker=pl(pos=A, hand=["fx"], deck=["high", "plain", "plain"]))
    use_effect(s)
    assert defs(P(s, 0)["hand"]) == ["high"]


def test_chain_puts_low_karma_under():
    s = hit_with([{"k": "CHAIN"}], attacker=pl(pos=A, hand=["fx"], deck=["low", "plain", "plain"]))
    use_effect(s)
    assert P(s, 0)["hand"] == [] and defs(P(s, 0)["deck"]) == ["plain", "plain", "low", "fx"]


# rules: Yashima core, "Other Keywords" ADAPT (the card gains the master's ADAPT ability and counts as having its keyword)
def test_adapt_gains_the_masters_keyword():
    s = scene(pl(master="rosamu", kami="dragon", pos=A), pl(master="kenta", kami="dragon", pos="3,-3"))
    assert "CHAIN" in queries.effective(s.state, 0, "dragon_05")["keywords"]
    assert "FURY" in queries.effective(s.state, 1, "dragon_05")["keywords"]
    assert "CHAIN" not in queries.effective(s.state, 0, "dragon_01")["keywords"]


# rules: Yashima core, "Other Keywords" ADAPT (Kenta's ability counts ADAPT cards as FURY cards)
def test_kenta_fury_cards_bonus_includes_adapt():
    s = scene(pl(master="kenta", kami="dragon", pos=A, hand=["dragon_05"]), pl(master="rosamu", kami="dragon", pos="-1,0", facing=3))
    ev = attack(s, 0, "dragon_05")
    decl = next(e for e in ev if e["type"] == "AttackDeclared")["payload"]
    assert decl["targets"] == [{"seat": 1, "atk": queries.card_def(s.state, "dragon_05")["atk"] + 1}]


# rules: Yashima core, "Glossary" DASH (DISCARD to move up to your speed to a space adjacent to an opposing master)
def test_dash():
    s = scene(pl(pos=A, hand=["dash"]), pl(master="rosamu", kami="dragon", pos="0,-4", facing=3))
    cmds = [c for c in s.legal(0) if c["type"] == "dash"]
    assert cmds and all(queries.adjacent_opponents(s.state, 0, c["args"]["to"]) for c in cmds)
    assert {"type": "dash", "args": {"card": hid(s, 0, "dash"), "to": "0,-3"}} in cmds
    s.when(0, "dash", card=hid(s, 0, "dash"), to="0,-3")
    assert P(s, 0)["pos"] == "0,-3" and defs(P(s, 0)["discard"]) == ["dash"]
    assert s.state["turn"]["token"] is None


# rules: Yashima core, "Glossary" DASH ("move up to your speed to a space adjacent to an opposing master") and BURN
# ("When a master without BURN status enters a space that has the BURN status, ... place it on that master"): the
# path is the player's, so the one resolved avoids picking up a BURN when one as cheap in EXERTs does (rules decision)
def test_dash_goes_around_a_burning_space():
    s = scene(pl(pos=A, hand=["dash"]), pl(master="rosamu", kami="dragon", pos="0,-3", facing=3),
              space_statuses={"0,-1": {"BURN": 0}})
    s.when(0, "dash", card=hid(s, 0, "dash"), to="0,-2")
    assert P(s, 0)["pos"] == "0,-2" and P(s, 0)["st"] == {}
    assert s.state["spst"] == {"0,-1": {"BURN": [0]}}


def test_dash_needs_a_reachable_opponent():
    s = scene(pl(pos=A, hand=["dash"]), pl(master="rosamu", kami="dragon", pos="0,-5", facing=3))
    assert not [c for c in s.legal(0) if c["type"] == "dash"]


# rules: Yashima core, "Tome Actions" DELVE (one page either way; not past the cover or the back)
def test_delve_limits():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos="3,-3"))
    assert [c["args"]["dir"] for c in s.legal(0) if c["type"] == "delve"] == [1]
    s.when(0, "delve", dir=1)
    assert P(s, 0)["tome"]["spread"] == 1 and not [c for c in s.legal(0) if c["type"] in ("delve", "focus", "ability")]
    s = scene(pl(pos=A, spread=5), pl(master="rosamu", kami="dragon", pos="3,-3"))
    assert [c["args"]["dir"] for c in s.legal(0) if c["type"] == "delve"] == [-1]


# rules: Yashima Fairytale, "Glossary" BOOKMARK ("Turn to any page in your tome")
def test_bookmark():
    s = scene(pl(master="hikaru", pos=A, spread=5, karma=["plain"]), pl(master="rosamu", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:10")
    assert prompt(s)["kind"] == "bookmark" and len(s.legal(0)) == 5
    s.when(0, "turn_to", spread=2)
    assert P(s, 0)["tome"]["spread"] == 2


# rules: Yashima core, "Tome Actions" Karma Ability (USE the fewest karma cards reaching the cost; the excess is lost)
def test_karma_payment_fewest_cards():
    s = scene(pl(master="rosamu", pos=A, spread=3, karma=["plain", "low", "mid"]), pl(master="kenta", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:7")  # Prayer Beads, EQUIP, cost 5: two cards are the fewest
    assert prompt(s)["kind"] == "pay" and len(s.legal(0)) == 3  # 3+4, 1+4: every card can start a pair
    assert P(s, 0)["equip"] == []  # nothing resolves before the cost is paid
    s.when(0, "pay_card", card=hid(s, 0, "low", "karma"))
    # only "mid" completes a two-card payment now: chosen automatically; the excess would be lost
    assert defs(P(s, 0)["karma"]) == ["plain"]
    assert defs(P(s, 0)["deck"])[-2:] == ["low", "mid"]
    assert defs(P(s, 0)["equip"]) == ["tome:rosamu:3:front"]


def test_karma_payment_excess_is_lost():
    s = scene(pl(master="rosamu", pos=A, spread=2, karma=["seven", "mid"]), pl(master="kenta", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:4")  # Stupor, cost 2: one card; either card may pay, the excess is lost
    assert {c["args"]["card"] for c in s.legal(0)} == {hid(s, 0, "seven", "karma"), hid(s, 0, "mid", "karma")}
    s.when(0, "pay_card", card=hid(s, 0, "seven", "karma"))
    assert defs(P(s, 0)["karma"]) == ["mid"] and s.state["turn"]["stupor"] is True


# rules: Yashima core, "Other Keywords" EQUIP (pay, remove from the tome, attach; the torn half now applies)
def test_equip():
    s = scene(pl(master="rosamu", pos=A, spread=3, karma=["seven"]), pl(master="kenta", kami="dragon", pos="3,-3"))
    speed = queries.speed(s.state, 0)
    s.when(0, "ability", src="page:7")
    assert defs(P(s, 0)["equip"]) == ["tome:rosamu:3:front"]
    assert P(s, 0)["tome"]["out"] == [3]
    assert queries.speed(s.state, 0) == speed + 1
    # page 7 left the tome with its card: the next card's front (page 9) now lies face up on the right
    assert [p for p, _, _ in queries.tome_pages(s.state, 0)] == [6, 9]


# rules: Yashima core, "Tome Actions" ("some cards show a 0 cost ... it still uses your tome action")
def test_zero_cost_ability_uses_the_tome_action():
    s = scene(pl(master="rosamu", pos=A, spread=3, statuses={"BLIND": 1}), pl(master="kenta", kami="dragon", pos="3,-3"))
    assert {"type": "ability", "args": {"src": "page:6"}} in s.legal(0)  # Quiet Mind, cost 0
    s.when(0, "ability", src="page:6")
    assert P(s, 0)["st"] == {} and s.state["turn"]["tome"] is True
    assert "focus" not in types(s.legal(0))


# rules: Yashima core, "Example Two Player Game" (Stupor: damage from the next attack this turn is lost from the karma pool)
def test_stupor():
    s = scene(pl(master="rosamu", pos=A, spread=2, karma=["mid"], hand=["plain"]),
              pl(master="kenta", kami="dragon", pos=FRONT, facing=3, karma=["mid", "mid"]))
    s.when(0, "ability", src="page:4")
    attack(s, 0, "plain")
    assert prompt(s)["cmds"][0]["args"]["zone"] == "karma"
    s.when(1, "lose_card", zone="karma", card=hid(s, 1, "mid", "karma"))
    # the last karma card goes too (a single choice resolves alone), then the rest comes from hand/deck
    assert P(s, 1)["karma"] == [] and len(P(s, 1)["deck"]) == 8
    assert s.state["turn"]["stupor"] is False


# rules: Yashima core, "Other Keywords" IMPRINT (pay, face up beneath the deck; trigger when revealed on top, then back under)
def test_imprint_and_reveal():
    s = scene(pl(master="rosamu", pos=A, spread=1, karma=["seven", "low"], deck=["plain", "low", "mid", "high"]),
              pl(master="kenta", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="page:2")  # One With All, cost 8
    s.when(0, "pay_card", card=hid(s, 0, "seven", "karma"))
    assert P(s, 0)["deck"][-1] == {"id": P(s, 0)["deck"][-1]["id"], "d": "tome:rosamu:0:back", "o": 0, "im": True}
    assert 0 in P(s, 0)["tome"]["out"]


def test_imprint_revealed_look_and_reorder():
    imp = {"d": "tome:rosamu:0:back", "im": True}
    s = scene(pl(master="rosamu", pos=A, deck=["plain", imp, "low", "mid", "high", "seven"]), pl(master="kenta", kami="dragon", pos="3,-3"))
    s.when(0, "focus")
    assert prompt(s)["kind"] == "reorder" and len(s.legal(0)) == 24
    assert [c["d"] for c in prompt(s)["info"]["cards"]] == ["low", "mid", "high", "seven"]
    ids = [c["id"] for c in prompt(s)["info"]["cards"]]
    s.when(0, "reorder", order=ids[::-1])
    assert defs(P(s, 0)["deck"]) == ["seven", "high", "mid", "low", "tome:rosamu:0:back"]


# rules: Yashima core, "Other Keywords" IMPRINT ("If there are no face-down battle cards beneath this card ... returns to its owner's tome") and "Returning cards"
def test_imprint_without_cards_beneath_returns_to_the_tome():
    imp = {"d": "tome:rosamu:0:back", "im": True}
    s = scene(pl(master="rosamu", pos=A, deck=["plain", imp]), pl(master="kenta", kami="dragon", pos="3,-3"))
    assert P(s, 0)["tome"]["out"] == [0]
    s.when(0, "focus")
    assert P(s, 0)["deck"] == [] and P(s, 0)["tome"]["out"] == []


# rules: Yashima core, "Multiple Effects" (newest first: LOSE reveals an imprinted HEAL mid-damage)
def test_newest_first_imprinted_heal_during_lose():
    imp = {"d": "tome:hikaru:1:front", "im": True}  # Oshiro Vow: IMPRINT - HEAL 2
    s = scene(pl(pos=A, hand=["five"]), pl(master="hikaru", kami="dragon", pos=FRONT, facing=3, deck=["low", imp] + ["plain"] * 6),
              custom={"five": card("five", atk=5)})
    attack(s, 0, "five")
    # lose 1 (low); the imprinted HEAL is revealed: HEAL puts "low" back beneath, HEAL again finds nothing,
    # the imprint goes beneath, and the remaining 4 are lost
    assert defs(P(s, 1)["deck"]) == ["plain", "plain", "low", "tome:hikaru:1:front"]
    assert defs(P(s, 1)["discard"]) == ["plain"] * 4


# rules: Yashima core, "Other Keywords" FATE (triggers when the card enters the karma pool; not optional)
def test_fate_on_focus():
    s = scene(pl(pos=A, deck=["fate_draw", "plain", "low"]), pl(master="rosamu", kami="dragon", pos="3,-3"))
    s.when(0, "focus")
    assert defs(P(s, 0)["karma"]) == ["fate_draw"] and defs(P(s, 0)["hand"]) == ["plain"]


# rules: Yashima core, "Other Keywords" DESTROY / "Returning cards" (equipment returns to its spot in the owner's tome)
def test_destroy_returns_equipment_to_the_tome():
    from games.engines.yashima.state import Sim
    from games.engines.yashima.tasks import return_card
    from games.kernel import Rng
    s = scene(pl(master="rosamu", pos=A, equip=["tome:rosamu:3:front"]), pl(master="kenta", kami="dragon", pos="3,-3"))
    assert P(s, 0)["tome"]["out"] == [3]
    sim = Sim(s.state, Rng(b"t", "t"))
    return_card(sim, 0, "equip", P(s, 0)["equip"][0])
    assert sim.s["players"][0]["equip"] == [] and sim.s["players"][0]["tome"] == {"spread": 0, "out": []}


# rules: Yashima core, "Status Tokens" (Akiko's quick ability in the example: EXERT to give all adjacent masters BURN)
def test_akiko_quick_burn_adjacent():
    s = scene(pl(pos=A), pl(master="rosamu", kami="dragon", pos=FRONT), pl(master="kenta", kami="tiger", pos="1,0"), pl(master="hikaru", kami="phoenix", pos="3,-3"))
    s.when(0, "quick", src="avatar:0")
    assert P(s, 1)["st"] == {"BURN": [0]} and P(s, 2)["st"] == {"BURN": [0]} and P(s, 3)["st"] == {}
    assert len(P(s, 0)["discard"]) == 1


# rules: Yashima core, "Glossary" HEAL (top of the discard pile to the bottom of the deck; none if the pile is empty)
def test_heal_ability():
    s = scene(pl(master="hikaru", pos=A, karma=["seven"], discard=["low", "mid"]), pl(master="rosamu", kami="dragon", pos="3,-3"))
    s.when(0, "ability", src="avatar:0")  # Radiance: cost 3, HEAL 2
    assert P(s, 0)["discard"] == [] and defs(P(s, 0)["deck"])[-2:] == ["mid", "low"]


# rules: Yashima Fairytale, "Hua Mulan" ("Imprint your cards as traps in their decks"): Snare is imprinted beneath a chosen master's deck
def test_mulan_trap_imprint():
    s = scene(pl(master="mulan", pos=A, karma=["mid"]), pl(master="rosamu", kami="dragon", pos="0,-2", deck=["plain", "low"]),
              pl(master="kenta", pos="0,-3"), pl(master="hikaru", pos="0,-4"))
    s.when(0, "ability", src="page:1")  # Snare, IMPRINT, range 3
    assert prompt(s)["kind"] == "imprint_into" and {c["args"]["master"] for c in s.legal(0)} == {1, 2}
    s.when(0, "choose_master", master=1)
    trap = P(s, 1)["deck"][-1]
    assert trap["d"] == "tome:mulan:0:front" and trap["o"] == 0 and trap.get("im") and P(s, 0)["tome"]["out"] == [0]


def test_mulan_trap_springs_and_returns():
    trap = {"d": "tome:mulan:0:front", "o": 0, "im": True}
    s = scene(pl(master="mulan", pos=A, hand=["low"], tome_out=[0]),
              pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain", trap, "mid", "mid"]))
    attack(s, 0, "low")  # 1 damage: "plain" lost, the trap is revealed: Rosamu EXERTs a "mid"
    assert defs(P(s, 1)["discard"]) == ["plain", "mid"] and defs(P(s, 1)["deck"]) == ["mid", "tome:mulan:0:front"]
    s2 = scene(pl(master="mulan", pos=A, hand=["low"], tome_out=[0]),
               pl(master="rosamu", kami="dragon", pos=FRONT, facing=3, deck=["plain", trap], hand=["mid"]))
    attack(s2, 0, "low")
    s2.when(1, "lose_card", zone="deck")
    assert P(s2, 1)["deck"] == [] and P(s2, 0)["tome"]["out"] == []


# rules: Yashima core, "Glossary" RELOCATE ("reposition your miniature without causing combat movement rules to apply")
def test_relocate_tome_ability_ignores_combat_movement():
    s = scene(pl(master="hikaru", pos=A, spread=3, karma=["mid"]), pl(master="rosamu", kami="dragon", pos=FRONT, facing=3))
    s.when(0, "ability", src="page:7")  # Light Step: RELOCATE up to 2
    assert prompt(s)["kind"] == "relocate" and {"type": "stay", "args": {}} in s.legal(0)
    s.when(0, "relocate_to", to="0,2")
    assert P(s, 0)["pos"] == "0,2" and P(s, 0)["discard"] == []
