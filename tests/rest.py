"""REST test helpers shared by the API tests: a client acting as a user, and the error body check."""

from rest_framework.test import APIClient


def api_as(user=None) -> APIClient:
    """An API client authenticated as ``user`` (anonymous for None), without a token row."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def assert_error(res, status: int, code: str) -> dict:
    """The refusal's status, and its body: a stable ``code`` and a non-empty human ``message``."""
    assert res.status_code == status, (res.status_code, res.content[:300])
    body = res.json()
    assert body["code"] == code and isinstance(body["message"], str) and body["message"], body
    return body
