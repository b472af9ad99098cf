"""Renaming is throttled per account (the probe: 40 renames of one account in 0.5 s through
``PATCH /api/auth/me/``, each one keeping the name given up as a ``RetiredUsername`` that nobody
else may take, so one token could reserve any number of names, lookalikes included, past the
registration throttle). The API and the account page share one count (``username_change`` scope,
``USERNAME_CHANGE_RATE``); only a request that changes the name is counted."""

import pytest
from django.test import Client

from accounts.models import RetiredUsername

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"


def _rename(client, name):
    return client.patch("/api/auth/me/", {"username": name}, format="json")


def test_the_probe_renaming_again_and_again_is_429_with_retry_after(make_user, client_for, rates):
    """Given a rate of 3 renames an hour, when an account renames itself a fourth time, then 429
    throttled with Retry-After, and neither the name nor the retired names change."""
    rates(username_change="3/hour")
    user = make_user(username="squatter")
    c = client_for(user)
    for i in range(3):
        assert _rename(c, f"squatter{i}").status_code == 200
    res = _rename(c, "admin-official")
    assert res.status_code == 429, res.content
    assert res.json()["code"] == "throttled" and int(res["Retry-After"]) >= 1
    user.refresh_from_db()
    assert user.get_username() == "squatter2"
    assert RetiredUsername.objects.filter(user=user).count() == 3
    assert not RetiredUsername.objects.filter(username_key="admin-official").exists()


def test_other_changes_and_the_same_name_are_not_counted(make_user, client_for, rates):
    rates(username_change="1/hour")
    user = make_user(username="quiet")
    c = client_for(user)
    for _ in range(3):
        assert c.patch("/api/auth/me/", {"display_name": "Q"}, format="json").status_code == 200
        assert _rename(c, "quiet").status_code == 200
    assert _rename(c, "quieter").status_code == 200
    assert _rename(c, "quietest").status_code == 429


def test_the_account_page_shares_the_count(make_user, client_for, rates):
    """Renames through the API and through the account page are one count; the page says why."""
    rates(username_change="2/hour")
    user = make_user(username="pager")
    assert _rename(client_for(user), "pager1").status_code == 200
    page = Client(REMOTE_ADDR="10.0.0.1")
    page.force_login(user)
    assert page.post("/account/username/", {"username": "pager2"}).status_code == 302
    res = page.post("/account/username/", {"username": "pager3"}, follow=True)
    assert "too quickly" in res.content.decode() and "code-throttled" in res.content.decode()
    user.refresh_from_db()
    assert user.get_username() == "pager2"
    assert _rename(client_for(user), "pager4").status_code == 429
