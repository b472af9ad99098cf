"""An organizer who plays in their own tournament does not use the organizer's powers over the other
entrants (the probe: an organizer registered in their own 1-round event, started it, dropped their
opponent in the middle of their match with ``POST /api/tournaments/{id}/drop/`` and won the table,
3-0, and the event). As for judging (``services.judge_role``), anyone who plays in the event, staff
included, is refused with 403 ``conflict_of_interest``: dropping another entrant, and pausing or
resuming the round's clock (a paused clock holds the decision clocks of the round's matches, their
own included). Dropping their own entrant stays a withdrawal; staff who do not play keep every power."""

import pytest
from django.test import Client

from games.tournaments import selectors, services
from games.tournaments.models import Entrant, EntrantMember
from games.tournaments.policies import tournament_start_and_play

pytestmark = pytest.mark.django_db


def _playing_organizer(make_user, organizer):
    """A 1-round Yokai event whose organizer plays its one match against ``rival``, running."""
    t = services.tournament_create(creator=organizer, name="Club night", game="yokai", format="swiss", table_size=2,
                                   rounds=1, round_minutes=20, match_options={"turn_seconds": 60})
    rival = make_user()
    for player in (organizer, rival):
        services.tournament_register(tournament_id=t.pk, user=player)
    tournament_start_and_play(tournament_id=t.pk, user=organizer)
    entrant = {m.user_id: str(m.entrant_id) for m in EntrantMember.objects.filter(tournament=t)}
    return t, entrant[organizer.pk], entrant[rival.pk]


def test_the_probe_a_playing_organizer_cannot_drop_their_opponent(make_user, organizer, client_for):
    """Given an organizer playing their own event, when they drop their opponent mid-match, then 403
    conflict_of_interest, the opponent stays in and the match runs on (before: 200, and the organizer
    won the table and the event)."""
    t, _mine, rivals = _playing_organizer(make_user, organizer)
    res = client_for(organizer).post(f"/api/tournaments/{t.pk}/drop/", {"entrant_id": rivals}, format="json")
    assert res.status_code == 403 and res.json()["code"] == "conflict_of_interest", res.content
    assert Entrant.objects.get(pk=rivals).status == Entrant.REGISTERED
    assert selectors.tournament_pairings(t)[0]["result"] is None
    t.refresh_from_db()
    assert t.status == "running"


def test_a_playing_organizer_cannot_pause_or_resume_the_clock(make_user, organizer, client_for):
    t, _mine, _rival = _playing_organizer(make_user, organizer)
    api = client_for(organizer)
    for action in ("pause", "resume"):
        res = api.post(f"/api/tournaments/{t.pk}/{action}/", {}, format="json")
        assert res.status_code == 403 and res.json()["code"] == "conflict_of_interest", (action, res.content)


def test_a_playing_organizer_may_still_drop_themselves(make_user, organizer, client_for):
    t, mine, _rival = _playing_organizer(make_user, organizer)
    res = client_for(organizer).post(f"/api/tournaments/{t.pk}/drop/", {"entrant_id": mine}, format="json")
    assert res.status_code == 200, res.content
    assert Entrant.objects.get(pk=mine).status == Entrant.DROPPED


def test_staff_who_do_not_play_keep_their_powers(make_user, organizer, client_for):
    t, _mine, rivals = _playing_organizer(make_user, organizer)
    staff = client_for(make_user(is_staff=True))
    assert staff.post(f"/api/tournaments/{t.pk}/pause/", {}, format="json").status_code == 200
    assert staff.post(f"/api/tournaments/{t.pk}/resume/", {}, format="json").status_code == 200
    assert staff.post(f"/api/tournaments/{t.pk}/drop/", {"entrant_id": rivals}, format="json").status_code == 200


def test_the_tournament_page_refuses_the_same_drop(make_user, organizer):
    t, _mine, rivals = _playing_organizer(make_user, organizer)
    page = Client()
    page.force_login(organizer)
    res = page.post(f"/tournaments/{t.pk}/drop/", {"entrant_id": rivals}, follow=True)
    assert "code-conflict_of_interest" in res.content.decode(), res.content.decode()
    assert Entrant.objects.get(pk=rivals).status == Entrant.REGISTERED
