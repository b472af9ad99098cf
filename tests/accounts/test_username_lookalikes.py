"""Lookalike usernames across scripts (the probe: "аlice" with a Cyrillic а accepted beside alice):
a new name whose confusable skeleton (accounts.identity.username_skeleton, in the spirit of Unicode
TR39) is another account's is refused as taken, on every path; accounts whose names already looked
alike keep them."""

import importlib
import io
import threading

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection, transaction

from accounts import services
from accounts.identity import (TAKEN, username_cased_skeleton, username_claim_lock, username_skeleton,
                               username_taken)
from accounts.models import Profile, RetiredUsername

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"

CYRILLIC_A_LICE = "\u0430lice"  # Cyrillic а
DOTLESS_ALICE = "al\u0131ce"  # dotless ı
DOTTED_CAPITAL_ALICE = "AL\u0130CE"  # dotted İ: case-folds to i + COMBINING DOT ABOVE
CYRILLIC_A_DMIN = "\u0430dmin"
STAFF_CYRILLIC_U = "staff\u0443"  # Cyrillic у
# Each probe, with the existing name it reads as.
PROBES = [("alice", CYRILLIC_A_LICE), ("alice", DOTLESS_ALICE), ("alice", DOTTED_CAPITAL_ALICE),
          ("admin", CYRILLIC_A_DMIN), ("staffy", STAFF_CYRILLIC_U)]


def assert_taken(res):
    assert res.status_code == 400, res.content
    body = res.json()
    assert body["code"] == "malformed" and body["extra"]["username"] == [TAKEN], body


# -- the skeleton ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, lookalike", PROBES + [
    ("bob", "b0b"), ("paul", "pau1"), ("matt", "rnatt"), ("alice", "ＡＬＩＣＥ"), ("ali", "\u0430l\u0456"),
    ("kenji", "KENJI"), ("straße", "STRASSE"), ("coco", "\u0441\u043e\u0441\u043e"),
])
def test_lookalikes_share_a_skeleton(name, lookalike):
    assert username_skeleton(name) == username_skeleton(lookalike)


@pytest.mark.parametrize("a, b", [("alice", "alicia"), ("bob", "bobby"), ("alice", "alicé"), ("kenji", "kenj1x"),
                                  ("player1", "player2"), ("anna", "ana")])
def test_different_names_keep_different_skeletons(a, b):
    assert username_skeleton(a) != username_skeleton(b)


@pytest.mark.parametrize("skeleton_of, column", [(username_skeleton, "username_skeleton"),
                                                   (username_cased_skeleton, "username_cased_skeleton")])
def test_each_skeleton_is_stable_and_bounded(skeleton_of, column):
    for name in ("alice", "Iohn", CYRILLIC_A_LICE, DOTTED_CAPITAL_ALICE, "b0b", "B0B", "\ufdfa" * 8, "ǅ" * 150):
        skeleton = skeleton_of(name)
        assert skeleton_of(skeleton) == skeleton or skeleton.startswith("#")
        assert len(skeleton) <= Profile._meta.get_field(column).max_length


# Names that read alike only as shown, with their case: case-folding turns a capital I into an i.
CASED_PROBES = [("lohn", "Iohn"), ("alice", "aIice"), ("Bill", "BiII"), ("paul", "PauI")]


@pytest.mark.parametrize("name, lookalike", CASED_PROBES)
def test_a_capital_that_reads_as_another_letter_shares_the_cased_skeleton(name, lookalike):
    assert username_skeleton(name) != username_skeleton(lookalike)  # the folded skeleton misses it
    assert username_cased_skeleton(name) == username_cased_skeleton(lookalike)


@pytest.mark.parametrize("a, b", [("iohn", "lohn"), ("Ian", "Jan"), ("alice", "alicia"), ("kenji", "kenj1x")])
def test_the_cased_skeleton_keeps_different_names_apart(a, b):
    assert username_cased_skeleton(a) != username_cased_skeleton(b)


@pytest.mark.parametrize("existing, lookalike", CASED_PROBES)
def test_registering_or_renaming_to_a_cased_lookalike_is_taken(api, make_user, client_for, existing, lookalike):
    """Given lohn exists, when someone registers Iohn (capital I), or renames themselves to it,
    then 400 taken (before: 201, both shown as the same name)."""
    make_user(username=existing)
    assert_taken(api.post("/api/auth/register/", {"username": lookalike, "password": PASSWORD}, format="json"))
    mallory = make_user(username="mallory")
    assert_taken(client_for(mallory).patch("/api/auth/me/", {"username": lookalike}, format="json"))
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == sorted([existing, "mallory"])


