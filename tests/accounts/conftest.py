import uuid

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def _fast_and_fresh(settings):
    # Password hashing dominates API test time; the hasher is not what these tests check.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def client_for():
    """An APIClient authenticated with ``user``'s token."""

    def make(user):
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
        return c

    return make


@pytest.fixture
def command():
    def make(type_="pass", args=None, expected_seq=0, command_id=None):
        return {"command_id": str(command_id or uuid.uuid4()), "expected_seq": expected_seq, "type": type_,
                "args": {} if args is None else args}

    return make
