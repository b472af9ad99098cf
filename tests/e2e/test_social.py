"""Two players at one table in two real browsers: the tab title says whose turn it is (and a hidden
tab notifies), they chat (the spectator does not see the players' channel, and markup stays text),
the end screen explains the seed and links its verification, and both accept a rematch, which opens
for both."""

import random
import re
import uuid

import pytest
from playwright.sync_api import expect

from .api_play import api, play_to_the_end
from .conftest import assert_fits_width, table_shot
from .test_match_flow import sign_in

pytestmark = pytest.mark.e2e

PASSWORD = "paper-lantern-42"
MARKUP = '<img src="x" id="injected" onerror="window.__pwned = 1"> bold move'


# The tab goes to the background, and the notifications it shows are recorded (headless Chromium
# shows none): the page's own code decides when to notify.
HIDE_TAB_JS = """() => {
  window.__notes = [];
  const Real = window.Notification;
  window.Notification = class { constructor(title, opts) { window.__notes.push([title, opts.body]); }
    static get permission() { return Real.permission; } close() {} };
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
}"""


def register(base, name):
    return api(base, "/api/auth/register/", body={"username": name, "password": PASSWORD})["token"]


def sign_in_live(page, name, path):
    sign_in(page, name, path)
    expect(page.locator("#connection")).to_have_text("Live")


def say(page, text):
    page.locator("#chat-text").fill(text)
    page.get_by_role("button", name="Send", exact=True).click()


