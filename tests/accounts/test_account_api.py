"""The account holder's own account over the API: change password, reset by e-mail, sessions and
the API token (list, revoke), export, deletion ("deleted player"; match logs untouched)."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core import mail
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts import services
from accounts.models import LoginSession, Profile
from games.application import selectors
from games.application import services as match_services
from games.eventstore.models import MatchEvent
from tests.rest import assert_error

pytestmark = pytest.mark.django_db
PASSWORD = "correct-horse-battery-9"
NEW_PASSWORD = "another-long-passphrase-7"


def web_login(user, ip="10.0.0.5", ua="TestBrowser/1"):
    """A browser signed in through the web login form."""
    c = APIClient(REMOTE_ADDR=ip, HTTP_USER_AGENT=ua)
    assert c.post("/login/", {"username": user.get_username(), "password": PASSWORD}).status_code == 302
    return c


# -- change password --------------------------------------------------------------------------------


def test_change_password_with_a_token_returns_a_new_token_and_ends_other_logins(make_user, client_for):
    user = make_user(username="miko")
    browser = web_login(user)
    c = client_for(user)
    old_key = Token.objects.get(user=user).key
    res = c.post("/api/auth/password/", {"old_password": PASSWORD, "new_password": NEW_PASSWORD}, format="json")
    assert res.status_code == 200
    new_key = res.json()["token"]
    assert new_key and new_key != old_key and not Token.objects.filter(key=old_key).exists()
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert browser.get("/api/auth/me/").status_code in (401, 403)
    assert c.get("/api/auth/me/").status_code == 401  # the old token is gone
    c.credentials(HTTP_AUTHORIZATION=f"Token {new_key}")
    assert c.get("/api/auth/me/").status_code == 200


def test_change_password_from_a_browser_keeps_that_browser_signed_in(make_user):
    user = make_user(username="miko")
    here, elsewhere = web_login(user, ip="10.0.0.1"), web_login(user, ip="10.0.0.2")
    res = here.post("/api/auth/password/", {"old_password": PASSWORD, "new_password": NEW_PASSWORD}, format="json")
    assert res.status_code == 200 and res.json() == {"token": None}
    assert here.get("/api/auth/me/").status_code == 200
    assert elsewhere.get("/api/auth/me/").status_code in (401, 403)
    assert LoginSession.objects.filter(user=user).count() == 1


@pytest.mark.parametrize("body, status, code", [
    ({"old_password": "wrong", "new_password": NEW_PASSWORD}, 400, "wrong_password"),
    ({"old_password": PASSWORD, "new_password": "        "}, 400, "malformed"),
    ({"old_password": PASSWORD, "new_password": "short"}, 400, "malformed"),
    ({"old_password": PASSWORD}, 400, "malformed"),
])
def test_change_password_refusals(make_user, client_for, body, status, code):
    user = make_user(username="miko")
    assert_error(client_for(user).post("/api/auth/password/", body, format="json"), status, code)
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_change_password_needs_a_login(api):
    assert_error(api.post("/api/auth/password/", {"old_password": "a", "new_password": "b"}, format="json"),
                 401, "not_authenticated")


# -- reset by e-mail ------------------------------------------------------------------------------


def _link(message) -> tuple[str, str]:
    uid, token = re.search(r"/reset/([^/]+)/([^/\s]+)/", message.body).groups()
    return uid, token


def test_reset_by_email_end_to_end(api, make_user, client_for):
    user = make_user(username="miko", email="miko@example.com")
    token_client = client_for(user)
    res = api.post("/api/auth/password/reset/", {"email": "MIKO@example.com"}, format="json")
    assert res.status_code == 204 and len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["miko@example.com"] and "Reset your Kamiza password" in message.subject
    uid, token = _link(message)
    res = api.post("/api/auth/password/reset/confirm/", {"uid": uid, "token": token, "new_password": NEW_PASSWORD},
                   format="json")
    assert res.status_code == 204
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)
    assert token_client.get("/api/auth/me/").status_code == 401  # every login ended
    again = api.post("/api/auth/password/reset/confirm/", {"uid": uid, "token": token, "new_password": PASSWORD + "x"},
                     format="json")
    assert_error(again, 400, "invalid_reset_link")  # one use only


def test_reset_for_an_unknown_address_answers_the_same_and_sends_nothing(api):
    res = api.post("/api/auth/password/reset/", {"email": "nobody@example.com"}, format="json")
    assert res.status_code == 204 and mail.outbox == []


@pytest.mark.parametrize("uid, token", [("Mg", "bad-token"), ("!!!", "x"), ("", ""), ("OTk5OTk5", "abc-def")])
def test_reset_confirm_with_a_bad_link_is_400(api, make_user, uid, token):
    make_user(username="miko", email="miko@example.com")
    res = api.post("/api/auth/password/reset/confirm/", {"uid": uid, "token": token, "new_password": NEW_PASSWORD},
                   format="json")
    assert res.status_code == 400 and res.json()["code"] in ("invalid_reset_link", "malformed")


def test_reset_confirm_checks_the_new_password(api, make_user):
    user = make_user(username="miko", email="miko@example.com")
    api.post("/api/auth/password/reset/", {"email": "miko@example.com"}, format="json")
    uid, token = _link(mail.outbox[0])
    res = api.post("/api/auth/password/reset/confirm/", {"uid": uid, "token": token, "new_password": " " * 10},
                   format="json")
    assert_error(res, 400, "malformed")
    assert "new_password" in res.json()["extra"]
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_reset_request_malformed_email_is_400(api):
    assert_error(api.post("/api/auth/password/reset/", {"email": "nope"}, format="json"), 400, "malformed")


# -- sessions and the API token --------------------------------------------------------------------


def test_list_and_end_sessions(make_user):
    user = make_user(username="miko")
    here = web_login(user, ip="10.0.0.1", ua="Here/1")
    there = web_login(user, ip="10.0.0.2", ua="There/2")
    res = here.get("/api/account/sessions/")
    assert res.status_code == 200
    sessions = res.json()["sessions"]
    assert {(s["ip"], s["user_agent"], s["current"]) for s in sessions} == {("10.0.0.1", "Here/1", True),
                                                                             ("10.0.0.2", "There/2", False)}
    assert all(set(s) == {"id", "created_at", "ip", "user_agent", "current"} for s in sessions)  # never the key
    other = next(s for s in sessions if not s["current"])
    assert here.delete(f"/api/account/sessions/{other['id']}/").status_code == 204
    assert there.get("/api/auth/me/").status_code in (401, 403)
    assert here.get("/api/auth/me/").status_code == 200
    assert [s["current"] for s in here.get("/api/account/sessions/").json()["sessions"]] == [True]


def test_ending_a_session_ends_its_socket_check(make_user):
    user = make_user(username="miko")
    here, there = web_login(user), web_login(user)
    key = there.session.session_key
    assert services.user_is_active_session(user.pk, session_key=key)
    sid = LoginSession.objects.get(session_key=key).pk
    assert here.delete(f"/api/account/sessions/{sid}/").status_code == 204
    assert not services.user_is_active_session(user.pk, session_key=key)
    assert not Session.objects.filter(session_key=key).exists()


def test_someone_elses_session_is_404(make_user):
    alice, bob = make_user(username="alice"), make_user(username="bob")
    web_login(bob)
    bob_sid = LoginSession.objects.get(user=bob).pk
    c = web_login(alice)
    assert_error(c.delete(f"/api/account/sessions/{bob_sid}/"), 404, "not_found")
    assert_error(c.delete("/api/account/sessions/not-a-number/"), 404, "not_found")
    assert LoginSession.objects.filter(user=bob).exists()


def test_expired_sessions_are_not_listed(make_user):
    user = make_user(username="miko")
    c, stale = web_login(user), web_login(user)
    Session.objects.filter(session_key=stale.session.session_key).delete()
    assert len(c.get("/api/account/sessions/").json()["sessions"]) == 1


def test_list_and_revoke_the_api_token(make_user, client_for):
    user = make_user(username="miko")
    c = client_for(user)
    key = Token.objects.get(user=user).key
    tokens = c.get("/api/account/tokens/").json()["tokens"]
    assert len(tokens) == 1 and tokens[0]["current"] is True and key not in str(tokens)
    browser = web_login(user)
    assert browser.get("/api/account/tokens/").json()["tokens"][0]["current"] is False
    assert_error(browser.delete("/api/account/tokens/0000000000000000/"), 404, "not_found")
    assert browser.delete(f"/api/account/tokens/{tokens[0]['id']}/").status_code == 204
    assert c.get("/api/auth/me/").status_code == 401
    assert not services.user_is_active_session(user.pk, token_key=key)
    assert browser.get("/api/account/tokens/").json() == {"tokens": []}


@pytest.mark.parametrize("method, path", [("get", "/api/account/sessions/"), ("get", "/api/account/tokens/"),
                                          ("get", "/api/account/export/"), ("post", "/api/account/delete/"),
                                          ("delete", "/api/account/sessions/1/"), ("delete", "/api/account/tokens/x/")])
def test_account_endpoints_need_a_login(api, method, path):
    assert_error(getattr(api, method)(path), 401, "not_authenticated")


# -- export -------------------------------------------------------------------------------------------


def test_export_holds_the_account_its_matches_and_only_its_own_moves(make_user, client_for, started_pebbles, command):
    match, (me, other) = started_pebbles()
    Profile.objects.filter(user=me).update(display_name="Me Myself")
    web_login(me)
    c = client_for(me)
    doc = selectors.view_for_seat(match, 0)
    assert c.post(f"/api/matches/{match.pk}/commands/", command(doc["legal_commands"][0]["type"],
                  doc["legal_commands"][0].get("args"), expected_seq=doc["seq"]), format="json").status_code == 201
    res = c.get("/api/account/export/")
    assert res.status_code == 200 and "attachment" in res["Content-Disposition"]
    body = res.json()
    assert body["format"] == "kamiza-account-export/1"
    assert body["account"]["username"] == me.get_username() and body["account"]["display_name"] == "Me Myself"
    assert [m["id"] for m in body["matches"]] == [str(match.pk)]
    exported = body["matches"][0]
    assert exported["seat"] == 0 and exported["created_by_you"] is True
    assert exported["your_events"] and all(ev["actor"]["user_id"] == me.pk for ev in exported["your_events"])
    assert len(body["sessions"]) == 1 and len(body["tokens"]) == 1
    assert other.get_username() not in str(exported["your_events"])


# -- deletion -----------------------------------------------------------------------------------------


def test_delete_anonymizes_the_row_shows_deleted_player_and_keeps_the_log(make_user, client_for, finished_pebbles):
    match, (gone, stays) = finished_pebbles()
    log_before = list(MatchEvent.objects.filter(match=match).order_by("seq").values("seq", "type", "payload", "actor"))
    old_name = gone.get_username()
    browser = web_login(gone)
    c = client_for(gone)
    assert c.post("/api/account/delete/", {"password": PASSWORD}, format="json").status_code == 204
    row = get_user_model().objects.get(pk=gone.pk)  # the row stays (the log refers to its id)...
    assert row.get_username().startswith("deleted-") and row.email == "" and not row.is_active
    assert not row.has_usable_password() and Profile.objects.get(user=row).deleted_at is not None
    assert c.get("/api/auth/me/").status_code == 401 and browser.get("/api/auth/me/").status_code in (401, 403)
    assert not Token.objects.filter(user=row).exists() and not LoginSession.objects.filter(user=row).exists()
    # ...the log is untouched...
    assert list(MatchEvent.objects.filter(match=match).order_by("seq").values("seq", "type", "payload", "actor")) == log_before
    # ...and every read shows the seat as "deleted player"
    other = client_for(stays)
    detail = other.get(f"/api/matches/{match.pk}/").json()
    assert [s["username"] for s in detail["seat_list"]] == ["deleted player", stays.get_username()]
    listed = other.get("/api/matches/", {"status": "finished"}).json()["results"][0]
    assert [s["username"] for s in listed["seat_list"]] == ["deleted player", stays.get_username()]
    view = other.get(f"/api/matches/{match.pk}/view/").json()
    assert view["match"]["seats"][0]["username"] == "deleted player"
    events = other.get(f"/api/matches/{match.pk}/events/").json()["events"]
    taken = [ev["payload"]["username"] for ev in events if ev["type"] == "SeatTaken"]
    assert taken == ["deleted player", stays.get_username()]
    assert old_name not in str(detail) + str(listed) + str(view) + str(events)
    # the old name is free again, and nobody can log in as the deleted account
    assert APIClient().post("/api/auth/token/", {"username": old_name, "password": PASSWORD}, format="json").status_code == 400
    assert services.user_register(username=old_name, password=PASSWORD).pk != gone.pk


def test_delete_with_a_wrong_password_is_400_and_changes_nothing(make_user, client_for):
    user = make_user(username="miko")
    assert_error(client_for(user).post("/api/account/delete/", {"password": "wrong"}, format="json"), 400, "wrong_password")
    assert_error(client_for(user).post("/api/account/delete/", {}, format="json"), 400, "malformed")
    user.refresh_from_db()
    assert user.is_active and user.get_username() == "miko"


def test_delete_is_refused_while_playing_a_running_match(client_for, started_pebbles):
    match, (me, _) = started_pebbles()
    res = client_for(me).post("/api/account/delete/", {"password": PASSWORD}, format="json")
    assert_error(res, 409, "in_active_match")
    assert res.json()["extra"]["matches"] == [str(match.pk)]
    me.refresh_from_db()
    assert me.is_active


def test_delete_leaves_open_matches(make_user, client_for):
    host, me = make_user(), make_user()
    match = match_services.match_create(game="pebbles", seats=3, options={}, creator=host)
    match_services.match_join(match_id=match.pk, user=me)
    assert client_for(me).post("/api/account/delete/", {"password": PASSWORD}, format="json").status_code == 204
    seats = client_for(host).get(f"/api/matches/{match.pk}/").json()["seat_list"]
    assert seats[0]["user_id"] == host.pk and seats[1:] == [None, None]


def test_the_admin_anonymizes_instead_of_deleting(client, make_user, finished_pebbles, started_pebbles, client_for):
    (match, (gone, stays)), (_, (busy, _)) = finished_pebbles(), started_pebbles()
    staff = make_user(username="root", is_staff=True, is_superuser=True)
    client.force_login(staff)
    assert client.post(f"/admin/auth/user/{gone.pk}/delete/").status_code == 403  # no hard delete
    res = client.post("/admin/auth/user/", {"action": "anonymize_accounts", "_selected_action": [gone.pk, busy.pk]},
                      follow=True)
    assert "1 account(s) deleted." in res.content.decode() and "running matches" in res.content.decode()
    assert get_user_model().objects.filter(pk=gone.pk, is_active=False).exists()
    assert get_user_model().objects.get(pk=busy.pk).is_active
    seats = client_for(stays).get(f"/api/matches/{match.pk}/").json()["seat_list"]
    assert seats[0]["username"] == "deleted player"
