"""One normalization and one uniqueness check for usernames, used by every path that creates or
renames a user: the API register, the web signup, PATCH /api/auth/me/, the admin forms and
createsuperuser (and, underneath them all, a unique database column).

A username is stored NFKC-normalized (so fullwidth ``ａｄｍｉｎ`` is stored as ``admin``) with the
case the user typed; two usernames collide when their *keys*, NFKC + case-folding (+ NFKC again,
as case-folding can denormalize), are equal. The key lives in ``Profile.username_key`` with a
unique constraint, kept by a ``post_save`` signal on the user model, so even two concurrent
registrations of ``Admin`` and ``ＡＤＭＩＮ`` cannot both succeed.

A new name must also not *look like* another account's: the *skeleton* (``username_skeleton``, in
the spirit of Unicode TR39) maps every character of the key to the prototype of its confusable set
(Cyrillic ``а`` and Latin ``a``, ``0`` and ``o``, ``rn`` and ``m``, dotless ``ı`` and ``i``...). It is
kept in ``Profile.username_skeleton`` (indexed, not unique: accounts whose names already looked alike
before the check keep them). Case-folding hides what a capital looks like (``Iohn`` reads as ``lohn``),
so a second skeleton maps the name's characters as shown, with their case, before the first is taken
(``username_cased_skeleton``): a new name looks like another when either matches. A name given up by a rename is kept as a ``RetiredUsername``: only the
account that held it can take it (or a lookalike of it) again, so its old matches, tournament entries
and its profile address are not someone else's.
"""

import hashlib
import re
import unicodedata
from functools import lru_cache

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Q

from games.application.identities import username_key, username_normalize

from .models import Profile, RetiredUsername

TAKEN = "A user with that username already exists."

# Django's UnicodeUsernameValidator allows these: a letter of any alphabet (é, ü, ø, 漢 are letters),
# a digit, "_" and ". @ + -". Its own message ("may contain only letters...") leaves a player who typed
# "ünï©ødé" guessing which character it means, so the check below names them.
_USERNAME_CHAR = re.compile(r"[\w.@+-]")
CHARACTERS_ALLOWED = "letters (of any alphabet, accents included), digits and _ . @ + -"


def _character_name(ch: str) -> str:
    if ch.isspace():
        return "spaces"
    return f"“{ch}”" if unicodedata.category(ch)[0] != "C" else unicodedata.name(ch, f"U+{ord(ch):04X}").lower()


def username_characters_check(value: str) -> None:
    """Refuse a username with a character Django's validator would refuse, saying which ones are
    wrong and exactly what is allowed (code ``invalid``, as Django's). Raises ValidationError."""
    bad = list(dict.fromkeys(_character_name(ch) for ch in value if not _USERNAME_CHAR.fullmatch(ch)))
    if bad:
        listed = bad[0] if len(bad) == 1 else f"{', '.join(bad[:-1])} and {bad[-1]}"
        raise ValidationError(f"{listed[0].upper()}{listed[1:]} cannot be in a username: use only {CHARACTERS_ALLOWED}.",
                              code="invalid")


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
    username_characters_check(value)
    User.username_validator(value)
    return value


# -- confusable skeletons ---------------------------------------------------------------------------

_MARKS = ("\u200e", "\u200f")  # the data wraps right-to-left characters in direction marks
# After case-folding, ``İ`` is ``i`` + COMBINING DOT ABOVE; dotless ``ı`` / ``ȷ`` read as ``i`` / ``j``.
_DOTS = (("i\u0307", "i"), ("j\u0307", "j"), ("\u0131", "i"), ("\u0237", "j"))


@lru_cache(maxsize=1)
def _prototypes() -> dict:
    """{character: prototype} from Unicode's confusables.txt as ``confusable_homoglyphs`` ships it.

    The package keeps each source -> prototype line of confusables.txt in both directions, so every
    confusable set is a star around its prototype: the set's one multi-character member (``rn`` for
    ``m``) if it has one (sources are single characters), else the member confused with several
    others. A set of two (one source, its prototype) does not say which is which: any fixed member
    does for comparing, one that case-folding and NFD leave alone first, then the lowest code point
    (``username_skeleton`` maps the result again until it stops changing)."""
    from confusable_homoglyphs.confusables import confusables_data

    def clean(text):
        for mark in _MARKS:
            text = text.replace(mark, "")
        return text

    neighbours: dict[str, set] = {}
    for char, entries in confusables_data.items():
        char = clean(char)
        for entry in entries:
            other = clean(entry["c"])
            if char and other and char != other:
                neighbours.setdefault(char, set()).add(other)
                neighbours.setdefault(other, set()).add(char)
    stable = lambda s: s.casefold() == s and unicodedata.normalize("NFD", s) == s  # noqa: E731
    out, seen = {}, set()
    for start in sorted(neighbours):
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node not in group:
                group.add(node)
                todo.extend(neighbours[node] - group)
        seen |= group
        multi = sorted(m for m in group if len(m) > 1)
        hubs = sorted(m for m in group if len(neighbours[m]) > 1)
        prototype = (multi or hubs or sorted(group, key=lambda m: (not stable(m), m)))[0]
        out.update({m: prototype for m in group if len(m) == 1 and m != prototype})
    return out


