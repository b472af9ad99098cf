"""Staff pages read as a log should: moments to the second in words (the exact ISO text kept in
``<time datetime>`` and its title), each event's payload as indented, escaped JSON folded under the
event's sentence, other JSON (options, records, changed values) the same way; the log download is
the unchanged JSON Lines contract."""

import html as htmllib
import json
import re
from datetime import datetime, timezone

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from frontend.templatetags.when import when
from games.application import selectors
from games.eventstore.models import Match, MatchEvent
from games.staff import diff
from games.staff.templatetags_staff import actor_words, iso, seat_words
from games.staff.words import fold_quiet_runs, quiet_sentence
from games.tournaments import services as tournament_services
from games.tournaments.models import TournamentRecord
from tests.projections.play import play_randomly

pytestmark = pytest.mark.django_db

MOMENT = datetime(2026, 12, 6, 17, 36, 5, 123456, tzinfo=timezone.utc)
MOMENT_WORDS = "6 Dec 2026, 17:36:05 UTC"


@pytest.fixture
def staff_client(make_user):
    client = Client()
    client.force_login(make_user(is_staff=True))
    return client


@pytest.fixture
def played(started_pebbles, django_capture_on_commit_callbacks):
    match, users = started_pebbles(seats=2, options={"target": 18, "turn_seconds": 120})
    play_randomly(match, users, django_capture_on_commit_callbacks, seed=3)
    return Match.objects.get(pk=match.pk)


def _row(html: str, seq: int) -> str:
    return html.split(f'<tr id="seq-{seq}"')[1].split("</tr>")[0]


def test_an_event_shows_its_moment_to_the_second_and_its_payload_under_its_sentence(staff_client, played):
    # given a played move stamped at a known moment
    move = MatchEvent.objects.filter(match=played, type="TilePlayed").order_by("seq").first()
    MatchEvent.objects.filter(pk=move.pk).update(at=MOMENT)
    # when staff open the log review at that move
    html = staff_client.get(reverse("staff:match", args=[played.pk]), {"at": move.seq}).content.decode()
    row = _row(html, move.seq)
    # then its time reads in words, to the second, with the exact ISO text beside it
    assert f'<time datetime="{MOMENT.isoformat()}" title="{MOMENT.isoformat()}">{MOMENT_WORDS}</time>' in row
    assert f"at <time datetime=\"{MOMENT.isoformat()}\"" in html  # the highlighted event's line too
    # and its payload is indented JSON, escaped, folded under the engine's sentence
    names = selectors.seat_names(selectors.state_load(played)["lobby"])
    sentence = selectors.engine_of(played).describe({"type": "TilePlayed", "v": 1, "payload": move.payload}, None, names)
    folded = re.search(r'<details class="json event-payload"><summary>(.*?)</summary><pre class="json">(.*?)</pre>', row, re.S)
    assert folded and htmllib.unescape(folded.group(1)) == sentence
    assert htmllib.unescape(folded.group(2)) == json.dumps(move.payload, indent=2, sort_keys=True, ensure_ascii=False)
    assert '"' not in folded.group(2), "quotes escaped: the JSON cannot break out of its <pre>"
    # and the actor reads in words (username, the seat 1-based as players number it), its raw JSON in the title
    seat = move.actor["seat"]
    username = get_user_model().objects.get(pk=move.actor["user_id"]).username
    assert f"{username} (user #{move.actor['user_id']}), seat {seat + 1} ({names[seat]})" in row


def test_times_everywhere_on_the_match_page_read_in_words(staff_client, played):
    Match.objects.filter(pk=played.pk).update(created_at=MOMENT)
    html = staff_client.get(reverse("staff:match", args=[played.pk])).content.decode()
    assert f"created <time datetime=\"{MOMENT.isoformat()}\"" in html and MOMENT_WORDS in html
    # no event time is left as raw ISO text in a cell
    assert not re.search(r"<td>\d{4}-\d\d-\d\dT", html)
    options = html.split('data-testid="match-options"><summary>')[1].split("</details>")[0]
    assert htmllib.unescape(options.split('<pre class="json">')[1].split("</pre>")[0]) == \
        json.dumps(played.options, indent=2, sort_keys=True, ensure_ascii=False)
    listing = staff_client.get(reverse("staff:index")).content.decode()
    assert MOMENT_WORDS in listing


