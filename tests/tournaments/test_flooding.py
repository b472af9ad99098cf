"""Flooding the tournament writes a player can repeat at will (a probe filed 60 reports of 4000
characters in 0.9 s, and wrote 80 records with 40 register/withdraw cycles in 0.6 s): per-user
throttles on report filing (``tournament_report``) and on entering or leaving (``tournament_entry``),
on the API (429 ``throttled`` with ``Retry-After``) and on the pages (a message, nothing written)."""

import pytest
from django.test import Client

from games.tournaments.models import Entrant, MatchReport, TournamentRecord
from tests.frontend.test_account_pages import messages_shown

from games.tournaments.policies import tournament_start_and_play

from .play import yokai_cup

pytestmark = pytest.mark.django_db


def _browser(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_report_filing_is_throttled_per_user_with_retry_after(played, client_for, rates):
    rates(tournament_report="2/minute")
    t, table, (alice, bob) = played
    url = f"/api/matches/{table.match_id}/reports/"
    body = {"seq": 1, "text": "x" * 4000}
    codes = [client_for(alice).post(url, body, format="json").status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    res = client_for(alice).post(url, body, format="json")
    assert res.status_code == 429 and res.json()["code"] == "throttled" and int(res["Retry-After"]) > 0
    assert client_for(bob).post(url, body, format="json").status_code == 201  # per user
    assert MatchReport.objects.filter(reporter=alice).count() == 2
    assert TournamentRecord.objects.filter(tournament=t, kind="reported").count() == 3
    assert client_for(alice).get(f"/api/tournaments/{t.pk}/").status_code == 200  # reading is not throttled


def test_the_pages_report_forms_share_the_throttle(played, rates):
    rates(tournament_report="1/minute")
    t, table, (alice, _bob) = played
    as_alice = _browser(alice)
    r = as_alice.post(f"/tournaments/{t.pk}/report/", {"table_ref": "1:1", "text": "the clock ran out"}, follow=True)
    assert "Your report was sent to the judges." in messages_shown(r.content.decode())
    r = as_alice.post(f"/tournaments/{t.pk}/report/", {"table_ref": "1:1", "text": "again"}, follow=True)
    shown = messages_shown(r.content.decode())
    assert "code-throttled" in shown and "You are sending reports too quickly" in shown
    r = as_alice.post(f"/matches/{table.match_id}/replay/report/", {"seq": "2", "text": "and again"})
    assert r.status_code == 302 and r["Location"] == f"/matches/{table.match_id}/replay/?at=2"
    assert "code-throttled" in messages_shown(as_alice.get(r["Location"]).content.decode())
    assert MatchReport.objects.count() == 1


def test_register_and_withdraw_are_throttled_per_user(make_user, client_for, rates):
    rates(tournament_entry="3/minute")
    _organizer, t, _ = yokai_cup(make_user, players=0, rounds=1)
    flooder, other = client_for(make_user()), client_for(make_user())
    base = f"/api/tournaments/{t.pk}"
    codes = [flooder.post(f"{base}/register/", {}, format="json").status_code,
             flooder.post(f"{base}/withdraw/").status_code,
             flooder.post(f"{base}/register/", {}, format="json").status_code]
    assert codes == [200, 200, 200]
    records = TournamentRecord.objects.filter(tournament=t).count()
    res = flooder.post(f"{base}/withdraw/")
    assert res.status_code == 429 and res.json()["code"] == "throttled" and int(res["Retry-After"]) > 0
    assert flooder.post(f"{base}/register/", {}, format="json").status_code == 429
    assert TournamentRecord.objects.filter(tournament=t).count() == records  # nothing written
    assert other.post(f"{base}/register/", {}, format="json").status_code == 200  # per user


def test_the_register_and_withdraw_pages_are_throttled_too(make_user, rates):
    rates(tournament_entry="2/minute")
    _organizer, t, _ = yokai_cup(make_user, players=0, rounds=1)
    user = make_user()
    page = _browser(user)
    url = f"/tournaments/{t.pk}/"
    assert "You are registered." in messages_shown(page.post(f"{url}register/", follow=True).content.decode())
    assert "You have withdrawn." in messages_shown(page.post(f"{url}withdraw/", follow=True).content.decode())
    r = page.post(f"{url}register/", follow=True)
    shown = messages_shown(r.content.decode())
    assert "code-throttled" in shown and "You are registering and withdrawing too quickly" in shown
    assert not Entrant.objects.filter(tournament=t, members__user=user, status=Entrant.REGISTERED).exists()


def test_asking_a_partner_and_cancelling_share_the_entry_throttle(organizer, make_user, client_for, rates):
    """In a team event, registering asks the partner and ``decline`` cancels the ask: the cycle is
    limited by the same count as register/withdraw."""
    from games.tournaments import services

    rates(tournament_entry="2/minute")
    t = services.tournament_create(creator=organizer, name="Pairs", game="yokai", format="swiss", table_size=4,
                                   teams=True, round_minutes=40, match_options={"turn_seconds": 60})
    alice, bob = make_user(), make_user()
    c = client_for(alice)
    asked = c.post(f"/api/tournaments/{t.pk}/register/", {"partner": bob.username}, format="json")
    assert asked.status_code == 202
    invitation = asked.json()["invitation"]["id"]
    assert c.post(f"/api/tournaments/{t.pk}/invitations/{invitation}/decline/").status_code == 200
    res = c.post(f"/api/tournaments/{t.pk}/register/", {"partner": bob.username}, format="json")
    assert res.status_code == 429 and res.json()["code"] == "throttled"
    assert client_for(bob).post(f"/api/tournaments/{t.pk}/register/", {"partner": alice.username},
                                format="json").status_code == 202  # per user


def test_the_organizers_changes_pauses_and_resumes_share_one_throttle(make_user, client_for, rates):
    # the probe: an organizer could PATCH the spectator delay again and again, a record each time
    rates(tournament_manage="3/minute")
    organizer, t, _players = yokai_cup(make_user, players=4, rounds=2)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    api, base = client_for(organizer), f"/api/tournaments/{t.pk}"
    codes = [api.patch(f"{base}/", {"spectator_delay_seconds": 120}, format="json").status_code,
             api.post(f"{base}/pause/", {"reason": "power cut"}, format="json").status_code,
             api.post(f"{base}/resume/").status_code]
    assert codes == [200, 200, 200]
    records = TournamentRecord.objects.filter(tournament=t).count()
    for refused in (api.post(f"{base}/pause/", {}, format="json"),
                    api.patch(f"{base}/", {"spectator_delay_seconds": 90}, format="json")):
        assert refused.status_code == 429 and refused.json()["code"] == "throttled" and int(refused["Retry-After"]) > 0
    assert TournamentRecord.objects.filter(tournament=t).count() == records  # nothing written
    assert api.get(f"{base}/").status_code == 200  # reading is not throttled
    page = _browser(organizer).post(f"/tournaments/{t.pk}/pause/", {"reason": "again"}, follow=True)
    shown = messages_shown(page.content.decode())
    assert "code-throttled" in shown and "changing, pausing and resuming the tournament too quickly" in shown
    assert TournamentRecord.objects.filter(tournament=t).count() == records
