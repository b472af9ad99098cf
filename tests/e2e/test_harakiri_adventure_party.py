"""A Harakiri campaign in two browsers, through its first Adventure Phase round on the map of Japan.

A creates a two-player campaign from the Campaigns page (real fields: act, players, who plays which
character), B joins it from the open list, A starts it; B's campaign page shows the new phase live,
without reloading. Both continue to chapter 1's Adventure Phase and play the whole first round by
clicking: weapons, the party's enemy order and tied paths, who acts next, travel (a highlighted
place on the map, then stopping), travel-event decisions, then ending each activation. The worker
(eager in the embedded server) plays the Shōgun's turn and the enemies in between, live on both
pages, until round 2's Shōgun's turn is over.

Checked at every step: both pages show the same seq; only the awaited seats have controls (the
other's board has no button and no highlighted place, and its legal_commands are empty); every
command a page sends is one of the legal_commands it held at that seq; the tokens on the map stand
where the view says. At the end: the SYSTEM steps carry the worker's actor; round 2's start and the
Shōgun's influence reached both pages live; a third tab left on the campaign page followed the
match without reloading; no developer term on the board. Screenshots (var/screenshots/):
the campaign page, the map at the start, a travel with its reachable places highlighted, the board
at the end, and a 390-px phone screen, fitted and zoomed."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.engines.harakiri_adventure import unread

from .conftest import SHOTS, assert_fits_width
from .test_harakiri_party import all_events, assert_sent_were_legal, two_recorded_players
from .test_match_flow import assert_not_reloaded, mark_no_reload, wait_live

pytestmark = pytest.mark.e2e

CONTROL = {"akira": 0, "hattori": 0, "hikaru": 1, "tomoe": 1}  # not the form's round-robin default
MAX_ACTIONS = 160
TIME_BUDGET = 60  # seconds for the round itself
SYSTEM_EVENTS = {"RoundStarted", "InfluenceMoved", "InfluenceCardDrawn", "EnemyMoved", "EnemiesTurnStarted"}
CONTROLS = "#board .adv-actions button, #board .adv-actions select, #board g.adv-loc.is-target"
STATE_JS = """() => {
  const m = window.KamizaMatch;
  const doc = m.doc;
  return {seq: m.lastSeq, docSeq: doc.seq, awaiting: (doc.status && doc.status.awaiting) || [],
          finished: !!(doc.status && doc.status.finished), legal: doc.legal_commands || [],
          view: doc.view};
}"""
SETTLED_JS = """(seq) => { const m = window.KamizaMatch; return m && m.lastSeq >= seq && m.doc.seq === m.lastSeq
  && m.pending.size === 0 && !(window.KamizaAdventure && window.KamizaAdventure.ui.busy)
  && !!document.querySelector('#board [data-testid=adv-map]'); }"""
TOKENS_JS = """() => Object.fromEntries([...document.querySelectorAll('#board g.adv-loc g.adv-token')]
  .map((t) => [t.dataset.token, t.closest('g.adv-loc').dataset.loc]))"""
# ids and raw JSON a player must never read on the board (enemy ids like blue_kachi, {"...)
DEVELOPER_TERMS = re.compile(r'\b[a-z]+_[a-z_]+\b|\{"|\bseq\b|\bnull\b|\bundefined\b|\bNaN\b')


def shoot(page, name, **kwargs):
    SHOTS.mkdir(parents=True, exist_ok=True)
    (kwargs.pop("locator", None) or page).screenshot(path=str(SHOTS / name), **kwargs)


def state(page):
    return page.evaluate(STATE_JS)


def settle_both(pages, match_id):
    """Wait until the worker is done (nothing awaits the system) and both pages show that seq."""
    deadline = time.monotonic() + 15
    while True:
        detail = pages[0].request.get(f"/api/matches/{match_id}/").json()
        if "system" not in detail["awaiting"]:
            break
        assert time.monotonic() < deadline, f"the worker never took the SYSTEM step: {detail}"
        time.sleep(0.1)
    for page in pages:
        page.wait_for_function(SETTLED_JS, arg=detail["seq"], timeout=15_000)
    states = [state(page) for page in pages]
    assert [s["seq"] for s in states] == [detail["seq"]] * len(pages), (detail["seq"], [s["seq"] for s in states])
    return detail, states


def play_one(page, s, shots):
    """Perform one of the page's own legal commands by clicking the board; returns what was done."""
    legal = s["legal"]
    view = s["view"]
    types = {c["type"] for c in legal}
    board = page.locator("#board")
    actions = board.get_by_test_id("adv-actions")
    if "choose" in types:
        choice = actions.locator("button.adv-choice:not([disabled])").first
        label = choice.inner_text()
        choice.click()
        return f"decision: {label}"
    if view["flow"].get("travel"):
        targets = board.locator("g.adv-loc.is-target")
        travel = view["flow"]["travel"]
        if targets.count() and travel["locations"] < 2 and travel["mp"] >= 1:
            if "travel" not in shots:
                shots.add("travel")
                shoot(page, "adventure-travel.png", full_page=True)
                shoot(page, "adventure-travel-map.png", locator=board.get_by_test_id("adv-map-wrap"))
            target = targets.first
            name = target.get_attribute("data-loc")
            if "keyboard" not in shots:  # a highlighted place is a keyboard control too
                shots.add("keyboard")
                target.focus()
                page.keyboard.press("Enter")
                return f"travel to {name} (keyboard)"
            target.click()
            return f"travel to {name}"
        actions.locator('button[data-type="end_travel"]').click()
        return "stop travelling"
    for kind in ("choose_weapon", "choose_kami", "answer_group", "activate_enemy", "choose_path", "activate",
                 "lose_attribute", "change_kami", "leave"):
        if kind in types:
            if kind == "choose_kami":  # the character's own Kami stands first in the list, never another
                cid = next(c["args"]["character"] for c in legal if c["type"] == kind)
                shown = actions.locator(f"#adv-pick-kami-{cid}").evaluate("(s) => s.options[s.selectedIndex].text")
                assert view["characters"][cid]["kami"].replace("_", " ") in shown.lower(), shown
            button = actions.locator(f'button[data-type="{kind}"]').first
            label = button.inner_text()
            button.click()
            return label
    me = view["characters"][view["flow"]["active"]]
    if "travel" in types and not me["traveled"]:
        button = actions.locator('button[data-type="travel"]').first  # alone: the first offer
        label = button.inner_text()
        button.click()
        return label
    actions.locator('button[data-type="end_activation"]').click()
    return "end activation"


