import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Users are created by the dozen here; the production hasher costs ~1.5 s each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
