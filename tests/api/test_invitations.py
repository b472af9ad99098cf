"""Invitations over REST: a player's invite link seats whoever opens it, a direct invitation shows
in the invitee's list until accepted or declined, the refusals with their stable codes, the
throttle, and the append-only records (games.application.invitations)."""

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from games.application import selectors, services
from games.eventstore.models import Invitation, InvitationAnswer

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user, client_for, api):
    """An open three-seat Pebbles match created (and sat in) by alice; bob and carol are not seated."""
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    match = services.match_create(game="pebbles", seats=3, options={}, creator=alice)
    return {"match": match, "alice": client_for(alice), "bob": client_for(bob), "carol": client_for(carol),
            "anon": api, "users": {"alice": alice, "bob": bob, "carol": carol},
            "url": f"/api/matches/{match.pk}/invitations/"}


def seats(match):
    match.refresh_from_db()
    return [s and s["username"] for s in selectors.state_load(match)["lobby"]["seats"]]


def test_an_invite_link_seats_whoever_opens_it_and_is_given_again(table, make_user, client_for):
    res = table["alice"].post(table["url"], {}, format="json")
    assert res.status_code == 201, res.json()
    link = res.json()
    assert link["kind"] == "link" and link["invitee"] is None and link["inviter"] == "alice"
    assert link["status"] == "open" and link["free_seats"] == 2 and link["players"] == ["alice"]
    assert link["url"] == f"http://testserver/invite/{link['token']}/"
    again = table["alice"].post(table["url"], {"username": None}, format="json")
    assert again.status_code == 200 and again.json()["id"] == link["id"]  # one open link per inviter

    for name, seat in (("bob", 1), ("carol", 2)):
        res = table[name].post("/api/invitations/join/", {"token": link["token"]}, format="json")
        assert res.status_code == 200, res.json()
        assert res.json()["seat"] == seat and res.json()["match_id"] == str(table["match"].pk)
    assert seats(table["match"]) == ["alice", "bob", "carol"]
    answers = InvitationAnswer.objects.filter(invitation_id=link["id"]).order_by("id")
    assert [(a.user.username, a.outcome, a.seat) for a in answers] == [("bob", "accepted", 1), ("carol", "accepted", 2)]

    # Full now: the link says so, and one more opener is refused.
    d = client_for(make_user("dave"))
    res = d.post("/api/invitations/join/", {"token": link["token"]}, format="json")
    assert res.status_code == 409 and res.json()["code"] == "match_full"
    res = table["bob"].post("/api/invitations/join/", {"token": link["token"]}, format="json")
    assert res.status_code == 409 and res.json()["code"] == "already_seated"
    # Started: not open any more.
    services.match_start(match_id=table["match"].pk, user=table["users"]["alice"])
    res = d.post("/api/invitations/join/", {"token": link["token"]}, format="json")
    assert res.status_code == 409 and res.json()["code"] == "match_not_open"
    assert "already started" in res.json()["message"]
    res = table["alice"].post(table["url"], {}, format="json")
    assert res.status_code == 409 and res.json()["code"] == "match_not_open"


def test_a_direct_invitation_is_listed_for_the_invitee_accepted_into_a_seat(table):
    res = table["alice"].post(table["url"], {"username": "bob"}, format="json")
    assert res.status_code == 201, res.json()
    inv = res.json()
    assert inv["kind"] == "user" and inv["invitee"] == "bob" and inv["status"] == "open"
    assert table["alice"].post(table["url"], {"username": "BOB"}, format="json").json()["id"] == inv["id"]

    mine = table["bob"].get("/api/invitations/?mine=1")
    assert mine.status_code == 200
    assert [(d["id"], d["inviter"], d["game"]) for d in mine.json()] == [(inv["id"], "alice", "pebbles")]
    assert table["carol"].get("/api/invitations/").json() == []  # not hers
    sent = table["alice"].get("/api/invitations/", {"sent": 1, "match": str(table["match"].pk)}).json()
    assert [d["invitee"] for d in sent] == ["bob"]

    # Only bob accepts it: to anyone else it does not exist.
    res = table["carol"].post(f"/api/invitations/{inv['id']}/accept/")
    assert res.status_code == 404 and res.json()["code"] == "not_found"
    res = table["carol"].post("/api/invitations/join/", {"token": inv["token"]}, format="json")
    assert res.status_code == 403 and res.json()["code"] == "not_invitee"
    res = table["bob"].post(f"/api/invitations/{inv['id']}/accept/")
    assert res.status_code == 200, res.json()
    assert res.json()["seat"] == 1 and res.json()["status"] == "accepted"
    assert seats(table["match"]) == ["alice", "bob", None]
    assert table["bob"].get("/api/invitations/").json() == []  # answered: gone from the list
    res = table["bob"].post(f"/api/invitations/{inv['id']}/decline/")
    assert res.status_code == 409 and res.json()["code"] == "invitation_closed"


