"""``GET /staff/matches/{id}/?seat=²``: "²".isdigit() is true and int("²") raises, so the page was a
500. The seat filter takes ASCII digits only (``games.tournaments.digits.ascii_int``): anything
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
