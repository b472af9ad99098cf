"""Locking the accounts a write is about to enter somewhere (a tournament, a campaign), before the
write's own locks.

An account's deletion (``accounts.selfservice.account_anonymize``) locks the account's row first,
then the tournaments, campaigns and matches it leaves. A write that enters players takes the same
row locks first, so the two are ordered: a deletion under way has either committed, and the write
finds the account inactive, or it waits for the write to commit, and then finds what the write
entered and takes it out again.
"""

from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.db import transaction

from .errors import AccountInactive


def lock_accounts(users) -> set:
    """Lock the rows of ``users`` (None ignored) in id order; the ids among them that are no longer
    active (deleted or deactivated). Call inside the write's transaction. The lock is PostgreSQL's
    FOR NO KEY UPDATE, as the deletion's: the two exclude each other, while rows that merely refer
    to the account (a seat, an entry) are written without waiting for either."""
    return lock_account_ids(user.pk for user in users if user is not None)


def lock_account_ids(user_ids) -> set:
    """``lock_accounts`` by the accounts' ids."""
    ids = sorted(set(user_ids))
    rows = (get_user_model().objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")
            .values_list("pk", "is_active"))
    return {pk for pk, active in rows if not active}


@contextmanager
def accounts_entering(users):
    """A transaction whose first statement locks ``users``' rows (``lock_accounts``): for a player's
    own way in (taking a seat, opening a match, accepting an invitation), which must not commit after
    that account's deletion has looked where it sits. Raises AccountInactive if one is no longer
    active. Never around a write that already holds a tournament's or a campaign's lock: a deletion
    takes the account's row before those, so the order would be inverted."""
    with transaction.atomic():
        if lock_accounts(users):
            raise AccountInactive()
        yield
