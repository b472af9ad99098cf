"""The account probe's findings over the API (docs/security.md, "Accounts"):

1. changing the account's e-mail address (where reset links go) needs the current password;
2. every re-check of a signed-in user's password (password change, e-mail change, deletion) is
   under the login lockout's limits (429 ``too_many_attempts``);
3. the registration and reset throttles count per client address, shared with the pages
   (the pages' side: tests/frontend/test_account_security_pages.py);
4. an e-mail address longer than the column (254) is a 400, never a database error.

Each test first reproduces the probe's request against the fixed service.
"""

import io
import json
import types

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache.backends import locmem
from django.core.management import call_command
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from accounts import lockout, services
from accounts.errors import PasswordRequired, TooManyAttempts, WrongPassword
from accounts.models import Profile
from tests.rest import assert_error

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"
NEW_PASSWORD = "another-long-passphrase-7"
WRONG = "wrong-password-1"
# 254 characters, a valid address (local part 64, domain labels of at most 63); one more is too long
EMAIL_254 = "a" * 64 + "@" + "b" * 63 + "." + "c" * 63 + "." + "d" * 61
EMAIL_255 = EMAIL_254[:-1] + "dd"
assert len(EMAIL_254) == 254 and len(EMAIL_255) == 255


def token_client(user, ip="10.0.0.1") -> APIClient:
    c = APIClient(REMOTE_ADDR=ip)
    c.credentials(HTTP_AUTHORIZATION=f"Token {services.token_for(user)}")
    return c


def set_rate(monkeypatch, scope, rate):
    # DRF reads the rates into the class when it is imported; set the scope's rate there.
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, scope: rate})


@pytest.fixture
def later(monkeypatch):
    """Move the cache's clock (only the expiry check of the local-memory cache) past ``seconds``:
    the lockout's window passing, without waiting."""
    from django.conf import settings

    if "locmem" not in settings.CACHES["default"]["BACKEND"].lower():
        pytest.skip("moves the local-memory cache's clock")
    real = locmem.time.time

    def move(seconds):
        monkeypatch.setattr(locmem, "time", types.SimpleNamespace(time=lambda: real() + seconds))

    return move


# -- 1. the e-mail address needs the password ---------------------------------------------------------


def test_the_probe_changing_the_email_with_only_a_token_is_refused_and_no_reset_mail_goes_to_the_attacker(make_user):
    """Given a stolen token, PATCH /api/auth/me/ {"email": attacker} was 200 and the reset link then
    went to the attacker. Now: 400 password_required, the address is unchanged, and a reset request
    for the attacker's address sends nothing."""
    user = make_user(username="miko", email="miko@example.com")
    thief = token_client(user, ip="203.0.113.9")
    body = assert_error(thief.patch("/api/auth/me/", {"email": "attacker@evil.test"}, format="json"), 400,
                        "password_required")
    assert body["extra"] == {"field": "password"}
    user.refresh_from_db()
    assert user.email == "miko@example.com"
    assert APIClient().post("/api/auth/password/reset/", {"email": "attacker@evil.test"}, format="json").status_code == 204
    assert mail.outbox == []


def test_a_wrong_password_is_400_wrong_password_and_the_right_one_changes_the_email(make_user):
    user = make_user(username="miko", email="miko@example.com")
    c = token_client(user)
    assert_error(c.patch("/api/auth/me/", {"email": "new@example.com", "password": WRONG}, format="json"), 400,
                 "wrong_password")
    assert_error(c.patch("/api/auth/me/", {"email": "new@example.com", "password": ""}, format="json"), 400,
                 "password_required")
    user.refresh_from_db()
    assert user.email == "miko@example.com"
    res = c.patch("/api/auth/me/", {"email": "new@example.com", "password": PASSWORD}, format="json")
    assert res.status_code == 200 and res.json()["email"] == "new@example.com"
    assert "password" not in res.json()  # write-only
    user.refresh_from_db()
    assert user.email == "new@example.com"


@pytest.mark.parametrize("start,new", [("", "first@example.com"), ("miko@example.com", ""),
                                       ("miko@example.com", "MIKO@example.com")])
