"""Locking the accounts a write is about to enter somewhere (a tournament, a campaign), before the
write's own locks.

An account's deletion (``accounts.selfservice.account_anonymize``) locks the account's row first,
then the tournaments, campaigns and matches it leaves. A write that enters players takes the same
row locks first, so the two are ordered: a deletion under way has either committed, and the write
finds the account inactive, or it waits for the write to commit, and then finds what the write
entered and takes it out again.
"""

from django.contrib.auth import get_user_model


def lock_accounts(users) -> set:
    """Lock the rows of ``users`` (None ignored) in id order; the ids among them that are no longer
    active (deleted or deactivated). Call inside the write's transaction."""
    ids = sorted({user.pk for user in users if user is not None})
    rows = (get_user_model().objects.select_for_update().filter(pk__in=ids).order_by("pk")
            .values_list("pk", "is_active"))
    return {pk for pk, active in rows if not active}
