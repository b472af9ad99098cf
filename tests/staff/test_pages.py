"""Staff match pages: timeline + state at any seq + every seat's view, log download/import, notes."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from games.application import selectors
from games.eventstore.models import EventAnnotation, Match, MatchEvent, StaffAccess
from games.projections import rebuild
from games.projections.models import MatchSummary
from tests.projections.play import play_randomly

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(make_user):
    return make_user(is_staff=True)


@pytest.fixture
def finished(started_pebbles, django_capture_on_commit_callbacks):
    match, users = started_pebbles(seats=3, options={"target": 18, "turn_seconds": 120}, bots=(2,))
    play_randomly(match, users, django_capture_on_commit_callbacks, seed=5)
    assert selectors.state_load(match)["lobby"]["status"] == "finished"
    return match, users


def page(client, match, at=None):
    url = reverse("staff:match", args=[match.pk]) + ("" if at is None else f"?at={at}")
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_staff_page_at_several_seqs_shows_every_seat(client, staff, finished):
    match, users = finished
    client.force_login(staff)
    dealt = MatchEvent.objects.get(match=match, type="TilesDealt")
    mid = dealt.seq + 4
    for at in (1, dealt.seq, mid, match.head_seq):
        html = page(client, match, at)
        assert f"State at seq {at} of {match.head_seq}" in html
        state = selectors.state_load(match, until=at)
        if state["game"] is None:
            assert "no game state yet" in html
            continue
        engine = selectors.engine_of(match)
        status = selectors.status_of(match, state)
        for seat in range(3):
            assert f'id="view-seat-{seat}"' in html
            # the unredacted hand of every seat at that point (canary strings included)
            for tile in engine.view_for(state["game"], seat)["my_hand"]:
                assert tile["secret"] in html
            if seat in status["awaiting"]:
                for command in engine.legal_commands(state["game"], seat):
                    if command["type"] == "play":
                        assert command["args"]["tile"] in html
        assert 'id="view-spectator"' in html
        assert f"phase <strong>{status['phase']}</strong>" in html
    # prev / next links
    html = page(client, match, mid)
    assert f'href="?at={mid - 1}" rel="prev"' in html and f'href="?at={mid + 1}" rel="next"' in html
    html = page(client, match, match.head_seq)
    assert 'rel="next"' not in html
    # the timeline carries every event with its unredacted payload
    assert html.count('<tr id="seq-') == match.head_seq
    assert "canary-" in html
    assert f'<code class="seed-hash">{match.seed_hash}</code>' in html  # wraps on a phone (staff.css)
    # seats as the players number them, with the player's name
    assert "seat 0" not in html.split('id="timeline"')[0].split("raw: full folded state")[0]


def test_state_shown_is_the_fold_at_that_seq(client, staff, finished):
    match, _ = finished
    client.force_login(staff)
    dealt = MatchEvent.objects.get(match=match, type="TilesDealt")
    at = dealt.seq + 3
    html = page(client, match, at)
    scores = selectors.state_load(match, until=at)["game"]["scores"]
    final = selectors.state_load(match)["game"]["scores"]
    assert scores != final
    shown = html.split('<pre id="full-state">')[1].split("</pre>")[0]
    import html as htmllib

    assert json.loads(htmllib.unescape(shown))["game"]["scores"] == scores


@pytest.mark.parametrize("at", ["abc", "0", "-3", "99999", "", "1.5"])
def test_odd_at_values_are_clamped_not_errors(client, staff, finished, at):
    match, _ = finished
    client.force_login(staff)
    response = client.get(reverse("staff:match", args=[match.pk]), {"at": at})
    assert response.status_code == 200


def test_staff_pages_refused_to_non_staff_and_unknown_match(client, make_user, finished):
    match, _ = finished
    urls = [reverse("staff:match", args=[match.pk]), reverse("staff:log", args=[match.pk]),
            reverse("staff:import"), reverse("staff:index")]
    for url in urls:  # signed out: Kamiza's own sign-in page, then back here
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/?next=")
    client.force_login(make_user())
    for url in urls:  # signed in without staff rights: a Kamiza page saying so (tests/staff/test_refused.py)
        assert client.get(url).status_code == 403
    assert client.post(reverse("staff:annotate", args=[match.pk]), {"seq": 1, "note": "x"}).status_code == 403
    assert not EventAnnotation.objects.exists()
    assert not StaffAccess.objects.exists()
    client.force_login(make_user(is_staff=True))
    assert client.get(reverse("staff:match", args=["00000000-0000-0000-0000-000000000000"])).status_code == 404


def test_staff_access_rows_are_recorded(client, staff, finished):
    match, _ = finished
    client.force_login(staff)
    page(client, match, 3)
    page(client, match)
    client.get(reverse("staff:log", args=[match.pk]))
    rows = list(StaffAccess.objects.filter(user=staff, match=match).order_by("at", "pk").values_list("what", flat=True))
    assert rows == ["staff page at=3", f"staff page at={match.head_seq}", "download log"]


def test_index_lists_matches(client, staff, finished):
    match, users = finished
    client.force_login(staff)
    html = client.get(reverse("staff:index")).content.decode()
    assert str(match.pk) in html
    assert str(match.pk) in client.get(reverse("staff:index"), {"q": users[1].username}).content.decode()
    assert str(match.pk) not in client.get(reverse("staff:index"), {"q": "nobody-such"}).content.decode()


# -- log download / import ---------------------------------------------------------------------


def download(client, match) -> bytes:
    response = client.get(reverse("staff:log", args=[match.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ndjson")
    assert f'match-{match.pk}.jsonl' in response["Content-Disposition"]
    return response.content


def upload(client, content: bytes, name="log.jsonl"):
    return client.post(reverse("staff:import"), {"log": SimpleUploadedFile(name, content, "application/x-ndjson")})


def test_download_format(client, staff, finished):
    match, _ = finished
    client.force_login(staff)
    lines = download(client, match).decode().splitlines()
    header = json.loads(lines[0])
    assert header["match"]["id"] == str(match.pk)
    assert header["match"]["game"] == "pebbles" and header["match"]["seat_count"] == 3
    assert header["match"]["seed_hash"] == match.seed_hash
    assert header["match"]["seed"] == match.seed  # revealed: the match is over
    events = [json.loads(line) for line in lines[1:]]
    assert [e["seq"] for e in events] == list(range(1, match.head_seq + 1))
    assert set(events[0]) == {"seq", "type", "v", "payload", "actor", "command_id", "at"}
    assert events[0]["type"] == "MatchCreated"


def test_seed_is_not_in_the_download_of_a_live_match(client, staff, started_pebbles):
    match, _ = started_pebbles(seats=2)
    client.force_login(staff)
    header = json.loads(download(client, match).decode().splitlines()[0])
    assert "seed" not in header["match"]
    assert match.seed not in download(client, match).decode()


def _comparable(state):
    """The folded state minus what a new match necessarily stamps afresh in its own MatchCreated
    (its creator and its seed commitment): everything else must be identical."""
    lobby = {k: v for k, v in state["lobby"].items() if k not in ("creator_id", "seed_hash")}
    return {"lobby": lobby, "game": state["game"]}


@pytest.mark.parametrize("stop_at", [None, 14])
def test_download_import_round_trip(client, staff, started_pebbles, django_capture_on_commit_callbacks, stop_at):
    match, users = started_pebbles(seats=3, options={"target": 18, "turn_seconds": 120}, bots=(2,))
    play_randomly(match, users, django_capture_on_commit_callbacks, seed=11, stop_at=stop_at)
    client.force_login(staff)
    content = download(client, match)

    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, content)
    assert response.status_code == 302, response.content.decode()[:2000]
    new = Match.objects.exclude(pk=match.pk).get()
    assert response["Location"] == reverse("staff:match", args=[new.pk])
    assert new.game == match.game and new.created_by == staff

    original_state = selectors.state_load(match, use_cache=False, use_snapshots=False)
    imported_state = selectors.state_load(new, use_cache=False, use_snapshots=False)
    assert imported_state["game"] == original_state["game"], "the game is reproduced exactly"
    assert imported_state["lobby"]["creator_id"] == staff.pk
    # A review copy: nobody local sits in it and it cannot be moved on.
    assert [s["username"] for s in imported_state["lobby"]["seats"]] == \
           [f"{s['username']} (imported)" for s in original_state["lobby"]["seats"]]
    assert all(s["user_id"] is None and not s["bot"] for s in imported_state["lobby"]["seats"])
    finished = original_state["lobby"]["status"] == "finished"
    assert imported_state["lobby"]["status"] == ("finished" if finished else "abandoned")

    def tail(m, until):
        return list(MatchEvent.objects.filter(match=m, seq__gt=1, seq__lte=until).order_by("seq")
                    .values_list("seq", "type", "version", "payload", "actor", "command_id"))

    copied, original = tail(new, match.head_seq), tail(match, match.head_seq)
    assert [e for e in copied if e[1] != "SeatTaken"] == [e for e in original if e[1] != "SeatTaken"]
    assert new.head_seq == match.head_seq + (0 if finished else 1)
    b = MatchSummary.objects.get(match=new)
    assert b.players.count() == 0 and b.awaiting == []
    # the imported match's projections agree with a from-scratch rebuild
    assert rebuild.check(new.pk).lines() == []
    assert StaffAccess.objects.filter(user=staff, match=new, what=f"import log from {match.pk}").exists()
    assert EventAnnotation.objects.filter(match=new, seq=1, note__contains=str(match.pk)).exists()
    if not finished:
        return
    # downloading the copy gives the same events again
    again = [json.loads(line) for line in download(client, new).decode().splitlines()[2:]]
    first = [json.loads(line) for line in content.decode().splitlines()[2:]]
    keys = ("seq", "type", "v", "payload", "actor", "command_id")
    assert [{k: e[k] for k in keys} for e in again if e["type"] != "SeatTaken"] == \
           [{k: e[k] for k in keys} for e in first if e["type"] != "SeatTaken"]


def _lines(content: bytes) -> list:
    return [json.loads(line) for line in content.decode().splitlines()]


def _dump(objs) -> bytes:
    return ("\n".join(json.dumps(o) for o in objs) + "\n").encode()


@pytest.fixture
def good_log(client, staff, finished):
    client.force_login(staff)
    return _lines(download(client, finished[0]))


def _gap(objs):
    return objs[:5] + objs[6:]


def _unknown_game(objs):
    objs[0]["match"]["game"] = "chess"
    return objs


def _no_header(objs):
    return objs[1:]


def _bad_fold(objs):
    played = next(o for o in objs[1:] if o["type"] == "TilePlayed")
    played["payload"] = {"seat": 0}
    return objs


def _second_created(objs):
    objs[4] = {**objs[1], "seq": 4}
    return objs


def _renumbered(objs):
    for o in objs[1:]:
        o["seq"] += 1
    return objs


def _game_event_in_lobby(objs):
    dealt = next(o for o in objs if o.get("type") == "TilesDealt")
    return [objs[0], objs[1], {**dealt, "seq": 2}]


def _header_mismatch(objs):
    objs[0]["match"]["seat_count"] = 2
    return objs


def _bad_types(objs):
    objs[3]["payload"] = "not an object"
    objs[4]["command_id"] = "nope"
    objs[5]["type"] = "x" * 80
    return objs


def _unknown_user(objs):
    for o in objs[1:]:
        if o["type"] == "SeatTaken" and o["payload"].get("user_id"):
            o["payload"]["user_id"] = 987654
    return objs


def _bad_options(objs):
    objs[0]["match"]["options"] = {"bogus": 1}
    objs[1]["payload"]["options"] = {"bogus": 1}
    return objs


def _string_user_id(objs):
    taken = next(o for o in objs[1:] if o["type"] == "SeatTaken")
    taken["payload"]["user_id"] = "admin"
    return objs


@pytest.mark.parametrize("mangle,expected", [
    (_bad_options, "the match cannot be created"),
    (_string_user_id, "not an integer"),
    (_gap, "expected seq 5"),
    (_unknown_game, "unknown game"),
    (_no_header, "header"),
    (_bad_fold, "does not fold"),
    (_second_created, "MatchCreated may only be the first event"),
    (_renumbered, "expected seq 1"),
    (_game_event_in_lobby, "does not fold"),
    (_header_mismatch, "does not match the header"),
    (_bad_types, "payload must be an object"),
])
def test_bad_logs_are_refused_with_a_form_error(client, good_log, mangle, expected):
    before = Match.objects.count()
    response = upload(client, _dump(mangle(good_log)))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'class="errorlist' in html
    import html as htmllib

    assert expected in htmllib.unescape(html)
    assert Match.objects.count() == before


@pytest.mark.parametrize("content,expected", [
    (b"\x89PNG\r\n\x1a\n\x00\x00garbage", "not UTF-8"),
    (b"this is not json\n", "not valid JSON"),
    (b"", "empty"),
    (b"\n\n", "empty"),
    (b"[1, 2, 3]\n", "header"),
    (b'{"match": {"game": "pebbles", "seat_count": 2, "options": {}}}\n', "no events"),
    (b'{"match": {"game": "pebbles", "seat_count": 99, "options": {}}}\n', "seats"),
    (b'{"match": "x"}\n', "header"),
    (b"[" * 100000 + b"\n", "not valid JSON"),
])
def test_garbage_uploads_are_refused(client, staff, content, expected):
    client.force_login(staff)
    response = upload(client, content)
    assert response.status_code == 400
    import html as htmllib

    assert expected in htmllib.unescape(response.content.decode())
    assert not Match.objects.exists()


def test_import_without_a_file(client, staff):
    client.force_login(staff)
    response = client.post(reverse("staff:import"), {})
    assert response.status_code == 400
    assert "required" in response.content.decode()
    assert client.get(reverse("staff:import")).status_code == 200


# -- annotations ---------------------------------------------------------------------------------


def test_annotation_saved_and_shown_beside_its_event(client, staff, finished):
    match, _ = finished
    client.force_login(staff)
    response = client.post(reverse("staff:annotate", args=[match.pk]), {"seq": 5, "note": "Disputed: <b>roll</b> looked off"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("staff:match", args=[match.pk]) + "?at=5")
    note = EventAnnotation.objects.get(match=match)
    assert (note.seq, note.author, note.note) == (5, staff, "Disputed: <b>roll</b> looked off")
    html = page(client, match, 5)
    row = html.split('<tr id="seq-5"')[1].split("</tr>")[0]
    assert "Disputed: &lt;b&gt;roll&lt;/b&gt; looked off" in row  # escaped, beside event 5
    assert "Disputed" not in html.split('<tr id="seq-6"')[1].split("</tr>")[0]


@pytest.mark.parametrize("data", [{"seq": 0, "note": "x"}, {"seq": 99999, "note": "x"}, {"seq": 2, "note": "  "},
                                  {"seq": "abc", "note": "x"}, {}])
def test_bad_annotations_are_form_errors(client, staff, finished, data):
    match, _ = finished
    client.force_login(staff)
    response = client.post(reverse("staff:annotate", args=[match.pk]), data)
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert not EventAnnotation.objects.exists()


def test_annotate_is_post_only(client, staff, finished):
    client.force_login(staff)
    assert client.get(reverse("staff:annotate", args=[finished[0].pk])).status_code == 405


def test_match_of_an_unknown_engine_still_renders(client, staff, finished):
    match, _ = finished
    Match.objects.filter(pk=match.pk).update(game="ghost")
    client.force_login(staff)
    html = page(client, match, 4)
    assert "does not fold" in html and "unknown_game" in html
    # no engine, no sentences: every event is still anchored, under the rows runs fold into
    assert html.count(' id="seq-') == match.head_seq
    # the dealer's draws decide whether three plays come one after another; filtered to plays, they always do
    played = MatchEvent.objects.filter(match=match, type="TilePlayed").count()
    only_plays = client.get(reverse("staff:match", args=[match.pk]) + "?type=TilePlayed").content.decode()
    assert played >= 3 and 'data-testid="quiet-run"' in only_plays and only_plays.count(' id="seq-') == played
    lines = download(client, match).decode().splitlines()
    assert len(lines) == match.head_seq + 1
    assert json.loads(lines[0])["match"]["game"] == "ghost"


def test_a_log_from_elsewhere_imports_as_an_unseated_review_copy(client, staff, started_pebbles, django_capture_on_commit_callbacks):
    """User ids in a foreign log mean nothing here: nobody local is seated, so no one can read a
    seat's hidden cards in the copy, and it cannot be played on."""
    match, _ = started_pebbles(seats=2)
    client.force_login(staff)
    objs = _unknown_user(_lines(download(client, match)))
    with django_capture_on_commit_callbacks(execute=True):
        response = upload(client, "\n".join(json.dumps(o) for o in objs).encode())
    assert response.status_code == 302
    new = Match.objects.exclude(pk=match.pk).get()
    lobby = selectors.state_load(new, use_cache=False)["lobby"]
    assert lobby["status"] == "abandoned" and all(s["user_id"] is None for s in lobby["seats"])
    assert MatchSummary.objects.get(match=new).players.count() == 0


