"""The Yokai Battle bot: it plays its turn to win (conquest first), by a bounded lookahead.

1. **What the seat may know** (``belief``): the board, every discard pile, chakra, hand and deck
   sizes, and its own hand. Which of an opponent's unseen cards are in hand, and the order of every
   deck (its own included), are hidden; the *multiset* of a player's unseen cards is public (the
   printed deck list minus that player's monsters on the board and discard pile). The belief state
   deals those unseen cards in a fixed order (sorted by card, fresh ids), so nothing the bot
   computes can depend on a hidden card.
2. **The search** (``games.kernel.lookahead.plan``): a beam over the seat's own consecutive
   decisions this turn (summons with their free attack, the ability targets, paid attacks, LP
   transfers, ending the turn), each tried with the engine's own ``decide`` on the belief state.
3. **The evaluation** (``evaluate``): a win or loss outright; otherwise the conquest race (own
   monsters on the board per player, steeply valued near five), the monsters' life points, which
   of them an adjacent enemy can kill next turn with the chakra it will have, and whether an
   opponent can reach five monsters on the next turn with the free squares left.

Bounded: at most ``SIMULATIONS`` simulated commands per decision (docs/games/yokai.md, "Bot").
"""

from games.kernel.lookahead import Budget, best_of, plan

from . import rules as R
from .board import OPPOSITE, cross, direction, squares
from .content import MONSTERS
from .state import clone

WIN = 1000.0
SIMULATIONS = 2500
WIDTH = 8
DEPTH = 8
SUMMONS_TRIED = 24
# Conquest race: the value of having n of one's own monsters on the board (5 wins outright).
PROGRESS = (0.0, 3.0, 7.0, 13.0, 24.0)


# -- what the seat may know ------------------------------------------------------------------

def belief(state, seat):
    """``state`` with every card ``seat`` cannot see replaced by a canonical guess (see above)."""
    s = dict(state)
    players = []
    for i, pl in enumerate(state["players"]):
        p = dict(pl)
        if i == seat:
            unseen = sorted(c["card"] for c in pl["deck"])
            p["hand"] = clone(pl["hand"])
            p["deck"] = [{"id": f"unseen-{i}-{k}", "card": key} for k, key in enumerate(unseen)]
        else:
            unseen = sorted(c["card"] for c in pl["hand"] + pl["deck"])
            cards = [{"id": f"unseen-{i}-{k}", "card": key} for k, key in enumerate(unseen)]
            p["hand"], p["deck"] = cards[:len(pl["hand"])], cards[len(pl["hand"]):]
        players.append(p)
    s["players"] = players
    return s


# -- the evaluation ---------------------------------------------------------------------------

def _next_chakra(state, who) -> int:
    """The chakra ``who`` will have on its next turn (a new round starts when seat 0 comes round)."""
    meter = state["meter"]
    if who <= state["turn"]:
        meter = min(R.MAX_METER, meter + 1)
    return meter


def _monster_value(state, pos) -> float:
    m = state["monsters"][pos]
    info = MONSTERS[m["card"]]
    value = 4.0 + 0.6 * m["lp"] + 0.15 * sum(info["attack"].values()) * (2 if m.get("doubled") else 1)
    if info["ability"] in ("earth_cancel", "metal_ward", "water_transfer") and R.ability_active(state, pos):
        value += 1.5
    return value


def _danger(state, pos, rivals, chakra_of) -> float:
    """How likely the monster on ``pos`` dies before its owner's next turn (0..1), from the enemy
    monsters next to it (paid attacks with the chakra they will have) and free squares next to it
    (a fresh summon attacks for free)."""
    m = state["monsters"][pos]
    worst = 0.0
    for other in cross(state["terrain"], pos, 1):
        e = state["monsters"].get(other)
        if e is None:
            if rivals and m["lp"] <= 2:
                worst = max(worst, 0.35)
            continue
        if e["owner"] not in rivals:
            continue
        values = R.duel_values(state, other, pos)
        if values["cost"] > chakra_of(e["owner"]):
            continue
        if values["attacker_deals"] >= m["lp"]:
            dies_too = values["defender_deals"] >= e["lp"]
            worst = max(worst, 0.45 if dies_too else 0.8)
        elif values["attacker_deals"] > 0:
            worst = max(worst, 0.1)
    return worst


FRESH_LP = 3  # the life points a rival's next summon is assumed to have (its hand is hidden)