def test_declined_and_revoked_invitations_leave_the_list_and_are_recorded(table):
    inv = table["alice"].post(table["url"], {"username": "bob"}, format="json").json()
    res = table["bob"].post(f"/api/invitations/{inv['id']}/decline/")
    assert res.status_code == 200 and res.json()["status"] == "declined"
    assert table["bob"].get("/api/invitations/").json() == []
    res = table["bob"].post(f"/api/invitations/{inv['id']}/accept/")
    assert res.status_code == 409 and res.json()["code"] == "invitation_closed"
    # Inviting again after a decline is a new invitation.
    again = table["alice"].post(table["url"], {"username": "bob"}, format="json")
    assert again.status_code == 201 and again.json()["id"] != inv["id"]
    res = table["bob"].post(f"/api/invitations/{again.json()['id']}/revoke/")
    assert res.status_code == 403 and res.json()["code"] == "not_inviter"
    res = table["alice"].post(f"/api/invitations/{again.json()['id']}/revoke/")
    assert res.status_code == 200 and res.json()["status"] == "revoked"
    assert table["bob"].get("/api/invitations/").json() == []

    link = table["alice"].post(table["url"], {}, format="json").json()
    assert table["alice"].post(f"/api/invitations/{link['id']}/revoke/").status_code == 200
    res = table["carol"].post("/api/invitations/join/", {"token": link["token"]}, format="json")
    assert res.status_code == 409 and res.json()["code"] == "invitation_closed"
    assert "withdrawn" in res.json()["message"]
    assert table["alice"].post(table["url"], {}, format="json").json()["id"] != link["id"]  # a new link
    assert [(a.invitation.invitee and a.invitation.invitee.username, a.user.username, a.outcome)
            for a in InvitationAnswer.objects.order_by("id")] == [
        ("bob", "bob", "declined"), ("bob", "alice", "revoked"), (None, "alice", "revoked")]
    # the account export has each side's invitations and what became of them
    exported = table["bob"].get("/api/account/export/").json()["invitations"]
    assert [(d["role"], d["inviter"], [a["outcome"] for a in d["answers"]]) for d in exported] == [
        ("received", "alice", ["declined"]), ("received", "alice", ["revoked"])]
    exported = table["alice"].get("/api/account/export/").json()["invitations"]
    assert [(d["role"], d["kind"], d["invitee"]) for d in exported] == [
        ("sent", "user", "bob"), ("sent", "user", "bob"), ("sent", "link", None), ("sent", "link", None)]


# found by a probe: a player who left kept seating people by their link, and no one could withdraw it
def test_an_invitation_lapses_when_its_inviter_leaves_the_match(table, make_user, client_for):
    alices_link = table["alice"].post(table["url"], {}, format="json").json()
    table["bob"].post("/api/invitations/join/", {"token": alices_link["token"]}, format="json")
    bobs_link = table["bob"].post(table["url"], {}, format="json").json()
    to_carol = table["bob"].post(table["url"], {"username": "carol"}, format="json").json()
    services.match_leave(match_id=table["match"].pk, user=table["users"]["bob"])
    # the link seats no one now, and carol's invitation leaves her list
    dave = client_for(make_user("dave"))
    res = dave.post("/api/invitations/join/", {"token": bobs_link["token"]}, format="json")
    assert (res.status_code, res.json()["code"]) == (409, "invitation_closed")
    assert res.json()["message"] == "The player who sent this invitation has left the match."
    assert table["carol"].get("/api/invitations/").json() == []
    res = table["carol"].post(f"/api/invitations/{to_carol['id']}/accept/")
    assert (res.status_code, res.json()["code"]) == (409, "invitation_closed")
    assert seats(table["match"]) == ["alice", None, None]


