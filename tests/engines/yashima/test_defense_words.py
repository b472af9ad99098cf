"""What the history says about a defense (``describe`` of each seat's redacted events): the card
played, its keyword and what it does to the attack and to the attacker."""

from games.engines.yashima import ENGINE, describe
from games.engines.yashima.content import CARDS

from .helpers import P, attack, hid, pl, scene
from .test_narration import told


# rules: Yashima core, "Glossary" RIPOSTE ("LOSE this card, prevent 2 damage and deal 3 damage to the attacker")
def test_a_riposte_is_told_with_what_it_does_to_the_attack_and_the_attacker():
    # given: hanzo (2 cards left in the deck) attacks tomoko, who holds Current Breath (RIPOSTE)
    s = scene(pl(pos="0,0", hand=["akiko_03"], deck=["plain"] * 2),
              pl(master="rosamu", kami="tortoise", pos="0,-1", facing=3, hand=["tortoise_04"]))
    events = attack(s, 0, "akiko_03")
    # when: tomoko defends with it
    events += s.when(1, "defend", card=hid(s, 1, "tortoise_04"))
    # then: every seat and spectators read what the defense did, not only that a card was revealed
    for viewer in (0, 1, None):
        assert told(events, viewer, {"AttackDeclared", "CardRevealed", "PlayerSet"}) == [
            "hanzo attacks tomoko with Cinder Kick facing up: 4 damage before defenses",
            "tomoko defends with Current Breath (RIPOSTE): it prevents 2 of the attack's damage "
            "and the attacker must LOSE 3",
            "hanzo's master falls and awaits restoration",
        ]
    # the attacker's 3 damage emptied his deck (2 cards); the defender lost 4 - 2 = 2
    assert P(s, 0)["pending"] and len(P(s, 1)["discard"]) == 3


# rules: Yashima core, "Glossary" DEFENSE EFFECT, BLOCK, CLASH, DODGE, RIPOSTE; Fairytale BARRIER;
# docs/games/yashima.md "Keywords" (OCCUPY, SPIRIT SHIELD, COUNTER: project definitions)
def test_every_defense_in_the_pack_says_what_it_does():
    kinds = {c["defense"] for c in CARDS.values() if c.get("defense")}
    assert kinds <= set(describe._DEFENSES)
    for kind in kinds:
        ev = {"type": "CardRevealed", "v": 1, "payload": {"seat": 1, "card": {"d": "tortoise_04", "o": 1},
                                                          "why": f"defense:{kind}"}}
        text = ENGINE.describe(ev, 0, ["hanzo", "tomoko"])
        assert text.startswith(f"tomoko defends with Current Breath ({kind.replace('_', ' ')}): "), text
    # other reveals (an imprint, a CHAIN) read as before
    chain = {"type": "CardRevealed", "v": 1, "payload": {"seat": 0, "card": {"d": "akiko_03", "o": 0}, "why": "chain"}}
    assert ENGINE.describe(chain, 1, ["hanzo", "tomoko"]) == "hanzo reveals Cinder Kick"


# rules: Yashima core, "Glossary" RIPOSTE ("... deal 3 damage to the attacker")
def test_the_attackers_loss_prompt_names_the_riposte_that_caused_it():
    # given: hanzo (a hand card and 4 deck cards) attacks tomoko, who holds Current Breath (RIPOSTE)
    s = scene(pl(pos="0,0", hand=["akiko_03", "plain"], deck=["plain"] * 4),
              pl(master="rosamu", kami="tortoise", pos="0,-1", facing=3, hand=["tortoise_04"]))
    attack(s, 0, "akiko_03")
    # when: tomoko defends with it
    s.when(1, "defend", card=hid(s, 1, "tortoise_04"))
    # then: hanzo's LOSE prompt says what deals it and whose it is
    prompt = next(pr for pr in ENGINE.view_for(s.state, 0)["prompts"].values() if pr.get("seat") == 0 and pr.get("cmds"))
    assert prompt["kind"] == "lose" and prompt["title"] == "LOSE 3 (RIPOSTE from Rosamu (seat 1)): choose a card to lose"
