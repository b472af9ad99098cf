"""Fair play in a real tournament: its spectators are the organizer's delay behind (default 60 s and a
full turn), its players are refused the live view of its other running matches (403
``live_view_refused``) and get it once the match ends; the players of a match are not affected.
(The same rules on the socket, and with every path checked move by move: tests/realtime/test_fair_play.py.)"""

import uuid
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.application import selectors, services as app, watch
from games.eventstore import store
from games.tournaments import rebuild, services
from games.tournaments.errors import TournamentServiceError
from games.tournaments.matches import tournament_create_matches
from games.tournaments.models import Tournament, TournamentTable
from games.tournaments.watch import watch_policies

pytestmark = pytest.mark.django_db

YOKAI = {"turn_seconds": 120}  # a tournament match needs its decision clock


def _client(user=None) -> APIClient:
    c = APIClient()
    if user is not None:
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return c


def test_the_organizer_sets_the_delay_and_the_default_is_a_full_turn_and_a_minute(organizer):
    c = _client(organizer)
    body = {"name": "Cup", "game": "yokai", "format": "swiss", "table_size": 2, "round_minutes": 30,
            "match_options": YOKAI}
    default = c.post("/api/tournaments/", body, format="json").json()
    assert (default["spectator_delay_seconds"], default["spectator_delay_turns"]) == (60, 1)
    custom = c.post("/api/tournaments/", {**body, "spectator_delay_seconds": 300, "spectator_delay_turns": 2},
                    format="json").json()
    assert c.get(f"/api/tournaments/{custom['id']}/").json()["spectator_delay_seconds"] == 300
    bad = c.post("/api/tournaments/", {**body, "spectator_delay_seconds": -1}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "malformed"
    with pytest.raises(TournamentServiceError) as refused:
        services.tournament_create(creator=organizer, name="Cup", game="yokai", format="swiss", table_size=2,
                                   round_minutes=30, match_options=YOKAI, spectator_delay_turns=99)
    assert refused.value.code == "invalid_spectator_delay"
    # "at least 60 s" is a floor: no organizer can let spectators watch live (or nearly)
    live = c.post("/api/tournaments/", {**body, "spectator_delay_seconds": 0, "spectator_delay_turns": 0}, format="json")
    assert (live.status_code, live.json()["code"]) == (422, "invalid_spectator_delay")
    nearly = c.post("/api/tournaments/", {**body, "spectator_delay_seconds": 59}, format="json")
    assert (nearly.status_code, nearly.json()["code"]) == (422, "invalid_spectator_delay")
    assert c.post("/api/tournaments/", {**body, "spectator_delay_turns": 0}, format="json").status_code == 201


def test_an_organizers_change_applies_to_the_running_matches_at_once(make_user, organizer):
    t = services.tournament_create(creator=organizer, name="Cup", game="yokai", format="swiss", table_size=2,
                                   round_minutes=30, match_options=YOKAI)
    for _ in range(2):
        services.tournament_register(tournament_id=t.pk, user=make_user())
    services.tournament_start(tournament_id=t.pk, user=organizer)
    (match,) = tournament_create_matches(tournament_id=t.pk, round_no=1)
    assert watch_policies([match.pk])[str(match.pk)].delay_seconds == 60
    services.tournament_set_spectator_delay(tournament_id=t.pk, user=organizer, seconds=600, turns=3)
    policy = watch_policies([match.pk])[str(match.pk)]
    assert (policy.delay_seconds, policy.delay_turns) == (600, 3)
    assert services.state_of(t.pk).spectator_delay == (600, 3)  # recorded in the tournament's log
    Tournament.objects.filter(pk=t.pk).update(spectator_delay_seconds=60)  # behind the log's back
    assert [d.line() for d in rebuild.check(t.pk)] == ["tournament.spectator_delay: stored (60, 3), rebuilt (600, 3)"]
    rebuild.check(t.pk, fix=True)
    assert rebuild.check(t.pk) == [] and Tournament.objects.get(pk=t.pk).spectator_delay_seconds == 600


def test_players_are_refused_other_running_matches_and_spectators_are_kept_behind(make_user, organizer, monkeypatch):
    t = services.tournament_create(creator=organizer, name="Cup", game="yokai", format="swiss", table_size=2,
                                   round_minutes=30, match_options=YOKAI)
    players = [make_user() for _ in range(4)]
    for p in players:
        services.tournament_register(tournament_id=t.pk, user=p)
    services.tournament_start(tournament_id=t.pk, user=organizer)
    tournament_create_matches(tournament_id=t.pk, round_no=1)
    matches = [table.match for table in TournamentTable.objects.filter(tournament=t, round=1).order_by("table")]
    assert len(matches) == 2
    mine, other = matches
    me = next(p for p in players if selectors.seat_for_user(mine, p) is not None)
    theirs = [p for p in players if selectors.seat_for_user(other, p) is not None]

    # A player of the tournament: refused the other match on every path, with a stable code.
    for path in (f"/api/matches/{other.pk}/view/", f"/api/matches/{other.pk}/events/",
                 f"/api/matches/{other.pk}/chat/?channel=spectators"):
        res = _client(me).get(path)
        assert (res.status_code, res.json()["code"]) == (403, "live_view_refused")
    # nor its spectators' commentary, which is the live game in words (docs/security.md)
    posted = _client(me).post(f"/api/matches/{other.pk}/chat/", {"channel": "spectators", "text": "hi"}, format="json")
    assert (posted.status_code, posted.json()["code"]) == (403, "live_view_refused")
    browser = Client()
    browser.force_login(me)
    page = browser.get(f"/matches/{other.pk}/")
    assert page.status_code == 403 and b'data-testid="match-refused"' in page.content
    # ...but not their own match, nor the players of the other one.
    mine.refresh_from_db()
    assert _client(me).get(f"/api/matches/{mine.pk}/view/").json()["seq"] == mine.head_seq
    other.refresh_from_db()
    assert _client(theirs[0]).get(f"/api/matches/{other.pk}/view/").json()["seq"] == other.head_seq

    # A spectator: nothing newer than a minute ago, so only the start itself.
    started = store.first_seq_of_type(other, "MatchStarted")
    anonymous = _client()
    assert anonymous.get(f"/api/matches/{other.pk}/view/").json()["seq"] == started
    detail = anonymous.get(f"/api/matches/{other.pk}/").json()
    assert detail["seq"] == started and detail["deadline"] is None and detail["spectators"] == 0
    watching = Client().get(f"/matches/{other.pk}/")
    assert watching.status_code == 200 and b'data-testid="spectator-delay"' in watching.content

    # A move a minute later: the spectator is at the start of the turn before the current one.
    state = selectors.state_load(other)
    seat = selectors.status_of(other, state)["awaiting"][0]
    app.match_submit_command(match_id=other.pk, seat=seat, actor=app.Actor.user(theirs[seat]), command_id=uuid.uuid4(),
                             expected_seq=other.head_seq, type_="end_turn", args={})
    other.refresh_from_db()
    later = timezone.now() + timedelta(seconds=120)
    monkeypatch.setattr(watch.timezone, "now", lambda: later)
    turns = store.seqs_of_types(other, {"TurnStarted"}, newest=2)
    assert len(turns) == 2 and other.head_seq > turns[1]
    view = anonymous.get(f"/api/matches/{other.pk}/view/").json()
    assert view["seq"] == turns[1] and view["status"]["awaiting"] == [0]
    events = anonymous.get(f"/api/matches/{other.pk}/events/?after=0&limit=500").json()
    assert events["seq"] == turns[1] and events["events"][-1]["seq"] == turns[1]

    # The end opens everything, to spectators and players of the tournament alike.
    app.match_submit_system_command(match_id=other.pk, actor=app.Actor.worker("test"), command_id=uuid.uuid4(),
                                    type_="time_limit", args={})
    other.refresh_from_db()
    for client in (anonymous, _client(me)):
        view = client.get(f"/api/matches/{other.pk}/view/").json()
        assert view["seq"] == other.head_seq and view["match"]["seed"] is not None
    page = browser.get(f"/matches/{other.pk}/")
    assert page.status_code == 200 and b'data-testid="spectator-delay"' not in page.content
