"""The History list after a reload: a match played through the API (Harakiri's enemies activated by
the workers in between), then its page opened (and reloaded) by a player. The list holds every event
the seat may see, in order and gapless, up to the head (GET /api/matches/{id}/events/ for that seat,
same sentences), moves made while it is open arrive, and it shows its newest line: also when its lines
wrap anew after they were drawn (on a reload the whole list is drawn before the board's stylesheet,
the fonts and the rules help arrive; here a late style and a narrower window stand for them)."""

import random
import uuid

import pytest

from .api_play import api
from .conftest import SHOTS
from .test_match_flow import PASSWORD, sign_in, wait_live
from .test_replay import play_some

pytestmark = pytest.mark.e2e

LOG_JS = """() => { const log = document.getElementById('log'); const box = log.getBoundingClientRect();
  const shown = [...log.querySelectorAll('li.event[data-seq]')].filter((li) => !li.hidden);
  const last = shown[shown.length - 1]; const r = last ? last.getBoundingClientRect() : null;
  return {seqs: [...log.querySelectorAll('li.event[data-seq]')].map((li) => +li.dataset.seq),
          texts: shown.map((li) => li.textContent.trim()), lastSeq: window.KamizaMatch.lastSeq,
          lastInBox: !!r && r.bottom <= box.bottom + 1 && r.top >= box.top - 1,
          left: log.scrollHeight - log.scrollTop - log.clientHeight}; }"""
# what a late stylesheet or font does to the list: its lines take more room than when they were drawn
LATE_STYLE_JS = "() => { const log = document.getElementById('log'); log.style.fontSize = '1.05rem'; log.style.lineHeight = '1.7'; }"


def all_events(base, match_id, token):
    out, url = [], f"/api/matches/{match_id}/events/?after=0&limit=500"
    while url:
        body = api(base, url, token)
        out += body["events"]
        url = body["next"] and body["next"].split(base, 1)[-1]
    return out


def assert_history_complete(page, base, match_id, token):
    expected = all_events(base, match_id, token)
    head = expected[-1]["seq"]
    page.wait_for_function("(head) => { const m = window.KamizaMatch; return m.doc.seq === m.lastSeq && m.lastSeq === head; }",
                           arg=head, timeout=5000)
    got = page.evaluate(LOG_JS)
    first = got["seqs"][0]
    assert got["seqs"] == list(range(first, head + 1)), f"not in order and gapless: {got['seqs'][-10:]} (head {head})"
    assert got["texts"] == [ev["text"].strip() for ev in expected if ev["text"] and ev["seq"] >= first]
    return got


def assert_newest_line_shown(page, why):
    got = page.evaluate(LOG_JS)
    assert got["lastInBox"], f"{why}: the newest line is below the list's box ({got['left']} px left to scroll)"


@pytest.mark.parametrize("game, seats, moves", [("harakiri", 1, 40), ("yokai", 2, 20), ("yashima", 2, 30)])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_history_is_complete_and_shows_its_newest_line_after_a_reload(new_page, live_server_url, game, seats, moves,
                                                                           width):
    # given a match played a while through the API (Harakiri: the enemies' activation by the workers)
    tag = uuid.uuid4().hex[:6]
    names = [f"h{seat}-{tag}" for seat in range(seats)]
    tokens = {seat: api(live_server_url, "/api/auth/register/", body={"username": n, "password": PASSWORD})["token"]
              for seat, n in enumerate(names)}
    match_id = api(live_server_url, "/api/matches/", tokens[0], {"game": game, "seats": seats, "options": {}})["id"]
    if seats > 1:
        api(live_server_url, f"/api/matches/{match_id}/join/", tokens[1], {"seat": 1})
    api(live_server_url, f"/api/matches/{match_id}/start/", tokens[0], {})
    rng = random.Random(tag)
    play_some(live_server_url, match_id, tokens, rng, moves)
    page = new_page()
    page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})
    sign_in(page, names[0], f"/matches/{match_id}/")
    wait_live(page)
    # when the player reloads the page
    page.reload()
    wait_live(page)
    # then the history is the seat's whole log, and its newest line shows
    assert_history_complete(page, live_server_url, match_id, tokens[0])
    page.wait_for_timeout(500)  # the rules help has redrawn the lines
    assert_newest_line_shown(page, "after the reload")
    # and it stays at its newest line when its lines wrap anew after they were drawn
    page.evaluate(LATE_STYLE_JS)
    page.wait_for_timeout(200)
    assert_newest_line_shown(page, "after a late style")
    page.set_viewport_size({"width": width - 100 if width > 400 else 340, "height": 900 if width > 400 else 844})
    page.wait_for_timeout(200)
    assert_newest_line_shown(page, "in a narrower window")
    # and the moves made while it is open arrive, the newest line still in view
    play_some(live_server_url, match_id, tokens, rng, 8)
    assert_history_complete(page, live_server_url, match_id, tokens[0])
    page.wait_for_timeout(200)
    assert_newest_line_shown(page, "after new moves")
    page.set_viewport_size({"width": width, "height": 900 if width > 400 else 844})
    page.wait_for_timeout(200)
    page.locator("#log").scroll_into_view_if_needed()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"history-{game}-{width}.png"))
    # a reader who scrolls up in it is left where they are
    page.locator("#log").evaluate("(log) => { log.scrollTop = 0; }")
    page.locator("#log").evaluate("(log) => { log.style.lineHeight = '1.9'; }")
    page.wait_for_timeout(200)
    assert page.locator("#log").evaluate("(log) => log.scrollTop") == 0
    assert page.console_errors == [], page.console_errors
