"""Yashima played to the end THROUGH THE REST API: a broad sweep by uniformly random legal choices
at round cap 1, and fewer, longer games in which every seat plays what the server's own bot would
(the engine's ``bot_command``) until the game is decided.

Modelled on tests/games/yokai/test_api_random_play.py. Each seat is its own authenticated user
(DRF APIClient, in-process); the match is created with POST /api/matches/ (options
``{"round_cap": ...}``, plus ``{"teams": true}`` for 2 vs 2), joined and started through the
API. Until the game ends, one of the awaited seats (Yashima has simultaneous decisions: destiny
tokens, reconcile) is picked with a seeded ``games.kernel.Rng``; it GETs its /view/, picks one of
its ``legal_commands`` (uniformly; or the bot's choice, which must be among them: the bot reads
the full state in-process with ``selectors.state_load``, as the worker does) and POSTs it to
/commands/ with ``expected_seq``. Every write runs inside
``django_capture_on_commit_callbacks(execute=True)`` so the state cache fills and the platform's
follow-ups (SYSTEM ``proceed`` steps) run as after a real request. Every seat and a spectator
follow the log through /events/ like the web client does.

Checked: no response is a 5xx; every posted legal command is accepted (201); never stuck (while
not finished somebody, and never SYSTEM, is awaited after the follow-ups ran, and the awaited
seat has something to do); the match ends with reason last_standing / tie / round_cap and
winners consistent with the final view (a last-standing win goes to the whole team of a standing
master, 2 vs 2 included, and nobody of another team stands; a tie has no winner and nobody
standing; the cap only ends an undecided game); the bot games end last_standing or tie, never at
their cap; and the canary: an independent tracker walks the
unredacted log (``events_load``) and knows at every seq where every opaque card id lies (battle
decks, hands; ids renamed on entering a hidden zone) and which destiny tokens are chosen but not
revealed. No /view/ (checked at its seq), no event sent by /events/ or in a command response
(checked at the event's own seq) to a seat or to the spectator ever contains a face-down deck
card id (except the top cards its owner was shown by LOOK_REORDER), another seat's hand card id,
or another seat's secret destiny token.
"""

import json
import re

import pytest

from games.application import selectors
from games.eventstore import store
from games.eventstore.models import Match
from games.kernel import SYSTEM

from tests.games.api_client import open_recorded_match

pytestmark = pytest.mark.django_db

GAMES = 50
# Round cap 1 for runtime (the 200 games take ~3 min CPU); the setup, a whole round (destiny,
# reconcile, initiative, battle turns) and the restoration at its end are still played every
# time. With these seeds every one of these games ends at the cap: uniformly random play kills
# nobody in one round. The bot games below reach the results.
ROUND_CAP = 1
# Games that reach a real result: every command is the one the server's bot would choose (the
# engine's bot_command), still submitted through the API, under a cap far above what bot games
# need (bot-against-bot games take 126-674 commands in 80 seeded engine-level games, docs/games/yashima.md),
# so each must end last_standing or tie.
# The 24 games take ~2-3 min CPU; the whole module stays under ~6 min CPU.
BOT_GAMES = 6
BOT_ROUND_CAP = 40
MAX_COMMANDS = 3000
FOLLOW_EVERY = 10  # commands between two /events/ reads of every seat and the spectator
MODES = {"2p": (2, {}), "3p": (3, {}), "4p": (4, {}), "2v2": (4, {"teams": True})}
TOKEN = re.compile(r"(?<![0-9a-f])[0-9a-f]{16}(?![0-9a-f])")



