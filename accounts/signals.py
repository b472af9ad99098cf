"""Signal receivers of accounts, connected in AccountsConfig.ready():

- every saved user keeps its ``Profile.username_key`` (the unique lookalike check, whichever path
  created or renamed it: API, web signup, admin, createsuperuser, shell) and its
  ``Profile.username_skeleton`` and ``username_cased_skeleton``; a rename keeps the name given up as a ``RetiredUsername``
  and forgets the names this process kept for running matches (every read shows the new name);
- every web login is recorded as a ``LoginSession`` so the account page can list and end it.
"""

from django.conf import settings
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db import transaction
from django.db.models.signals import post_save

from django.utils import timezone

from games.application import identities

from .identity import username_cased_skeleton, username_key, username_skeleton, username_skeletons
from .models import LoginSession, Profile, RetiredUsername


def keep_username_key(sender, instance, created=False, update_fields=None, raw=False, **kwargs):
    """Raises IntegrityError when another account holds the same key: every path that writes a
    user runs it in a transaction (and checks ``identity.username_taken`` first for a clean error,
    which also refuses a new name that looks like another account's or one it gave up)."""
    if raw or (update_fields is not None and "username" not in update_fields):
        return
    name = instance.get_username()
    key, (skeleton, cased) = username_key(name), username_skeletons(name)
    old = None if created else Profile.objects.filter(user=instance).values_list(
        "username_key", "username_skeleton", "username_cased_skeleton").first()
    fields = {"username_key": key, "username_skeleton": skeleton, "username_cased_skeleton": cased}
    Profile.objects.update_or_create(user=instance, defaults=fields, create_defaults={**fields, "display_name": name[:60]})
    if old and old[0] is not None and old[0] != key:  # renamed: only this account may take it back
        RetiredUsername.objects.update_or_create(
            user=instance, username_key=old[0],
            defaults={"username_skeleton": old[1] or username_skeleton(old[0]),
                      "username_cased_skeleton": old[2] or username_cased_skeleton(old[0]), "retired_at": timezone.now()},
        )
        RetiredUsername.objects.filter(user=instance, username_key=key).delete()  # taken back: in use again
        # the names kept for running matches (identities.names_in_running): now, and once the new
        # name is committed (a read in between may have kept the old one)
        identities.running_clear()
        transaction.on_commit(identities.running_clear)


def _client_ip(request) -> str:
    return str((getattr(request, "META", None) or {}).get("REMOTE_ADDR") or "")[:64]


def record_login(sender, request=None, user=None, **kwargs):
    session = getattr(request, "session", None)
    key = getattr(session, "session_key", None)
    if user is None or not key:
        return  # a cookie-only session backend has no key to end
    ua = str((getattr(request, "META", None) or {}).get("HTTP_USER_AGENT") or "")[:200]
    LoginSession.objects.update_or_create(session_key=key, defaults={"user": user, "ip": _client_ip(request), "user_agent": ua})


def forget_login(sender, request=None, user=None, **kwargs):
    key = getattr(getattr(request, "session", None), "session_key", None)
    if key:
        LoginSession.objects.filter(session_key=key).delete()


def connect() -> None:
    post_save.connect(keep_username_key, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.username_key")
    user_logged_in.connect(record_login, dispatch_uid="accounts.record_login")
    user_logged_out.connect(forget_login, dispatch_uid="accounts.forget_login")
