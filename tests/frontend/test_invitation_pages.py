"""Invitation pages through Django's test client: the invite link seats whoever opens it (after
signing in or up), says clearly when it cannot, the lobby's "Invitations for you" with accept and
decline, and the match page's invite panel (frontend/invitation_views.py)."""

import re

import pytest

from games.application import invitations, selectors, services

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_user):
    alice = make_user("alice")
    match = services.match_create(game="pebbles", seats=3, options={}, creator=alice)
    return match, alice


def seat_names(match):
    match.refresh_from_db()
    return [s and s["username"] for s in selectors.state_load(match)["lobby"]["seats"]]


def test_the_invite_link_seats_its_opener_after_sign_up_and_lands_on_the_table(client, table):
    match, alice = table
    link, _ = invitations.invitation_create(match_id=match.pk, user=alice)
    page = client.get(link["path"])
    html = page.content.decode()
    assert page.status_code == 200 and "alice invites you to play Pebbles" in html
    next_q = f"?next=/invite/{link['token']}/"
    assert f'href="/login/{next_q}"' in html and f'href="/signup/{next_q}"' in html
    assert seat_names(match) == ["alice", None, None]  # opening it signed out seats nobody

    signed = client.post("/signup/", {"username": "newbie", "password1": "paper-lantern-42",
                                      "password2": "paper-lantern-42", "next": link["path"]})
    assert signed.status_code == 302 and signed["Location"] == link["path"]
    landed = client.get(link["path"])
    assert landed.status_code == 302 and landed["Location"] == f"/matches/{match.pk}/"
    assert seat_names(match) == ["alice", "newbie", None]
    table_page = client.get(landed["Location"])
    assert "You took a seat at alice&#x27;s Pebbles (test engine) table." in table_page.content.decode()
    again = client.get(link["path"])  # opening it again: already seated, back to the table
    assert again.status_code == 302 and again["Location"] == f"/matches/{match.pk}/"
    assert seat_names(match) == ["alice", "newbie", None]


def test_a_link_to_a_full_started_or_abandoned_match_says_so(client, table, make_user):
    match, alice = table
    link, _ = invitations.invitation_create(match_id=match.pk, user=alice)
    client.force_login(make_user("late"))
    for _ in range(2):
        services.match_add_bot(match_id=match.pk, user=alice)
    full = client.get(link["path"])
    assert full.status_code == 409 and "Every seat of this match is taken" in full.content.decode()
    services.match_start(match_id=match.pk, user=alice)
    started = client.get(link["path"])
    assert started.status_code == 409 and "This match has already started." in started.content.decode()
    assert f'href="/matches/{match.pk}/">Watch the match' in started.content.decode()
    client.force_login(alice)  # a player of the started match: the link leads back to the table
    back = client.get(link["path"])
    assert back.status_code == 302 and back["Location"] == f"/matches/{match.pk}/"
    client.force_login(make_user("later"))

    other = services.match_create(game="pebbles", seats=2, options={}, creator=alice)
    gone, _ = invitations.invitation_create(match_id=other.pk, user=alice)
    services.match_leave(match_id=other.pk, user=alice)  # the creator alone leaves: abandoned
    page = client.get(gone["path"])
    assert page.status_code == 409 and "This match was abandoned before it started." in page.content.decode()
    assert client.get("/invite/no-such-token/").status_code == 404
    # Raw codes never reach the page.
    for res in (full, started, page):
        assert "match_full" not in res.content.decode() and "match_not_open" not in res.content.decode()


def test_a_players_invitation_seats_only_them(client, table, make_user):
    match, alice = table
    make_user("bob")
    inv, _ = invitations.invitation_create(match_id=match.pk, user=alice, username="bob")
    client.force_login(make_user("mallory"))
    res = client.get(inv["path"])
    assert res.status_code == 403 and "This invitation is for another player" in res.content.decode()
    assert seat_names(match) == ["alice", None, None]


def test_the_lobby_lists_invitations_for_you_with_accept_and_decline(client, table, make_user):
    match, alice = table
    bob = make_user("bob")
    client.force_login(bob)
    lobby = client.get("/lobby/").content.decode()
    assert 'data-testid="invitations"' in lobby and re.search(r'data-testid="invitations"[^>]*\shidden', lobby)
    inv, _ = invitations.invitation_create(match_id=match.pk, user=alice, username="bob")

    fragment = client.get("/invitations/").content.decode()  # what invitations.js re-reads
    assert f'data-invitation-id="{inv["id"]}"' in fragment and "<strong>alice</strong> invites you to play" in fragment
    assert 'data-count="1"' in fragment
    lobby = client.get("/lobby/").content.decode()
    assert "Invitations for you" in lobby and f'data-invitation-id="{inv["id"]}"' in lobby
    assert not re.search(r'data-testid="invitations"[^>]*\shidden', lobby)
    # every page's header says an invitation waits (the account page, a match page...)
    for path in ("/account/", f"/matches/{match.pk}/"):
        assert 'Lobby<span class="badge" data-testid="nav-invitations">1 invitation</span>' in client.get(path).content.decode()

    res = client.post(f"/invitations/{inv['id']}/accept/")
    assert res.status_code == 302 and res["Location"] == f"/matches/{match.pk}/"
    assert seat_names(match) == ["alice", "bob", None]
    assert 'data-count="0"' in client.get("/invitations/").content.decode()
    assert 'data-testid="nav-invitations"' not in client.get("/account/").content.decode()

    carol = make_user("carol")
    second, _ = invitations.invitation_create(match_id=match.pk, user=alice, username="carol")
    client.force_login(carol)
    res = client.post(f"/invitations/{second['id']}/decline/", follow=True)
    assert "You declined alice&#x27;s invitation." in res.content.decode()
    assert seat_names(match) == ["alice", "bob", None]
    assert 'data-count="0"' in client.get("/invitations/").content.decode()
    assert client.post(f"/invitations/{second['id']}/accept/").status_code == 302  # refused: a message, no seat
    assert seat_names(match) == ["alice", "bob", None]


def test_the_match_page_invite_panel_makes_the_link_and_invites_by_name(client, table, make_user):
    match, alice = table
    make_user("bob")
    client.force_login(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="invite-panel"' in page and "Copy invite link" in page
    res = client.post(f"/matches/{match.pk}/invite/", follow=True)
    link = invitations.invitations_sent(alice, match_id=match.pk)[0]
    assert f'value="http://testserver/invite/{link["token"]}/"' in res.content.decode()
    res = client.post(f"/matches/{match.pk}/invite/", {"username": "nobody"}, follow=True)
    assert "There is no player called nobody." in res.content.decode()
    res = client.post(f"/matches/{match.pk}/invite/", {"username": "bob"}, follow=True)
    html = res.content.decode()
    assert "Invitation sent to bob: it shows in their lobby." in html and "Withdraw the invitation to bob" in html
    bob_inv = next(d for d in invitations.invitations_sent(alice, match_id=match.pk) if d["kind"] == "user")
    res = client.post(f"/invitations/{bob_inv['id']}/revoke/", follow=True)
    assert "Invitation withdrawn." in res.content.decode()
    # Neither a spectator nor anyone once the match runs sees the panel.
    client.force_login(make_user("watcher"))
    assert 'data-testid="invite-panel"' not in client.get(f"/matches/{match.pk}/").content.decode()