def test_the_log_download_is_the_unchanged_json_lines_file(staff_client, played):
    MatchEvent.objects.filter(match=played, seq=2).update(at=MOMENT)
    response = staff_client.get(reverse("staff:log", args=[played.pk]))
    assert response["Content-Type"] == "application/x-ndjson; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="match-{played.pk}.jsonl"'

    def line(obj):
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"

    state = selectors.state_load(played)
    header = {"id": str(played.pk), "game": played.game, "engine_version": played.engine_version,
              "seat_count": played.seat_count, "options": played.options, "seed_hash": played.seed_hash,
              "created_at": played.created_at.isoformat(), "head_seq": played.head_seq}
    if state["lobby"].get("seed"):
        header["seed"] = state["lobby"]["seed"]
    expected = line({"format": "kamiza.match-log", "version": 1, "match": header}) + "".join(
        line({"seq": e.seq, "type": e.type, "v": e.version, "payload": e.payload, "actor": e.actor,
              "command_id": str(e.command_id) if e.command_id else None, "at": e.at.isoformat()})
        for e in MatchEvent.objects.filter(match=played).order_by("seq"))
    assert response.content.decode() == expected
    assert f'"at":"{MOMENT.isoformat()}"' in expected, "the file keeps the exact ISO moments"


def test_a_tournament_record_reads_in_words_with_its_json_folded(staff_client, make_user):
    organizer = make_user()
    organizer.groups.add(Group.objects.get(name="organizers"))
    t = tournament_services.tournament_create(creator=organizer, name="Readable Open", game="yashima", format="swiss",
                                              table_size=2, round_minutes=30, match_options={"turn_seconds": 60})
    player = make_user()
    tournament_services.tournament_register(tournament_id=t.pk, user=player)
    record = TournamentRecord.objects.filter(tournament=t, kind="registered").get()
    TournamentRecord.objects.filter(pk=record.pk).update(at=MOMENT)
    html = staff_client.get(f"/staff/tournaments/{t.pk}/").content.decode()
    row = html.split(f'<tr data-seq="{record.seq}"')[1].split("</tr>")[0]
    assert f'<time datetime="{MOMENT.isoformat()}" title="{MOMENT.isoformat()}">{MOMENT_WORDS}</time>' in row
    pre = row.split('<details class="json record-payload"><summary>')[1].split('<pre class="json">')[1].split("</pre>")[0]
    assert htmllib.unescape(pre) == json.dumps(record.payload, indent=2, sort_keys=True, ensure_ascii=False)


def test_when_keeps_the_seconds_only_when_asked():
    assert when(MOMENT) == "6 Dec 2026, 17:36 UTC"
    assert when(MOMENT, "seconds") == MOMENT_WORDS
    assert when(MOMENT.isoformat(), "seconds") == MOMENT_WORDS
    assert when("not a moment", "seconds") == "not a moment" and when(None, "seconds") == ""


def test_iso_and_actor_words():
    assert iso(MOMENT) == MOMENT.isoformat() and iso("2026-12-06T17:36:05Z") == "2026-12-06T17:36:05Z" and iso(None) == ""
    who = {"names": ["alice", "bob", None], "users": {3: "admin"}}
    # seats as the players number them (1-based), with the player's name; users by their name
    assert actor_words({"kind": "user", "user_id": 3, "seat": 1}, who) == "admin (user #3), seat 2 (bob)"
    assert actor_words({"kind": "user", "user_id": 9, "seat": 0}, who) == "user #9, seat 1 (alice)"  # account gone
    assert actor_words({"kind": "worker", "user_id": None, "seat": 2, "task": "advance_match"}, who) == \
        "worker advance_match, seat 3"  # nobody holds it
    assert actor_words({"kind": "system", "user_id": None, "seat": None, "why": "timeout"}) == 'system, why="timeout"'
    assert seat_words(0, ["alice"]) == "seat 1 (alice)" and seat_words(None) == ""