def test_refusals_have_stable_codes(table):
    url = table["url"]
    cases = [
        (table["anon"], {"username": "bob"}, 401, "not_authenticated"),
        (table["bob"], {"username": "carol"}, 403, "not_a_player"),
        (table["alice"], {"username": "nobody-here"}, 404, "unknown_user"),
        (table["alice"], {"username": "alice"}, 409, "invite_self"),
        (table["alice"], {"username": ["bob"]}, 400, "malformed"),
    ]
    for client, body, status, code in cases:
        res = client.post(url, body, format="json")
        assert (res.status_code, res.json()["code"]) == (status, code), body
    table["bob"].post(f"/api/matches/{table['match'].pk}/join/", {}, format="json")
    res = table["alice"].post(url, {"username": "bob"}, format="json")
    assert (res.status_code, res.json()["code"]) == (409, "already_seated")
    services.match_add_bot(match_id=table["match"].pk, user=table["users"]["alice"])
    res = table["alice"].post(url, {"username": "carol"}, format="json")
    assert (res.status_code, res.json()["code"]) == (409, "match_full")
    res = table["alice"].post("/api/matches/00000000-0000-0000-0000-000000000000/invitations/", {}, format="json")
    assert (res.status_code, res.json()["code"]) == (404, "not_found")
    for path in ("/api/invitations/00000000-0000-0000-0000-000000000000/accept/",
                 "/api/invitations/00000000-0000-0000-0000-000000000000/decline/"):
        res = table["bob"].post(path)
        assert (res.status_code, res.json()["code"]) == (404, "not_found")
    res = table["bob"].post("/api/invitations/join/", {"token": "not-a-token"}, format="json")
    assert (res.status_code, res.json()["code"]) == (404, "not_found")
    assert Invitation.objects.count() == 0


def test_a_deleted_or_inactive_account_is_an_unknown_user(table, make_user):
    make_user("sleepy", is_active=False)
    res = table["alice"].post(table["url"], {"username": "sleepy"}, format="json")
    assert (res.status_code, res.json()["code"]) == (404, "unknown_user")


def test_inviting_is_throttled_per_user(table, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "invitation": "2/minute"}}
    codes = [table["alice"].post(table["url"], {"username": "bob"}, format="json").status_code for _ in range(3)]
    assert codes == [201, 200, 429]
    res = table["alice"].post(table["url"], {}, format="json")
    assert res.json()["code"] == "throttled" and int(res["Retry-After"]) > 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="the append-only trigger is PostgreSQL's")
def test_postgresql_refuses_changes_to_invitation_rows(table):
    inv = table["alice"].post(table["url"], {"username": "bob"}, format="json").json()
    table["bob"].post(f"/api/invitations/{inv['id']}/decline/")
    for table_name in ("eventstore_invitation", "eventstore_invitationanswer"):
        for statement in (f"UPDATE {table_name} SET id = id", f"DELETE FROM {table_name}"):
            with pytest.raises(DatabaseError, match="append-only"):
                with transaction.atomic(), connection.cursor() as cursor:
                    cursor.execute(statement)


@pytest.mark.parametrize("typed", ["STRASSE", "Straße", "ＳＴＲＡＳＳＥ"])
def test_a_player_is_invited_by_any_form_of_their_name(table, make_user, typed):
    """Given a player called straße, when alice invites "STRASSE" (or its fullwidth form), then
    straße is invited: names match by key (NFKC + case-folding), as logins and profiles do
    (before: a case-insensitive match only, and 404 unknown_user)."""
    make_user("straße")
    res = table["alice"].post(table["url"], {"username": typed}, format="json")
    assert res.status_code == 201, res.json()
    assert res.json()["invitee"] == "straße"
