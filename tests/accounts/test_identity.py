"""Lookalike usernames (finding 4): one normalization (NFKC + case-folding) and one uniqueness
check on every path that creates or renames a user; whitespace-only passwords (finding 6)."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction

from accounts import services
from accounts.identity import username_key, username_taken
from accounts.models import Profile

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"
FULLWIDTH_ADMIN = "ａｄｍｉｎ"


@pytest.mark.parametrize("a, b", [
    ("admin", FULLWIDTH_ADMIN),
    ("admin", "ADMIN"),
    ("strasse", "STRASSE"),
    ("straße", "STRASSE"),  # case-folding, not just lower(): ß folds to ss
    ("ﬁsh", "fish"),  # the fi ligature (NFKC)
])
def test_lookalikes_share_a_key(a, b):
    assert username_key(a) == username_key(b)


def test_distinct_names_keep_distinct_keys():
    assert username_key("admin") != username_key("admin1")


# -- the API register -----------------------------------------------------------------------------


@pytest.mark.parametrize("lookalike", [FULLWIDTH_ADMIN, "ＡＤＭＩＮ", "Admin"])
def test_api_register_refuses_a_lookalike(api, make_user, lookalike):
    """Given admin exists, when ａｄｍｉｎ (fullwidth) registers through the API, then 400 malformed
    on username (before: 201, a second account that reads as admin)."""
    make_user(username="admin")
    res = api.post("/api/auth/register/", {"username": lookalike, "password": PASSWORD}, format="json")
    assert res.status_code == 400, res.content
    assert res.json()["code"] == "malformed" and "username" in res.json()["extra"]
    assert get_user_model().objects.count() == 1


def test_api_register_stores_the_nfkc_form(api):
    res = api.post("/api/auth/register/", {"username": "Ｋｅｎｊｉ", "password": PASSWORD}, format="json")
    assert res.status_code == 201 and res.json()["username"] == "Kenji"
    assert Profile.objects.get(user__username="Kenji").username_key == "kenji"


def test_a_lookalike_cannot_slip_past_the_check_into_the_database(make_user):
    """The unique username_key column holds even when the pre-check is skipped (two concurrent
    registrations both passing it)."""
    make_user(username="admin")
    with pytest.raises(IntegrityError), transaction.atomic():
        get_user_model().objects.create_user(username="ADMIN", password=PASSWORD)
    assert not get_user_model().objects.filter(username="ADMIN").exists()


def test_register_service_refuses_a_lookalike_with_a_username_error(make_user):
    from django.core.exceptions import ValidationError

    make_user(username="admin")
    with pytest.raises(ValidationError) as err:
        services.user_register(username=FULLWIDTH_ADMIN, password=PASSWORD)
    assert "username" in err.value.message_dict


# -- the web signup -------------------------------------------------------------------------------


@pytest.mark.parametrize("lookalike", [FULLWIDTH_ADMIN, "ADMIN"])
def test_web_signup_refuses_a_lookalike(client, make_user, lookalike):
    make_user(username="admin")
    res = client.post("/signup/", {"username": lookalike, "password1": PASSWORD, "password2": PASSWORD})
    assert res.status_code == 200 and b"already exists" in res.content
    assert get_user_model().objects.count() == 1


# -- renaming: PATCH /api/auth/me/ ------------------------------------------------------------------


def test_rename_through_me_refuses_a_lookalike(make_user, client_for):
    make_user(username="admin")
    user = make_user(username="mallory")
    c = client_for(user)
    res = c.patch("/api/auth/me/", {"username": FULLWIDTH_ADMIN}, format="json")
    assert res.status_code == 400 and res.json()["code"] == "malformed" and "username" in res.json()["extra"]
    user.refresh_from_db()
    assert user.get_username() == "mallory"


def test_rename_through_me_normalizes_and_moves_the_key(make_user, client_for):
    user = make_user(username="mallory")
    c = client_for(user)
    res = c.patch("/api/auth/me/", {"username": "Ｍａｌｌｏｒｙ２"}, format="json")
    assert res.status_code == 200 and res.json()["username"] == "Mallory2"
    assert Profile.objects.get(user=user).username_key == "mallory2"
    # the old name is free again for this account only (a retired name: test_retired_usernames.py)
    assert not username_taken("mallory", exclude_user_id=user.pk) and username_taken("mallory")
    assert c.patch("/api/auth/me/", {"username": "MALLORY2"}, format="json").status_code == 200  # own name, new case


def test_rename_through_me_refuses_bad_characters(make_user, client_for):
    c = client_for(make_user(username="mallory"))
    res = c.patch("/api/auth/me/", {"username": "no spaces!"}, format="json")
    assert res.status_code == 400 and "username" in res.json()["extra"]
    assert "Spaces and “!” cannot be in a username" in str(res.json()["extra"]["username"])  # it names what is wrong


ALLOWED = "use only letters (of any alphabet, accents included), digits and _ . @ + -."


@pytest.mark.parametrize("name, wrong", [("ünï©ødé", "“©”"), ("a b<script>", "Spaces, “<” and “>”")])
def test_a_refused_username_names_the_characters_that_are_wrong(api, name, wrong):
    """Django's "may contain only letters, numbers..." refused "ünï©ødé", which a player reads as
    letters: the message says what is allowed and which characters are not (here "©")."""
    res = api.post("/api/auth/register/", {"username": name, "password": "correct-horse-battery-9"}, format="json")
    assert res.status_code == 400
    assert res.json()["extra"]["username"] == [f"{wrong} cannot be in a username: {ALLOWED}"]


def test_accented_letters_and_other_alphabets_are_letters(api):
    for name in ("ünïcødé", "漢字", "jean.dupont-2"):
        res = api.post("/api/auth/register/", {"username": name, "password": "correct-horse-battery-9"}, format="json")
        assert res.status_code == 201, (name, res.json())


# -- the admin and createsuperuser ---------------------------------------------------------------


def test_admin_add_user_refuses_a_lookalike(client, make_user):
    make_user(username="admin")
    staff = make_user(username="root", is_staff=True, is_superuser=True)
    client.force_login(staff)
    res = client.post("/admin/auth/user/add/", {"username": FULLWIDTH_ADMIN, "password1": PASSWORD,
                                                "password2": PASSWORD, "usable_password": "true"})
    assert res.status_code == 200 and b"already exists" in res.content
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["admin", "root"]


def test_admin_rename_refuses_a_lookalike_but_keeps_its_own_name(client, make_user):
    make_user(username="admin")
    staff = make_user(username="root", is_staff=True, is_superuser=True)
    victim = make_user(username="mallory")
    client.force_login(staff)
    url = f"/admin/auth/user/{victim.pk}/change/"
    form = {"username": "ADMIN", "is_active": "on", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    res = client.post(url, form)
    assert res.status_code == 200 and b"already exists" in res.content
    victim.refresh_from_db()
    assert victim.get_username() == "mallory"
    res = client.post(url, {**form, "username": "Mallory"})
    assert res.status_code == 302
    victim.refresh_from_db()
    assert victim.get_username() == "Mallory"


def test_createsuperuser_refuses_a_lookalike(make_user):
    make_user(username="admin")
    with pytest.raises(CommandError, match="already taken"):
        call_command("createsuperuser", username=FULLWIDTH_ADMIN, email="a@example.com", interactive=False,
                     stdout=io.StringIO(), stderr=io.StringIO())
    assert get_user_model().objects.count() == 1


def test_createsuperuser_still_creates_a_fresh_name():
    call_command("createsuperuser", username="boss", email="b@example.com", interactive=False,
                 stdout=io.StringIO(), stderr=io.StringIO())
    assert Profile.objects.get(user__username="boss").username_key == "boss"


# -- finding 6: whitespace-only passwords ----------------------------------------------------------


@pytest.mark.parametrize("password", [" " * 8, " " * 12, "\t \t \t \t ", "\u3000" * 10, " \n" * 6])
def test_api_register_refuses_a_whitespace_only_password(api, password):
    """Given a password of only spaces (8 spaces passed every validator before), registering is 400."""
    res = api.post("/api/auth/register/", {"username": "blank", "password": password}, format="json")
    assert res.status_code == 400 and res.json()["code"] == "malformed" and "password" in res.json()["extra"]
    assert not get_user_model().objects.filter(username="blank").exists()


def test_web_signup_refuses_a_whitespace_only_password(client):
    res = client.post("/signup/", {"username": "blank", "password1": " " * 12, "password2": " " * 12})
    assert res.status_code == 200 and b"only whitespace" in res.content
    assert not get_user_model().objects.filter(username="blank").exists()


def test_the_password_rules_listed_together_write_their_apostrophes_alike():
    """The sign-up page lists Django's rules and ours as one list; Django's write ’ (can’t)."""
    from django.contrib.auth.password_validation import password_validators_help_texts

    texts = password_validators_help_texts()
    assert any("can’t be only spaces" in text for text in texts)
    assert not [text for text in texts if "'" in text]


def test_a_password_with_spaces_and_more_is_fine(api):
    res = api.post("/api/auth/register/", {"username": "spacey", "password": "  kami za  maru  "}, format="json")
    assert res.status_code == 201


def test_the_migration_keys_existing_users_and_leaves_a_later_lookalike_without_a_key():
    """Users made before the key column: the oldest of two lookalikes keeps the key; the later one
    gets a profile with no key (it can still log in, and cannot be renamed onto a taken name)."""
    import importlib

    from django.apps import apps

    User = get_user_model()
    User.objects.bulk_create([User(username="admin"), User(username=FULLWIDTH_ADMIN), User(username="kenji")])  # no signals
    assert not Profile.objects.exists()
    importlib.import_module("accounts.migrations.0002_identity_and_sessions").fill_username_keys(apps, None)
    keys = dict(Profile.objects.values_list("user__username", "username_key"))
    assert keys == {"admin": "admin", FULLWIDTH_ADMIN: None, "kenji": "kenji"}
    assert username_taken("ADMIN") and username_taken(FULLWIDTH_ADMIN)


def test_a_name_that_nfkc_lengthens_past_the_column_is_a_400_not_a_500(api, make_user, client_for):
    """``㍿`` is one character typed and four stored: 150 of them pass the raw length check but not
    the stored one."""
    long_name = "㍿" * 150
    res = api.post("/api/auth/register/", {"username": long_name, "password": PASSWORD}, format="json")
    assert res.status_code == 400 and "username" in res.json()["extra"]
    res = client_for(make_user()).patch("/api/auth/me/", {"username": long_name}, format="json")
    assert res.status_code == 400 and "username" in res.json()["extra"]
