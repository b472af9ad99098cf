"""Who is on the other end of a socket, and whether they still may act.

A socket authenticates once, at the handshake (session cookie with an allowed Origin, a
single-use ticket, an ``Authorization: Token`` header, or the deprecated ``?token=``) or with its
first ``auth`` message, and records *how* (``scope["kamiza_auth"]``: user_id plus session_key or
token_key; a ticket carries the login it was issued from). Every
incoming message and a periodic timer then ask :func:`still_authorised`, so logging out
(session deleted), revoking the token, changing the password (session hash) or deactivating
the user ends the socket's ability to act within one recheck interval.

The accounts app owns the canonical check (``accounts.services.user_is_active_session``); until
it exists this module carries an equivalent written against Django's session store, DRF's Token
and ``user.is_active``.
"""

import logging
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils.crypto import constant_time_compare

log = logging.getLogger(__name__)


def user_for_token(token_key):
    """The active user owning the unexpired DRF token ``token_key``, or None."""
    from accounts.tokens import user_for_token_key

    found = user_for_token_key(token_key)
    return found[0] if found else None


def auth_for_ticket(ticket) -> tuple[dict | None, object]:
    """Redeem a socket ticket -> (``kamiza_auth`` dict, user), or (None, None) when the ticket is
    unknown, expired, already used, or the login it was issued from has ended."""
    from accounts.tokens import ticket_redeem

    data = ticket_redeem(ticket)
    if data is None:
        return None, None
    auth = {"user_id": data["user_id"]}
    auth.update({k: data[k] for k in ("session_key", "token_key") if data.get(k) is not None})
    if not still_authorised(auth):
        return None, None
    user = get_user_model().objects.filter(pk=data["user_id"], is_active=True).first()
    return (auth, user) if user is not None else (None, None)


def resolve_first_message(msg: dict) -> tuple[dict | None, object]:
    """An ``auth`` message's credential (``token`` or ``ticket``) -> (kamiza_auth, user) or (None, None)."""
    if isinstance(msg.get("ticket"), str):
        return auth_for_ticket(msg["ticket"])
    user = user_for_token(msg.get("token"))
    return ({"user_id": user.pk, "token_key": msg["token"]}, user) if user is not None else (None, None)


def _session_hash_ok(user, stored_hash) -> bool:
    if not stored_hash or not hasattr(user, "get_session_auth_hash"):
        return False
    if constant_time_compare(stored_hash, user.get_session_auth_hash()):
        return True
    fallbacks = getattr(user, "get_session_auth_fallback_hash", None)
    return bool(fallbacks) and any(constant_time_compare(stored_hash, h) for h in fallbacks())


def fallback_user_is_active_session(user_id, session_key=None, token_key=None) -> bool:
    """True while ``user_id`` is active and the credential it connected with still stands."""
    if user_id is None or (session_key is None and token_key is None):
        return False
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not user.is_active:
        return False
    if token_key is not None:
        from rest_framework.authtoken.models import Token

        if not Token.objects.filter(key=token_key, user_id=user_id).exists():
            return False
    if session_key is not None:
        # load() reads without writing: a missing or expired session comes back empty.
        data = import_module(settings.SESSION_ENGINE).SessionStore(session_key).load()
        if str(data.get(SESSION_KEY)) != str(user.pk) or not _session_hash_ok(user, data.get(HASH_SESSION_KEY)):
            return False
    return True


def _canonical_check():
    try:
        from accounts.services import user_is_active_session
    except ImportError as exc:
        if exc.name != "accounts.services":  # accounts.services exists but is broken: say so
            raise
        return None  # not written yet, or without that function
    return user_is_active_session


def still_authorised_many(auths: list) -> list[bool]:
    """``still_authorised`` for every socket of a server at once (one query for all token logins)."""
    try:
        from accounts.services import logins_active
    except ImportError as exc:
        if exc.name != "accounts.services":
            raise
        return [still_authorised(a) for a in auths]
    out = [False] * len(auths)
    todo = [(i, a) for i, a in enumerate(auths)
            if a and a.get("user_id") is not None and (a.get("session_key") is not None or a.get("token_key") is not None)]
    checked = logins_active([{k: a.get(k) for k in ("user_id", "session_key", "token_key")} for _, a in todo])
    for (i, _), ok in zip(todo, checked):
        out[i] = bool(ok)
    return out


def still_authorised(auth: dict | None) -> bool:
    """Sync (call through dbthreads.db). ``auth`` is ``scope["kamiza_auth"]``."""
    if not auth or auth.get("user_id") is None:
        return False
    kwargs = {"session_key": auth.get("session_key"), "token_key": auth.get("token_key")}
    if kwargs["session_key"] is None and kwargs["token_key"] is None:
        return False  # a socket is only ever authenticated through one of them
    check = _canonical_check() or fallback_user_is_active_session
    return bool(check(auth["user_id"], **kwargs))
