"""The account pages: overview (sessions, API token, export, delete), change password, and the
forgotten-password flow on Django's token views (mail through the e-mail backend)."""

import json
import re
from datetime import timezone

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token

from accounts.models import LoginSession

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"
NEW_PASSWORD = "another-long-passphrase-7"
PEBBLES = override_settings(KAMIZA_EXTRA_ENGINES=["tests.engines.pebbles"])


def browser(user, ip="10.0.0.1", ua="Browser/1") -> Client:
    c = Client(REMOTE_ADDR=ip, HTTP_USER_AGENT=ua)
    assert c.post("/login/", {"username": user.get_username(), "password": PASSWORD}).status_code == 302
    return c


def signed_in(c: Client) -> bool:
    return c.get("/").context["user"].is_authenticated


def no_inline_scripts(html: str) -> bool:
    return all(re.search(r"\bsrc=", tag) for tag in re.findall(r"<script\b[^>]*>", html))


def messages_shown(html: str) -> str:
    """The messages shown, each with its classes (a refusal's stable code is a ``code-...`` class, never
    in the words a player reads)."""
    found = re.findall(r'<li class="message([^"]*)">(.*?)</li>', html, re.S)
    for classes, text in found:
        assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), f"a raw code shown to a player: {text}"
    return " ".join(f"{classes} {text}" for classes, text in found)


@pytest.mark.parametrize("path", ["/account/", "/account/password/", "/account/delete/", "/account/export/"])
def test_account_pages_need_a_login(client, path):
    res = client.get(path)
    assert res.status_code == 302 and res["Location"].startswith("/login/?next=")


def test_the_account_page_lists_sessions_and_the_token_without_their_secrets(make_user):
    user = make_user(username="miko")
    here, there = browser(user, ua="Here/1"), browser(user, ip="10.0.0.2", ua="There/2")
    key = Token.objects.create(user=user).key
    res = here.get("/account/")
    html = res.content.decode()
    assert res.status_code == 200 and 'data-testid="account-username">miko<' in html
    assert "Here/1" in html and "There/2" in html and "this browser" in html
    assert key not in html and here.session.session_key not in html and there.session.session_key not in html
    assert 'href="/account/export/"' in html and 'href="/account/delete/"' in html and 'href="/account/password/"' in html
    assert no_inline_scripts(html)
    # on a phone the long browser names wrap and the table scrolls inside its card, not the page
    assert '<div class="table-wrap" tabindex="0" role="region" aria-labelledby="sessions-heading">' \
           '<table class="matches" data-testid="sessions">' in html and 'class="small wrap-anywhere">Here/1<' in html
    assert 'href="/account/"' in here.get("/").content.decode()  # the header links it
    # moments as a player reads them, not ISO text
    session = LoginSession.objects.filter(session_key=here.session.session_key).get()
    started = session.created_at.astimezone(timezone.utc)
    assert f"<td>{started.day} {started:%b %Y, %H:%M} UTC</td>" in html and f"{started:%Y-%m-%dT}" not in html
    Token.objects.filter(user=user).delete()
    html = here.get("/account/").content.decode()
    assert "You have no API token." in html and 'href="/api/docs/"' in html and "POST /api/" not in html


def test_the_header_links_the_staff_pages_for_staff_only(make_user):
    assert 'data-testid="nav-staff"' not in browser(make_user()).get("/").content.decode()
    staff = make_user(is_staff=True)
    assert '<a href="/staff/" data-testid="nav-staff">Staff</a>' in browser(staff).get("/").content.decode()
    assert '<a href="/">Kamiza</a>' in browser(staff).get("/staff/").content.decode()  # and back


def test_sign_out_another_browser_from_the_account_page(make_user):
    user = make_user(username="miko")
    here, there = browser(user), browser(user, ip="10.0.0.2")
    other = LoginSession.objects.get(session_key=there.session.session_key)
    res = here.post(f"/account/sessions/{other.pk}/end/", follow=True)
    assert res.status_code == 200 and "That session is signed out." in res.content.decode()
    assert signed_in(here) and not signed_in(there)
    assert here.get(f"/account/sessions/{other.pk}/end/").status_code == 405  # POST only
    res = here.post("/account/sessions/999999/end/", follow=True)
    shown = messages_shown(res.content.decode())
    assert "No such session of this account." in shown and "code-not_found" in shown and "(not_found)" not in shown


def test_revoke_the_api_token_from_the_account_page(make_user, client_for):
    user = make_user(username="miko")
    api = client_for(user)
    here = browser(user)
    token_id = re.search(r'data-token-id="([0-9a-f]+)"', here.get("/account/").content.decode()).group(1)
    res = here.post(f"/account/tokens/{token_id}/revoke/", follow=True)
    assert "The API token is revoked." in res.content.decode()
    assert api.get("/api/auth/me/").status_code == 401 and not Token.objects.filter(user=user).exists()
    again = messages_shown(here.post(f"/account/tokens/{token_id}/revoke/", follow=True).content.decode())
    assert "No such token of this account." in again and "(not_found)" not in again