def test_two_players_chat_see_their_turn_and_rematch(new_page, live_server_url):
    base = live_server_url
    alice, bob = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    tokens = {0: register(base, alice), 1: register(base, bob)}
    match = api(base, "/api/matches/", tokens[0], {"game": "pebbles", "seats": 2, "options": {"bonus_rolls": False, "target": 15}})
    mid = match["id"]
    api(base, f"/api/matches/{mid}/join/", tokens[1], {})
    api(base, f"/api/matches/{mid}/start/", tokens[0], {})
    path = f"/matches/{mid}/"

    a, b, spectator = new_page(), new_page(), new_page()
    sign_in_live(a, alice, path)
    sign_in_live(b, bob, path)
    spectator.goto(path)
    expect(spectator.locator("#connection")).to_have_text("Live")

    # The first decision is alice's: her tab says so, bob's does not.
    expect(a).to_have_title(re.compile(r"^Your turn · "))
    assert not b.title().startswith("Your turn")
    assert a.locator("link[rel~=icon]").get_attribute("href").endswith("turn.svg")

    # The players chat in their channel; markup is shown as text and never runs.
    say(a, "good luck!")
    expect(b.locator("#chat-log")).to_contain_text("good luck!")
    expect(a.locator("#chat-log .chat-msg.mine")).to_contain_text(f"{alice} (you)")
    say(b, MARKUP)
    expect(a.locator("#chat-log")).to_contain_text(MARKUP)
    assert a.locator("#chat-log #injected").count() == 0 and a.evaluate("window.__pwned") is None
    # The spectator reads the spectators' channel only, and chats there.
    expect(spectator.locator("#chat-note")).to_contain_text("Spectators' chat")
    expect(spectator.locator("#chat-log")).to_contain_text("No messages yet.")
    assert spectator.locator("#chat-form").is_hidden()  # not signed in
    assert "good luck" not in spectator.locator("#chat").inner_text()

    # Bob asks for browser notifications (the permission is asked on his click) and hides his tab.
    b.context.grant_permissions(["notifications"], origin=base)
    b.get_by_role("button", name="Notify me when it is my turn").click()
    expect(b.get_by_role("button", name="Stop notifying me")).to_be_visible()
    b.evaluate(HIDE_TAB_JS)

    # Alice moves: the turn (and the title) passes to bob, live, and his hidden tab notifies him.
    a.locator("#commands button.command:not([disabled])").first.click()
    expect(b).to_have_title(re.compile(r"^Your turn · "))
    expect(a).not_to_have_title(re.compile(r"^Your turn"))
    assert b.evaluate("window.__notes") == [["Your turn", "Pebbles (test engine): the decision is yours."]]
    table_shot(b, "social-chat-your-turn")

    # Played to the end (through the API): both pages show the end screen.
    play_to_the_end(base, mid, tokens, random.Random(3))
    for page in (a, b):
        expect(page.get_by_test_id("end-screen")).to_be_visible()
        expect(page.locator("#seed-reveal")).to_contain_text("anyone can check that every shuffle and roll came from it")
        expect(page.get_by_test_id("back-to-lobby")).to_have_attribute("href", "/lobby/")
        # not "Live" beside "Game over": the socket now brings only chat and rematch news
        expect(page.locator("#connection")).to_have_text("Connected")
    expect(a).not_to_have_title(re.compile(r"^Your turn"))
    expect(b).not_to_have_title(re.compile(r"^Your turn"))
    # Now the players read the spectators' channel too.
    expect(a.get_by_role("tab", name="Spectators")).to_be_visible()

    # Alice accepts the rematch; bob's end screen shows it live, then bob accepts and both go to the new match.
    a.get_by_role("button", name="Rematch").click()
    expect(a.get_by_role("button", name="You accepted: waiting for the others")).to_be_disabled()
    expect(b.get_by_test_id("rematch")).to_contain_text(f"{alice}: accepted")
    expect(b.get_by_test_id("rematch")).to_contain_text(f"{bob} (you): not accepted yet")
    table_shot(b, "social-end-screen")
    expect(spectator.get_by_test_id("rematch")).to_contain_text(f"{alice}: accepted")
    spectator.set_viewport_size({"width": 390, "height": 844})  # the end screen and the chat on a phone
    assert_fits_width(spectator)
    table_shot(spectator, "social-end-screen-390")
    b.get_by_role("button", name="Rematch").click()
    for page in (a, b):
        page.wait_for_url(lambda url: re.search(r"/matches/[0-9a-f-]{36}/$", url) and mid not in url)
        expect(page.locator("#connection")).to_have_text("Live")
    assert a.url == b.url
    new_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    detail = api(base, f"/api/matches/{new_id}/")
    assert detail["status"] == "active" and [s["username"] for s in detail["seat_list"]] == [alice, bob]
    expect(a.locator("#seats li").nth(0)).to_contain_text(alice)
    expect(a).to_have_title(re.compile(r"^Your turn · "))  # the new match starts with alice again
    expect(spectator.get_by_test_id("rematch-link")).to_have_attribute("href", f"/matches/{new_id}/")

    # The verify link re-derives the finished match's shuffles from its seed.
    spectator.goto(f"/matches/{mid}/verify/")
    expect(spectator.get_by_test_id("verify-result")).to_have_attribute("data-verdict", "verified")
    expect(spectator.get_by_test_id("verify-steps")).to_contain_text("The setup (shuffles and deals)")
    assert_fits_width(spectator)
    table_shot(spectator, "social-verify-390")
    for page in (a, b, spectator):
        assert not [e for e in page.console_errors if "favicon" not in e], page.console_errors


# Every chat POST takes 400 ms longer, so the next message is typed while one is on its way (the
# reviewer's "spam 0..14" on a real server).
SLOW_CHAT_JS = """() => {
  const real = window.fetch.bind(window);
  window.fetch = (url, opts) => (opts && opts.method === "POST" && String(url).endsWith("/chat/")
    ? new Promise((ok) => setTimeout(ok, 400)).then(() => real(url, opts)) : real(url, opts));
}"""


# Chat POSTs wait until the test opens the gate (window.__openGate()): the player types while a
# message is on its way, however fast the server answers.
GATED_CHAT_JS = """() => {
  const real = window.fetch.bind(window);
  let open; const gate = new Promise((ok) => { open = ok; });
  window.__openGate = () => open();
  window.fetch = (url, opts) => (opts && opts.method === "POST" && String(url).endsWith("/chat/")
    ? gate.then(() => real(url, opts)) : real(url, opts));
}"""


def unsent_texts(page):
    return page.locator("#chat-unsent .chat-text")


