"""``GET /staff/matches/{id}/?seat=²``: "²".isdigit() is true and int("²") raises, so the page was a
500. The seat filter takes ASCII digits only (``games.kernel.digits.ascii_int``): anything
else is a 400 that says why, with every seat listed."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seat", ["²", "٣", "３", "+1", "1" * 5000],
                         ids=["superscript", "arabic-indic", "fullwidth", "plus", "5000-digits"])
def test_a_seat_filter_that_is_not_ascii_digits_is_a_400_that_says_so(client, make_user, started_pebbles, seat):
    match, _users = started_pebbles()
    client.force_login(make_user(is_staff=True))
    url = reverse("staff:match", args=[match.pk])
    res = client.get(url, {"seat": seat})
    html = res.content.decode()
    assert res.status_code == 400 and 'data-testid="filter-error"' in html and "is not a seat number" in html
    assert client.get(url, {"seat": "1"}).status_code == 200
    assert client.get(url, {"seat": ""}).status_code == 200  # any seat


# the Django admin's player filter and its event and command pages read an id typed in the address too
@pytest.mark.parametrize("raw", ["²", "３"], ids=["superscript", "fullwidth"])
def test_the_admin_pages_take_ascii_ids_only(client, make_user, started_pebbles, raw):
    started_pebbles()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    assert client.get("/admin/eventstore/match/", {"player": raw}).status_code == 200
    for page in ("matchevent", "matchcommand"):
        res = client.get(f"/admin/eventstore/{page}/{raw}/change/")
        assert res.status_code in (200, 302)  # Django's own "no such object" goes back to the list