def assert_controls_only_for_the_awaited(pages, states, awaited):
    for seat, (page, s) in enumerate(zip(pages, states)):
        if seat in awaited:
            assert s["legal"], f"seat {seat} is awaited with nothing to do"
            expect(page.get_by_test_id("adv-prompt")).to_contain_text("Your move")
            continue
        assert s["legal"] == [], f"seat {seat} is not awaited but holds {s['legal']}"
        expect(page.locator(CONTROLS)).to_have_count(0)
        expect(page.get_by_test_id("adv-prompt")).to_contain_text("Waiting for")


def assert_nothing_unread_shown(pages, match_id):
    """Face-down missions, the campaign book's entries for rounds not reached and the chapter's
    ending sections are not in the content pack, nor in a view before they are read: the board
    cannot show them (the secrets and the moments that read them: ``unread.py``; the moments are
    in the log as any seat reads it)."""
    events = all_events(pages[0], match_id)
    texts, _ = unread.secrets()
    assert len(texts) > 3
    reached = unread.moments(pages[0].request.get(f"/api/matches/{match_id}/").json()["options"].get("chapter", 1), events)
    unknown = {text: at for text, at in unread.known_from(texts, reached).items() if at > events[-1]["seq"]}
    for page in pages:
        dom = page.content()  # text and attributes (tooltips) alike
        shown = [text for text in unknown if text in dom]
        assert not shown, f"read out before its time: {shown}"


