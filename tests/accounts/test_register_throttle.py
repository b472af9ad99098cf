"""Registration is throttled per client IP (settings REGISTER_RATE), answered as a JSON 429."""

import pytest
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

pytestmark = pytest.mark.django_db


def test_registration_is_throttled_per_client(monkeypatch):
    # DRF reads the rates into the class when it is imported; set the scope's rate there.
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, "register": "3/hour"})
    client = APIClient()
    codes = [client.post("/api/auth/register/", {"username": f"newbie{i}", "password": "a-long-pass-phrase-1"},
                         format="json").status_code for i in range(4)]
    assert codes == [201, 201, 201, 429]
    body = client.post("/api/auth/register/", {"username": "late", "password": "a-long-pass-phrase-1"}, format="json").json()
    assert body["code"] == "throttled" and "message" in body