class Tracker:
    """Where every card id is, from the unredacted log (independent of the engine's evolve)."""

    def __init__(self, seats):
        self.seats = seats
        self.loc = {}  # id -> [seat, zone, face_up_imprint]
        self.shown = [set() for _ in range(seats)]  # own deck ids a seat was shown (LOOK_REORDER)
        self.secret = {}  # seat -> destiny token chosen and not yet revealed
        self.seen_ids = set()  # every id that was ever hidden: proves the check had canaries
        self.secret_rounds = 0
        self._hidden = {}  # viewer -> hidden ids at the current seq

    def _put(self, cid, seat, zone, im):
        self.loc[cid] = [seat, zone, im]
        if zone in ("deck", "hand") and not im:
            self.seen_ids.add(cid)

    def apply(self, ev):
        self._hidden = {}
        t, p = ev["type"], ev["payload"]
        if t in ("GameSetUp", "ScenarioLoaded"):
            self.loc = {}
            for s, pl in enumerate(p["state"]["players"]):
                for zone in ("deck", "hand", "discard", "karma", "equip", "aside"):
                    for c in pl[zone]:
                        self._put(c["id"], s, zone, bool(c.get("im")))
        elif t == "DeckShuffled":
            for cid in [i for i, where in self.loc.items() if where[:2] == [p["seat"], "deck"]]:
                del self.loc[cid]
            for c in p["deck"]:
                self._put(c["id"], p["seat"], "deck", bool(c.get("im")))
        elif t == "CardMoved":
            im = False
            if p["zone"] != "tome":
                assert self.loc.get(p["id"], [None, None])[:2] == [p["seat"], p["zone"]], (ev, self.loc.get(p["id"]))
                im = self.loc.pop(p["id"])[2]
            if "im" in p["card"]:
                im = bool(p["card"]["im"])
            if p["to"] != "tome":
                self._put(p["new"], p["to_seat"], p["to"], im)
        elif t == "DeckReordered":
            self.shown[p["seat"]] |= {c["id"] for c in p["cards"]}
        elif t == "PlayerSet":
            assert not {"deck", "hand"} & set(p["set"]), "untracked hidden zone change"
            if p["set"].get("discard") == []:
                for cid in [i for i, where in self.loc.items() if where[:2] == [p["seat"], "discard"]]:
                    del self.loc[cid]
        elif t == "ControlSet" and "stacks" in p:
            # The seat asked to reorder the top of its own deck is shown those cards' ids.
            for stack in p["stacks"].values():
                for task in stack:
                    pr = task.get("prompt")
                    if pr and pr["kind"] == "reorder":
                        self.shown[pr["seat"]] |= {c["id"] for c in pr["info"]["cards"]}
        elif t == "DestinyChosen":
            self.secret[p["seat"]] = p["token"]
            if len(self.secret) == 1:
                self.secret_rounds += 1
        elif t == "DestinyRevealed":
            assert p["chosen"] == {str(s): tok for s, tok in self.secret.items()}
            self.secret = {}

    def hidden_for(self, viewer):
        if viewer in self._hidden:
            return self._hidden[viewer]
        out = self._hidden[viewer] = set()
        for cid, (seat, zone, im) in self.loc.items():
            if zone == "hand" and seat != viewer:
                out.add(cid)
            elif zone == "deck" and not im and not (seat == viewer and cid in self.shown[seat]):
                out.add(cid)
        return out


def _destiny_leaks(node, secret_seats):
    """Places in a JSON document that show a secret destiny token of one of ``secret_seats``."""
    found = []
    if isinstance(node, dict):
        if isinstance(node.get("destiny"), dict):
            found += [(s, v) for s, v in node["destiny"].items() if int(s) in secret_seats and v != "chosen"]
        if node.get("seat") in secret_seats and "token" in node:
            found.append((node["seat"], node["token"]))
        for v in node.values():
            found += _destiny_leaks(v, secret_seats)
    elif isinstance(node, list):
        for v in node:
            found += _destiny_leaks(v, secret_seats)
    return found


def assert_no_canary(match, seats, responses):
    """``responses``: (seat, seq, body bytes), each checked against what was hidden at its seq."""
    log = store.events_load(match)
    by_seq = sorted(responses, key=lambda r: r[1])
    tracker = Tracker(seats)
    i = 0
    checked_secret = 0
    for ev in log:
        tracker.apply(ev)
        while i < len(by_seq) and by_seq[i][1] <= ev["seq"]:
            viewer, _, body = by_seq[i]
            text = body.decode()
            leaked = set(TOKEN.findall(text)) & tracker.hidden_for(viewer)
            assert not leaked, f"seat {viewer} was sent hidden card ids {sorted(leaked)} at seq {ev['seq']}"
            secret_seats = {s for s in tracker.secret if s != viewer}
            if secret_seats:
                checked_secret += 1
                leaks = _destiny_leaks(json.loads(text), secret_seats)
                assert not leaks, f"seat {viewer} was sent secret destiny tokens {leaks} at seq {ev['seq']}"
            i += 1
    assert i == len(by_seq), "a response claimed a seq beyond the log"
    # The check had canaries: every seat's battle deck was dealt face down, and destiny tokens
    # were checked while some were secret.
    assert len(tracker.seen_ids) >= 15 * seats
    assert tracker.secret_rounds >= 1 and checked_secret > 0


def assert_legal_end(final, seats, teams, round_cap):
    status, view = final["status"], final["view"]
    assert status["finished"] and status["awaiting"] == []
    assert final["match"]["status"] == "finished"
    winners = sorted(status["winners"])
    result = view["result"]
    assert sorted(result["winners"]) == winners
    team_of = view["teams"]
    assert team_of == ([s % 2 for s in range(seats)] if teams else list(range(seats)))

    def standing(s):
        pl = view["players"][s]
        return not (pl["dead"] or pl["pending"] or pl["restored"])

    if result["reason"] == "last_standing":
        assert winners, "a last-standing win has winners"
        team = team_of[winners[0]]
        assert winners == [s for s in range(seats) if team_of[s] == team]
        assert any(standing(s) for s in winners)
        assert not any(standing(s) for s in range(seats) if team_of[s] != team)
    elif result["reason"] == "tie":
        assert winners == [] and not any(standing(s) for s in range(seats))
    else:
        assert result["reason"] == "round_cap", result
        assert winners == [] and view["round"] == round_cap
        standing_teams = {team_of[s] for s in range(seats) if standing(s)}
        assert len(standing_teams) > 1, "the round cap came after the game was already decided"
    return result["reason"]


