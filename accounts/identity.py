"""One normalization and one uniqueness check for usernames, used by every path that creates or
renames a user: the API register, the web signup, PATCH /api/auth/me/, the admin forms and
createsuperuser (and, underneath them all, a unique database column).

A username is stored NFKC-normalized (so fullwidth ``ａｄｍｉｎ`` is stored as ``admin``) with the
case the user typed; two usernames collide when their *keys*, NFKC + case-folding (+ NFKC again,
as case-folding can denormalize), are equal. The key lives in ``Profile.username_key`` with a
unique constraint, kept by a ``post_save`` signal on the user model, so even two concurrent
registrations of ``Admin`` and ``ＡＤＭＩＮ`` cannot both succeed.
"""

import unicodedata

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from .models import Profile

TAKEN = "A user with that username already exists."


def username_normalize(value: str) -> str:
    """The stored form: NFKC (what Django's AbstractBaseUser.normalize_username does)."""
    return unicodedata.normalize("NFKC", str(value or ""))


def username_clean(value: str) -> str:
    """NFKC-normalize and check Django's character rules and the column's length *after*
    normalization (NFKC can lengthen a name: ``㍿`` is four letters). Raises ValidationError."""
    User = get_user_model()
    value = username_normalize(value)
    limit = User._meta.get_field(User.USERNAME_FIELD).max_length
    if not value:
        raise ValidationError("This field may not be blank.", code="blank")
    if limit and len(value) > limit:
        raise ValidationError(f"Ensure this field has no more than {limit} characters.", code="max_length")
    User.username_validator(value)
    return value


def username_key(value: str) -> str:
    """The comparison form: NFKC, case-folded, NFKC again (Unicode's "NFKC_Casefold" in practice)."""
    return unicodedata.normalize("NFKC", username_normalize(value).casefold())


def username_taken(value: str, *, exclude_user_id=None) -> bool:
    """Is a username with the same key held by another account?

    Checks the unique ``Profile.username_key`` column, and users that have no key yet (made
    before the column existed and colliding with an older name) by a case-insensitive match."""
    key = username_key(value)
    profiles = Profile.objects.filter(username_key=key)
    users = get_user_model().objects.filter(username__iexact=username_normalize(value))
    if exclude_user_id is not None:
        profiles = profiles.exclude(user_id=exclude_user_id)
        users = users.exclude(pk=exclude_user_id)
    return profiles.exists() or users.exists()
