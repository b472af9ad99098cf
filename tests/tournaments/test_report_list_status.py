"""The report lists (``/api/admin/reports/``, ``/api/tournaments/{id}/reports/``) refuse an unknown
``status`` as the tournaments list does: 400 with its stable code, ``malformed``."""

import pytest

pytestmark = pytest.mark.django_db


def test_an_unknown_status_is_refused_as_the_tournaments_list_refuses_it(played, client_for, make_user, api):
    t, table, (alice, _bob) = played
    staff = client_for(make_user(is_staff=True))
    listed = api.get("/api/tournaments/?status=bogus")
    assert listed.status_code == 400
    for path in ("/api/admin/reports/", f"/api/tournaments/{t.pk}/reports/"):
        r = staff.get(path, {"status": "bogus"})
        assert (r.status_code, r.json()["code"]) == (400, listed.json()["code"]) == (400, "malformed"), path
        assert "status" in r.json()["message"] or "status" in r.json(), r.json()
        assert staff.get(path, {"status": "all"}).status_code == 200
        assert staff.get(path, {"status": "open"}).status_code == 200
        assert staff.get(path).status_code == 200
