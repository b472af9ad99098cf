"""Invitations in three real browsers: alice invites bob by name from the table and bob, waiting in
the lobby, sees the invitation appear without reloading and accepts it; alice copies her invite
link and carol, a newcomer, opens it, signs up and lands seated at the same table. Alice's page
shows both arrive live."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import table_shot

pytestmark = pytest.mark.e2e

PASSWORD = "paper-lantern-42"


def fill_sign_up(page, username):
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("whoami")).to_have_text(username)


def create_open_match(page, seats):
    """An open Pebbles match created through the API with the page's session; its id."""
    match_id = page.evaluate("""async (seats) => {
        const csrf = document.cookie.split("; ").find((c) => c.startsWith("csrftoken=")).split("=")[1];
        const resp = await fetch("/api/matches/", {method: "POST", credentials: "same-origin",
            headers: {"Content-Type": "application/json", "X-CSRFToken": csrf},
            body: JSON.stringify({game: "pebbles", seats, options: {bonus_rolls: false}})});
        return (await resp.json()).id;
    }""", seats)
    assert re.fullmatch(r"[0-9a-f-]{36}", match_id or ""), match_id
    return match_id


def test_invite_by_name_and_by_link_seats_both_at_the_table(new_page):
    a, b, c = new_page(), new_page(), new_page()
    alice, bob, carol = (f"{n}-{uuid.uuid4().hex[:6]}" for n in ("alice", "bob", "carol"))
    a.context.grant_permissions(["clipboard-read", "clipboard-write"])
    b.add_init_script("window.KamizaLobbyRefreshMs = 500")
    for page, name in ((a, alice), (b, bob)):
        page.goto("/signup/")
        fill_sign_up(page, name)
    expect(b.get_by_test_id("invitations")).to_be_hidden()  # no invitation yet: no section
    b.evaluate("window.__noReload = 'same'")

    match_id = create_open_match(a, 3)
    a.goto(f"/matches/{match_id}/")
    expect(a.locator("#connection")).to_have_text("Live")
    panel = a.get_by_test_id("invite-panel")
    expect(panel).to_be_visible()

    # By name: the invitation appears in bob's lobby without a reload; he accepts it.
    panel.get_by_label("Invite a player by name").fill(bob)
    panel.get_by_role("button", name="Invite", exact=True).click()
    expect(panel.locator("#invite-status")).to_have_text(f"Invitation sent to {bob}: it shows in their lobby.")
    expect(panel.get_by_test_id("invite-sent")).to_contain_text(bob)
    invitation = b.get_by_test_id("invitations")
    expect(invitation).to_be_visible()
    expect(invitation).to_contain_text(f"{alice} invites you to play Pebbles")
    assert b.evaluate("window.__noReload") == "same"
    table_shot(b, "invite-lobby-invitations")
    b.set_viewport_size({"width": 390, "height": 844})
    table_shot(b, "invite-lobby-invitations-390")
    invitation.get_by_role("button", name=re.compile("^Accept")).click()
    b.wait_for_url(re.compile(rf"/matches/{match_id}/$"))
    expect(b.locator(".messages")).to_contain_text(f"You took a seat at {alice}'s Pebbles")
    expect(b.locator("#seats li").nth(1)).to_contain_text(bob)
    expect(a.locator("#seats li").nth(1)).to_contain_text(bob)  # live on alice's page
    expect(panel.get_by_test_id("invite-sent")).to_be_hidden()  # seated: no longer "is invited"

    # By link: copied to the clipboard; carol opens it signed out, signs up, and is seated.
    panel.get_by_test_id("copy-invite-link").click()
    expect(panel.locator("#invite-status")).to_have_text("Link copied. Send it to a friend: it seats them at this table.")
    link = panel.get_by_test_id("invite-link").input_value()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/invite/[\w-]+/", link), link
    assert a.evaluate("navigator.clipboard.readText()") == link
    table_shot(a, "invite-match-panel")

    c.goto(link)
    expect(c.get_by_test_id("invite-page")).to_contain_text(f"{alice} invites you to play Pebbles")
    table_shot(c, "invite-link-signed-out")
    c.get_by_test_id("invite-sign-up").click()
    fill_sign_up(c, carol)
    c.wait_for_url(re.compile(rf"/matches/{match_id}/$"))
    expect(c.locator("#seats li").nth(2)).to_contain_text(carol)
    expect(a.locator("#seats li").nth(2)).to_contain_text(carol)
    expect(a.get_by_role("button", name="Start")).to_be_enabled()
    # the table moved on and is full: "You took a seat…" and "Link copied…" are old news, and go
    expect(b.locator(".messages")).to_have_count(0)
    expect(panel.locator("#invite-status")).to_have_text("")
    a.set_viewport_size({"width": 390, "height": 844})
    table_shot(a, "invite-match-seated-390")

    # The table is full: the link now says so instead of seating anyone.
    late = new_page()
    late.goto(link)
    expect(late.get_by_test_id("invite-closed")).to_have_text("Every seat of this match is taken just now.")
    table_shot(late, "invite-link-full")
    for page in (a, b, c):
        assert not page.console_errors, page.console_errors
