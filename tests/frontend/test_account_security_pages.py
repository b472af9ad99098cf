"""The account probe's findings on the pages (docs/security.md, "Accounts"; the API's side is
tests/accounts/test_account_security.py):

1. the account page's e-mail address (the turn alerts form, ``/account/notifications/``) is the
   account's own, where reset links go: changing it needs the current password;
2. the password change, deletion and e-mail forms are under the lockout of password re-checks,
   shared with the API: a clear form error and 429 once over it;
3. the sign-up and forgotten-password pages share the API's per-address rates and buckets
   (``REGISTER_RATE``, ``PASSWORD_RESET_RATE``): 429 with a form error, and nothing done;
4. a 255-character address is a form error, not a database error.
"""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from accounts import services
from accounts.models import Profile

from .test_csp import check_page

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"
NEW_PASSWORD = "another-long-passphrase-7"
WRONG = "wrong-password-1"
EMAIL_255 = "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 62
SIGNUP = {"password1": "paper-lantern-42", "password2": "paper-lantern-42"}


def browser(user, ip="10.0.0.1") -> Client:
    c = Client(REMOTE_ADDR=ip)
    assert c.post("/login/", {"username": user.get_username(), "password": PASSWORD}).status_code == 302
    return c


def set_rate(monkeypatch, scope, rate):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, scope: rate})


def text(res) -> str:
    return re.sub(r"\s+", " ", res.content.decode())


# -- 1. the account page's e-mail address ----------------------------------------------------------------


def test_the_probe_a_session_alone_cannot_change_the_email_on_the_account_page(make_user):
    """Given a signed-in browser (a stolen session), posting a new address to /account/notifications/
    changed the account's e-mail. Now: 400, the form says the password is needed, nothing changes."""
    user = make_user(username="miko", email="miko@example.com")
    c = browser(user)
    res = c.post("/account/notifications/", {"email": "attacker@evil.test", "turn_email": "on"})
    assert res.status_code == 400
    assert "To change your e-mail address, enter your password too" in text(res)
    assert 'data-testid="turn-alerts-password-error"' in text(res) and 'value="attacker@evil.test"' in text(res)
    user.refresh_from_db()
    assert user.email == "miko@example.com" and Profile.objects.get(user=user).turn_email is False
    res = c.post("/account/notifications/", {"email": "attacker@evil.test", "password": WRONG})
    assert res.status_code == 400 and "That password is not correct" in text(res)
    user.refresh_from_db()
    assert user.email == "miko@example.com"
    res = c.post("/account/notifications/", {"email": "new@example.com", "password": PASSWORD})
    assert res.status_code == 302
    user.refresh_from_db()
    assert user.email == "new@example.com"


def test_the_form_asks_for_the_password_and_turning_alerts_on_needs_none(make_user):
    user = make_user(username="miko", email="miko@example.com")
    c = browser(user)
    res = c.get("/account/")
    check_page(res)
    html = text(res)
    form = re.search(r'<form[^>]*data-testid="turn-alerts-form".*?</form>', html).group(0)
    assert 'type="password" name="password"' in form and 'autocomplete="current-password"' in form
    assert "password reset links go there" in form
    res = c.post("/account/notifications/", {"email": "miko@example.com", "turn_email": "on"})
    assert res.status_code == 302 and Profile.objects.get(user=user).turn_email is True


def test_a_255_character_address_is_a_form_error(make_user):
    user = make_user(username="miko", email="miko@example.com")
    c = browser(user)
    res = c.post("/account/notifications/", {"email": EMAIL_255, "password": PASSWORD})
    assert res.status_code == 400 and "at most 254 characters" in text(res)
    user.refresh_from_db()
    assert user.email == "miko@example.com"


def test_signup_with_a_255_character_address_is_a_form_error(client):
    res = client.post("/signup/", {"username": "longmail", "email": EMAIL_255, **SIGNUP})
    assert res.status_code == 200 and "at most 254 characters" in text(res)
    assert not get_user_model().objects.filter(username="longmail").exists()


# -- 2. the lockout of password re-checks on the pages ---------------------------------------------------


def change_password(c, old):
    return c.post("/account/password/", {"old_password": old, "new_password1": NEW_PASSWORD,
                                         "new_password2": NEW_PASSWORD})


