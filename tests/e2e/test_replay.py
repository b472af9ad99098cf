"""Replays and the staff review in a real browser: a Yokai Battle match is played to its end through the
API; an anonymous visitor follows "Watch the replay" from its page, scrubs it (the arrow keys, the step
buttons, the slider), switches to a player's view (their hand appears), and sees the same board drawing
as live play at every step. The replay opens where the game has begun (round 1, before the first move),
its position line counts the moves ◀ ▶ go through, and the seat followed is named, never "you". A staff member then opens the log review at a seq and draws the board as
each seat. Screenshots go to var/screenshots/replay-*."""

import random
import re
import uuid

import pytest
from playwright.sync_api import expect

from .api_play import api, play_to_the_end
from .conftest import ROOT, server_side
from .test_match_flow import PASSWORD

pytestmark = pytest.mark.e2e

SHOTS = ROOT / "var" / "screenshots"  # kept as CI artifacts (never asserted)
STAFF_PY = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
get_user_model().objects.create_user(sys.argv[1], password=sys.argv[2], is_staff=True)
"""


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"replay-{name}.png"), full_page=True)


def step(page) -> int:
    return int(page.get_by_test_id("replay-board").get_attribute("data-seq") or 0)


def test_scrub_a_replay_follow_a_seat_and_review_it_as_staff(new_page, live_server_url, live_server_env):
    tag = uuid.uuid4().hex[:6]
    tokens = {}
    for seat, name in enumerate((f"ren-{tag}", f"kai-{tag}")):
        tokens[seat] = api(live_server_url, "/api/auth/register/", body={"username": name, "password": PASSWORD})["token"]
    match_id = api(live_server_url, "/api/matches/", tokens[0], {"game": "yokai", "seats": 2, "options": {}})["id"]
    api(live_server_url, f"/api/matches/{match_id}/join/", tokens[1], {"seat": 1})
    api(live_server_url, f"/api/matches/{match_id}/start/", tokens[0], {})
    final = play_to_the_end(live_server_url, match_id, tokens, random.Random(tag))
    head = final["seq"]

    page = new_page()
    page.goto(f"/matches/{match_id}/")
    page.get_by_test_id("replay-link").click()
    page.wait_for_url(re.compile(rf"/matches/{match_id}/replay/"))
    board = page.get_by_test_id("replay-board")
    expect(board.locator(".yk")).to_be_visible()  # the Yokai board renderer, as in live play
    expect(page.get_by_test_id("replay-position")).to_contain_text(f"of {head}")
    start = step(page)
    assert 1 < start < head
    # it opens where the game has begun: round 1 dealt, nobody has moved yet (not the pre-game round 0)
    expect(board.locator(".yk-stat", has_text="Round")).to_contain_text("1")
    expect(page.get_by_test_id("replay-log").locator("li.current")).to_have_attribute("data-seq", str(start))
    moves_before = page.get_by_test_id("replay-log").locator("li.event").evaluate_all(
        f"(lis) => lis.filter((li) => Number(li.dataset.seq) <= {start}).length")
    moves = page.get_by_test_id("replay-log").locator("li.event").count()
    expect(page.get_by_test_id("replay-position")).to_have_text(f"Move {moves_before} of {moves} · step {start} of {head}")
    expect(page.get_by_test_id("replay-hint")).to_contain_text("skipping the bookkeeping steps")
    expect(page.get_by_test_id("replay-log").locator("li.current")).to_have_count(1)
    shot(page, "1-start")
    # pointing at a step that names a square outlines that square on the board
    named = page.get_by_test_id("replay-log").locator("li button", has_text=re.compile(r"\(\d+,\d+\)")).first
    square = re.search(r"\((\d+,\d+)\)", named.inner_text())[1]
    named.hover()
    expect(board.locator(f'[data-pos="{square}"]')).to_have_class(re.compile(r"\bis-named\b"))
    page.mouse.move(0, 0)
    expect(board.locator(".is-named")).to_have_count(0)

    page.keyboard.press("ArrowRight")  # the next move
    expect(board).not_to_have_attribute("data-seq", str(start))
    after = step(page)
    assert after > start
    # ▶ goes one move on: the move counter says so, whatever steps it skipped
    expect(page.get_by_test_id("replay-position")).to_have_text(f"Move {moves_before + 1} of {moves} · step {after} of {head}")
    current = page.get_by_test_id("replay-log").locator("li.current")
    expect(current).to_have_attribute("data-seq", str(after))
    expect(page.get_by_test_id("replay-now")).to_have_text(current.inner_text())
    page.get_by_test_id("replay-prev").click()
    expect(board).to_have_attribute("data-seq", str(start))
    middle = (start + head) // 2
    page.get_by_test_id("replay-slider").fill(str(middle))
    expect(board).to_have_attribute("data-seq", str(middle))
    expect(page.get_by_test_id("replay-position")).to_contain_text(f"step {middle} of {head}")
    assert f"at={middle}" in page.url
    expect(board.locator(".yk-spectating")).to_be_visible()  # a spectator's view: hands hidden
    shot(page, "2-middle-spectator")

    page.get_by_test_id("replay-seat").select_option(label=f"kai-{tag}")
    expect(board.locator(".yk-spectating")).to_have_count(0)  # kai's own hand is open after the end
    # kai's hand, and only kai's (the other is hidden in kai's view), named: the viewer is not kai
    expect(board.locator("[data-hand-seat]")).to_have_count(1)
    expect(board.locator('[data-hand-seat="1"] h3')).to_contain_text(f"kai-{tag}'s hand")
    assert "(you)" not in board.inner_text() and not re.search(r"Your (hand|turn|move|chakra)", board.inner_text())
    page.get_by_test_id("replay-next").click()
    expect(board).not_to_have_attribute("data-seq", str(middle))
    page.keyboard.press("End")
    expect(board).to_have_attribute("data-seq", str(head))
    expect(page.get_by_test_id("replay-position")).to_contain_text("the end")
    expect(board.get_by_test_id("yokai-banner")).to_contain_text("Game over.")
    expect(board.locator("[data-hand-seat]")).to_have_count(1)
    for text in (board.inner_text(), page.get_by_test_id("replay-position").inner_text()):
        assert "(you)" not in text and not re.search(r"Your (hand|turn|move|chakra)", text)  # card texts may say "you"
    shot(page, "3-end-as-kai")
    assert page.console_errors == []

    # a judge: the staff log review at a seq draws the board with the same renderer, as any seat
    server_side(live_server_env, STAFF_PY, f"judge-{tag}", PASSWORD)
    judge = new_page()
    judge.goto("/login/")
    judge.get_by_label("Username").fill(f"judge-{tag}")
    judge.get_by_label("Password").fill(PASSWORD)
    judge.get_by_role("button", name="Sign in").click()
    judge.goto(f"/staff/matches/{match_id}/?at={middle}")
    staff_board = judge.get_by_test_id("staff-board")
    expect(staff_board.locator(".yk")).to_be_visible()
    # all hands open first (unredacted: every seat's hand at once), then as any seat
    expect(staff_board).to_have_attribute("data-as", "open")
    expect(staff_board.locator(".yk-hand-box")).to_have_count(2)
    expect(staff_board.locator(".yk-spectating")).to_have_count(0)
    staff_board.screenshot(path=str(SHOTS / "replay-4-staff-all-hands-open.png"))  # the board alone
    judge.locator("a.board-seat[data-as='0']").click()
    expect(staff_board).to_have_attribute("data-as", "0")
    expect(staff_board.locator(".yk-hand-box")).to_have_count(1)
    judge.locator("a.board-seat[data-as='1']").click()
    expect(staff_board).to_have_attribute("data-as", "1")
    expect(staff_board.locator(".yk").first).to_have_attribute("data-seat", "1")
    assert "as=1" in judge.url
    # what a move changed: the step after the start is a move (the middle seq may be one that changes nothing)
    judge.goto(f"/staff/matches/{match_id}/?at={after}")
    expect(judge.get_by_test_id("state-diff")).to_be_visible()
    judge.screenshot(path=str(SHOTS / "replay-5-staff-review.png"))  # the top of a long page
    assert judge.console_errors == []


# The page's own width against the window's (a box that scrolls on purpose, such as the Yashima map
# or the history table, does not widen the document).
PAGE_FITS_JS = "() => ({page: document.documentElement.scrollWidth, view: window.innerWidth})"


def play_some(base, match_id, tokens, rng, moves):
    """The awaited seat takes ``moves`` random legal moves (fewer when the match ends); the last seq."""
    seated = next(iter(tokens.values()))
    for _ in range(moves):
        detail = api(base, f"/api/matches/{match_id}/", seated)
        if detail["status"] != "active" or not detail["awaiting"]:
            break
        seat = detail["awaiting"][0]
        view = api(base, f"/api/matches/{match_id}/view/", tokens[seat])
        legal = view["legal_commands"]
        move = rng.choice([c for c in legal if c["type"] not in ("end_turn", "concede", "resign")] or legal)
        api(base, f"/api/matches/{match_id}/commands/", tokens[seat],
            {"command_id": str(uuid.uuid4()), "expected_seq": view["seq"], "type": move["type"], "args": move["args"]})
    return api(base, f"/api/matches/{match_id}/", seated)["seq"]


# Each game's board at 390 px (Yashima at two and six seats): the staff review fits the phone; a board
# wider than the screen (the six-seat Yashima map) scrolls in its own box, as on the player's page.
@pytest.mark.parametrize("game, seats, moves", [("yashima", 2, 40), ("yashima", 6, 120), ("harakiri", 2, 10), ("yokai", 2, 10)],
                         ids=["yashima-2", "yashima-6", "harakiri", "yokai"])
def test_the_staff_review_fits_a_phone(new_page, live_server_url, live_server_env, game, seats, moves):
    tag = uuid.uuid4().hex[:6]
    tokens = {seat: api(live_server_url, "/api/auth/register/", body={"username": f"p{seat}-{tag}", "password": PASSWORD})["token"]
              for seat in range(seats)}
    match_id = api(live_server_url, "/api/matches/", tokens[0], {"game": game, "seats": seats, "options": {}})["id"]
    for seat in range(1, seats):
        api(live_server_url, f"/api/matches/{match_id}/join/", tokens[seat], {"seat": seat})
    api(live_server_url, f"/api/matches/{match_id}/start/", tokens[0], {})
    at = play_some(live_server_url, match_id, tokens, random.Random(tag), moves)
    server_side(live_server_env, STAFF_PY, f"judge-{tag}", PASSWORD)
    judge = new_page()
    judge.set_viewport_size({"width": 390, "height": 844})
    judge.goto("/login/")
    judge.get_by_label("Username").fill(f"judge-{tag}")
    judge.get_by_label("Password").fill(PASSWORD)
    judge.get_by_role("button", name="Sign in").click()
    for as_ in ["open", "0"]:  # all hands open (the widest drawing), then as a seat
        judge.goto(f"/staff/matches/{match_id}/?at={at}&as={as_}")
        expect(judge.get_by_test_id("staff-board").locator("*").first).to_be_visible()
        if as_ == "open":  # staff read every seat's side: no spectator's note on it
            expect(judge.get_by_test_id("staff-board")).not_to_contain_text("You are watching")
        judge.wait_for_timeout(300)
        SHOTS.mkdir(parents=True, exist_ok=True)
        judge.screenshot(path=str(SHOTS / f"replay-staff-{game}-{seats}-{as_}-390.png"), full_page=True)
        fit = judge.evaluate(PAGE_FITS_JS)
        assert fit["page"] <= fit["view"], (as_, fit)
    assert judge.console_errors == []
