"""The match chat over REST: who reads and posts in which channel, paging, throttling, cleaning,
staff hiding, deleted authors and the account export (games.application.chat)."""

import json
import uuid

import pytest

from accounts import selfservice
from games.application import chat, selectors, services
from games.eventstore.models import ChatMessage, StaffAccess

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(started_pebbles, make_user, client_for, api):
    """A running two-player match, a signed-in spectator and an anonymous one: their API clients."""
    match, (p0, p1) = started_pebbles(options={"bonus_rolls": False, "target": 5})
    watcher = make_user()
    return {"match": match, "users": (p0, p1, watcher), "p0": client_for(p0), "p1": client_for(p1),
            "watcher": client_for(watcher), "anon": api, "url": f"/api/matches/{match.pk}/chat/"}


def post(client, url, text, channel):
    return client.post(url, {"text": text, "channel": channel}, format="json")


def texts(res):
    assert res.status_code == 200, res.json()
    return [m["text"] for m in res.json()["messages"]]


def finish(match, users):
    for _ in range(60):
        match.refresh_from_db()
        state = selectors.state_load(match)
        status = selectors.status_of(match, state)
        if status["finished"]:
            return
        seat = status["awaiting"][0]
        cmd = selectors.view_for_seat(match, seat, state)["legal_commands"][0]
        services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq, type_=cmd["type"],
                                      args=cmd["args"])
    raise AssertionError("the match did not finish")


def test_each_channel_has_its_readers_and_writers_while_the_match_runs(table):
    url = table["url"]
    res = post(table["p0"], url, "good luck", "players")
    assert res.status_code == 201
    mine = res.json()
    assert mine["channel"] == "players" and mine["seat"] == 0 and mine["username"] == table["users"][0].username
    assert post(table["watcher"], url, "go blue!", "spectators").status_code == 201

    # Players: their channel only; they neither read nor post in the spectators' one while it runs.
    assert texts(table["p1"].get(url)) == ["good luck"]
    assert texts(table["p1"].get(url, {"channel": "players"})) == ["good luck"]
    for res in (table["p1"].get(url, {"channel": "spectators"}), post(table["p1"], url, "hi", "spectators")):
        assert res.status_code == 403 and res.json()["code"] == "chat_forbidden"
    assert table["p1"].get(url).json()["channels"] == {"players": {"read": True, "post": True},
                                                       "spectators": {"read": False, "post": False}}
    # Spectators: theirs only; never the players' channel.
    assert texts(table["watcher"].get(url)) == ["go blue!"]
    for res in (table["watcher"].get(url, {"channel": "players"}), post(table["watcher"], url, "psst", "players")):
        assert res.status_code == 403 and res.json()["code"] == "chat_forbidden"
    # Anonymous visitors read the spectators' channel and may not post.
    assert texts(table["anon"].get(url)) == ["go blue!"]
    assert table["anon"].get(url, {"channel": "players"}).status_code == 403
    res = post(table["anon"], url, "hello", "spectators")
    assert res.status_code == 401 and res.json()["code"] == "not_authenticated"
    assert ChatMessage.objects.count() == 2


def test_players_read_and_join_the_spectators_chat_once_the_match_is_over(table):
    url = table["url"]
    post(table["p0"], url, "table talk", "players")
    post(table["watcher"], url, "what a move", "spectators")
    finish(table["match"], table["users"][:2])
    assert texts(table["p0"].get(url)) == ["table talk", "what a move"]
    assert post(table["p0"], url, "thanks for watching", "spectators").status_code == 201
    assert texts(table["watcher"].get(url)) == ["what a move", "thanks for watching"]
    assert table["watcher"].get(url, {"channel": "players"}).status_code == 403  # still the players' own
    assert table["p0"].get(url).json()["channels"]["spectators"] == {"read": True, "post": True}


def test_the_chat_is_paged_like_the_events(table):
    url = table["url"]
    for i in range(7):
        assert post(table["p0"], url, f"line {i}", "players").status_code == 201
    page = table["p1"].get(url, {"limit": 3}).json()
    got = [m["text"] for m in page["messages"]]
    assert got == ["line 0", "line 1", "line 2"] and page["next"]
    while page["next"]:
        page = table["p1"].get(page["next"]).json()
        got += [m["text"] for m in page["messages"]]
    assert got == [f"line {i}" for i in range(7)]
    ids = [m["id"] for m in table["p1"].get(url).json()["messages"]]
    assert ids == sorted(ids)
    assert texts(table["p1"].get(url, {"after": ids[4]})) == ["line 5", "line 6"]
    assert table["p1"].get(url, {"limit": 0}).json()["code"] == "malformed"
    assert table["p1"].get(url, {"channel": "everyone"}).status_code == 400


