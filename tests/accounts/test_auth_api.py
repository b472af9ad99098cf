"""Registration, tokens (rate-limited), logout, /me/."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import Profile

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"


def token_of(api, username, password=PASSWORD, ip="10.0.0.1"):
    return api.post("/api/auth/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=ip)


# -- register ----------------------------------------------------------------------------------


def test_register_creates_user_profile_and_token(api):
    res = api.post("/api/auth/register/", {"username": "hanzo", "password": PASSWORD, "email": "h@example.com"},
                   format="json")
    assert res.status_code == 201, res.content
    body = res.json()
    user = get_user_model().objects.get(username="hanzo")
    assert body == {"id": user.pk, "username": "hanzo", "token": Token.objects.get(user=user).key}
    assert user.email == "h@example.com" and user.check_password(PASSWORD)
    assert Profile.objects.get(user=user).display_name == "hanzo"
    api.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert api.get("/api/auth/me/").json() == {"id": user.pk, "username": "hanzo", "display_name": "hanzo",
                                               "email": "h@example.com", "turn_email": False}


def test_register_without_email(api):
    res = api.post("/api/auth/register/", {"username": "kenji", "password": PASSWORD}, format="json")
    assert res.status_code == 201 and get_user_model().objects.get(username="kenji").email == ""


@pytest.mark.parametrize("password", ["short", "password123", "12345678901", "hanzo-hanzo"])
def test_weak_passwords_are_400_with_field_errors(api, password):
    res = api.post("/api/auth/register/", {"username": "hanzo-hanzo", "password": password}, format="json")
    assert res.status_code == 400
    body = res.json()
    assert body["code"] == "malformed" and body["extra"]["password"] and body["message"].startswith("password:")
    assert not get_user_model().objects.filter(username="hanzo-hanzo").exists()


@pytest.mark.parametrize("body, field", [
    ({"password": PASSWORD}, "username"),
    ({"username": "x y!", "password": PASSWORD}, "username"),
    ({"username": "bad-mail", "password": PASSWORD, "email": "not-an-email"}, "email"),
    ({"username": "nopass"}, "password"),
])
def test_register_malformed_is_400(api, body, field):
    res = api.post("/api/auth/register/", body, format="json")
    assert res.status_code == 400 and res.json()["code"] == "malformed" and field in res.json()["extra"]


def test_register_taken_username_case_insensitive(api, make_user):
    make_user(username="Akira")
    res = api.post("/api/auth/register/", {"username": "akira", "password": PASSWORD}, format="json")
    assert res.status_code == 400 and "username" in res.json()["extra"]


def test_register_malformed_json_is_400_malformed(api):
    res = api.post("/api/auth/register/", data="{nope", content_type="application/json")
    assert res.status_code == 400 and res.json()["code"] == "malformed"


# -- token -------------------------------------------------------------------------------------


def test_token_and_use_it(api, make_user):
    user = make_user(username="miko")
    res = token_of(api, "miko")
    assert res.status_code == 200
    key = res.json()["token"]
    assert res.json() == {"token": key} and Token.objects.get(user=user).key == key
    assert token_of(api, "miko").json()["token"] == key  # stable until logout
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert c.get("/api/auth/me/").json()["username"] == "miko"


@pytest.mark.parametrize("username, password", [("miko", "wrong-password-1"), ("nobody", PASSWORD)])
def test_bad_credentials_are_400_invalid_credentials(api, make_user, username, password):
    make_user(username="miko")
    res = token_of(api, username, password)
    assert res.status_code == 400 and res.json()["code"] == "invalid_credentials"


def test_token_missing_fields_is_400(api):
    res = api.post("/api/auth/token/", {"username": "x"}, format="json")
    assert res.status_code == 400 and res.json()["code"] == "malformed" and "password" in res.json()["extra"]


def test_successful_logins_do_not_count(api, make_user, settings):
    settings.LOGIN_RATE_LIMIT = 2
    make_user(username="miko")
    for _ in range(5):
        assert token_of(api, "miko").status_code == 200
    assert token_of(api, "miko", "wrong").status_code == 400
    assert token_of(api, "miko").status_code == 200


def test_window_expiry_lifts_the_limit(api, make_user, settings):
    settings.LOGIN_RATE_LIMIT = 1
    settings.LOGIN_RATE_WINDOW = 1
    make_user(username="miko")
    assert token_of(api, "miko", "wrong").status_code == 400
    assert token_of(api, "miko").status_code == 429
    import time

    time.sleep(1.2)
    assert token_of(api, "miko").status_code == 200


def test_deactivated_user_gets_no_token_and_cannot_use_one(api, make_user):
    user = make_user(username="miko")
    key = token_of(api, "miko").json()["token"]
    user.is_active = False
    user.save()
    res = token_of(api, "miko")
    assert res.status_code == 400 and res.json()["code"] == "invalid_credentials"
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    res = c.get("/api/auth/me/")
    assert res.status_code == 401 and res.json()["code"] == "authentication_failed"


# -- logout and me -----------------------------------------------------------------------------


def test_logout_deletes_token(api, make_user):
    make_user(username="miko")
    key = token_of(api, "miko").json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.post("/api/auth/logout/").status_code == 204
    assert not Token.objects.filter(key=key).exists()
    res = api.get("/api/auth/me/")
    assert res.status_code == 401


def test_logout_ends_the_session(make_user):
    user = make_user(username="miko")
    c = APIClient(enforce_csrf_checks=False)
    c.force_login(user)
    session_key = c.session.session_key
    assert c.get("/api/auth/me/").status_code == 200
    assert c.post("/api/auth/logout/").status_code == 204
    from django.contrib.sessions.models import Session

    assert not Session.objects.filter(session_key=session_key).exists()
    assert c.get("/api/auth/me/").status_code == 401  # no credentials left


def test_logout_anonymous_is_401(api):
    res = api.post("/api/auth/logout/")
    assert res.status_code == 401 and res.json()["code"] == "not_authenticated"


def test_me_patch(api, make_user, client_for):
    user = make_user(username="miko")
    c = client_for(user)
    assert c.get("/api/auth/me/").json()["display_name"] == "miko"  # profile made on first use
    res = c.patch("/api/auth/me/", {"display_name": "  Miko the Bold ", "email": "m@example.com",
                                    "password": "correct-horse-battery-9"}, format="json")  # a new e-mail needs it
    assert res.status_code == 200
    assert res.json() == {"id": user.pk, "username": "miko", "display_name": "Miko the Bold", "email": "m@example.com",
                          "turn_email": False}
    assert c.patch("/api/auth/me/", {"username": "miko-2"}, format="json").json()["username"] == "miko-2"
    user.refresh_from_db()
    assert user.get_username() == "miko-2"
    res = c.patch("/api/auth/me/", {"email": "nope"}, format="json")
    assert res.status_code == 400 and "email" in res.json()["extra"]
    res = c.patch("/api/auth/me/", {"display_name": "x" * 61}, format="json")
    assert res.status_code == 400 and "display_name" in res.json()["extra"]
    assert c.patch("/api/auth/me/", {"display_name": ""}, format="json").json()["display_name"] == "miko-2"


def test_me_anonymous_is_401(api):
    assert api.get("/api/auth/me/").status_code == 401