def test_change_password_page(make_user, client_for):
    user = make_user(username="miko")
    api = client_for(user)
    here, there = browser(user), browser(user, ip="10.0.0.2")
    page = here.get("/account/password/")
    assert page.status_code == 200 and no_inline_scripts(page.content.decode())
    wrong = here.post("/account/password/", {"old_password": "nope", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert wrong.status_code == 200 and "incorrectly" in wrong.content.decode()
    blank = here.post("/account/password/", {"old_password": PASSWORD, "new_password1": " " * 10, "new_password2": " " * 10})
    assert blank.status_code == 200 and "only whitespace" in blank.content.decode()
    ok = here.post("/account/password/", {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert ok.status_code == 302 and ok["Location"] == "/account/"
    assert signed_in(here) and not signed_in(there)
    assert api.get("/api/auth/me/").status_code == 401
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


def test_forgotten_password_pages_end_to_end(client, make_user, client_for):
    user = make_user(username="miko", email="miko@example.com")
    api = client_for(user)
    login_page = client.get("/login/").content.decode()
    assert 'href="/password-reset/"' in login_page
    res = client.post("/password-reset/", {"email": "miko@example.com"})
    assert res.status_code == 302 and res["Location"] == "/password-reset/sent/"
    assert 'data-testid="reset-sent"' in client.get(res["Location"]).content.decode()
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/\s]+(/reset/\S+/)", mail.outbox[0].body).group(1)
    form_page = client.get(link, follow=True)  # Django moves the token into the session
    assert form_page.status_code == 200 and "Choose a new password" in form_page.content.decode()
    set_url = form_page.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == "/reset/done/"
    assert 'data-testid="reset-complete"' in client.get("/reset/done/").content.decode()
    assert api.get("/api/auth/me/").status_code == 401  # every earlier login ended
    assert client.post("/login/", {"username": "miko", "password": NEW_PASSWORD}).status_code == 302
    reused = Client().get(link, follow=True)
    assert 'data-testid="reset-invalid"' in reused.content.decode()


def test_forgotten_password_for_an_unknown_address_looks_the_same(client):
    res = client.post("/password-reset/", {"email": "nobody@example.com"})
    assert res.status_code == 302 and res["Location"] == "/password-reset/sent/" and mail.outbox == []


def test_export_download(make_user, started_pebbles):
    match, (me, _) = started_pebbles()
    c = browser(me)
    res = c.get("/account/export/")
    assert res.status_code == 200 and res["Content-Type"].startswith("application/json")
    assert "attachment" in res["Content-Disposition"]
    body = json.loads(res.content)
    assert body["account"]["username"] == me.get_username() and body["matches"][0]["id"] == str(match.pk)


@PEBBLES
def test_delete_account_page(finished_pebbles):
    match, (gone, stays) = finished_pebbles()
    old_name = gone.get_username()
    c = browser(gone)
    page = c.get("/account/delete/")
    assert page.status_code == 200 and no_inline_scripts(page.content.decode())
    wrong = c.post("/account/delete/", {"password": "nope"})
    assert wrong.status_code == 400 and "not correct" in wrong.content.decode()
    res = c.post("/account/delete/", {"password": PASSWORD}, follow=True)
    assert res.status_code == 200 and "Your account is deleted." in res.content.decode()
    assert not signed_in(c)
    assert not get_user_model().objects.get(pk=gone.pk).is_active
    # the other player's finished matches show the seat as "deleted player"
    lobby = browser(stays, ip="10.0.0.9").get("/lobby/")
    finished = lobby.context["finished_matches"]
    assert [s["label"] for s in finished[0]["seats"]] == ["deleted player", stays.get_username()]
    match_page = browser(stays, ip="10.0.0.9").get(f"/matches/{match.pk}/").content.decode()
    assert old_name not in match_page and "deleted player" in match_page


def test_delete_account_page_refuses_while_in_a_running_match(started_pebbles):
    match, (me, _) = started_pebbles()
    c = browser(me)
    res = c.post("/account/delete/", {"password": PASSWORD})
    html = res.content.decode()
    assert res.status_code == 409 and "Finish or resign your running matches" in html and "in_active_match" not in html
    assert signed_in(c)


def test_change_the_username_from_the_account_page(make_user):
    user = make_user(username="miko")
    make_user(username="kenji")
    here = browser(user)
    html = here.get("/account/").content.decode()
    assert 'data-testid="username-change"' in html and 'value="miko"' in html and "Display name" not in html
    assert "Up to 150 characters: letters (of any alphabet, accents included), digits and _ . @ + -." in html
    res = here.post("/account/username/", {"username": "miko-san"}, follow=True).content.decode()
    assert "Your username is now miko-san." in messages_shown(res)
    assert 'data-testid="account-username">miko-san<' in res and signed_in(here)
    # the same checks as sign-up: taken, a lookalike of a taken name, and an invalid one are refused
    for name, why in (("kenji", "A user with that username already exists."),
                      ("KENJI", "A user with that username already exists."),
                      ("ｋｅｎｊｉ", "A user with that username already exists."),
                      ("no spaces", "Spaces cannot be in a username: use only letters (of any alphabet, accents "
                                    "included), digits and _ . @ + -.")):
        shown = messages_shown(here.post("/account/username/", {"username": name}, follow=True).content.decode())
        assert why in shown and "Your username is now" not in shown, (name, shown)
    assert get_user_model().objects.get(pk=user.pk).username == "miko-san"
    assert here.get("/account/username/").status_code == 405  # POST only
