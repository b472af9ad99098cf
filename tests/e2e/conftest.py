"""Real-browser fixtures: the app served by uvicorn in a subprocess (embedded mode, its own SQLite
file, the Pebbles test engine registered) and Debian's Chromium driven by Playwright.

Never ``playwright install``: the machine is offline; we launch /usr/bin/chromium directly.
"""

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "test-results"
SHOTS = ROOT / "var" / "screenshots"  # the tables at key moments, kept as CI artifacts (never asserted)
CHROMIUM = os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
BOOT_TIMEOUT = 60


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_env(db_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_ENV")}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SQLITE_PATH": str(db_path),
        "KAMIZA_EXTRA_ENGINES": "tests.engines.pebbles",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
    })
    return env


@pytest.fixture(scope="session")
def live_server_env(tmp_path_factory):
    """The live server's environment (its own SQLite file), for a test that must run server-side
    code against the same database (e.g. staff loading a prepared position)."""
    return _server_env(tmp_path_factory.mktemp("e2e-server") / "e2e.sqlite3")


@pytest.fixture(scope="session")
def live_server_url(live_server_env):
    """uvicorn serving config.asgi on a free port; yields its base URL, kills it at the end."""
    env = live_server_env
    tmp = Path(env["SQLITE_PATH"]).parent
    python = sys.executable
    migrate = subprocess.run([python, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    port = _free_port()
    log_path = tmp / "server.log"
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [python, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + BOOT_TIMEOUT
        while True:
            if proc.poll() is not None:
                raise AssertionError(f"the server exited ({proc.returncode}):\n{log_path.read_text()}")
            try:
                with urllib.request.urlopen(f"{url}/login/", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise AssertionError(f"the server did not answer within {BOOT_TIMEOUT}s:\n{log_path.read_text()}")
            time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()
        server_log = log_path.read_text()
        if server_log.strip():
            RESULTS.mkdir(exist_ok=True)
            (RESULTS / "e2e-server.log").write_text(server_log)


@contextlib.contextmanager
def launch_chromium():
    """Debian's Chromium under Playwright (skips the test when it is not installed). Playwright's
    sync API runs an event loop in this thread until the block ends."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def browser():
    with launch_chromium() as browser:
        yield browser


@contextlib.contextmanager
def page_maker(browser, default_base_url=None):
    """make(base_url=None) -> a Page in a fresh browser context (its own cookies) on that server;
    console errors, page errors and HTTP errors collected in ``page.console_errors``."""
    contexts = []

    def make(base_url=None):
        context = browser.new_context(base_url=base_url or default_base_url, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.console_errors = []
        page.on("console", lambda msg: msg.type == "error" and page.console_errors.append(msg.text))
        page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
        page.on("response", lambda r: r.status >= 400 and page.console_errors.append(f"HTTP {r.status} {r.url}"))
        return page

    try:
        yield make
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def new_page(browser, live_server_url):
    """new_page() -> a Page in a fresh browser context on the live server (see page_maker)."""
    with page_maker(browser, live_server_url) as make:
        yield make


# Staff's "start from a scenario" (services.match_load_scenario), run against the e2e server's database.
LOAD_SCENARIO_PY = """import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from games.application import services
user = get_user_model().objects.get(username=sys.argv[2])
services.match_load_scenario(match_id=sys.argv[1], user=user, document=json.loads(sys.argv[3]))
"""


def server_side(server_env, script, *args) -> str:
    """Run a snippet against the live server's database, in a process of its own: what it printed."""
    done = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, env=server_env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def load_scenario(server_env, match_id, username, document):
    """Start the open match ``match_id`` from a scenario document (a prepared position), as staff do."""
    server_side(server_env, LOAD_SCENARIO_PY, match_id, username, json.dumps(document))


# where the page shots of the review tests go (E2E_SHOTS_DIR, else SHOTS)
REVIEW_SHOTS = Path(os.environ.get("E2E_SHOTS_DIR") or SHOTS)


def shot_at_widths(page, name):
    """Save the whole page at 1280 and 390 px wide as <name>-<width>.png under REVIEW_SHOTS."""
    REVIEW_SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(150)
        page.screenshot(path=str(REVIEW_SHOTS / f"{name}-{width}.png"), full_page=True)


def table_shot(page, name):
    """Save a screenshot of the whole page as var/screenshots/<name>.png."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.mouse.move(0, 0)  # no rules-help tooltip left over from the last click
    page.evaluate("() => { const t = document.getElementById('kz-tip'); if (t) t.hidden = true; }")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


NO_SIDE_SCROLL_JS = """() => ({page: document.documentElement.scrollWidth, view: window.innerWidth,
  wide: [...document.querySelectorAll('#board *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
    .slice(0, 5).map((e) => e.className && e.className.baseVal !== undefined ? e.className.baseVal : e.className)})"""


def assert_fits_width(page):
    """Nothing on the page (the board included) is wider than the viewport: no side scrolling."""
    fit = page.evaluate(NO_SIDE_SCROLL_JS)
    assert fit["page"] <= fit["view"] and not fit["wide"], fit


# WCAG 2.1 A and AA, as axe-core tags them; "serious" and "critical" are the impacts that stop or
# mislead a player (a missing label, unreadable contrast, a control a keyboard cannot reach).
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
               "resultTypes": ["violations"]}
BLOCKING_IMPACTS = ("serious", "critical")


def accessibility_faults(page, context=None) -> list[str]:
    """axe-core's serious and critical WCAG 2.1 AA violations on the page as it stands (or within
    the ``context`` selector): one line per violation and element, empty when there are none."""
    from axe_playwright_python.sync_playwright import Axe

    response = Axe().run(page, context=context, options=AXE_OPTIONS).response
    return [f"{violation['id']} ({violation['impact']}): {' '.join(map(str, node['target']))}: "
            + (node.get("failureSummary") or "").strip().replace("\n", " ")
            for violation in response["violations"] if violation["impact"] in BLOCKING_IMPACTS
            for node in violation["nodes"]]


def faults_at_widths(page, name, context=None) -> list[str]:
    """``accessibility_faults`` at 1280 and 390 px, each line as "<name> @<width>: <fault>", with the
    page's shots saved by ``shot_at_widths`` as <name>-<width>.png; the viewport left as it was."""
    size = page.viewport_size
    faults = []
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(150)
        faults += [f"{name} @{width}: {fault}" for fault in accessibility_faults(page, context)]
    shot_at_widths(page, name)
    page.set_viewport_size(size)
    return faults


def assert_accessible(page, context=None):
    """No serious or critical WCAG 2.1 AA violation on the page (axe-core), at its current width."""
    faults = accessibility_faults(page, context)
    assert not faults, "\n".join(faults)


# The Harakiri table at rest: every event shown, no command on its way, the board not busy and the
# worker owing no step. A loop that reads the prompt and then presses one of its buttons waits for
# this each time, or on a slow machine it reads a step the board is still leaving and presses the
# next step's button.
HARAKIRI_SETTLED_JS = """() => { const m = window.KamizaMatch; return m && m.doc.seq === m.lastSeq && m.pending.size === 0
  && !(window.KamizaHarakiri && window.KamizaHarakiri.ui.busy)
  && !((m.doc.status && m.doc.status.awaiting) || []).includes('system'); }"""