def random_choice(rng, match_id, seat, legal):
    return rng.choice(legal)


def bot_choice(rng, match_id, seat, legal):
    """What the server's own bot would play: the registered engine's bot_command on the full state
    (read in-process, as the worker does); it must be one of the seat's legal commands from the API."""
    match = Match.objects.get(pk=match_id)
    command = selectors.engine_of(match).bot_command(selectors.state_load(match)["game"], seat, rng)
    assert command in legal, f"the bot chose {command}, not among the API's legal commands"
    return command


def play_one(seats, options, seed, make_user, fixed_match_seed, on_commit, choose=random_choice, round_cap=ROUND_CAP):
    teams = bool(options.get("teams"))
    options = {"round_cap": round_cap, **options}
    label = f"yashima-api-{seats}-{teams}-{seed}" + ("" if choose is random_choice else f"-{choose.__name__}")
    rng, responses, match_id, url, clients, spectator = open_recorded_match(
        "yashima", label, seats, options, make_user, fixed_match_seed, on_commit)

    commands = 0
    simultaneous = 0
    doc = spectator.view()
    while True:
        if commands % FOLLOW_EVERY == 0 or doc["status"]["finished"]:
            for c in clients + [spectator]:
                c.follow()  # every client follows the log, as the web client does
        if doc["status"]["finished"]:
            break
        awaiting = doc["status"]["awaiting"]
        assert awaiting, f"stuck: nobody awaited in phase {doc['status']['phase']}"
        assert SYSTEM not in awaiting, "a SYSTEM step was left pending after the follow-ups ran"
        simultaneous += len(awaiting) > 1
        seat = rng.choice(sorted(awaiting))
        mine = doc if doc["seat"] == seat else clients[seat].view()
        assert mine["seq"] == doc["seq"]
        legal = mine["legal_commands"]
        assert legal, f"seat {seat} is awaited but has nothing to do"
        if commands % 25 == 0:  # now and then: the others and the spectator have nothing to do
            for viewer in [c for c in clients if c.seat not in awaiting] + [spectator]:
                assert viewer.view()["legal_commands"] == []
        clients[seat].command(choose(rng, match_id, seat, legal), mine["seq"])
        commands += 1
        assert commands < MAX_COMMANDS, "the game did not end"
        doc = clients[seat].view()  # its status says who is awaited next

    finals = [c.view() for c in clients]
    reason = assert_legal_end(finals[0], seats, teams, round_cap)
    for f in finals[1:] + [spectator.view()]:
        assert f["status"] == finals[0]["status"]
    detail = clients[0].api.get(url).json()
    assert detail["status"] == "finished" and sorted(detail["winners"]) == sorted(finals[0]["status"]["winners"])
    assert detail["seed"], "the seed is revealed at the end"
    # Every seat and the spectator also read the whole log once more from the start.
    for c in clients + [spectator]:
        c.after = 0
        c.follow()
    assert_no_canary(Match.objects.get(pk=match_id), seats, responses)
    return commands, reason, simultaneous


@pytest.mark.parametrize("seed", range(GAMES))
@pytest.mark.parametrize("mode", list(MODES))
def test_random_legal_play_through_the_api(mode, seed, make_user, fixed_match_seed,
                                          django_capture_on_commit_callbacks, record_property):
    seats, options = MODES[mode]
    commands, reason, simultaneous = play_one(seats, options, seed, make_user, fixed_match_seed,
                                              django_capture_on_commit_callbacks)
    record_property("commands", commands)  # in --junitxml: compare two runs, count the outcomes
    record_property("reason", reason)
    assert commands > 0 and reason in ("last_standing", "tie", "round_cap")
    assert simultaneous > 0, "destiny tokens are chosen simultaneously: several seats were awaited at once"


@pytest.mark.parametrize("seed", range(BOT_GAMES))
@pytest.mark.parametrize("mode", list(MODES))
def test_bot_play_through_the_api_reaches_a_result(mode, seed, make_user, fixed_match_seed,
                                                  django_capture_on_commit_callbacks, record_property):
    seats, options = MODES[mode]
    commands, reason, simultaneous = play_one(seats, options, seed, make_user, fixed_match_seed,
                                              django_capture_on_commit_callbacks, bot_choice, BOT_ROUND_CAP)
    record_property("commands", commands)
    record_property("reason", reason)
    assert reason in ("last_standing", "tie"), f"{mode} seed {seed}: the bots did not decide the game in {BOT_ROUND_CAP} rounds"
    assert simultaneous > 0
