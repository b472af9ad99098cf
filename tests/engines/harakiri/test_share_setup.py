"""Exchanging items before the Exploration Phase starts (option ``share``, set by a campaign after its
Adventure Phase): every seat hands over what its characters carry, then says it is done."""

import pytest

from games.engines.harakiri import ENGINE
from games.kernel import SYSTEM, Command, Rng, RuleViolation, fold


def _setup(seats=2, party=None, **options):
    return fold(ENGINE, ENGINE.setup({"share": True, "party": party or {}, **options}, seats, Rng(b"share", "setup")))


def _do(state, seat, type_, **args):
    events = ENGINE.decide(state, Command(type_, args, seat), Rng(b"share", f"{type_}{args}"))
    return fold(ENGINE, events, state), events


def test_characters_exchange_items_before_the_exploration_phase_starts():
    # rules: Harakiri, "Exploration Phase Setup", step 2: "Characters can exchange items as per the share action during
    # the Adventure Phase before the Exploration Phase starts"; "Share": "exchange coins, heads, items, equipment"
    party = {"akira": {"coins": 12, "items": ["jirobo_omamori", "ginseng_tea"], "item_uses": {"ginseng_tea": 1},
                       "weapons": ["ronin_katana", "ronin_tanto"]},
             "tomoe": {"heads": 1}}
    state = _setup(party=party)  # seat 0: Akira and Hikaru; seat 1: Hattori and Tomoe
    assert state["phase"] == "share" and ENGINE.status(state).awaiting == [0, 1]
    assert ENGINE.system_command(state) is None  # the oracle waits for the exchanges
    legal0 = ENGINE.legal_commands(state, 0)
    gift = {"from": "akira", "to": "tomoe", "what": "ginseng_tea", "amount": 1}
    assert {"type": "share", "args": gift} in legal0
    assert {"type": "share", "args": {"from": "akira", "to": "hattori", "what": "coins", "amount": 12}} in legal0
    assert {"type": "share", "args": {"from": "akira", "to": "tomoe", "what": "ronin_tanto", "amount": 1}} in legal0
    # Akira keeps a weapon of his class to equip: the katana can go only while he holds the tanto
    assert all(c["args"]["from"] in ("akira", "hikaru") for c in legal0 if c["type"] == "share")
    with pytest.raises(RuleViolation) as refused:  # seat 1 hands over only what its own characters carry
        ENGINE.decide(state, Command("share", gift, 1), Rng(b"share", "x"))
    assert refused.value.code == "illegal_command"
    state, events = _do(state, 0, "share", **gift)
    assert {e["type"] for e in events} == {"ItemsChanged"}
    assert state["characters"]["tomoe"]["items"][-1] == {"id": "ginseng_tea", "uses": 1}  # its tokens go with it
    assert [i["id"] for i in state["characters"]["akira"]["items"]] == ["jirobo_omamori"]
    state, _ = _do(state, 0, "share", **{"from": "akira", "to": "hattori", "what": "coins", "amount": 5})
    state, _ = _do(state, 1, "share", **{"from": "tomoe", "to": "akira", "what": "heads", "amount": 1})
    state, _ = _do(state, 0, "share", **{"from": "akira", "to": "tomoe", "what": "ronin_katana", "amount": 1})
    assert (state["characters"]["akira"]["weapons"], state["characters"]["akira"]["equipped"]) == (["ronin_tanto"], "ronin_tanto")
    assert state["characters"]["tomoe"]["weapons"] == ["samurai_yumi", "ronin_katana"]
    assert state["characters"]["tomoe"]["equipped"] == "samurai_yumi"  # another class's weapon is only carried
    assert (state["characters"]["akira"]["coins"], state["characters"]["hattori"]["coins"]) == (7, 5)
    assert state["characters"]["akira"]["heads"] == 1 and state["characters"]["akira"]["ap"] == 4  # free
    state, _ = _do(state, 1, "end_share")
    assert ENGINE.status(state).awaiting == [0] and ENGINE.legal_commands(state, 1) == []
    state, events = _do(state, 0, "end_share")
    assert [e["type"] for e in events] == ["ShareReady", "ShareEnded"]
    assert state["phase"] == "oracle" and ENGINE.status(state).awaiting == [SYSTEM]
    assert ENGINE.system_command(state) == {"type": "draw_oracle", "args": {}}


def test_an_exchange_respects_the_receivers_limits_and_a_match_without_share_starts_at_once():
    # rules: Harakiri, "Equipment and Item Limits": "a maximum of 2 weapons and 1 piece of armor ... a maximum of 2
    # permanent items with a maximum of 5 items in total"
    party = {"akira": {"items": ["war_fan"], "weapons": ["ronin_katana", "ronin_tanto"]},
             "tomoe": {"items": ["iron_tessen", "travel_papers"], "weapons": ["samurai_yumi", "samurai_naginata"]}}
    state = _setup(seats=1, party=party)
    legal = [c["args"] for c in ENGINE.legal_commands(state, 0) if c["type"] == "share"]
    assert {"from": "akira", "to": "tomoe", "what": "war_fan", "amount": 1} not in legal  # a third permanent item
    assert {"from": "akira", "to": "hikaru", "what": "war_fan", "amount": 1} in legal
    assert {"from": "akira", "to": "tomoe", "what": "ronin_tanto", "amount": 1} not in legal  # a third weapon
    assert {"from": "akira", "to": "tomoe", "what": "armor", "amount": 1} in legal  # the two armor cards change hands
    state, _ = _do(state, 0, "share", **{"from": "akira", "to": "tomoe", "what": "armor", "amount": 1})
    assert (state["characters"]["akira"]["armor_card"], state["characters"]["tomoe"]["armor_card"]) == (
        "ceremonial_armor", "ronin_robe")
    assert ENGINE.timeout_command(state, 0) == {"type": "end_share", "args": {}}
    assert ENGINE.bot_command(state, 0, Rng(b"bot", "x")) == {"type": "end_share", "args": {}}
    plain = fold(ENGINE, ENGINE.setup({}, 1, Rng(b"share", "setup")))
    assert plain["phase"] == "oracle" and plain["share"] is None
