"""One account per e-mail address, compared without regard to case (``NEWBIE1@example.com`` is
``newbie1@example.com``): the address is where password reset links and "your turn" e-mails go, so
an account must not point them at another account's inbox.

Sign-up (the page and ``POST /api/auth/register/``) and a change of address (the account page,
``PATCH /api/auth/me/``, the admin's user forms: ``forms.EmailCheckMixin``) refuse an address another account has, ``EmailTaken`` (409
``email_taken``), saying no more than that (not which account). The check runs in the transaction
that saves the address, after ``email_claim_lock`` (PostgreSQL: two claims of one address wait for
each other, so both cannot pass).

Accounts that shared an address before this rule keep it (nothing is rewritten, no migration can
fail on them): the address belongs to its first holder (the oldest account), who alone gets its
password reset mail (``first_holders``: one mail per address) and its turn e-mails; the others can
set an address of their own on the account page.
"""

import hashlib

from django.contrib.auth import get_user_model
from django.db import connection

from .errors import EmailTaken


def email_key(email: str | None) -> str:
    """The address as compared: trimmed, lower case ("" for none)."""
    return (email or "").strip().lower()


def email_taken(email: str | None, *, exclude_user_id=None) -> bool:
    """Does another account (``exclude_user_id`` aside) have this address, in any case?"""
    key = email_key(email)
    if not key:
        return False
    others = get_user_model().objects.filter(email__iexact=key)
    if exclude_user_id is not None:
        others = others.exclude(pk=exclude_user_id)
    return others.exists()


def email_claim_lock(email: str | None) -> None:
    """Inside the transaction that is about to save ``email`` as an account's address: on PostgreSQL,
    wait for any other transaction claiming the same address (a transaction-scoped advisory lock on
    its key); the caller checks ``email_taken`` after it. SQLite runs one writer at a time."""
    key = email_key(email)
    if not key or connection.vendor != "postgresql":
        return
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8, person=b"kamiza-email").digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [int.from_bytes(digest, "big", signed=True)])


def email_claim(email: str | None, *, exclude_user_id=None) -> None:
    """Lock the address and refuse it when another account has it (``EmailTaken``)."""
    email_claim_lock(email)
    if email_taken(email, exclude_user_id=exclude_user_id):
        raise EmailTaken()


def first_holders(users) -> list:
    """Of ``users``, only the oldest account of each address (case aside): one reset mail per address
    even where accounts shared an address before addresses were unique."""
    chosen: dict = {}
    for user in sorted(users, key=lambda u: u.pk):
        chosen.setdefault(email_key(user.email), user)
    return list(chosen.values())


def holds_its_address(user) -> bool:
    """Is ``user`` the first holder of its address (no older account has it, in any case)?"""
    key = email_key(user.email)
    return bool(key) and not get_user_model().objects.filter(email__iexact=key, pk__lt=user.pk).exists()
