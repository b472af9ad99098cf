"""accounts.services: the rate-limited authenticate shared by the token endpoint and the web
login form, logout, and the cheap per-socket re-check ``user_is_active_session``."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from accounts import services
from accounts.errors import TooManyAttempts
from games.application.errors import PlatformError

PASSWORD = "correct-horse-battery-9"


def web_request(ip="10.1.1.1"):
    request = RequestFactory().post("/login/", REMOTE_ADDR=ip)
    request.session = SessionStore()
    return request


@pytest.mark.django_db
def test_authenticate_returns_user_none_or_raises_too_many_attempts(make_user, settings):
    settings.LOGIN_RATE_LIMIT = 2
    user = make_user(username="yuki")
    assert services.user_authenticate(web_request(), "yuki", PASSWORD) == user
    assert services.user_authenticate(web_request(), "yuki", "wrong") is None
    assert services.user_authenticate(web_request(), "yuki", "") is None
    with pytest.raises(TooManyAttempts) as err:
        services.user_authenticate(web_request(), "yuki", PASSWORD)
    # the web login form catches PlatformError and shows err.message with err.status
    assert isinstance(err.value, PlatformError) and err.value.status == 429
    assert err.value.as_dict()["code"] == "too_many_attempts"


@pytest.mark.django_db
def test_logout_from_a_web_request_flushes_session_and_deletes_token(make_user):
    user = make_user()
    Token.objects.create(user=user)
    request = web_request()
    request.user = user
    from django.contrib.auth import login

    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session.save()
    key = request.session.session_key
    assert services.user_is_active_session(user.pk, session_key=key)
    services.user_logout(request)
    assert not Token.objects.filter(user=user).exists()
    assert not services.user_is_active_session(user.pk, session_key=key)
    assert not request.user.is_authenticated


def _logged_in_session(user) -> str:
    request = web_request()
    from django.contrib.auth import login

    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    request.session.save()
    return request.session.session_key


@pytest.mark.django_db
def test_active_session_checks(make_user):
    user, other = make_user(), make_user()
    key = _logged_in_session(user)
    token = Token.objects.create(user=user).key
    assert services.user_is_active_session(user.pk)
    assert services.user_is_active_session(user.pk, session_key=key)
    assert services.user_is_active_session(user.pk, token_key=token)
    assert services.user_is_active_session(user.pk, session_key=key, token_key=token)
    # someone else's session or token is not this user's login
    assert not services.user_is_active_session(other.pk, session_key=key)
    assert not services.user_is_active_session(other.pk, token_key=token)
    assert not services.user_is_active_session(user.pk, session_key="nosuchsession")
    assert not services.user_is_active_session(user.pk, token_key="nosuchtoken")
    assert not services.user_is_active_session(None)
    assert not services.user_is_active_session(999999)


@pytest.mark.django_db
def test_deactivation_ends_sessions_and_tokens(make_user):
    user = make_user()
    key = _logged_in_session(user)
    token = Token.objects.create(user=user).key
    services.user_deactivate(user)
    assert not services.user_is_active_session(user.pk)
    assert not services.user_is_active_session(user.pk, session_key=key)
    assert not services.user_is_active_session(user.pk, token_key=token)
    assert not Token.objects.filter(key=token).exists()


@pytest.mark.django_db
def test_deactivated_flag_alone_is_enough(make_user):
    """An admin unticking is_active (no token deletion) still stops both kinds of socket."""
    user = make_user()
    key = _logged_in_session(user)
    token = Token.objects.create(user=user).key
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert not services.user_is_active_session(user.pk, session_key=key)
    assert not services.user_is_active_session(user.pk, token_key=token)


@pytest.mark.django_db
def test_password_change_invalidates_old_sessions(make_user):
    user = make_user()
    key = _logged_in_session(user)
    user.set_password("another-long-passphrase-7")
    user.save()
    assert not services.user_is_active_session(user.pk, session_key=key)


@pytest.mark.django_db
def test_the_check_is_cheap(make_user):
    user = make_user()
    key = _logged_in_session(user)
    token = Token.objects.create(user=user).key
    with CaptureQueriesContext(connection) as q:
        assert services.user_is_active_session(user.pk, token_key=token)
    assert len(q) == 1
    with CaptureQueriesContext(connection) as q:
        assert services.user_is_active_session(user.pk, session_key=key)
    assert len(q) == 2


@pytest.mark.django_db
def test_register_service_validates_the_password(make_user):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        services.user_register(username="weakling", password="123")
    user = services.user_register(username="strong", password=PASSWORD, email="s@example.com")
    assert user.profile.display_name == "strong" and user.check_password(PASSWORD)


@pytest.mark.django_db
@pytest.mark.parametrize("user_id", ["abc", "", [], {"x": 1}, -1])
def test_active_session_with_a_nonsense_user_id_is_false(user_id):
    assert services.user_is_active_session(user_id, session_key="x", token_key="y") is False
