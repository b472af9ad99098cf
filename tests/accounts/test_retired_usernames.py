"""A name freed by a rename (the probe: bob renamed himself bobby, mallory then renamed to bob, and
bob's old matches, tournament entries and /api/users/bob/ were hers): a retired name can be taken
again only by the account that held it; and the profile API finds a user by key (any case)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from accounts import selfservice, services
from accounts.identity import TAKEN, username_taken
from accounts.models import Profile, RetiredUsername

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"


def assert_taken(res):
    assert res.status_code == 400, res.content
    body = res.json()
    assert body["code"] == "malformed" and body["extra"]["username"] == [TAKEN], body


def _bob_renamed(make_user, client_for):
    bob = make_user(username="bob")
    res = client_for(bob).patch("/api/auth/me/", {"username": "bobby"}, format="json")
    assert res.status_code == 200 and res.json()["username"] == "bobby"
    return bob


@pytest.mark.parametrize("name", ["bob", "BOB", "Ｂｏｂ", "b\u043eb", "b0b"])
def test_the_probe_another_account_cannot_take_a_name_given_up_by_a_rename(make_user, client_for, name):
    """Given bob renamed himself bobby, when mallory renames herself bob (or a lookalike of it), then
    400 taken (before: 200, and /api/users/bob/ was mallory's profile)."""
    bob = _bob_renamed(make_user, client_for)
    mallory = make_user(username="mallory")
    assert_taken(client_for(mallory).patch("/api/auth/me/", {"username": name}, format="json"))
    mallory.refresh_from_db()
    assert mallory.get_username() == "mallory"
    retired = RetiredUsername.objects.get(user=bob)
    assert (retired.username_key, retired.username_skeleton) == ("bob", "bob") and retired.retired_at


@pytest.mark.parametrize("name", ["bob", "Bob", "b\u043eb"])
def test_nobody_can_register_a_retired_name(api, make_user, client_for, name):
    _bob_renamed(make_user, client_for)
    assert_taken(api.post("/api/auth/register/", {"username": name, "password": PASSWORD}, format="json"))
    with pytest.raises(ValidationError) as err:
        services.user_register(username=name, password=PASSWORD)
    assert err.value.message_dict == {"username": [TAKEN]}


def test_the_account_that_held_a_name_can_take_it_back(make_user, client_for):
    bob = _bob_renamed(make_user, client_for)
    c = client_for(bob)
    res = c.patch("/api/auth/me/", {"username": "Bob"}, format="json")
    assert res.status_code == 200 and res.json()["username"] == "Bob"
    assert Profile.objects.get(user=bob).username_key == "bob"
    # "bob" is in use again (not retired); "bobby" is retired now, and only bob may take it back
    assert list(RetiredUsername.objects.filter(user=bob).values_list("username_key", flat=True)) == ["bobby"]
    assert username_taken("bobby") and not username_taken("bobby", exclude_user_id=bob.pk)
    assert c.patch("/api/auth/me/", {"username": "bobby"}, format="json").status_code == 200


def test_every_rename_path_retires_the_old_name(client, make_user):
    """The admin's change form renames too: the old name is retired the same way."""
    victim = make_user(username="carol")
    client.force_login(make_user(username="root", is_staff=True, is_superuser=True))
    form = {"username": "caroline", "is_active": "on", "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    assert client.post(f"/admin/auth/user/{victim.pk}/change/", form).status_code == 302
    assert RetiredUsername.objects.filter(user=victim, username_key="carol").exists()
    other = make_user(username="dave")
    res = client.post(f"/admin/auth/user/{other.pk}/change/", {**form, "username": "Carol"})
    assert res.status_code == 200 and b"already exists" in res.content


def test_a_deleted_account_frees_its_names(make_user, client_for, api):
    """Deleting an account already frees its name (its seats show "deleted player"); the names it
    gave up go with it: the retired record would keep a deleted player's names."""
    bob = _bob_renamed(make_user, client_for)
    selfservice.account_anonymize(bob)
    assert not RetiredUsername.objects.filter(user=bob).exists()
    res = api.post("/api/auth/register/", {"username": "bob", "password": PASSWORD}, format="json")
    assert res.status_code == 201, res.content


# -- the profile API finds a user by key -------------------------------------------------------------


@pytest.mark.parametrize("asked", ["alice", "ALICE", "Alice", "ａｌｉｃｅ"])
def test_the_profile_api_finds_a_user_in_any_case(api, make_user, asked):
    """GET /api/users/ALICE/ was 404 while names are matched case-insensitively everywhere else."""
    make_user(username="Alice")
    res = api.get(f"/api/users/{asked}/")
    assert res.status_code == 200, res.content
    assert res.json()["username"] == "Alice"


def test_the_profile_api_of_a_retired_name_is_nobodys(api, make_user, client_for):
    """After bob's rename /api/users/bob/ is 404 (not another account's profile); bobby is his."""
    _bob_renamed(make_user, client_for)
    res = api.get("/api/users/bob/")
    assert res.status_code == 404 and res.json()["code"] == "unknown_user"
    assert api.get("/api/users/BOBBY/").json()["username"] == "bobby"


def test_the_profile_api_prefers_the_exact_name_and_hides_deleted_accounts(api, make_user):
    make_user(username="kenji")
    gone = make_user(username="Mika")
    selfservice.account_anonymize(gone)
    assert api.get("/api/users/kenji/").json()["username"] == "kenji"
    assert api.get("/api/users/MIKA/").status_code == 404
    assert get_user_model().objects.filter(pk=gone.pk, is_active=False).exists()
