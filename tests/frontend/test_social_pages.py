"""The match page's end screen, chat and turn alerts (the HTML they start from), the seed verification
page, and the account's turn e-mail setting."""

import pytest

from accounts.models import Profile
from games.application import chat

from .test_csp import check_page

pytestmark = pytest.mark.django_db


def test_a_running_match_page_has_the_chat_and_a_players_turn_alerts(client, started_pebbles, make_user):
    match, (p0, _) = started_pebbles()
    chat.chat_post(match_id=match.pk, user=p0, channel="players", text="secret plan")
    client.force_login(p0)
    res = client.get(f"/matches/{match.pk}/")
    check_page(res)  # modules from files, no inline script
    html = res.content.decode()
    assert 'id="chat"' in html and 'id="chat-form"' in html and "js/chat.js" in html and "js/notify.js" in html
    assert 'id="turn-alerts"' in html and "img/turn.svg" in html
    assert 'id="end-screen"' in html and 'data-testid="end-screen" hidden' in html  # not over yet
    assert "secret plan" not in html  # the chat is read through the API, per channel

    client.force_login(make_user())  # a spectator: no turn alerts
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="chat"' in html and 'id="turn-alerts"' not in html and "secret plan" not in html
    client.logout()
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="chat-sign-in"' in html and 'id="chat-form"' not in html


def test_a_finished_match_page_opens_on_its_end_screen(client, finished_pebbles):
    match, (p0, _) = finished_pebbles()
    client.force_login(p0)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="end-screen">' in html and 'data-testid="back-to-lobby"' in html
    assert "js/endscreen.js" in html


def test_the_verify_page_says_in_words_what_was_checked(client, finished_pebbles, started_pebbles):
    match, _ = finished_pebbles()
    res = client.get(f"/matches/{match.pk}/verify/")
    check_page(res)
    html = res.content.decode()
    assert 'data-verdict="verified"' in html and "Verified" in html and match.seed in html and match.seed_hash in html
    assert "The setup (shuffles and deals)" in html and "✓" in html

    running, _ = started_pebbles()
    res = client.get(f"/matches/{running.pk}/verify/")
    assert res.status_code == 409 and "revealed" in res.content.decode() and running.seed not in res.content.decode()
    assert client.get("/matches/00000000-0000-0000-0000-000000000000/verify/").status_code == 404


def test_the_account_page_sets_the_turn_email(client, make_user, settings, client_for):
    settings.TURN_EMAIL_AFTER_MINUTES = 12
    user = make_user()
    client.force_login(user)
    res = client.get("/account/")
    check_page(res)
    assert "waited 12 minutes" in res.content.decode() and 'data-testid="turn-alerts-form"' in res.content.decode()
    assert Profile.objects.get(user=user).turn_email is False  # off by default
    res = client.post("/account/notifications/", {"email": "me@example.org", "turn_email": "on",
                                                  "password": "correct-horse-battery-9"})  # a new address needs it
    assert res.status_code == 302
    user.refresh_from_db()
    assert user.email == "me@example.org" and Profile.objects.get(user=user).turn_email is True
    res = client.post("/account/notifications/", {"email": "not an address"})
    assert res.status_code == 400 and "Enter a valid email address." in res.content.decode()  # shown at the form
    assert Profile.objects.get(user=user).turn_email is True  # refused: unchanged
    client.post("/account/notifications/", {"email": "me@example.org"})
    assert Profile.objects.get(user=user).turn_email is False
    # The same setting through the API.
    api = client_for(user)
    assert api.get("/api/auth/me/").json()["turn_email"] is False
    res = api.patch("/api/auth/me/", {"turn_email": True}, format="json")
    assert res.status_code == 200 and res.json()["turn_email"] is True
    assert api.patch("/api/auth/me/", {"turn_email": "maybe"}, format="json").status_code == 400
