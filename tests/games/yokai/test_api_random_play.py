"""Yokai Battle played to the end THROUGH THE REST API, by uniformly random legal choices.

Each seat is its own authenticated user (DRF APIClient, in-process). A match is created with
POST /api/matches/, joined and started; then, until the game ends: the awaited seat GETs its
/view/, picks one of its ``legal_commands`` with a seeded ``games.kernel.Rng`` and POSTs it to
/commands/ with ``expected_seq``; every seat and a spectator follow the log through /events/
like the web client does. For 2, 3, 4 players and 2 vs 2, GAMES seeded games each.

Checked: no response is a 5xx; every posted legal command is accepted (201); the match finishes
with winners that match the engine's rules as seen in the final view (the conqueror's seat/team
with 5 of its own monsters on the board, or everyone but the decked-out seat/team); and the
canary: the unredacted log (``events_load``) tells which opaque card ids are hidden at every seq
(every deck card, every hand card of the other seats); no /view/ (checked at its seq), and no
event sent by /events/ or in a command response (checked at the event's own seq) to a seat (or to
the spectator) ever contains one of them.
"""

import re

import pytest

from games.eventstore import store
from games.eventstore.models import Match

from tests.games.api_client import open_recorded_match

pytestmark = pytest.mark.django_db

GAMES = 50
MAX_COMMANDS = 3000
FOLLOW_EVERY = 10  # commands between two /events/ reads of every seat and the spectator
MODES = {"2p": (2, {}), "3p": (3, {}), "4p": (4, {}), "2v2": (4, {"teams": True})}
TOKEN = re.compile(r"[0-9a-f]{16}")



def hidden_ids_by_seq(log, seats):
    """Walk the unredacted log with an independent tracker of where every card id is.

    Yields (seq, decks, hands) after each event: decks = ids still in any deck, hands[s] = ids in
    seat s's hand (an id leaves a hand when its monster is summoned: it is then public)."""
    decks = [set() for _ in range(seats)]
    hands = [set() for _ in range(seats)]
    for ev in log:
        p = ev["payload"]
        if ev["type"] == "GameStarted":
            for s in range(seats):
                hands[s] = {c["id"] for c in p["hands"][str(s)]}
                decks[s] = {c["id"] for c in p["decks"][str(s)]}
        elif ev["type"] == "CardsDrawn":
            ids = {c["id"] for c in p["cards"]}
            assert ids <= decks[p["seat"]] and len(ids) == p["count"]
            decks[p["seat"]] -= ids
            hands[p["seat"]] |= ids
        elif ev["type"] == "MonsterSummoned":
            assert p["card"] in hands[p["seat"]]
            hands[p["seat"]].discard(p["card"])
        yield ev["seq"], decks, hands


def assert_no_canary(match, seats, responses):
    """``responses``: (seat, seq, body bytes). At seq, a seat may know no deck id and no other hand id."""
    log = store.events_load(match)
    by_seq = sorted(responses, key=lambda r: r[1])
    i = 0
    all_ids = set()
    for seq, decks, hands in hidden_ids_by_seq(log, seats):
        deck_ids = set().union(*decks)
        all_ids |= deck_ids | set().union(*hands)
        while i < len(by_seq) and by_seq[i][1] <= seq:
            viewer, _, body = by_seq[i]
            hidden = deck_ids | set().union(*(h for s, h in enumerate(hands) if s != viewer))
            leaked = set(TOKEN.findall(body.decode())) & hidden
            assert not leaked, f"seat {viewer} was sent hidden card ids {sorted(leaked)} at seq {seq}"
            i += 1
    assert i == len(by_seq), "a response claimed a seq beyond the log"
    assert len(all_ids) == 22 * seats  # every card of every deck was tracked: the check had canaries


def allies(seat, seats, teams):
    return [s for s in range(seats) if (s % 2 == seat % 2 if teams else s == seat)]


def assert_legal_win(final, seats, teams):
    status, view = final["status"], final["view"]
    assert status["finished"] and status["phase"] == "finished" and status["awaiting"] == []
    assert final["match"]["status"] == "finished"
    winners = sorted(status["winners"])
    assert winners, "a finished Yokai game always has winners"
    assert view["finished"] and sorted(view["winners"]) == winners
    result = view["result"]
    if result["reason"] == "conquest":
        conqueror = result["seat"]
        own = [m for m in view["monsters"].values() if m["owner"] == conqueror]
        assert len(own) >= 5, f"seat {conqueror} won by conquest with {len(own)} monsters"
        assert winners == allies(conqueror, seats, teams)
    else:
        assert result["reason"] == "deck_out"
        loser = result["loser"]
        assert view["players"][loser]["deck_count"] == 0
        assert winners == [s for s in range(seats) if s not in allies(loser, seats, teams)]
    return result["reason"]


def play_one(seats, options, seed, make_user, fixed_match_seed, on_commit):
    teams = bool(options.get("teams"))
    label = f"yokai-api-{seats}-{teams}-{seed}"
    rng, responses, match_id, url, clients, spectator = open_recorded_match(
        "yokai", label, seats, options, make_user, fixed_match_seed, on_commit)

    commands = 0
    doc = spectator.view()
    while True:
        if commands % FOLLOW_EVERY == 0 or doc["status"]["finished"]:
            for c in clients + [spectator]:
                c.follow()  # every client follows the log, as the web client does
        if doc["status"]["finished"]:
            break
        awaiting = doc["status"]["awaiting"]
        assert len(awaiting) == 1, awaiting
        seat = awaiting[0]
        mine = doc if doc["seat"] == seat else clients[seat].view()
        legal = mine["legal_commands"]
        assert legal, f"seat {seat} is awaited but has nothing to do"
        if commands % 25 == 0:  # now and then: the others and the spectator have nothing to do
            for viewer in [c for c in clients if c.seat != seat] + [spectator]:
                assert viewer.view()["legal_commands"] == []
        clients[seat].command(rng.choice(legal), mine["seq"])
        commands += 1
        assert commands < MAX_COMMANDS, "the game did not end"
        doc = clients[seat].view()  # its status says who is awaited next

    finals = [c.view() for c in clients]
    reason = assert_legal_win(finals[0], seats, teams)
    for f in finals[1:]:
        assert f["status"] == finals[0]["status"]
    detail = clients[0].api.get(url).json()
    assert detail["status"] == "finished" and sorted(detail["winners"]) == sorted(finals[0]["status"]["winners"])
    assert detail["seed"], "the seed is revealed at the end"
    # Every seat and the spectator also read the whole log once more from the start.
    for c in clients + [spectator]:
        c.after = 0
        c.follow()
    assert_no_canary(Match.objects.get(pk=match_id), seats, responses)
    return commands, reason


@pytest.mark.parametrize("seed", range(GAMES))
@pytest.mark.parametrize("mode", list(MODES))
def test_random_legal_play_through_the_api(mode, seed, make_user, fixed_match_seed,
                                          django_capture_on_commit_callbacks):
    seats, options = MODES[mode]
    commands, reason = play_one(seats, options, seed, make_user, fixed_match_seed, django_capture_on_commit_callbacks)
    assert commands > 0 and reason in ("conquest", "deck_out")
