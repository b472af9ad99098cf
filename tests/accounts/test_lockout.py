"""Login lockout (finding 3): separate limits per account + IP, per account and per IP.

The policy is docs/security.md, "Login lockout"; accounts.lockout implements it. The first two
tests are the probe's reproduction with the default settings (LOGIN_RATE_LIMIT 10, window 300 s).
"""

import threading

import pytest
from django.test import RequestFactory

from accounts import lockout, services
from accounts.errors import TooManyAttempts

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"


def token_of(api, username, password=PASSWORD, ip="10.0.0.1"):
    return api.post("/api/auth/token/", {"username": username, "password": password}, format="json", REMOTE_ADDR=ip)


def fail(api, username, times, ip):
    codes = {token_of(api, username, "wrong-password-1", ip=ip).status_code for _ in range(times)}
    assert codes <= {400, 429}
    return codes


# -- the probe's findings ---------------------------------------------------------------------


def test_a_correct_password_from_an_address_never_seen_failing_still_works(api, make_user):
    """Given 13 wrong passwords for miko from one address, when miko logs in from another
    address with the right password, then it works (before: 429 for 300 s from everywhere)."""
    make_user(username="miko")
    assert fail(api, "miko", 13, ip="203.0.113.66") == {400, 429}
    assert token_of(api, "miko", ip="203.0.113.66").status_code == 429  # the guessing address stays out
    assert token_of(api, "miko", ip="198.51.100.7").status_code == 200


def test_another_user_behind_the_same_address_is_not_locked(api, make_user):
    """Given 13 wrong passwords for miko from a NAT's address, when yuki logs in from the same
    address with her right password, then it works (before: one NAT meant one lock)."""
    make_user(username="miko")
    make_user(username="yuki")
    fail(api, "miko", 13, ip="192.0.2.1")
    assert token_of(api, "yuki", ip="192.0.2.1").status_code == 200


# -- each limit ----------------------------------------------------------------------------------


def test_one_address_guessing_one_account_is_refused_even_with_the_right_password(api, make_user, settings):
    settings.LOGIN_RATE_LIMIT = 3
    make_user(username="miko")
    assert fail(api, "miko", 3, ip="10.0.1.1") == {400}
    res = token_of(api, "miko", ip="10.0.1.1")
    assert res.status_code == 429
    assert res.json()["code"] == "too_many_attempts" and res["Retry-After"] == str(settings.LOGIN_RATE_WINDOW)
    assert set(res.json()) >= {"code", "message"}


def test_many_addresses_on_one_account_get_one_guess_each_once_over_the_account_limit(api, make_user, settings):
    settings.LOGIN_RATE_LIMIT = 5
    settings.LOGIN_RATE_LIMIT_PER_ACCOUNT = 4
    make_user(username="miko")
    for i in range(4):  # under every limit: each address may retry
        assert token_of(api, "miko", "wrong", ip=f"10.0.2.{i}").status_code == 400
    assert token_of(api, "miko", "wrong", ip="10.0.2.50").status_code == 400  # a fresh address: one guess...
    assert token_of(api, "miko", "wrong", ip="10.0.2.50").status_code == 429  # ...and no second one
    assert token_of(api, "miko", ip="10.0.2.0").status_code == 429  # an address that failed is out, right password or not
    assert token_of(api, "miko", ip="10.0.2.99").status_code == 200  # the owner, from an address never failing


def test_one_address_spraying_many_accounts_hits_the_address_limit(api, make_user, settings):
    settings.LOGIN_RATE_LIMIT_PER_IP = 5
    make_user(username="miko")
    for i in range(5):
        assert token_of(api, f"victim{i}", "wrong", ip="10.9.9.9").status_code == 400
    res = token_of(api, "miko", ip="10.9.9.9")
    assert res.status_code == 429 and res.json()["code"] == "too_many_attempts"
    assert token_of(api, "miko", ip="10.9.9.8").status_code == 200


def test_refused_attempts_do_not_count_against_the_account_or_the_address(api, make_user, settings):
    """Hammering a locked pair must not spill over onto the account's other addresses or the
    address's other accounts."""
    settings.LOGIN_RATE_LIMIT = 2
    settings.LOGIN_RATE_LIMIT_PER_ACCOUNT = 5
    settings.LOGIN_RATE_LIMIT_PER_IP = 5
    make_user(username="miko")
    make_user(username="yuki")
    fail(api, "miko", 30, ip="10.3.3.3")
    assert token_of(api, "yuki", ip="10.3.3.3").status_code == 200
    assert token_of(api, "miko", "wrong", ip="10.3.3.4").status_code == 400
    assert token_of(api, "miko", ip="10.3.3.4").status_code == 200


def test_lookalike_usernames_share_one_count(api, make_user, settings):
    settings.LOGIN_RATE_LIMIT = 2
    make_user(username="admin")
    token_of(api, "ａｄｍｉｎ", "wrong", ip="10.4.4.4")  # fullwidth
    token_of(api, "ADMIN", "wrong", ip="10.4.4.4")
    assert token_of(api, "admin", ip="10.4.4.4").status_code == 429


def test_web_login_form_follows_the_same_policy(client, make_user):
    make_user(username="miko")
    make_user(username="yuki")
    for _ in range(11):
        client.post("/login/", {"username": "miko", "password": "wrong"}, REMOTE_ADDR="192.0.2.9")
    res = client.post("/login/", {"username": "miko", "password": PASSWORD}, REMOTE_ADDR="192.0.2.9")
    assert res.status_code == 429 and b"Too many failed login attempts" in res.content  # the page words it as a sentence
    res = client.post("/login/", {"username": "yuki", "password": PASSWORD}, REMOTE_ADDR="192.0.2.9")
    assert res.status_code == 302


@pytest.mark.parametrize("counts, refused", [
    ({"pair_count": 1, "account_count": 1, "ip_count": 1}, None),
    ({"pair_count": 11, "account_count": 11, "ip_count": 11}, "account_ip"),
    ({"pair_count": 1, "account_count": 500, "ip_count": 1}, None),  # a fresh address on an attacked account
    ({"pair_count": 2, "account_count": 21, "ip_count": 2}, "account"),
    ({"pair_count": 2, "account_count": 20, "ip_count": 2}, None),
    ({"pair_count": 1, "account_count": 1, "ip_count": 101}, "ip"),
])
def test_the_policy_as_a_pure_function(counts, refused, settings):
    settings.LOGIN_RATE_LIMIT, settings.LOGIN_RATE_LIMIT_PER_ACCOUNT, settings.LOGIN_RATE_LIMIT_PER_IP = 10, 20, 100
    assert lockout.refusal(**counts) == refused


# -- concurrency ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_concurrent_guesses_from_one_address_cannot_overshoot_its_limit(make_user, settings, monkeypatch):
    """Slots are taken atomically before the password check, so N parallel guesses from one address
    check at most LOGIN_RATE_LIMIT passwords."""
    settings.LOGIN_RATE_LIMIT = 4
    checked, outcomes = [], []
    lock = threading.Lock()
    barrier = threading.Barrier(12)

    def fake_authenticate(request, username, password):
        with lock:
            checked.append(password)
        return None

    monkeypatch.setattr(services, "authenticate", fake_authenticate)

    def guess(i):
        barrier.wait()
        try:
            outcomes.append(services.user_authenticate(RequestFactory().post("/", REMOTE_ADDR="10.2.0.1"), "target", f"guess-{i}"))
        except TooManyAttempts:
            outcomes.append("429")

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(checked) == 4
    assert outcomes.count("429") == 8 and outcomes.count(None) == 4