def test_a_retired_name_keeps_its_cased_skeleton(make_user, client_for):
    """Given lohn renamed himself john, when mallory renames herself Iohn, then 400 taken."""
    lohn = make_user(username="lohn")
    assert client_for(lohn).patch("/api/auth/me/", {"username": "john"}, format="json").status_code == 200
    assert RetiredUsername.objects.get(user=lohn).username_cased_skeleton == "lohn"
    mallory = make_user(username="mallory")
    assert_taken(client_for(mallory).patch("/api/auth/me/", {"username": "Iohn"}, format="json"))


# -- the probe's requests: the API ----------------------------------------------------------------------


@pytest.mark.parametrize("existing, lookalike", PROBES)
def test_the_probe_rename_to_a_lookalike_through_me_is_taken(make_user, client_for, existing, lookalike):
    """Given alice (admin, staffy) exists, when mallory renames herself to аlice (Cyrillic а, alıce,
    ALİCE...) through PATCH /api/auth/me/, then 400 with the taken message (before: 200)."""
    make_user(username=existing)
    mallory = make_user(username="mallory")
    assert_taken(client_for(mallory).patch("/api/auth/me/", {"username": lookalike}, format="json"))
    mallory.refresh_from_db()
    assert mallory.get_username() == "mallory"


@pytest.mark.parametrize("existing, lookalike", PROBES)
def test_the_probe_register_a_lookalike_is_taken(api, make_user, existing, lookalike):
    """Given staffy exists, registering staffу (Cyrillic у) is 400 taken (before: 201)."""
    make_user(username=existing)
    assert_taken(api.post("/api/auth/register/", {"username": lookalike, "password": PASSWORD}, format="json"))
    assert list(get_user_model().objects.values_list("username", flat=True)) == [existing]


def test_the_register_service_refuses_a_lookalike_with_the_username_error(make_user):
    make_user(username="alice")
    with pytest.raises(ValidationError) as err:
        services.user_register(username=CYRILLIC_A_LICE, password=PASSWORD)
    assert err.value.message_dict == {"username": [TAKEN]}


def test_a_name_that_only_looks_alike_to_nobody_is_still_free(api, make_user):
    make_user(username="alice")
    res = api.post("/api/auth/register/", {"username": "\u0430lina", "password": PASSWORD}, format="json")
    assert res.status_code == 201, res.content
    assert Profile.objects.get(user__username="\u0430lina").username_skeleton == "alina"


# -- the admin and createsuperuser --------------------------------------------------------------------


def test_admin_add_user_refuses_a_cross_script_lookalike(client, make_user):
    make_user(username="admin")
    client.force_login(make_user(username="root", is_staff=True, is_superuser=True))
    res = client.post("/admin/auth/user/add/", {"username": CYRILLIC_A_DMIN, "password1": PASSWORD,
                                                "password2": PASSWORD, "usable_password": "true"})
    assert res.status_code == 200 and b"already exists" in res.content
    assert sorted(get_user_model().objects.values_list("username", flat=True)) == ["admin", "root"]


def test_createsuperuser_refuses_a_cross_script_lookalike(make_user):
    make_user(username="admin")
    with pytest.raises(CommandError, match="already taken"):
        call_command("createsuperuser", username=CYRILLIC_A_DMIN, email="a@example.com", interactive=False,
                     stdout=io.StringIO(), stderr=io.StringIO())
    assert get_user_model().objects.count() == 1


# -- accounts that already looked alike keep their names --------------------------------------------


def _already_alike(make_user):
    """Two accounts made before the check (straight into the database, as the old check let them)."""
    return make_user(username="alice"), make_user(username=CYRILLIC_A_LICE)