def test_a_party_of_two_plays_an_adventure_round_on_the_map(new_page):
    a, b = new_page(), new_page()
    sent, names = two_recorded_players(a, b, ("ronin", "monk"), 1000, "window.KamizaCampaignRefreshMs = 600")

    # A sets up the campaign with real fields; B joins from the open list.
    a.get_by_test_id("nav-campaigns").click()
    form = a.get_by_test_id("campaign-form")
    form.get_by_label("Players").select_option("2")
    for hero, seat in CONTROL.items():
        form.get_by_label(re.compile(f"^{hero.capitalize()} ")).select_option(str(seat))
    form.get_by_role("button", name="Create the campaign").click()
    a.wait_for_url(re.compile(r"/campaigns/[0-9a-f-]{36}/$"))
    campaign_id = a.url.rstrip("/").rsplit("/", 1)[-1]
    expect(a.get_by_test_id("campaign-standing")).to_have_text("Gathering the party: 1 of 2 players has joined.")

    b.goto("/campaigns/")
    b.locator(f'[data-testid=open-campaigns] tr[data-campaign-id="{campaign_id}"]').get_by_role("button", name="Join").click()
    b.wait_for_url(f"**/campaigns/{campaign_id}/")
    expect(b.get_by_test_id("campaign-standing")).to_have_text("Everyone has joined: waiting for the campaign to start.")
    mark_no_reload(b)
    expect(a.get_by_test_id("campaign-start")).to_be_visible()  # A's page caught up by itself
    a.get_by_test_id("campaign-start").click()
    for page in (a, b):  # B's page follows without reloading
        expect(page.get_by_test_id("campaign-standing")).to_contain_text("Chapter 1, Adventure Phase")
        expect(page.get_by_test_id("campaign-continue")).to_be_visible()
    assert_not_reloaded(b)
    expect(b.get_by_test_id("campaign-players")).to_contain_text(f"{names[1]} (you): Hikaru, Tomoe")
    doc = a.request.get(f"/api/campaigns/{campaign_id}/").json()
    assert doc["control"] == CONTROL and doc["phase"] == "adventure"
    match_id = doc["current_match"]
    shoot(a, "campaign-page.png", full_page=True)

    # A third window, B's (signed in with B's cookies; a background tab of B's window would have
    # its animation frames throttled), stays on the campaign page through the round.
    watcher = new_page()
    watcher.context.add_cookies(b.context.cookies())
    watcher.goto(f"/campaigns/{campaign_id}/")
    expect(watcher.locator("#campaign-connection")).to_have_text("live")
    mark_no_reload(watcher)

    for page in (a, b):
        page.get_by_test_id("campaign-continue").click()
        page.wait_for_url(f"**/matches/{match_id}/")
        wait_live(page)
        expect(page.get_by_test_id("adv-map")).to_be_visible()
        mark_no_reload(page)
    pages = [a, b]
    detail, states = settle_both(pages, match_id)
    live_from = detail["seq"]
    shoot(a, "adventure-start.png", full_page=True)
    shoot(a, "adventure-start-map.png", locator=a.get_by_test_id("adv-map-wrap"))
    assert states[0]["view"]["control"] == CONTROL
    assert_nothing_unread_shown(pages, match_id)

    legal_at = [{}, {}]
    played = {0: 0, 1: 0}
    done, shots = [], set()
    started = time.monotonic()
    for _ in range(MAX_ACTIONS):
        detail, states = settle_both(pages, match_id)
        view = states[0]["view"]
        for page in pages:  # every character and enemy stands where the view says
            tokens = page.evaluate(TOKENS_JS)
            expected = {c: ch["location"] for c, ch in view["characters"].items() if not ch["defeated"]}
            expected |= {e: en["location"] for e, en in view["enemies"].items()}
            assert tokens == expected, (tokens, expected)
        if view["round"] >= 2 and view["flow"]["stage"] not in ("shogun",):
            break  # round 2's Shōgun's turn is over: the round is played
        assert not states[0]["finished"], f"the phase ended in round 1: {done[-10:]}"
        assert time.monotonic() - started < TIME_BUDGET, f"the round took too long; last: {done[-10:]}"
        awaited = states[0]["awaiting"]
        assert awaited == states[1]["awaiting"] and awaited and set(awaited) <= {0, 1}, awaited
        assert_controls_only_for_the_awaited(pages, states, awaited)
        seat = awaited[0]
        legal_at[seat][detail["seq"]] = states[seat]["legal"]
        try:
            done.append(f"seat {seat}: {play_one(pages[seat], states[seat], shots)}")
        except AssertionError as exc:
            raise AssertionError(f"seat {seat} could not play by clicking after {done[-10:]}: {exc}") from exc
        played[seat] += 1
        pages[seat].wait_for_function(SETTLED_JS, arg=detail["seq"] + 1, timeout=15_000)
    else:
        pytest.fail(f"round 1 did not end within {MAX_ACTIONS} clicks; last: {done[-10:]}")
    elapsed = time.monotonic() - started

    # Both seats played, and every command a page sent was listed for it at that seq.
    assert played[0] > 0 and played[1] > 0, played
    assert {"travel", "keyboard"} <= shots, f"no travel was played: {done}"
    assert_sent_were_legal(sent, played, legal_at)

    # The log: the worker took the Shōgun's and the enemies' steps; the players' commands are theirs.
    events = all_events(a, match_id)
    for ev in events:
        if ev["type"] in SYSTEM_EVENTS:
            assert ev["actor"]["kind"] == "worker" and ev["actor"]["seat"] == "system", ev
    moves = [ev for ev in events if ev["type"] == "Moved"]
    assert moves and all(ev["actor"]["seat"] == CONTROL[ev["payload"]["characters"][0]] for ev in moves), moves
    round2 = next(ev for ev in events if ev["type"] == "RoundStarted" and ev["payload"]["round"] == 2)
    assert round2["seq"] > live_from

    # Round 2's Shōgun's turn reached both pages live: the round track, the influence, the feed.
    final = state(a)["view"]
    for page in pages:
        expect(page.locator('#board [data-testid=adv-rounds] li[data-round="2"]')).to_have_class(re.compile(r"\bis-now\b"))
        expect(page.locator(f'#board [data-testid=adv-influence] li[data-influence="{final["influence"]}"]')).to_have_class(re.compile(r"\bis-now\b"))
        expect(page.get_by_test_id("adv-feed")).to_contain_text("Round 2 begins")
        text = page.locator("#board").inner_text()
        assert not DEVELOPER_TERMS.search(text), DEVELOPER_TERMS.search(text).group(0)
        assert_not_reloaded(page)
        assert page.console_errors == [], page.console_errors

    assert_nothing_unread_shown(pages, match_id)

    # The campaign page in the third tab followed the match live.
    expect(watcher.get_by_test_id("campaign-standing")).to_contain_text("Chapter 1, Adventure Phase")
    awaited = state(a)["awaiting"]
    expected_words = "your move" if 1 in awaited else "waiting for"
    expect(watcher.get_by_test_id("campaign-standing")).to_contain_text(expected_words)
    assert_not_reloaded(watcher)
    assert watcher.console_errors == [], watcher.console_errors

    shoot(b, "adventure-round2.png", full_page=True)
    # A phone, 390 px wide: the page fits, the map scales to it, and zooms in for touch.
    b.set_viewport_size({"width": 390, "height": 844})
    expect(b.get_by_test_id("adv-map")).to_be_visible()
    assert_fits_width(b)
    shoot(b, "adventure-phone.png", full_page=True)
    b.get_by_role("button", name="Zoom in").click()
    wrap = b.get_by_test_id("adv-map-wrap")
    expect(wrap).to_have_class(re.compile(r"\bis-zoomed\b"))
    assert b.evaluate("document.documentElement.scrollWidth") <= 390
    assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")
    shoot(b, "adventure-phone-zoomed.png", locator=wrap)
    print(f"adventure round: {played} clicks per seat, {elapsed:.1f}s; {done}")