def test_the_probe_wrong_old_passwords_on_the_password_page_lock_it(make_user, settings):
    """Wrong old passwords on /account/password/ were refused forever, each with a new guess; the
    default limit (10 per account and address) now stops the guessing: 429 with a form error, even
    for the right password, and the password is not changed."""
    user = make_user(username="miko")
    c = browser(user)
    codes = [change_password(c, f"guess-{i}").status_code for i in range(12)]
    assert codes == [200] * settings.LOGIN_RATE_LIMIT + [429] * (12 - settings.LOGIN_RATE_LIMIT)
    res = change_password(c, PASSWORD)
    assert res.status_code == 429 and res["Retry-After"] == str(settings.LOGIN_RATE_WINDOW)
    assert "Too many wrong passwords for this account" in text(res) and "too_many_attempts" not in text(res)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_the_delete_page_is_locked_the_same_way(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 3
    user = make_user(username="miko")
    c = browser(user)
    assert [c.post("/account/delete/", {"password": WRONG}).status_code for _ in range(3)] == [400, 400, 400]
    res = c.post("/account/delete/", {"password": PASSWORD})
    assert res.status_code == 429 and "Too many wrong passwords for this account" in text(res)
    assert get_user_model().objects.get(pk=user.pk).is_active


def test_the_email_form_is_locked_the_same_way(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 2
    user = make_user(username="miko", email="miko@example.com")
    c = browser(user)
    for _ in range(2):
        assert c.post("/account/notifications/", {"email": "x@evil.test", "password": WRONG}).status_code == 400
    res = c.post("/account/notifications/", {"email": "x@evil.test", "password": PASSWORD})
    assert res.status_code == 429 and "Too many wrong passwords for this account" in text(res)
    user.refresh_from_db()
    assert user.email == "miko@example.com"


def test_the_pages_and_the_api_share_one_count(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 3
    user = make_user(username="miko")
    c = browser(user, ip="10.0.0.7")
    api = APIClient(REMOTE_ADDR="10.0.0.7")
    api.credentials(HTTP_AUTHORIZATION=f"Token {services.token_for(user)}")
    assert change_password(c, WRONG).status_code == 200
    assert c.post("/account/delete/", {"password": WRONG}).status_code == 400
    assert api.post("/api/auth/password/", {"old_password": WRONG, "new_password": NEW_PASSWORD},
                    format="json").status_code == 400
    assert change_password(c, PASSWORD).status_code == 429
    assert api.post("/api/account/delete/", {"password": PASSWORD}, format="json").status_code == 429


# -- 3. the pages share the API's rates -----------------------------------------------------------------


def test_the_probe_signup_page_stops_where_the_api_register_throttle_does(monkeypatch):
    """The API's register throttle answered 429 while /signup/ kept creating accounts. Now they
    share one bucket per address: once the API is over REGISTER_RATE, the page answers 429 with a
    form error and creates nothing."""
    set_rate(monkeypatch, "register", "3/hour")
    api = APIClient(REMOTE_ADDR="192.0.2.5")
    for i in range(3):
        assert api.post("/api/auth/register/", {"username": f"bot{i}", "password": "a-long-pass-phrase-1"},
                        format="json").status_code == 201
    assert api.post("/api/auth/register/", {"username": "bot9", "password": "a-long-pass-phrase-1"},
                    format="json").status_code == 429
    page = Client(REMOTE_ADDR="192.0.2.5")
    res = page.post("/signup/", {"username": "pagebot", "email": "", **SIGNUP})
    assert res.status_code == 429 and int(res["Retry-After"]) > 0
    assert "Too many requests from your address: nothing was done." in text(res)
    assert 'value="pagebot"' in text(res)  # what was typed stays
    assert not get_user_model().objects.filter(username="pagebot").exists()
    assert get_user_model().objects.count() == 3
    # another address is not affected
    assert Client(REMOTE_ADDR="192.0.2.6").post("/signup/", {"username": "human", "email": "", **SIGNUP}).status_code == 302


def test_signup_page_posts_count_against_the_api_register_rate(monkeypatch):
    set_rate(monkeypatch, "register", "2/hour")
    page = Client(REMOTE_ADDR="192.0.2.5")
    assert page.post("/signup/", {"username": "one", "email": "", **SIGNUP}).status_code == 302
    assert Client(REMOTE_ADDR="192.0.2.5").post("/signup/", {"username": "two", "email": "", **SIGNUP}).status_code == 302
    assert Client(REMOTE_ADDR="192.0.2.5").get("/signup/").status_code == 200  # showing the form is not counted
    api = APIClient(REMOTE_ADDR="192.0.2.5")
    res = api.post("/api/auth/register/", {"username": "three", "password": "a-long-pass-phrase-1"}, format="json")
    assert res.status_code == 429 and res.json()["code"] == "throttled"


def test_the_probe_password_reset_page_stops_mailing_where_the_api_does(monkeypatch, make_user):
    """POST /password-reset/ sent a mail every time while the API answered 429 (mail-bombing). Now
    the page shares PASSWORD_RESET_RATE's bucket: 429 with a form error and no mail."""
    set_rate(monkeypatch, "password_reset", "2/hour")
    make_user(username="miko", email="miko@example.com")
    page = Client(REMOTE_ADDR="192.0.2.5")
    for _ in range(2):
        assert page.post("/password-reset/", {"email": "miko@example.com"}).status_code == 302
    assert len(mail.outbox) == 2
    res = page.post("/password-reset/", {"email": "miko@example.com"})
    assert res.status_code == 429 and int(res["Retry-After"]) > 0
    assert "Too many requests from your address: nothing was done." in text(res)
    assert len(mail.outbox) == 2
    api = APIClient(REMOTE_ADDR="192.0.2.5")
    assert api.post("/api/auth/password/reset/", {"email": "miko@example.com"}, format="json").status_code == 429
    assert len(mail.outbox) == 2


def test_the_api_reset_requests_count_against_the_page(monkeypatch, make_user):
    set_rate(monkeypatch, "password_reset", "1/hour")
    make_user(username="miko", email="miko@example.com")
    api = APIClient(REMOTE_ADDR="192.0.2.5")
    assert api.post("/api/auth/password/reset/", {"email": "miko@example.com"}, format="json").status_code == 204
    res = Client(REMOTE_ADDR="192.0.2.5").post("/password-reset/", {"email": "miko@example.com"})
    assert res.status_code == 429 and len(mail.outbox) == 1