def test_accounts_that_already_look_alike_keep_their_names_and_log_in(make_user, client_for, api):
    alice, twin = _already_alike(make_user)
    assert Profile.objects.get(user=alice).username_skeleton == Profile.objects.get(user=twin).username_skeleton
    for user in (alice, twin):
        res = api.post("/api/auth/token/", {"username": user.get_username(), "password": PASSWORD}, format="json")
        assert res.status_code == 200, res.content
    c = client_for(twin)  # its other fields, its own name again, and its own name recased are all fine
    assert c.patch("/api/auth/me/", {"display_name": "Twin", "username": CYRILLIC_A_LICE}, format="json").status_code == 200
    res = c.patch("/api/auth/me/", {"username": CYRILLIC_A_LICE.upper()}, format="json")
    assert res.status_code == 200 and res.json()["username"] == CYRILLIC_A_LICE.upper()
    assert not username_taken(CYRILLIC_A_LICE, exclude_user_id=twin.pk)
    assert username_taken(DOTLESS_ALICE, exclude_user_id=twin.pk)  # but no third alice


def test_the_admin_can_edit_an_account_that_already_looks_alike(client, make_user):
    _, twin = _already_alike(make_user)
    client.force_login(make_user(username="root", is_staff=True, is_superuser=True))
    form = {"username": CYRILLIC_A_LICE, "first_name": "Twin", "is_active": "on",
            "date_joined_0": "2026-01-01", "date_joined_1": "00:00:00"}
    assert client.post(f"/admin/auth/user/{twin.pk}/change/", form).status_code == 302
    twin.refresh_from_db()
    assert twin.first_name == "Twin" and twin.get_username() == CYRILLIC_A_LICE


def test_the_migration_fills_the_skeleton_of_existing_accounts(make_user):
    """The backfill (0004) gives every profile its skeleton, colliding ones included."""
    alice, twin = _already_alike(make_user)
    other = make_user(username="Bob")
    Profile.objects.update(username_skeleton=None)
    migration = importlib.import_module("accounts.migrations.0004_username_skeletons_and_retired_names")
    migration.fill_username_skeletons(django_apps, None)
    skeletons = dict(Profile.objects.values_list("user_id", "username_skeleton"))
    assert skeletons == {alice.pk: "alice", twin.pk: "alice", other.pk: "bob"}
    assert Profile.objects.get(user=alice).username_key == "alice"  # the key is untouched


def test_the_migration_fills_the_cased_skeletons(make_user, client_for):
    """The backfill (0005) gives every profile the cased skeleton of its name, and every retired
    name that of its key (its case was not kept)."""
    lohn, bill = make_user(username="lohn"), make_user(username="Bill")
    assert client_for(bill).patch("/api/auth/me/", {"username": "William"}, format="json").status_code == 200
    Profile.objects.update(username_cased_skeleton=None)
    RetiredUsername.objects.update(username_cased_skeleton="")
    migration = importlib.import_module("accounts.migrations.0005_username_cased_skeletons")
    migration.fill_cased_skeletons(django_apps, None)
    assert dict(Profile.objects.values_list("user_id", "username_cased_skeleton")) == {lohn.pk: "lohn", bill.pk: "williarn"}
    assert RetiredUsername.objects.get(user=bill).username_cased_skeleton == "bill"


# -- no 500 for any name ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\ufdfa" * 8, "ǅ" * 150, "İ" * 150, "\u0430" * 150, "𝕒𝕝𝕚𝕔𝕖", "x" * 151, "",
                                  "a\u200db", "\u0307", "ı"])
def test_any_name_is_a_clean_answer(api, make_user, name):
    make_user(username="alice")
    res = api.post("/api/auth/register/", {"username": name, "password": PASSWORD}, format="json")
    assert res.status_code in (201, 400), res.content


# -- two lookalikes at once (PostgreSQL) ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs one writer at a time")
@pytest.mark.parametrize("name, lookalike", [("alice", CYRILLIC_A_LICE), ("lohn", "Iohn")])
def test_two_lookalikes_registering_at_once_cannot_both_succeed(name, lookalike):
    """A registration holding the claim on a skeleton makes a lookalike's wait, then be refused (the
    skeleton column is not unique, so only this lock stops both passing the check)."""
    from tests.concurrency import run_threads, waiting_on_a_lock

    held, outcome = threading.Event(), {}

    def first():
        with transaction.atomic():
            username_claim_lock(name)
            held.set()
            assert waiting_on_a_lock()
            get_user_model().objects.create_user(username=name, password=PASSWORD)

    def second():
        assert held.wait(10)
        try:
            services.user_register(username=lookalike, password=PASSWORD)
        except ValidationError as err:
            outcome["refused"] = err.message_dict

    run_threads(2, lambda i: (first, second)[i]())
    assert outcome == {"refused": {"username": [TAKEN]}}
    assert list(get_user_model().objects.values_list("username", flat=True)) == [name]