def test_runs_of_events_without_a_sentence_fold_into_one_row():
    def ev(seq, type_, text=""):
        return {"seq": seq, "type": type_, "text": text}
    timeline = [ev(1, "Moved", "alice moves"), *[ev(s, "ControlSet") for s in range(2, 14)], ev(14, "Moved", "bob moves"),
                ev(15, "ControlSet"), ev(16, "ControlSet"), ev(17, "Moved", "x")]
    rows = fold_quiet_runs(timeline, keep=set())
    assert [r.get("seq", (r.get("first"), r.get("last"))) for r in rows] == [1, (2, 13), 14, 15, 16, 17]
    assert len(rows[1]["run"]) == 12 and rows[1]["type"] == "ControlSet"
    # the event shown (or one with a note or a report) keeps its own row and splits the run
    rows = fold_quiet_runs(timeline, keep={7})
    assert [r.get("seq", (r.get("first"), r.get("last"))) for r in rows] == [1, (2, 6), 7, (8, 13), 14, 15, 16, 17]


def test_a_changed_object_comes_indented_beside_its_one_line():
    lines, _ = diff.changes({"hand": [{"id": "a"}], "n": 1}, {"hand": [{"id": "a"}, {"id": "b"}], "n": 2})
    added = next(x for x in lines if x["kind"] == "added")
    assert added["after"] == '{"id":"b"}' and added["after_full"] == '{\n  "id": "b"\n}' and added["before_full"] is None
    changed = next(x for x in lines if x["path"] == "n")
    assert (changed["before"], changed["after"], changed["before_full"], changed["after_full"]) == ("1", "2", None, None)


def test_an_event_without_a_sentence_gets_a_short_line_of_its_own():
    control = {"type": "ControlSet", "payload": {"turn": {"seat": 2}, "stacks": {
        "main": [{"prompt": {"seat": 0, "kind": "defense"}}]}}}
    assert quiet_sentence(control, ["alice", "bob", "carol"]) == \
        "control changes: seat 3 (carol)'s turn, waiting on seat 1 (alice) for defense"
    assert quiet_sentence({"type": "Tick", "payload": {}}) == "Tick (bookkeeping)"


def test_each_games_bookkeeping_reads_what_changed_not_its_type_name():
    # given the bookkeeping a Yashima 2v2 and a Harakiri match wrote (seen on their staff pages as
    # bare "control changes" and "WorkPushed (bookkeeping)") and Yokai's pending choices
    names = ["alice", "bob", "carol", "dave"]

    def line(type_, payload):
        return quiet_sentence({"type": type_, "payload": payload}, names)
    # when staff read them, then each says what changed, in words
    assert line("ControlSet", {"phase": "destiny", "round": 1, "stacks": {"main": []}}) == \
        "control changes: phase destiny, round 1, no decision pending"
    assert line("ControlSet", {"setup": {"choice": None, "i": 1, "placed": [], "step": "pick"}}) == \
        "control changes: setup step pick"
    assert line("ControlSet", {"stacks": {"main": [{"k": "move", "prompt": {"seat": 3, "kind": "optional_effect"}}]}}) == \
        "control changes: waiting on seat 4 (dave) for optional effect"
    assert line("WorkPushed", {"items": [{"op": "events", "zones": ["gate"]}, {"op": "initiative", "stage": "build"}],
                               "front": True}) == "work queued: events, initiative (build)"
    assert line("WorkUpdated", {"item": {"op": "initiative", "stage": "sixth"}}) == "work step updated: initiative (sixth)"
    assert line("WorkDone", {"op": "effect"}) == "work step done: effect"
    assert line("TurnChanged", {"set": {"mp": 1, "todo": []}}) == "turn state changes: mp 1, todo []"
    assert line("PendingChanged", {"pending": [{"seat": 1, "kind": "defend"}, {"seat": 0}]}) == \
        "pending choices change: waiting on seat 2 (bob) for defend"
    assert line("PendingChanged", {"pending": []}) == "pending choices change: nothing pending"
    # and a run of them folds under one line that counts the events
    assert fold_quiet_runs([{"seq": s, "type": "WorkUpdated", "text": ""} for s in (1, 2, 3)], keep=set())[0]["words"] == \
        "3 events in a row: work step updated"


def test_the_games_own_steps_read_as_the_games():
    # given a worker's automatic step for the game's own seat ("system": shuffles, draws, enemies)
    actor = {"kind": "worker", "user_id": None, "seat": "system", "task": "workers.tasks.advance_match"}
    # when staff read who did it, then it is the worker, for the game (as "awaiting the game" says it)
    assert actor_words(actor) == "worker advance_match, for the game"  # the task's module path in the title
    assert seat_words("system") == "the game"