def test_the_match_list_and_page_show_each_match_engine_version(client, staff, started_pebbles):
    match, _ = started_pebbles()
    client.force_login(staff)
    listing = client.get(reverse("staff:index")).content.decode()
    assert "<th>engine</th>" in listing and f"<td>v{match.engine_version}</td>" in listing
    assert f"engine {match.engine_version}" in page(client, match)


# -- the judge's tool: board, history in words, what changed, filters, raw behind a toggle ------------


def _boot(html: str) -> dict:
    import html as htmllib

    raw = html.split('<script id="staff-board-boot" type="application/json">')[1].split("</script>")[0]
    return json.loads(htmllib.unescape(raw))


def test_the_board_history_in_words_and_what_changed_at_a_seq(client, staff, finished):
    match, users = finished
    client.force_login(staff)
    played = MatchEvent.objects.filter(match=match, type="TilePlayed").order_by("seq")[1]
    html = page(client, match, played.seq)
    # the board: every seat's and the spectator's view document at that seq, drawn by the board renderer
    boot = _boot(html)
    state = selectors.state_load(match, until=played.seq)
    engine = selectors.engine_of(match)
    assert boot["game"] == "pebbles" and [b["doc"]["seat"] for b in boot["boards"]] == [0, 1, 2, None]
    for board in boot["boards"]:
        assert board["doc"]["view"] == json.loads(json.dumps(engine.view_for(state["game"], board["doc"]["seat"])))
        assert board["doc"]["seq"] == played.seq and board["doc"]["legal_commands"] == []
    assert 'data-testid="staff-board"' in html and "staff/review.js" in html and "js/boards/registry.js" in html
    # the history in words, unredacted (the tile each seat drew is named), each line linking to its seq
    names = selectors.seat_names(selectors.state_load(match)["lobby"])
    for ev in selectors.events_unredacted(match):
        assert f'<a href="?at={ev["seq"]}#state" data-seq-link>{ev["seq"]}</a>' in html
    sentence = engine.describe({"type": "TilePlayed", "v": 1, "payload": played.payload}, None, names)
    assert sentence and sentence in html
    # what changed: the score of the seat that played, before and after
    seat = played.payload["seat"]
    before = selectors.state_load(match, until=played.seq - 1)["game"]["scores"][seat]
    after = state["game"]["scores"][seat]
    changed = html.split('data-testid="state-diff"')[1].split("</table>")[0]
    assert f"<code>game.scores[{seat}]</code></td><td><code>{before}</code></td><td><code>{after}</code>" in changed
    # the raw JSON is kept, behind toggles (closed): the state's, and each event's payload under its sentence
    assert '<details class="raw"><summary>raw: full folded state (unredacted)</summary><pre id="full-state">' in html
    assert html.count('<details class="json event-payload"><summary>') == match.head_seq