def test_setting_clearing_or_recasing_the_address_is_a_change_too(make_user, start, new):
    """Adding an address to an account without one would let a thief reset the password; clearing
    it would keep the owner from resetting theirs."""
    user = make_user(username="miko", email=start)
    c = token_client(user)
    assert_error(c.patch("/api/auth/me/", {"email": new}, format="json"), 400, "password_required")
    assert c.patch("/api/auth/me/", {"email": new, "password": PASSWORD}, format="json").json()["email"] == new


def test_the_same_address_and_other_fields_need_no_password(make_user):
    user = make_user(username="miko", email="miko@example.com")
    c = token_client(user)
    res = c.patch("/api/auth/me/", {"email": "miko@example.com", "display_name": "Miko", "turn_email": True},
                  format="json")
    assert res.status_code == 200 and res.json()["turn_email"] is True and res.json()["display_name"] == "Miko"


def test_a_refused_email_change_changes_nothing_else_in_the_request(make_user):
    user = make_user(username="miko", email="miko@example.com")
    c = token_client(user)
    assert_error(c.patch("/api/auth/me/", {"username": "miko-2", "display_name": "X", "turn_email": True,
                                           "email": "attacker@evil.test"}, format="json"), 400, "password_required")
    user.refresh_from_db()
    profile = Profile.objects.get(user=user)
    assert (user.get_username(), user.email, profile.display_name, profile.turn_email) == \
        ("miko", "miko@example.com", "miko", False)


def test_the_service_refuses_without_the_password_too(make_user):
    user = make_user(username="miko", email="miko@example.com")
    with pytest.raises(PasswordRequired):
        services.profile_update(user=user, email="x@example.com")
    with pytest.raises(WrongPassword):
        services.profile_update(user=user, email="x@example.com", password=WRONG)
    services.profile_update(user=user, email="x@example.com", password=PASSWORD)
    assert get_user_model().objects.get(pk=user.pk).email == "x@example.com"


def test_the_schema_has_the_write_only_password_on_the_me_update():
    out = io.StringIO()
    call_command("spectacular", "--format", "openapi-json", stdout=out)
    schema = json.loads(out.getvalue())
    components = schema["components"]["schemas"]
    assert "password" in components["PatchedMeRequest"]["properties"]
    assert "password" not in components["Me"]["properties"]  # never answered
    patch = schema["paths"]["/api/auth/me/"]["patch"]["responses"]
    assert {"400", "429"} <= set(patch)
    for path in ("/api/auth/password/", "/api/account/delete/"):
        assert "429" in schema["paths"][path]["post"]["responses"]


# -- 2. the lockout of password re-checks --------------------------------------------------------------


def change_password(c, old):
    return c.post("/api/auth/password/", {"old_password": old, "new_password": NEW_PASSWORD}, format="json")


def delete_account(c, password):
    return c.post("/api/account/delete/", {"password": password}, format="json")


def change_email(c, password):
    return c.patch("/api/auth/me/", {"email": "new@example.com", "password": password}, format="json")


def test_the_probe_120_wrong_old_passwords_then_the_right_one_is_429(make_user, settings):
    """Given 120 wrong old_password on POST /api/auth/password/ (all 400 before, and the right one
    then worked), the default limit (LOGIN_RATE_LIMIT, 10 per account and address) refuses the 11th
    and every later one, the right password included: 429 too_many_attempts with Retry-After."""
    user = make_user(username="miko")
    c = token_client(user)
    codes = [change_password(c, f"guess-{i}").status_code for i in range(120)]
    assert codes == [400] * settings.LOGIN_RATE_LIMIT + [429] * (120 - settings.LOGIN_RATE_LIMIT)
    res = change_password(c, PASSWORD)
    assert_error(res, 429, "too_many_attempts")
    assert res["Retry-After"] == str(settings.LOGIN_RATE_WINDOW)
    user.refresh_from_db()
    assert user.check_password(PASSWORD) and not user.check_password(NEW_PASSWORD)