def _skeleton_step(text: str, table: dict) -> str:
    # NFKD, not only TR39's NFD: a few prototypes are compatibility characters (``ˡ``, ``①``)
    text = unicodedata.normalize("NFKD", "".join(table.get(c, c) for c in text)).casefold()
    text = unicodedata.normalize("NFKD", text)
    for dotted, plain in _DOTS:
        text = text.replace(dotted, plain)
    return text


SKELETON_MAX = 300  # Profile.username_skeleton's length


def username_skeleton(value: str) -> str:
    """The lookalike form: the key (NFKC + case-folding), dotted ``İ`` and dotless ``ı`` folded to
    ``i``, then every character mapped to the prototype of its confusable set (TR39's skeleton, on
    NFKD), case-folded again, until it stops changing. ``аlice`` (Cyrillic а), ``alıce``, ``ALİCE``
    and ``alice`` share one; so do ``b0b`` and ``bob``. Stored as ``Profile.username_skeleton``: a
    long one (over ``SKELETON_MAX`` characters) is stored as its SHA-256 (``#`` + hex)."""
    table = _prototypes()
    text = _skeleton_step(username_key(value), {})
    for _ in range(8):
        mapped = _skeleton_step(text, table)
        if mapped == text:
            break
        text = mapped
    if len(text) > SKELETON_MAX:
        text = "#" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    return text


def username_cased_skeleton(value: str) -> str:
    """The lookalike form of the name *as shown*: its characters mapped to their prototypes with
    their case kept (TR39's skeleton on the NFKC name, NFKD, until it stops changing), and only then
    ``username_skeleton``. Case-folding first, as ``username_skeleton`` does, loses what a capital
    looks like: ``Iohn`` (capital I) folds to ``iohn`` while it reads as ``lohn`` (``I`` and ``l``
    share a prototype), and ``PauI`` reads as ``Paul``, the same account as ``paul``. Two names look
    alike when either of their skeletons is equal. Stored as ``Profile.username_cased_skeleton``."""
    table = _prototypes()
    text = unicodedata.normalize("NFKD", username_normalize(value))
    for _ in range(8):
        mapped = unicodedata.normalize("NFKD", "".join(table.get(c, c) for c in text))
        if mapped == text:
            break
        text = mapped
    return username_skeleton(text)


def username_skeletons(value: str) -> tuple[str, str]:
    """``(username_skeleton, username_cased_skeleton)``: two names look alike when either is equal."""
    return username_skeleton(value), username_cased_skeleton(value)


def _lookalike(skeleton: str, cased: str) -> Q:
    return Q(username_skeleton=skeleton) | Q(username_cased_skeleton=cased)


def username_taken(value: str, *, exclude_user_id=None) -> bool:
    """Is a username with the same key held by another account, or is it a *new* name that looks
    like another account's name or like a name another account gave up (``RetiredUsername``)?

    Checks the unique ``Profile.username_key`` column, and users that have no key yet (made
    before the column existed and colliding with an older name) by a case-insensitive match. A name
    with the key the account (``exclude_user_id``) already has is not new: accounts whose names
    looked alike before the skeleton check keep them (and can still recase them)."""
    key = username_key(value)
    profiles = Profile.objects.filter(username_key=key)
    users = get_user_model().objects.filter(username__iexact=username_normalize(value))
    if exclude_user_id is not None:
        profiles = profiles.exclude(user_id=exclude_user_id)
        users = users.exclude(pk=exclude_user_id)
    if profiles.exists() or users.exists():
        return True
    if exclude_user_id is not None and Profile.objects.filter(user_id=exclude_user_id, username_key=key).exists():
        return False
    lookalike = _lookalike(*username_skeletons(value))
    alike = Profile.objects.filter(lookalike)
    retired = RetiredUsername.objects.filter(lookalike)
    if exclude_user_id is not None:
        alike = alike.exclude(user_id=exclude_user_id)
        retired = retired.exclude(user_id=exclude_user_id)
    return alike.exists() or retired.exists()


def username_claim_lock(value: str) -> None:
    """Inside the transaction that is about to register or rename: on PostgreSQL, wait for any other
    transaction claiming a name with the same skeleton or the same cased skeleton (a
    transaction-scoped advisory lock on each, taken in one order so that two claims cannot deadlock),
    so that two lookalikes cannot both pass ``username_taken`` (the skeleton columns are not unique).
    The caller checks ``username_taken`` again after it. SQLite runs one writer at a time."""
    if connection.vendor != "postgresql":
        return
    keys = sorted({_advisory_key(skeleton) for skeleton in username_skeletons(value)})
    with connection.cursor() as cursor:
        for key in keys:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def _advisory_key(skeleton: str) -> int:
    digest = hashlib.blake2b(skeleton.encode("utf-8"), digest_size=8, person=b"kamiza-username").digest()
    return int.from_bytes(digest, "big", signed=True)
