"""Every page is served with a Content-Security-Policy (django-csp) that it satisfies: no inline
script, no inline style, no event-handler attributes (issue #14). The policy allows scripts and
styles from our own origin only, so anything inline the HTML carried would be blocked."""

from html.parser import HTMLParser

import pytest

from games.application import services

pytestmark = pytest.mark.django_db


class InlineFinder(HTMLParser):
    def __init__(self):
        super().__init__()
        self.problems, self._in_inline_script = [], False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...>")
        if "style" in attrs:
            self.problems.append(f"<{tag} style=...>")
        if tag == "style":
            self.problems.append("<style>")
        if tag == "script" and not attrs.get("src") and attrs.get("type") != "application/json":
            self._in_inline_script = True  # a data block (json_script) is not executed: allowed
        if tag == "a" and (attrs.get("href") or "").lower().startswith("javascript:"):
            self.problems.append("javascript: URL")

    def handle_endtag(self, tag):
        if tag == "script" and self._in_inline_script:
            self.problems.append("inline <script>")
            self._in_inline_script = False


def check_page(response):
    assert response.status_code == 200, response.status_code
    policy = response["Content-Security-Policy"]
    directives = dict((d.strip().split(" ", 1) + [""])[:2] for d in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'", policy
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    finder = InlineFinder()
    finder.feed(response.content.decode())
    assert finder.problems == [], finder.problems


@pytest.fixture
def pages(make_user, settings):
    settings.KAMIZA_EXTRA_ENGINES = ["tests.engines.pebbles"]
    alice, bob = make_user(), make_user()
    open_match = services.match_create(game="pebbles", seats=2, options={}, creator=alice)
    running = services.match_create(game="pebbles", seats=2, options={}, creator=bob)
    services.match_add_bot(match_id=running.pk, user=bob, seat=1)
    services.match_start(match_id=running.pk, user=bob)
    return alice, bob, open_match, running


def test_public_pages(client, pages):
    _, _, open_match, running = pages
    for path in ("/", "/?fragment=open", "/?fragment=live", "/lobby/", "/games/yashima/rules/", "/login/", "/signup/",
                 f"/matches/{open_match.pk}/",
                 f"/matches/{running.pk}/", "/api/docs/", "/admin/login/"):
        check_page(client.get(path))


def test_signed_in_pages(client, pages):
    _, bob, open_match, running = pages
    client.force_login(bob)
    for path in ("/", "/lobby/", f"/matches/{open_match.pk}/", f"/matches/{running.pk}/"):
        check_page(client.get(path))


def test_staff_pages(client, pages, make_user):
    *_, running = pages
    client.force_login(make_user(is_staff=True, is_superuser=True))
    for path in ("/staff/", f"/staff/matches/{running.pk}/", "/staff/matches/import/", "/admin/",
                 "/admin/auth/user/", "/admin/auth/user/add/"):
        check_page(client.get(path))


def test_the_api_docs_script_is_a_file_not_inline(client):
    res = client.get("/api/docs/?script=")
    assert res.status_code == 200 and res["Content-Type"].startswith("application/javascript")