def test_posting_is_throttled_per_user_with_retry_after(table, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "chat": "3/minute"}}
    url = table["url"]
    codes = [post(table["p0"], url, f"spam {i}", "players").status_code for i in range(4)]
    assert codes == [201, 201, 201, 429]
    res = post(table["p0"], url, "more", "players")
    assert res.json()["code"] == "throttled" and int(res["Retry-After"]) > 0
    assert post(table["p1"], url, "my turn to talk", "players").status_code == 201  # per user
    assert len(texts(table["p0"].get(url))) == 4  # reading is not throttled


def test_text_is_stored_as_plain_text_cleaned_and_length_limited(table, settings):
    url = table["url"]
    markup = '<img src=x onerror="alert(1)"> & <script>x</script>'
    res = post(table["p0"], url, markup, "players")
    assert res.status_code == 201 and res.json()["text"] == markup  # data, never HTML: pages use textContent
    res = post(table["p0"], url, "  a\u202eevil\u0007\r\n\n\n\n\tb  ", "players")
    assert res.json()["text"] == "aevil\n\n b"  # no bidi override, no control characters, two blank lines at most
    for text, code in (("   \n ", "message_empty"), ("\u202e", "message_empty"), ("x" * 501, "message_too_long")):
        res = post(table["p0"], url, text, "players")
        assert (res.status_code, res.json()["code"]) == (400, code)
    assert post(table["p0"], url, "é" * 500, "players").status_code == 201
    settings.CHAT_MAX_CHARS = 10
    assert post(table["p0"], url, "eleven char", "players").json()["code"] == "message_too_long"
    assert post(table["p0"], url, {"no": "object"}, "players").status_code == 400
    assert table["p0"].post(url, {"text": "hi"}, format="json").json()["code"] == "malformed"  # no channel
    # The match page does not carry the chat: the chat module reads it through the API.
    html = table["p0"].get(f"/matches/{table['match'].pk}/").content.decode()
    assert "onerror" not in html


def test_staff_hide_a_message_with_a_reason_and_still_see_it(table, make_user, client_for):
    url = table["url"]
    bad = post(table["p0"], url, "something rude", "players").json()
    post(table["p0"], url, "sorry", "players")
    staff_user = make_user(is_staff=True)
    staff = client_for(staff_user)
    hide_url = f"/api/admin/chat/{bad['id']}/hide/"
    assert table["p1"].post(hide_url, {"reason": "mine"}, format="json").status_code == 403
    assert staff.post(hide_url, {"reason": ""}, format="json").status_code == 400
    res = staff.post(hide_url, {"reason": "insulting another player"}, format="json")
    assert res.status_code == 200
    assert res.json()["hidden"]["reason"] == "insulting another player" and res.json()["hidden"]["by"] == staff_user.username
    assert staff.post(hide_url, {"reason": "again"}, format="json").json()["code"] == "already_hidden"
    assert staff.post("/api/admin/chat/999999/hide/", {"reason": "x"}, format="json").status_code == 404
    # Gone for the players...
    assert texts(table["p1"].get(url)) == ["sorry"]
    assert texts(table["p0"].get(url)) == ["sorry"]
    # ...while staff read both channels with the reason, and the read is recorded.
    res = staff.get(f"/api/admin/matches/{table['match'].pk}/chat/")
    assert [(m["text"], (m["hidden"] or {}).get("reason")) for m in res.json()["messages"]] == [
        ("something rude", "insulting another player"), ("sorry", None)]
    assert StaffAccess.objects.filter(user=staff_user, match=table["match"], what="api: chat").exists()
    assert table["p0"].get(f"/api/admin/matches/{table['match'].pk}/chat/").status_code == 403


def test_a_deleted_authors_messages_show_deleted_player_and_the_export_has_ones_chat(table):
    match, (p0, p1, watcher) = table["match"], table["users"]
    url = table["url"]
    post(table["p0"], url, "hello there", "players")
    post(table["watcher"], url, "nice", "spectators")
    finish(match, [p0, p1])
    exported = selfservice.export(p0)
    assert [(c["text"], c["channel"], c["match_id"]) for c in exported["chat"]] == [("hello there", "players", str(match.pk))]
    assert "nice" not in json.dumps(exported)  # only one's own messages
    selfservice.account_anonymize(p0)
    res = table["p1"].get(url, {"channel": "players"})
    assert [(m["username"], m["text"]) for m in res.json()["messages"]] == [("deleted player", "hello there")]
    assert p0.username not in json.dumps(table["watcher"].get(url).json())


def test_the_channel_rules_in_one_table():
    seated, spectator = chat.access("active", 0, True), chat.access("active", None, True)
    assert seated == {"players": {"read": True, "post": True}, "spectators": {"read": False, "post": False}}
    assert spectator == {"players": {"read": False, "post": False}, "spectators": {"read": True, "post": True}}
    assert chat.access("open", 1, True)["spectators"]["read"] is False  # a lobby is not over either
    assert chat.access("finished", 0, True)["spectators"] == {"read": True, "post": True}
    assert chat.access("abandoned", None, False)["spectators"] == {"read": True, "post": False}
    assert chat.audience("players", "finished") == "seated"
    assert chat.audience("spectators", "active") == "unseated"
    assert chat.audience("spectators", "finished") == "all"
