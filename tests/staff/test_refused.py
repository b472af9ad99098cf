"""Who is refused a staff page gets Kamiza's pages, never the admin's sign-in form ("not authorized"):
signed out, Kamiza's own sign-in page that comes back here; signed in without staff rights, a 403 page
that says these pages are for staff and links back to the site. Staff are let in and audited as before."""

import pytest
from django.urls import reverse

from games.eventstore.models import StaffAccess

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_match_url(started_pebbles):
    match, _users = started_pebbles()
    return match, reverse("staff:match", args=[match.pk])


def test_a_signed_in_player_who_opens_a_staff_match_page_is_told_it_is_for_staff(client, make_user, staff_match_url):
    # given a player without staff rights, signed in
    match, url = staff_match_url
    client.force_login(make_user())
    # when they open the staff review page of a match
    res = client.get(url)
    page = res.content.decode()
    # then Kamiza refuses it with a 403 page of its own that says why and links back to the site
    assert res.status_code == 403
    assert "These pages are for Kamiza&#x27;s staff only, and your account is not a staff account." in page
    assert 'data-testid="forbidden-back" href="/"' in page or 'href="/" data-testid="forbidden-back"' in page
    assert 'class="site-header"' in page  # the site's own header and navigation, not the admin's
    assert "/admin/login/" not in page and "not authorized" not in page.lower()
    # and nothing of the match was shown, so nothing was recorded as read
    assert not StaffAccess.objects.filter(match=match).exists()


@pytest.mark.parametrize("name", ["staff:index", "staff:tournaments", "staff:reports", "staff:import"])
def test_every_staff_page_refuses_a_player_the_same_way(client, make_user, name):
    client.force_login(make_user())
    res = client.get(reverse(name))
    assert res.status_code == 403 and 'data-testid="forbidden"' in res.content.decode()


def test_a_signed_out_visitor_goes_to_kamizas_sign_in_page_and_back(client, staff_match_url):
    # given a visitor who is not signed in
    _match, url = staff_match_url
    # when they open a staff match page with a query
    res = client.get(url, {"at": "3"})
    # then they are sent to Kamiza's sign-in page, which brings them back to the same page
    assert res.status_code == 302
    assert res["Location"] == f"/login/?next={url}%3Fat%3D3"


def test_staff_still_open_the_page_and_are_recorded(client, make_user, staff_match_url):
    # given a staff member, signed in
    match, url = staff_match_url
    staff = make_user(is_staff=True)
    client.force_login(staff)
    # when they open the match's review page, then it opens and the read is recorded
    assert client.get(url).status_code == 200
    assert StaffAccess.objects.filter(user=staff, match=match).exists()


def test_a_deactivated_staff_account_is_refused(client, make_user, staff_match_url):
    _match, url = staff_match_url
    client.force_login(make_user(is_staff=True, is_active=False))
    # an inactive account is not signed in at all (Django's ModelBackend): it goes to the sign-in page
    res = client.get(url)
    assert res.status_code == 302 and res["Location"].startswith("/login/?next=")
