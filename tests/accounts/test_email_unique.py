"""One account per e-mail address, case aside (accounts.emails). The probe: "copycat" registered with
``NEWBIE1@example.com`` while newbie1 had ``newbie1@example.com``, and one password reset request then
sent two mails to that inbox; anyone could point reset and "your turn" mails at another's address.

Now sign-up (page and API) and a change of address (page and API) refuse such an address, 409
``email_taken`` (the account that has it is not named), and a reset sends at most one mail per
address, to its first holder, where accounts shared one before the rule (no row is rewritten)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils.http import urlsafe_base64_decode

from accounts import turn_emails
from accounts.admin import CheckedUserChangeForm
from accounts.models import Profile
from tests.rest import assert_error

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"
SIGNUP = {"password1": "paper-lantern-42", "password2": "paper-lantern-42"}


@pytest.fixture
def newbie1(make_user):
    return make_user(username="newbie1", email="newbie1@example.com")


def browser(user) -> Client:
    c = Client(REMOTE_ADDR="10.0.0.7")
    assert c.post("/login/", {"username": user.get_username(), "password": PASSWORD}).status_code == 302
    return c


def copycat_alongside(newbie1):
    """An account that got newbie1's address (another case) before addresses were unique: a row the
    rule never rewrites."""
    return get_user_model().objects.create_user(username="copycat", password=PASSWORD, email="NEWBIE1@example.com")


# -- sign-up ------------------------------------------------------------------------------------


@pytest.mark.parametrize("email", ["NEWBIE1@example.com", "newbie1@example.com", "NewBie1@EXAMPLE.com"])
def test_the_probe_api_sign_up_with_another_accounts_address_in_any_case_is_409_email_taken(api, newbie1, email):
    res = api.post("/api/auth/register/", {"username": "copycat", "password": PASSWORD, "email": email},
                   format="json")
    assert_error(res, 409, "email_taken")
    assert res.json()["extra"] == {"field": "email"} and "newbie1" not in res.content.decode()
    assert not get_user_model().objects.filter(username="copycat").exists()


def test_api_sign_up_without_an_address_or_with_a_free_one_still_works(api, newbie1):
    for name, email in (("kenji", ""), ("kaito", ""), ("hana", "hana@example.com")):
        res = api.post("/api/auth/register/", {"username": name, "password": PASSWORD, "email": email}, format="json")
        assert res.status_code == 201, res.json()


def test_the_probe_sign_up_page_says_the_address_is_taken_under_its_field(newbie1):
    res = Client().post("/signup/", {"username": "copycat", "email": "NEWBIE1@example.com", **SIGNUP})
    assert res.status_code == 200
    html = res.content.decode()
    assert "This e-mail address is already used by another account." in html and "newbie1" not in html
    assert not get_user_model().objects.filter(username="copycat").exists()
    ok = Client().post("/signup/", {"username": "copycat", "email": "copycat@example.com", **SIGNUP})
    assert ok.status_code == 302 and get_user_model().objects.filter(username="copycat").exists()


# -- a change of address ------------------------------------------------------------------------


def test_api_change_to_another_accounts_address_is_409_and_changes_nothing(make_user, client_for, newbie1):
    other = make_user(username="other", email="other@example.com")
    c = client_for(other)
    res = c.patch("/api/auth/me/", {"email": "NEWBIE1@example.com", "password": PASSWORD, "display_name": "Sly"},
                  format="json")
    assert_error(res, 409, "email_taken")
    other.refresh_from_db()
    assert other.email == "other@example.com" and Profile.objects.get(user=other).display_name != "Sly"
    # asked only of who knows the password: without it the answer says nothing about the address
    assert_error(c.patch("/api/auth/me/", {"email": "newbie1@example.com"}, format="json"), 400, "password_required")
    assert_error(c.patch("/api/auth/me/", {"email": "newbie1@example.com", "password": "wrong-password-1"},
                         format="json"), 400, "wrong_password")


def test_api_an_account_may_change_the_case_of_its_own_address(client_for, newbie1):
    res = client_for(newbie1).patch("/api/auth/me/", {"email": "NewBie1@example.com", "password": PASSWORD},
                                    format="json")
    assert res.status_code == 200 and res.json()["email"] == "NewBie1@example.com"


def test_the_account_page_refuses_another_accounts_address_under_its_field(make_user, newbie1):
    other = make_user(username="other", email="other@example.com")
    res = browser(other).post("/account/notifications/", {"email": "Newbie1@Example.com", "password": PASSWORD,
                                                          "turn_email": "on"})
    assert res.status_code == 409
    assert "That e-mail address is already used by another account" in res.content.decode()
    other.refresh_from_db()
    assert other.email == "other@example.com" and not Profile.objects.get(user=other).turn_email


# -- reset and turn mails where accounts shared an address before the rule -------------------------


def test_the_probe_one_reset_request_sends_one_mail_for_the_address_first_holder(api, newbie1):
    copycat_alongside(newbie1)
    res = api.post("/api/auth/password/reset/", {"email": "newbie1@example.com"}, format="json")
    assert res.status_code == 204 and len(mail.outbox) == 1  # before: two mails to one inbox
    assert mail.outbox[0].to == ["newbie1@example.com"]
    uid = re.search(r"/reset/([^/]+)/", mail.outbox[0].body).group(1)
    assert int(urlsafe_base64_decode(uid)) == newbie1.pk


def test_the_reset_page_sends_one_mail_per_address_too(newbie1):
    copycat_alongside(newbie1)
    res = Client(REMOTE_ADDR="10.0.0.8").post("/password-reset/", {"email": "NEWBIE1@example.com"})
    assert res.status_code == 302 and len(mail.outbox) == 1 and mail.outbox[0].to == ["newbie1@example.com"]


def test_turn_mails_go_to_the_address_first_holder_only(newbie1):
    copycat = copycat_alongside(newbie1)
    Profile.objects.filter(user__in=[newbie1, copycat]).update(turn_email=True)
    assert turn_emails._opted_in([newbie1.pk, copycat.pk]) == {newbie1.pk}


# -- the admin's user forms -----------------------------------------------------------------------


def test_the_admin_forms_refuse_another_accounts_address_but_let_a_legacy_row_be_edited(make_user, newbie1):
    other = make_user(username="other", email="other@example.com")

    def cleaned(user, email):
        form = CheckedUserChangeForm(instance=user)
        form.cleaned_data = {"email": email}
        return form.clean_email()

    with pytest.raises(ValidationError) as refused:
        cleaned(other, "NEWBIE1@example.com")
    assert refused.value.code == "email_taken"
    assert cleaned(other, "Other@example.com") == "Other@example.com"  # its own, recased
    copycat = copycat_alongside(newbie1)
    assert cleaned(copycat, "NEWBIE1@example.com") == "NEWBIE1@example.com"  # unchanged: editable
