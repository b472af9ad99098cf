"""The judge's queue and the staff log review of a reported match, in a real browser, on a 390 px phone
(a mobile browser too, which lays the pages out at the phone's width by their viewport meta tag)
and at 1280 px: nothing makes the page scroll sideways (the queue's reports become cards, the history
and the lists of matches and tournaments scroll inside their own box); an override refused for want of a reason keeps the places the judge typed
and says why beside the form; an uphold is confirmed in words (what was decided, what the reporting
player reads)."""

import json
import uuid

import pytest
from playwright.sync_api import expect

from .conftest import SHOTS, server_side
from .test_match_flow import sign_up

pytestmark = pytest.mark.e2e

# a 2-entrant Yokai event whose one match was won by seat 1, with two open reports by the first player
SETUP_PY = """
import json, sys, django
django.setup()
from django.contrib.auth import get_user_model
from games.tournaments import reports, services
from games.tournaments.models import TournamentTable
from games.tournaments.policies import tournament_match_finished, tournament_start_and_play
User = get_user_model()
judge, reporter = User.objects.get(username=sys.argv[1]), User.objects.get(username=sys.argv[2])
User.objects.filter(pk=judge.pk).update(is_staff=True)
judge.refresh_from_db()
other = User.objects.create_user(username="opp-" + sys.argv[3], password="x-unused-9876")
t = services.tournament_create(creator=judge, name="Phone Cup " + sys.argv[3], game="yokai", format="swiss",
                               table_size=2, rounds=1, round_minutes=30, match_options={"turn_seconds": 60})
for u in (reporter, other):
    services.tournament_register(tournament_id=t.pk, user=u)
tournament_start_and_play(tournament_id=t.pk, user=judge)
table = TournamentTable.objects.get(tournament=t, round=1)
tournament_match_finished(match_id=table.match_id, winners=[0])
first = reports.report_file(match_id=table.match_id, user=reporter, seq=1,
                            text="My opponent's last attack resolved before I could answer it with my card.")
second = reports.report_file(match_id=table.match_id, user=reporter, seq=1, text="the clock skipped my turn")
print("IDS", json.dumps({"tournament": str(t.pk), "match": str(table.match_id), "first": first.pk,
                         "second": second.pk, "entrants": list(table.entrant_ids)}))
"""

FITS_JS = "() => ({page: document.documentElement.scrollWidth, view: window.innerWidth})"


def _fits(page):
    fit = page.evaluate(FITS_JS)
    assert fit["page"] <= fit["view"], fit


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"staff-{name}.png"), full_page=True)


def test_the_judge_queue_and_log_review_fit_a_phone_and_keep_a_refused_ruling(new_page, browser, live_server_env,
                                                                             live_server_url):
    tag = uuid.uuid4().hex[:6]
    judge, reporter = new_page(), new_page()
    sign_up(judge, f"judge-{tag}")
    sign_up(reporter, f"rep-{tag}")
    ids = json.loads(server_side(live_server_env, SETUP_PY, f"judge-{tag}", f"rep-{tag}", tag).split("IDS ", 1)[1])
    winner, loser = ids["entrants"]

    judge.set_viewport_size({"width": 390, "height": 844})
    judge.goto("/staff/reports/")
    first = judge.locator(f"#report-{ids['first']}")
    # the standing result by name, not the bare "play" of the record
    expect(first.get_by_test_id("result-now")).to_contain_text(f"rep-{tag} 1st, opp-{tag} 2nd (played)")
    _fits(judge)
    _shot(judge, "reports-390")

    # an override with no reason is refused: the places typed stay, the refusal is beside them
    first.locator(f"input[name='place-{winner}']").fill("2")
    first.locator(f"input[name='place-{loser}']").fill("1")
    first.get_by_role("button", name="Override with these places").click()
    first = judge.locator(f"#report-{ids['first']}")
    expect(first.get_by_test_id("ruling-error")).to_contain_text("reason")
    expect(first.locator(f"input[name='place-{winner}']")).to_have_value("2")
    expect(first.locator(f"input[name='place-{loser}']")).to_have_value("1")
    _fits(judge)
    _shot(judge, "reports-refused-390")

    # an uphold is confirmed, saying what the reporting player reads
    first.locator("textarea[name=reason]").fill("The attack resolved as the rules say; the replay shows it.")
    first.get_by_role("button", name="Uphold the result").click()
    expect(judge.get_by_test_id("staff-messages")).to_contain_text("the result stands")
    expect(judge.get_by_test_id("staff-messages")).to_contain_text("The reporting player sees your reason")
    expect(judge.locator(f"#report-{ids['first']}")).to_have_count(0)
    _fits(judge)
    _shot(judge, "reports-upheld-390")

    judge.goto(f"/staff/matches/{ids['match']}/?report={ids['second']}")
    expect(judge.locator(f"#report-{ids['second']}")).to_be_visible()
    _fits(judge)
    _shot(judge, "match-390")
    for path in ("/staff/", "/staff/tournaments/"):  # the lists: a wide table scrolls in its own box
        judge.goto(path)
        _fits(judge)

    # a real phone (a mobile browser honours the viewport meta tag): the staff pages are laid out 390 px
    # wide, not at a desktop's 980 px zoomed out to a third
    phone = browser.new_context(base_url=live_server_url, viewport={"width": 390, "height": 844}, is_mobile=True,
                                has_touch=True, device_scale_factor=3, storage_state=judge.context.storage_state())
    try:
        mobile = phone.new_page()
        for path in ("/staff/reports/", f"/staff/matches/{ids['match']}/", "/staff/"):
            mobile.goto(path)
            assert mobile.evaluate("window.innerWidth") == 390, path
            _fits(mobile)
    finally:
        phone.close()

    judge.set_viewport_size({"width": 1280, "height": 900})
    _fits(judge)
    _shot(judge, "match-1280")
    judge.goto("/staff/reports/")
    _fits(judge)
    _shot(judge, "reports-1280")