@pytest.mark.parametrize("attempt", [delete_account, change_email], ids=["delete", "email"])
def test_deletion_and_the_email_change_are_locked_the_same_way(make_user, settings, attempt):
    settings.LOGIN_RATE_LIMIT = 3
    user = make_user(username="miko", email="miko@example.com")
    c = token_client(user)
    assert [attempt(c, WRONG).status_code for _ in range(5)] == [400, 400, 400, 429, 429]
    assert_error(attempt(c, PASSWORD), 429, "too_many_attempts")
    user.refresh_from_db()
    assert user.is_active and user.email == "miko@example.com"


def test_the_three_re_checks_share_one_count(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 3
    user = make_user(username="miko")
    c = token_client(user)
    assert change_password(c, WRONG).status_code == 400
    assert delete_account(c, WRONG).status_code == 400
    assert change_email(c, WRONG).status_code == 400
    assert_error(change_password(c, PASSWORD), 429, "too_many_attempts")
    assert_error(delete_account(c, PASSWORD), 429, "too_many_attempts")


def test_renaming_the_account_does_not_start_a_new_count(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 2
    user = make_user(username="miko")
    c = token_client(user)
    assert [change_password(c, WRONG).status_code for _ in range(2)] == [400, 400]
    assert c.patch("/api/auth/me/", {"username": "miko-renamed"}, format="json").status_code == 200
    assert_error(change_password(c, PASSWORD), 429, "too_many_attempts")


def test_right_passwords_do_not_count_and_the_window_passing_lifts_the_limit(make_user, settings, later):
    settings.LOGIN_RATE_LIMIT = 2
    user = make_user(username="miko", email="miko@example.com")
    c = token_client(user)
    for i in range(4):  # right passwords give their slots back
        assert change_email(c, PASSWORD).status_code == 200
        assert c.patch("/api/auth/me/", {"email": "miko@example.com", "password": PASSWORD},
                       format="json").status_code == 200
    assert [change_password(c, WRONG).status_code for _ in range(3)] == [400, 400, 429]
    later(settings.LOGIN_RATE_WINDOW + 1)
    res = change_password(c, PASSWORD)
    assert res.status_code == 200


def test_the_owner_from_another_address_is_not_locked_out_by_a_thief(make_user, settings):
    """A thief's guesses lock the thief's address; the owner, signed in elsewhere, still changes the
    password (the login lockout's policy: the account-wide limit refuses only addresses that failed)."""
    settings.LOGIN_RATE_LIMIT = 3
    user = make_user(username="miko")
    thief = token_client(user, ip="203.0.113.9")
    assert [change_password(thief, WRONG).status_code for _ in range(4)] == [400, 400, 400, 429]
    owner = APIClient(REMOTE_ADDR="198.51.100.7")
    owner.force_authenticate(user)
    assert change_password(owner, PASSWORD).status_code == 200


def test_guessing_from_many_addresses_gets_one_guess_per_address_once_over_the_account_limit(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 2
    settings.LOGIN_RATE_LIMIT_PER_ACCOUNT = 4
    user = make_user(username="miko")
    for n in range(4):
        assert delete_account(token_client(user, ip=f"192.0.2.{n}"), WRONG).status_code == 400
    again = token_client(user, ip="192.0.2.0")
    assert_error(delete_account(again, PASSWORD), 429, "too_many_attempts")  # this address failed before
    fresh = token_client(user, ip="192.0.2.99")
    assert delete_account(fresh, WRONG).status_code == 400  # one guess from a fresh address
    assert_error(delete_account(fresh, PASSWORD), 429, "too_many_attempts")


def test_re_checks_count_against_the_address_like_logins(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 100
    settings.LOGIN_RATE_LIMIT_PER_IP = 3
    users = [make_user() for _ in range(4)]
    for u in users[:3]:
        assert change_password(token_client(u, ip="192.0.2.50"), WRONG).status_code == 400
    assert_error(change_password(token_client(users[3], ip="192.0.2.50"), PASSWORD), 429, "too_many_attempts")


def test_the_recheck_service_checks_no_password_once_refused(make_user, settings, monkeypatch):
    settings.LOGIN_RATE_LIMIT = 1
    user = make_user(username="miko")
    with pytest.raises(WrongPassword):
        services.password_recheck(user, WRONG, ip="10.9.9.9")
    checked = []
    monkeypatch.setattr(type(user), "check_password", lambda self, raw: checked.append(raw) or True)
    with pytest.raises(TooManyAttempts) as refused:
        services.password_recheck(user, PASSWORD, ip="10.9.9.9")
    assert checked == [] and refused.value.retry_after == lockout.window()


def test_an_unlock_clears_the_re_check_counts_too(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 1
    user = make_user(username="aoi")
    with pytest.raises(WrongPassword):
        services.password_recheck(user, WRONG, ip="10.9.9.8")
    with pytest.raises(TooManyAttempts):
        services.password_recheck(user, PASSWORD, ip="10.9.9.8")
    services.login_attempts_reset(username="aoi", ip="10.9.9.8")  # an admin unlocks the account
    services.password_recheck(user, PASSWORD, ip="10.9.9.8")  # checked again, and right


# -- 3. the per-address throttles of registration and reset ---------------------------------------------


def register(c, name, **extra):
    return c.post("/api/auth/register/", {"username": name, "password": "a-long-pass-phrase-1"}, format="json", **extra)


def test_a_forged_x_forwarded_for_does_not_start_a_fresh_registration_bucket(monkeypatch):
    set_rate(monkeypatch, "register", "2/hour")
    c = APIClient(REMOTE_ADDR="192.0.2.7")
    codes = [register(c, f"newbie{i}", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code for i in range(3)]
    assert codes == [201, 201, 429]
    assert register(APIClient(REMOTE_ADDR="192.0.2.8"), "elsewhere").status_code == 201  # per address


def test_a_forged_x_forwarded_for_does_not_start_a_fresh_reset_bucket(monkeypatch, make_user):
    set_rate(monkeypatch, "password_reset", "2/hour")
    make_user(username="miko", email="miko@example.com")
    c = APIClient(REMOTE_ADDR="192.0.2.7")
    codes = [c.post("/api/auth/password/reset/", {"email": "miko@example.com"}, format="json",
                    HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code for i in range(3)]
    assert codes == [204, 204, 429] and len(mail.outbox) == 2


# -- 4. e-mail addresses longer than the column ---------------------------------------------------------


def test_register_with_a_255_character_email_is_400_not_a_database_error(api):
    body = assert_error(api.post("/api/auth/register/", {"username": "longmail", "password": "a-long-pass-phrase-1",
                                                         "email": EMAIL_255}, format="json"), 400, "malformed")
    assert "email" in body["extra"]
    assert not get_user_model().objects.filter(username="longmail").exists()
    res = api.post("/api/auth/register/", {"username": "longmail", "password": "a-long-pass-phrase-1",
                                           "email": EMAIL_254}, format="json")
    assert res.status_code == 201 and get_user_model().objects.get(username="longmail").email == EMAIL_254


def test_me_with_a_255_character_email_is_400(make_user):
    user = make_user(username="miko", email="miko@example.com")
    c = token_client(user)
    body = assert_error(c.patch("/api/auth/me/", {"email": EMAIL_255, "password": PASSWORD}, format="json"), 400,
                        "malformed")
    assert "email" in body["extra"]
    user.refresh_from_db()
    assert user.email == "miko@example.com"
    assert c.patch("/api/auth/me/", {"email": EMAIL_254, "password": PASSWORD}, format="json").status_code == 200


def test_reset_with_a_255_character_email_is_400(api):
    body = assert_error(api.post("/api/auth/password/reset/", {"email": EMAIL_255}, format="json"), 400, "malformed")
    assert "email" in body["extra"]


def test_every_email_field_of_the_account_serializers_and_forms_is_bounded():
    from accounts import serializers as s
    from frontend import forms as f

    fields = [s.RegisterSerializer().fields["email"], s.MeSerializer().fields["email"],
              s.PasswordResetSerializer().fields["email"]]
    assert [field.max_length for field in fields] == [254, 254, 254]
    assert f.SignUpForm().fields["email"].max_length == 254
    assert f.TurnAlertsForm().fields["email"].max_length == 254
