"""The pages' side of the username fixes: the sign-up and the account page's rename refuse a name that
looks like another account's (across scripts) or that another account gave up; the profile page
(/users/<name>/) finds a user in any case and a retired name is nobody's page."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import RetiredUsername

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"
TAKEN = "A user with that username already exists."
CYRILLIC_A_LICE = "\u0430lice"


def browser(user) -> Client:
    c = Client(REMOTE_ADDR="10.0.0.1")
    assert c.post("/login/", {"username": user.get_username(), "password": PASSWORD}).status_code == 302
    return c


def messages_shown(html: str) -> str:
    return " ".join(text for _, text in re.findall(r'<li class="message([^"]*)">(.*?)</li>', html, re.S))


@pytest.mark.parametrize("lookalike", [CYRILLIC_A_LICE, "al\u0131ce", "AL\u0130CE", "\u0430lic\u0435"])
def test_signup_page_refuses_a_cross_script_lookalike(client, make_user, lookalike):
    make_user(username="alice")
    res = client.post("/signup/", {"username": lookalike, "password1": PASSWORD, "password2": PASSWORD})
    assert res.status_code == 200 and TAKEN in res.content.decode()
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["alice"]


def test_account_page_rename_refuses_a_lookalike_and_a_retired_name(make_user):
    make_user(username="alice")
    bob = make_user(username="bob")
    mallory = make_user(username="mallory")
    res = browser(bob).post("/account/username/", {"username": "bobby"}, follow=True).content.decode()
    assert "Your username is now bobby." in messages_shown(res)
    assert RetiredUsername.objects.filter(user=bob, username_key="bob").exists()
    here = browser(mallory)
    for name in (CYRILLIC_A_LICE, "bob", "BOB", "b\u043eb"):
        shown = messages_shown(here.post("/account/username/", {"username": name}, follow=True).content.decode())
        assert TAKEN in shown and "Your username is now" not in shown, (name, shown)
    assert get_user_model().objects.get(pk=mallory.pk).get_username() == "mallory"


def test_signup_page_says_which_characters_a_username_may_not_have(client):
    """The sign-up refused "ünï©ødé" with Django's "may contain only letters, numbers...": a player
    reads ü, ï, ø, é as letters; the page now names "©" and says exactly what is allowed."""
    html = client.post("/signup/", {"username": "ünï©ødé", "password1": PASSWORD, "password2": PASSWORD}).content.decode()
    assert "“©” cannot be in a username: use only letters (of any alphabet, accents included), digits and " \
           "_ . @ + -." in html
    assert html.count("Up to 150 characters: letters (of any alphabet, accents included), digits and _ . @ + -.") == 1
    assert "Enter a valid username" not in html and not get_user_model().objects.exists()


def test_signup_page_refuses_a_retired_name(client, make_user):
    bob = make_user(username="bob")
    assert browser(bob).post("/account/username/", {"username": "bobby"}).status_code == 302
    res = client.post("/signup/", {"username": "Bob", "password1": PASSWORD, "password2": PASSWORD})
    assert res.status_code == 200 and TAKEN in res.content.decode()


@pytest.mark.parametrize("asked", ["alice", "ALICE", "aLiCe"])
def test_the_profile_page_finds_a_user_in_any_case(client, make_user, asked):
    """/users/ALICE/ was 404 ("No such user.") while names are matched case-insensitively elsewhere."""
    make_user(username="Alice")
    res = client.get(f"/users/{asked}/")
    assert res.status_code == 200
    assert "<h1>Alice</h1>" in res.content.decode()


def test_the_profile_page_of_a_retired_name_is_nobodys(client, make_user):
    bob = make_user(username="bob")
    assert browser(bob).post("/account/username/", {"username": "bobby"}).status_code == 302
    assert client.get("/users/bob/").status_code == 404
    assert "<h1>bobby</h1>" in client.get("/users/Bobby/").content.decode()
