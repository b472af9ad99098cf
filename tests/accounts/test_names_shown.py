"""Every read names a player by the account's id, as it is now: the current username after a rename,
"deleted player" once the account is deleted (``games.application.identities``). The match log keeps
the name it was written with (``SeatTaken``, ``MatchFinished`` and ``SeatConceded`` record it); no
read shows it. docs/platform.md, "Names"; the account-delete page's promise."""

import json
import uuid

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts import services as account_services
from accounts.selfservice import account_anonymize
from games.application import chat, selectors, services
from games.application.identities import DELETED_PLAYER
from games.application.lobby import FINISHED, SEAT_CONCEDED, SEAT_TAKEN
from games.eventstore import store
from games.tournaments import selectors as tournament_selectors
from games.tournaments import services as tournament_services
from games.tournaments.models import TournamentTable

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _pebbles(settings):
    settings.KAMIZA_EXTRA_ENGINES = ["tests.engines.pebbles"]

PASSWORD = "correct-horse-battery-9"
WORKER = tournament_services.Actor("worker", task="test")


def _browser(user) -> Client:
    c = Client(REMOTE_ADDR="10.0.0.7")
    assert c.post("/login/", {"username": user.get_username(), "password": PASSWORD}).status_code == 302
    return c


def _api(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


@pytest.fixture
def resigned(started_pebbles, make_user):
    """A finished Pebbles match of two players (stays, leaves): ``leaves`` resigned mid-match, and
    wrote a chat line, so its name is in ``MatchFinished`` and the chat. (match, stays, leaves, old name)"""
    stays, leaves = make_user(username=f"newbie1{uuid.uuid4().hex[:5]}"), make_user(username=f"newbie3{uuid.uuid4().hex[:5]}")
    match = services.match_create(game="pebbles", seats=2, options={}, creator=stays)
    services.match_join(match_id=match.pk, user=leaves, seat=1)
    services.match_start(match_id=match.pk, user=stays)
    chat.chat_post(match_id=match.pk, user=leaves, channel="players", text="good luck")
    services.match_resign(match_id=match.pk, user=leaves)
    match.refresh_from_db()
    return match, stays, leaves, leaves.get_username()


def _reads(match, stays) -> dict:
    """Every read a player has of the match and of their own profile, as text."""
    name = stays.get_username()
    api = _api(stays)
    page = _browser(stays)
    return {
        "api profile": json.dumps(api.get(f"/api/users/{name}/").json()),
        "profile page": page.get(f"/users/{name}/").content.decode(),
        "api events": json.dumps(api.get(f"/api/matches/{match.pk}/events/").json()),
        "api match": json.dumps(api.get(f"/api/matches/{match.pk}/").json()),
        "api view": json.dumps(api.get(f"/api/matches/{match.pk}/view/").json()),
        "api replay": json.dumps(api.get(f"/api/matches/{match.pk}/replay/").json()),
        "api chat": json.dumps(api.get(f"/api/matches/{match.pk}/chat/").json()),
        "match page": page.get(f"/matches/{match.pk}/").content.decode(),
        "lobby page": page.get("/lobby/").content.decode(),
    }


def _finished_event(match, stays) -> dict:
    events = _api(stays).get(f"/api/matches/{match.pk}/events/").json()["events"]
    return next(ev for ev in events if ev["type"] == FINISHED)


def test_a_deleted_players_old_name_is_in_no_read_and_still_in_the_log(resigned):
    # given newbie3 resigned mid-match (its name is in MatchFinished) and then deletes the account
    match, stays, leaves, old_name = resigned
    account_anonymize(leaves)
    # then no read of newbie1's (profile, events, match page, ...) names newbie3
    reads = _reads(match, stays)
    assert [where for where, text in reads.items() if old_name in text] == []
    # the profile's recent match and the events say "deleted player"
    recent = _api(stays).get(f"/api/users/{stays.get_username()}/").json()["recent_matches"][0]
    assert [s["username"] for s in recent["seat_list"]] == [stays.get_username(), DELETED_PLAYER]
    finished = _finished_event(match, stays)
    assert finished["payload"]["username"] == DELETED_PLAYER
    assert finished["text"] == f"{DELETED_PLAYER} resigns: the match is over"
    assert f"{DELETED_PLAYER} resigns" in reads["match page"]
    # and the log is not rewritten
    stored = [ev for ev in store.events_load(match) if ev["type"] in (SEAT_TAKEN, FINISHED)]
    assert old_name in [ev["payload"].get("username") for ev in stored]


def test_a_renamed_players_new_name_is_in_every_read(resigned):
    # given newbie3 resigned mid-match, then renames itself
    match, stays, leaves, old_name = resigned
    new_name = f"hanako{uuid.uuid4().hex[:5]}"
    account_services.user_rename(leaves, new_name)
    # then every read names it by the new name, none by the old one
    reads = _reads(match, stays)
    assert [where for where, text in reads.items() if old_name in text] == []
    naming = reads.keys() - {"lobby page"}  # the lobby names only the winner here
    assert [where for where in sorted(naming) if new_name not in reads[where]] == []
    recent = _api(stays).get(f"/api/users/{stays.get_username()}/").json()["recent_matches"][0]
    assert [s["username"] for s in recent["seat_list"]] == [stays.get_username(), new_name]
    assert _finished_event(match, stays)["text"] == f"{new_name} resigns: the match is over"
    # its own profile, under the new name, lists the match too
    mine = _api(leaves).get(f"/api/users/{new_name}/").json()["recent_matches"][0]
    assert mine["id"] == str(match.pk) and [s["username"] for s in mine["seat_list"]][1] == new_name


def test_a_command_answer_names_the_seats_as_they_are_now(started_pebbles):
    # given a running match whose second player renamed after the start
    match, (first, second) = started_pebbles()
    old_name = second.get_username()
    account_services.user_rename(second, f"renamed{uuid.uuid4().hex[:5]}")
    second.refresh_from_db()
    # when that player resigns (the event records the name the seat was taken with)
    answer = services.match_resign(match_id=match.pk, user=second)
    # then the command's answer (what the socket pushes) names the seat by its new name
    finished = next(ev for ev in answer.events if ev["type"] == FINISHED)
    assert finished["payload"]["username"] == second.get_username()
    assert old_name not in json.dumps(answer.events)


def test_a_concession_and_a_take_over_are_shown_by_the_seats_names_now():
    # rules: platform events, read through identities (SeatConceded names the seat and who took it over)
    names = ["hanako", DELETED_PLAYER, "ren"]
    conceded = {"seat": 1, "username": "newbie3", "taken_over_by": 0, "by_username": "newbie2", "idle_seconds": 90000}
    shown = selectors.platform_shown(SEAT_CONCEDED, conceded, names)
    assert (shown["username"], shown["by_username"]) == (DELETED_PLAYER, "hanako")
    assert "newbie" not in selectors.platform_text(SEAT_CONCEDED, shown)
    assert conceded["username"] == "newbie3"  # the stored payload is not touched
    resigned = selectors.platform_shown(FINISHED, {"winners": [0], "resigned": 1, "username": "newbie3"}, names)
    assert resigned["username"] == DELETED_PLAYER
    taken = {"seat": 2, "user_id": 41, "username": "newbie2"}
    assert selectors.platform_shown(SEAT_TAKEN, taken, names, {41: "hanako"})["username"] == "hanako"
    bot = {"seat": 2, "user_id": None, "username": "Bot 3", "bot": True}
    assert selectors.platform_shown(SEAT_TAKEN, bot, names, {41: "hanako"}) == bot


def test_tournament_standings_and_winners_show_a_renamed_entrant_by_the_new_name(organizer, make_user, client):
    # given a finished one-round event between newbie1 and newbie2, then newbie2 renames to hanako
    t = tournament_services.tournament_create(
        creator=organizer, name="Names Cup", game="yashima", format="swiss", table_size=2, rounds=1,
        round_minutes=50, match_options={"turn_seconds": 90, "defense_seconds": 60})
    one, two = make_user(username=f"newbie1{uuid.uuid4().hex[:5]}"), make_user(username=f"newbie2{uuid.uuid4().hex[:5]}")
    entrants = {u.pk: tournament_services.tournament_register(tournament_id=t.pk, user=u) for u in (one, two)}
    tournament_services.tournament_start(tournament_id=t.pk, user=organizer)
    table = TournamentTable.objects.get(tournament=t, round=1)
    tournament_services.tournament_record_result(tournament_id=t.pk, round=1, table=table.table,
                                                 places={str(entrants[two.pk].pk): 1, str(entrants[one.pk].pk): 2},
                                                 by="play", actor=WORKER)
    tournament_selectors.tournament_standings(t)  # the standings projection, stored with the names entered
    old_name, new_name = two.get_username(), f"hanako{uuid.uuid4().hex[:5]}"
    account_services.user_rename(two, new_name)
    # then the standings, the detail and the page (its winner line included) say hanako, never newbie2
    standings = tournament_selectors.tournament_standings(t)
    assert [r["name"] for r in standings if r["entrant_id"] == str(entrants[two.pk].pk)] == [new_name]
    detail = tournament_selectors.tournament_detail(t)
    assert new_name in [e["name"] for e in detail["entrants"]] and old_name not in json.dumps(detail)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert new_name in page and old_name not in page
    api = json.dumps(client.get(f"/api/tournaments/{t.pk}/standings/").json())
    assert new_name in api and old_name not in api


def test_a_campaign_names_a_renamed_player_by_the_new_name(make_user):
    # given an open campaign of two; the second player renames after joining
    from campaigns import services as campaign_services

    creator, other = make_user(), make_user()
    campaign = campaign_services.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    campaign_services.campaign_join(campaign_id=campaign.pk, user=other)
    old_name, new_name = other.get_username(), f"hanako{uuid.uuid4().hex[:5]}"
    account_services.user_rename(other, new_name)
    # then the campaign's document and list name the seat by the new name
    assert campaign_services.campaign_get(campaign.pk)["seats"][1]["username"] == new_name
    listed = campaign_services.campaign_list(creator)[0]
    assert listed["seats"][1]["username"] == new_name and old_name not in json.dumps(listed)