def _open_squares(state, seat) -> int:
    """Free squares where a fresh monster of ``seat`` would survive its summoning attack: an empty
    neighbourhood, or some adjacent enemy whose retaliation (the side facing it) is below
    ``FRESH_LP`` (the summoner picks the target)."""
    count = 0
    for pos in squares(state["rows"]):
        if pos in state["monsters"] or R.warded(state, seat, pos):
            continue
        foes = [p for p in R.enemy_monsters_near(state, seat, pos, 1)]
        if not foes or any(R.side_ap(state["monsters"][p], OPPOSITE[direction(pos, p)]) < FRESH_LP for p in foes):
            count += 1
    return count


def _upcoming(state, seat) -> list[int]:
    """The seats whose turns come before ``seat``'s next turn, in order (the current turn player
    first when it is not ``seat``)."""
    n = state["seats"]
    turn = state["turn"]
    out = [] if turn == seat else [turn]
    for k in range(1, n):
        who = (turn + k) % n
        if who == seat:
            break
        if R.in_play(state, who):  # a player who resigned takes no more turns
            out.append(who)
    return out


def evaluate(state, seat) -> float:
    if state["finished"]:
        if not state["winners"]:
            return 0.0
        return WIN if seat in state["winners"] else -WIN
    mine = R.team_seats(state, seat)
    theirs = R.enemy_seats(state, seat)
    counts = {s: R.monsters_of(state, s) for s in range(state["seats"])}
    score = max(PROGRESS[min(4, counts[s])] for s in mine)
    rivals = sorted((PROGRESS[min(4, counts[s])] for s in theirs), reverse=True)
    score -= rivals[0] + 0.3 * sum(rivals[1:])
    # every rival whose turn comes before the bot's next one may attack or summon
    upcoming = [s for s in _upcoming(state, seat) if s not in mine]

    def chakra(who):
        return state["chakra"][who] if who == state["turn"] else _next_chakra(state, who)

    for pos, m in state["monsters"].items():
        value = _monster_value(state, pos)
        if R.allied(state, m["owner"], seat):
            score += value * (1.0 - _danger(state, pos, upcoming, chakra))
        else:
            score -= value
    # a rival who can summon up to five before the bot's next turn probably wins
    for who in upcoming:
        if not state["players"][who]["hand"]:
            continue
        reach = counts[who] + min(R.MAX_SUMMONS, _open_squares(state, who), len(state["players"][who]["hand"]))
        if reach >= R.CONQUEST:
            score -= 40.0 if counts[who] >= 4 else 25.0
    return score


# -- the search -------------------------------------------------------------------------------

def quick_summon_score(state, seat, command) -> float:
    """A cheap first look at a summon, used to choose which summons the search tries."""
    args = command["args"]
    key = next(c["card"] for c in state["players"][seat]["hand"] if c["id"] == args["card"])
    pos = args["terrain"]
    score = 1.0 + MONSTERS[key]["cost"] / 10 + (2.0 if R.favourable(state, pos, key) else 0.0)
    lp = R.summoned_lp(state, pos, key)
    probe = {"uid": -1, "card": key, "owner": seat, "orientation": args["orientation"], "doubled": False}
    for enemy in R.enemy_monsters_near(state, seat, pos, 1):
        way = direction(pos, enemy)
        mine, theirs = R.side_ap(probe, way), R.side_ap(state["monsters"][enemy], OPPOSITE[way])
        if theirs >= lp:
            score -= 3.0
        if mine >= state["monsters"][enemy]["lp"]:
            score += 3.0
    return score


def _candidates(seat):
    def pick(state, commands):
        summons = [c for c in commands if c["type"] == "summon"]
        rest = [c for c in commands if c["type"] != "summon"]
        if len(summons) > SUMMONS_TRIED:
            ranked = sorted(range(len(summons)), key=lambda i: (-quick_summon_score(state, seat, summons[i]), i))
            summons = [summons[i] for i in sorted(ranked[:SUMMONS_TRIED])]
        return summons + rest
    return pick


def choose(engine, state, seat, rng, simulations: int = SIMULATIONS):
    """The bot's command for ``seat`` (one of ``engine.legal_commands(state, seat)``), or None."""
    legal = engine.legal_commands(state, seat)
    if len(legal) <= 1:
        return legal[0] if legal else None
    known = belief(state, seat)
    lines = plan(engine, known, seat, lambda s: evaluate(s, seat), width=WIDTH, depth=DEPTH,
                 budget=Budget(simulations), candidates=_candidates(seat))
    scored = [(round(value, 6), command) for value, command in lines if command in legal]
    return best_of(scored, rng) or legal[0]