def test_messages_typed_while_one_is_sending_are_all_delivered_and_a_throttled_one_waits_apart(new_page, live_server_url):
    """The chat emptied its box when a send succeeded, wiping whatever was typed meanwhile: fifteen
    quick messages delivered every other one. Now only the sent text leaves the box, every message
    arrives in order. A message over the chat throttle (CHAT_RATE, 20 a minute) came back into the
    box, where what the player typed next was appended to it and went out merged with it: now it
    waits apart as a "not sent" line (send again, edit, discard) and the box holds only the player's
    own typing."""
    base = live_server_url
    alice, bob = f"alice-{uuid.uuid4().hex[:6]}", f"bob-{uuid.uuid4().hex[:6]}"
    tokens = {0: register(base, alice), 1: register(base, bob)}
    mid = api(base, "/api/matches/", tokens[0], {"game": "pebbles", "seats": 2, "options": {"target": 15}})["id"]
    api(base, f"/api/matches/{mid}/join/", tokens[1], {})
    api(base, f"/api/matches/{mid}/start/", tokens[0], {})
    a, b = new_page(), new_page()
    sign_in_live(a, alice, f"/matches/{mid}/")
    sign_in_live(b, bob, f"/matches/{mid}/")
    a.evaluate(SLOW_CHAT_JS)

    sent = [f"spam {k}" for k in range(15)]
    for text in sent:
        say(a, text)
    for page in (a, b):
        expect(page.locator("#chat-log .chat-text")).to_have_text(sent, timeout=20_000)
    expect(a.locator("#chat-text")).to_have_value("")

    for k in range(15, 20):  # up to the throttle: 20 messages a minute
        say(a, f"spam {k}")
    expect(b.locator("#chat-log .chat-text")).to_have_count(20, timeout=20_000)
    # given the throttle refuses the next message: it waits apart, the box stays empty for the next one
    say(a, "one too many")
    expect(a.locator("#chat-error")).to_contain_text("You are sending messages too quickly")
    expect(unsent_texts(a)).to_have_text(["one too many"])
    expect(a.locator("#chat-unsent .chat-tag")).to_have_text(["not sent"])
    expect(a.locator("#chat-text")).to_have_value("")
    # when the player types the next message, it is theirs alone, and "Edit" waits for an empty box
    a.locator("#chat-text").fill("and another thing")
    unsent = a.get_by_test_id("chat-unsent")
    expect(unsent.get_by_role("button", name="Edit")).to_be_disabled()
    # when a message refused while the player types the next one (the answer held back until then)
    a.evaluate(GATED_CHAT_JS)
    a.get_by_role("button", name="Send", exact=True).click()
    a.locator("#chat-text").fill("typed meanwhile")
    a.evaluate("() => window.__openGate()")
    # then it joins the waiting lines and never the box
    expect(unsent_texts(a)).to_have_text(["one too many", "and another thing"])
    expect(a.locator("#chat-text")).to_have_value("typed meanwhile")
    table_shot(a, "chat-throttled-waits-apart")
    a.set_viewport_size({"width": 390, "height": 844})
    assert_fits_width(a)
    table_shot(a, "chat-throttled-waits-apart-390")
    # and the player sends one again (still throttled: it waits again, once), discards the other
    first = unsent.locator("li").filter(has_text="one too many")
    first.get_by_role("button", name="Send again").click()
    expect(unsent_texts(a)).to_have_text(["and another thing", "one too many"])
    unsent.locator("li").filter(has_text="and another thing").get_by_role("button", name="Discard").click()
    expect(unsent_texts(a)).to_have_text(["one too many"])
    # and with the box emptied, "Edit" takes the waiting message back into it
    a.locator("#chat-text").fill("")
    unsent.get_by_role("button", name="Edit").click()
    expect(a.locator("#chat-text")).to_have_value("one too many")
    expect(unsent).to_be_hidden()
    expect(a.locator("#chat-error")).to_be_hidden()
    text = b.locator("#chat-log").inner_text()
    assert "one too many" not in text and "another thing" not in text and "meanwhile" not in text
