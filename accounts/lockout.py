"""Login lockout: separate failure limits per (account, IP), per account and per IP.

Policy (docs/security.md, "Login lockout"); all counts are failed attempts within
``LOGIN_RATE_WINDOW`` seconds of the first one:

- **account + IP** (``LOGIN_RATE_LIMIT``, 10): one address guessing one account is refused, even
  with the right password, once it has used its attempts.
- **account** (``LOGIN_RATE_LIMIT_PER_ACCOUNT``, 20): many addresses guessing one account. Once
  the account is over this limit, an address that has failed on it even once is refused; an
  address that has never failed on it still logs in with the right password (so its owner is not
  locked out by strangers), and a wrong guess from it makes it one of the refused ones. An
  attacker gets one guess per fresh address per window.
- **IP** (``LOGIN_RATE_LIMIT_PER_IP``, 100): one address spraying many accounts. Set far above
  the account limit so that one person guessing one account never locks out the other users
  behind the same NAT.

Counting uses atomic counters in the Django cache (``cache.add`` then ``cache.incr``; Redis in
distributed mode, so every server shares one count). Each attempt takes a slot *before* the
password is checked, so concurrent guesses cannot overshoot a limit; a success gives its slots
back, and a refused attempt never counts against the account or the IP (only against its own
account + IP pair). Usernames are counted by their ``identity.username_key``, so ``ＡＤＭＩＮ`` and
``admin`` share one count.

The same limits hold for a signed-in user's password checked again (``recheck_begin``: the password
change, the e-mail change and the account deletion, on the API and the pages), counted per account
id: a stolen session or token is no better an oracle for the password than the login form.
"""

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from .identity import username_key


def pair_limit() -> int:
    return settings.LOGIN_RATE_LIMIT


def account_limit() -> int:
    return getattr(settings, "LOGIN_RATE_LIMIT_PER_ACCOUNT", 2 * settings.LOGIN_RATE_LIMIT)


def ip_limit() -> int:
    return getattr(settings, "LOGIN_RATE_LIMIT_PER_IP", 10 * settings.LOGIN_RATE_LIMIT)


def window() -> int:
    return settings.LOGIN_RATE_WINDOW


def _key(kind: str, *values: str) -> str:
    digest = hashlib.sha256("\x00".join(values).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"login-attempts:{kind}:{digest}"


def _take_slot(key: str) -> int:
    """Atomically count one attempt in ``key`` and return the new count."""
    for _ in range(3):
        cache.add(key, 0, timeout=window())
        try:
            return cache.incr(key)
        except ValueError:  # the key expired between add and incr: start a new window
            continue
    return 1


def _give_back(key: str) -> None:
    try:
        cache.decr(key)
    except ValueError:
        pass


@dataclass(frozen=True)
class Attempt:
    """The slots one login attempt holds; ``refused`` names the limit that refuses it, if any."""

    keys: tuple[str, ...]
    refused: str | None


def refusal(*, pair_count: int, account_count: int, ip_count: int) -> str | None:
    """Which limit (if any) refuses an attempt, given the counts *including* this attempt.
    Pure: the whole policy in one place."""
    if pair_count > pair_limit():
        return "account_ip"
    if account_count > account_limit() and pair_count > 1:  # this address has failed on it before
        return "account"
    if ip_count > ip_limit():
        return "ip"
    return None


def attempt_begin(username: str, ip: str) -> Attempt:
    name = username_key(username)
    return _begin(_key("pair", name, ip), _key("user", name), _key("ip", ip))


def recheck_begin(user_id, ip: str) -> Attempt:
    """A signed-in account's password checked again (changing the password or the e-mail address,
    deleting the account): the same limits as a login, counted per account *id* (so renaming the
    account does not start a new count) with their own account and account + IP counts, and the
    address's count shared with the logins (a guess is a guess, whichever form it came through)."""
    account = str(user_id)
    return _begin(_key("recheck-pair", account, ip), _key("recheck-user", account), _key("ip", ip))


def _begin(pair: str, account: str, addr: str) -> Attempt:
    n_pair = _take_slot(pair)
    n_account, n_ip = _take_slot(account), _take_slot(addr)
    refused = refusal(pair_count=n_pair, account_count=n_account, ip_count=n_ip)
    if refused is not None:  # a refused attempt checks no password: it is not a guess
        _give_back(account)
        _give_back(addr)
    return Attempt(keys=(pair, account, addr), refused=refused)


def attempt_succeeded(attempt: Attempt) -> None:
    """A success does not count as a failed attempt."""
    for key in attempt.keys:
        _give_back(key)


def attempts_reset(username: str | None = None, ip: str | None = None, user_id=None) -> None:
    """Clear the account-wide count of ``username``, the count of address ``ip``, and with both
    given the count of that address on that account (e.g. after an admin unlocks an account); with
    ``user_id``, that account's password re-check counts too (``recheck_begin``)."""
    if username is not None:
        cache.delete(_key("user", username_key(username)))
    if ip is not None:
        cache.delete(_key("ip", ip))
    if username is not None and ip is not None:
        cache.delete(_key("pair", username_key(username), ip))
    if user_id is not None:
        cache.delete(_key("recheck-user", str(user_id)))
        if ip is not None:
            cache.delete(_key("recheck-pair", str(user_id), ip))