def test_the_history_filters_by_seat_and_type_and_the_read_is_recorded(client, staff, finished):
    match, _ = finished
    client.force_login(staff)
    url = reverse("staff:match", args=[match.pk])
    html = client.get(url, {"at": 5, "seat": 1}).content.decode()
    rows = re.findall(r'<tr id="seq-(\d+)" class="[^"]*" data-seat="([^"]*)" data-type="([^"]*)"', html)
    assert rows and {seat for _, seat, _ in rows} == {"1"}
    def by_or_about(ev):  # the seat that acted, else (the system, a user in the lobby) the seat it concerns
        actor = ev["actor"].get("seat")
        return actor if isinstance(actor, int) else (ev["payload"] or {}).get("seat")

    expected = [ev["seq"] for ev in selectors.events_unredacted(match) if by_or_about(ev) == 1]
    assert [int(seq) for seq, _, _ in rows] == expected
    assert 'href="?seat=1&amp;at=' in html  # seq links keep the filter
    html = client.get(url, {"at": 5, "type": ["TilePlayed", "MatchFinished"]}).content.decode()
    types = {t for _, _, t in re.findall(r'<tr id="seq-(\d+)" class="[^"]*" data-seat="([^"]*)" data-type="([^"]*)"', html)}
    assert types == {"TilePlayed", "MatchFinished"} and "show every event" in html
    what = list(StaffAccess.objects.filter(user=staff, match=match).order_by("pk").values_list("what", flat=True))
    assert what == ["staff page at=5 seat=1 types=", "staff page at=5 seat=None types=TilePlayed,MatchFinished"]
