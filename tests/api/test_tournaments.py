"""The tournament REST API: every endpoint, its permissions and every refusal as ``{code, message}``."""

import hashlib
import uuid

import pytest

from games.tournaments.models import Tournament, TournamentRecord, TournamentTable
from tests.rest import assert_error

pytestmark = pytest.mark.django_db

YASHIMA = {"turn_seconds": 90, "defense_seconds": 60}
BASE = "/api/tournaments/"


@pytest.fixture
def org(client_for, organizer):
    return client_for(organizer)


def _body(**over):
    body = {"name": "Spring Open", "game": "yashima", "format": "swiss", "table_size": 2, "teams": False,
            "round_minutes": 50, "match_options": dict(YASHIMA), "rated": True}
    body.update(over)
    return body


@pytest.fixture
def created(org):
    res = org.post(BASE, _body(), format="json")
    assert res.status_code == 201, res.content
    return res.json()


@pytest.fixture
def players(make_user, client_for):
    users = [make_user() for _ in range(4)]
    return users, [client_for(u) for u in users]


def test_organizer_creates_and_the_detail_has_the_contract_shape(org, created, api):
    assert created["status"] == "registering" and created["round"] == 0 and created["entrants"] == []
    assert len(created["seed_hash"]) == 64
    detail = api.get(f"{BASE}{created['id']}/").json()
    for key in ("id", "name", "game", "format", "status", "round", "rounds", "entrants", "seed_hash"):
        assert key in detail
    assert detail["name"] == "Spring Open" and detail["game"] == "yashima" and detail["format"] == "swiss"
    stored = Tournament.objects.get(pk=created["id"])
    assert stored.match_options["turn_seconds"] == 90 and stored.round_minutes == 50


def test_the_draw_seed_stays_secret_while_entrants_register_and_is_revealed_at_the_start(org, created, players, api,
                                                                                        client):
    # given a tournament taking entries: its draw could be ground by withdrawing and registering again
    # (each registration is a new entrant id) if anyone knew the seed in advance
    users, clients = players
    url = f"{BASE}{created['id']}/"
    seed = Tournament.objects.get(pk=created["id"]).seed
    for c in clients:
        assert c.post(f"{url}register/").status_code == 200
    # then no read shows the seed before the start: the API, the list, the page
    assert created["seed"] is None and api.get(url).json()["seed"] is None
    # nor the draw it makes: no standings (a field all on 0 points would be ordered by it) until the start
    assert api.get(f"{url}standings/").json() == []
    assert seed not in api.get(BASE).content.decode()
    client.force_login(users[0])
    page = client.get(f"/tournaments/{created['id']}/").content.decode()
    assert seed not in page and created["seed_hash"] in page and "revealed at the start" in page
    # when the organizer starts it
    assert org.post(f"{url}start/").status_code == 200
    # then the seed is public, matches the hash published at the creation, and draws the last tie-break
    detail = api.get(url).json()
    assert detail["seed"] == seed and hashlib.sha256(seed.encode()).hexdigest() == detail["seed_hash"]
    standings = api.get(f"{url}standings/").json()
    ids = [row["entrant_id"] for row in standings]  # every entrant on 0 points before a result
    assert ids == sorted(ids, key=lambda e: hashlib.sha256(f"{seed}:{e}".encode()).hexdigest())
    assert seed in client.get(f"/tournaments/{created['id']}/").content.decode()


def test_the_provisional_scoring_is_a_setting_of_create_and_shown_in_the_detail(org, created):
    assert created["scoring"] == {"pod_scoring": "placement", "bye_points": 3,
                                  "tiebreaks": ["buchholz_cut1", "sonneborn_berger", "head_to_head", "seed_draw"]}
    res = org.post(BASE, _body(game="yokai", table_size=3, match_options={"turn_seconds": 60},
                               scoring={"pod_scoring": "shared_win", "bye_points": 1, "tiebreaks": ["omw", "head_to_head"]}),
                   format="json")
    assert res.status_code == 201, res.content
    assert res.json()["scoring"] == {"pod_scoring": "shared_win", "bye_points": 1,
                                     "tiebreaks": ["omw", "head_to_head", "seed_draw"]}
    assert_error(org.post(BASE, _body(scoring={"pod_scoring": "elo"}), format="json"), 400, "malformed")
    assert_error(org.post(BASE, _body(scoring={"tiebreaks": ["omw", "omw"]}), format="json"), 422, "invalid_tiebreaks")


def test_staff_is_an_organizer(make_user, client_for):
    staff = make_user(is_staff=True)
    assert client_for(staff).post(BASE, _body(), format="json").status_code == 201


def test_create_refusals(api, make_user, client_for, org):
    assert_error(api.post(BASE, _body(), format="json"), 401, "not_authenticated")
    assert_error(client_for(make_user()).post(BASE, _body(), format="json"), 403, "not_organizer")
    assert_error(org.post(BASE, _body(format="ladder"), format="json"), 400, "malformed")
    assert_error(org.post(BASE, {"name": "x"}, format="json"), 400, "malformed")
    assert_error(org.post(BASE, "[1]", content_type="application/json"), 400, "malformed")
    assert_error(org.post(BASE, _body(match_options={}), format="json"), 422, "clock_required")
    assert_error(org.post(BASE, _body(match_options={"turn_seconds": 60, "bogus": 1}), format="json"), 422,
           "invalid_match_options")
    assert_error(org.post(BASE, _body(format="round_robin", table_size=4), format="json"), 422, "invalid_table_size")
    assert Tournament.objects.count() == 0


def test_list_filters_by_status(api, org, created, players):
    other = org.post(BASE, _body(name="Autumn"), format="json").json()
    _, clients = players
    for c in clients[:2]:
        assert c.post(f"{BASE}{other['id']}/register/").status_code == 200
    assert org.post(f"{BASE}{other['id']}/start/").status_code == 200
    rows = api.get(BASE).json()
    assert {r["id"] for r in rows} == {created["id"], other["id"]}
    assert [r["id"] for r in api.get(BASE, {"status": "running"}).json()] == [other["id"]]
    assert [r["id"] for r in api.get(BASE, {"status": "registering"}).json()] == [created["id"]]
    assert api.get(BASE, {"status": "registering"}).json()[0]["entrant_count"] == 0
    assert api.get(BASE, {"status": "running"}).json()[0]["entrant_count"] == 2
    assert_error(api.get(BASE, {"status": "paused"}), 400, "malformed")


def test_unknown_tournament_is_404_everywhere(api, org):
    missing = uuid.uuid4()
    for path in ("", "pairings/", "standings/"):
        assert_error(api.get(f"{BASE}{missing}/{path}"), 404, "not_found")
    for path in ("register/", "withdraw/", "start/"):
        assert_error(org.post(f"{BASE}{missing}/{path}"), 404, "not_found")
    assert_error(org.post(f"{BASE}{missing}/drop/", {"entrant_id": "1"}, format="json"), 404, "not_found")
    assert_error(api.get(f"{BASE}not-a-uuid/"), 404, "not_found")


def test_register_withdraw_and_their_refusals(api, created, players, make_user, client_for):
    users, clients = players
    url = f"{BASE}{created['id']}"
    assert_error(api.post(f"{url}/register/"), 401, "not_authenticated")
    res = clients[0].post(f"{url}/register/")
    assert res.status_code == 200
    assert res.json()["entrants"][0]["user_ids"] == [users[0].pk]
    assert res.json()["entrants"][0]["name"] == users[0].username
    assert_error(clients[0].post(f"{url}/register/"), 409, "already_registered")
    assert_error(clients[1].post(f"{url}/register/", {"partner": users[2].username}, format="json"), 422, "no_teams")
    assert_error(clients[1].post(f"{url}/withdraw/"), 409, "not_registered")
    res = clients[0].post(f"{url}/withdraw/")
    assert res.status_code == 200 and res.json()["entrants"] == []
    assert clients[0].post(f"{url}/register/").status_code == 200  # back in after withdrawing


def test_full_event_and_registration_after_the_start(org, players, make_user, client_for):
    _, clients = players
    full = org.post(BASE, _body(max_entrants=2), format="json").json()
    for c in clients[:2]:
        assert c.post(f"{BASE}{full['id']}/register/").status_code == 200
    assert_error(clients[2].post(f"{BASE}{full['id']}/register/"), 409, "tournament_full")
    assert org.post(f"{BASE}{full['id']}/start/").status_code == 200
    assert_error(clients[3].post(f"{BASE}{full['id']}/register/"), 409, "registration_closed")


def test_team_registration_asks_the_partner_who_accepts_or_declines(org, players, api):
    users, clients = players
    team = org.post(BASE, _body(table_size=4, teams=True, match_options=dict(YASHIMA)), format="json")
    assert team.status_code == 201, team.content
    tid = team.json()["id"]
    url = f"{BASE}{tid}/register/"
    assert_error(clients[0].post(url), 422, "partner_required")
    assert_error(clients[0].post(url, {"partner": "nobody-here"}, format="json"), 422, "unknown_partner")
    assert_error(clients[0].post(url, {"partner": users[0].username}, format="json"), 422, "invalid_partner")

    # naming a partner asks them: 202, nobody is entered yet
    res = clients[0].post(url, {"partner": users[1].username}, format="json")
    assert res.status_code == 202 and res.json()["entrants"] == []
    invitation = res.json()["invitation"]
    assert (invitation["inviter"], invitation["partner"], invitation["status"]) == (
        users[0].username, users[1].username, "pending")
    for c in (clients[0], clients[1]):  # both see it among their invitations; a third player does not
        assert [i["id"] for i in c.get(f"{BASE}invitations/").json()] == [invitation["id"]]
    assert clients[2].get(f"{BASE}invitations/").json() == []
    assert_error(api.get(f"{BASE}invitations/"), 401, "not_authenticated")
    accept = f"{BASE}{tid}/invitations/{invitation['id']}/accept/"
    assert_error(clients[0].post(accept), 403, "not_invited")  # only the partner says yes
    assert_error(clients[1].post(f"{BASE}{tid}/invitations/999999/accept/"), 404, "not_found")
    res = clients[1].post(accept)
    assert res.status_code == 200 and res.json()["entrants"][0]["user_ids"] == [users[0].pk, users[1].pk]
    assert_error(clients[1].post(accept), 409, "invitation_closed")
    assert_error(clients[1].post(url, {"partner": users[2].username}, format="json"), 409, "already_registered")
    assert_error(clients[2].post(url, {"partner": users[1].username}, format="json"), 409, "partner_registered")

    # another pair: the partner declines, and nobody is entered
    asked = clients[2].post(url, {"partner": users[3].username}, format="json").json()["invitation"]
    decline = f"{BASE}{tid}/invitations/{asked['id']}/decline/"
    assert_error(clients[0].post(decline), 403, "not_invited")
    res = clients[3].post(decline)
    assert res.status_code == 200 and res.json()["status"] == "declined"
    assert len(api.get(f"{BASE}{tid}/").json()["entrants"]) == 1
    # naming back someone who asked you enters the team at once (200)
    assert clients[3].post(url, {"partner": users[2].username}, format="json").status_code == 202
    res = clients[2].post(url, {"partner": users[3].username}, format="json")
    assert res.status_code == 200 and "invitation" not in res.json()
    assert res.json()["entrants"][1]["user_ids"] == [users[3].pk, users[2].pk]


def test_the_organizer_changes_the_spectator_delay_and_it_is_recorded(org, created, players, api, make_user,
                                                                       client_for):
    users, clients = players
    url = f"{BASE}{created['id']}/"
    res = org.patch(url, {"spectator_delay_seconds": 180, "spectator_delay_turns": 2}, format="json")
    assert res.status_code == 200, res.content
    assert (res.json()["spectator_delay_seconds"], res.json()["spectator_delay_turns"]) == (180, 2)
    record = TournamentRecord.objects.get(tournament_id=created["id"], kind="spectator_delay_set")
    assert record.payload == {"kind": "spectator_delay_set", "seconds": 180, "turns": 2}
    assert org.patch(url, {"spectator_delay_turns": 0}, format="json").json()["spectator_delay_seconds"] == 180
    assert_error(org.patch(url, {"spectator_delay_seconds": 30}, format="json"), 422, "invalid_spectator_delay")  # the floor
    assert_error(org.patch(url, {"format": "round_robin"}, format="json"), 400, "malformed")  # never changes
    assert_error(api.patch(url, {"spectator_delay_seconds": 90}, format="json"), 401, "not_authenticated")
    assert_error(clients[0].patch(url, {"spectator_delay_seconds": 90}, format="json"), 403, "not_organizer")
    assert_error(org.patch(f"{BASE}{uuid.uuid4()}/", {"spectator_delay_seconds": 90}, format="json"), 404, "not_found")
    staff = client_for(make_user(is_staff=True))
    assert staff.patch(url, {"spectator_delay_seconds": 90}, format="json").status_code == 200
    kinds = TournamentRecord.objects.filter(tournament_id=created["id"]).values_list("kind", flat=True)
    assert list(kinds) == ["spectator_delay_set"] * 3
    assert api.get(url).json()["spectator_delay_seconds"] == 90


def test_start_pairs_round_one_and_creates_the_matches(org, created, players, api, make_user, client_for):
    _, clients = players
    url = f"{BASE}{created['id']}"
    assert_error(org.post(f"{url}/start/"), 422, "too_few_entrants")
    for c in clients:
        c.post(f"{url}/register/")
    assert_error(api.post(f"{url}/start/"), 401, "not_authenticated")
    assert_error(clients[0].post(f"{url}/start/"), 403, "not_organizer")
    res = org.post(f"{url}/start/")
    assert res.status_code == 200 and res.json()["status"] == "running" and res.json()["round"] == 1
    assert_error(org.post(f"{url}/start/"), 409, "already_started")

    pairings = api.get(f"{url}/pairings/").json()
    assert len(pairings) == 2 and {p["round"] for p in pairings} == {1}
    assert sorted(e for p in pairings for e in p["entrant_ids"]) == sorted(
        e["entrant_id"] for e in res.json()["entrants"])
    tables = {str(t.match_id) for t in TournamentTable.objects.filter(tournament_id=created["id"])}
    assert {p["match_id"] for p in pairings} == tables and None not in tables
    assert all(p["result"] is None and p["table"] in (1, 2) for p in pairings)
    assert api.get(f"{url}/pairings/", {"round": 1}).json() == pairings
    assert api.get(f"{url}/pairings/", {"round": 2}).json() == []
    assert_error(api.get(f"{url}/pairings/", {"round": "x"}), 400, "malformed")
    assert_error(api.get(f"{url}/pairings/", {"round": 0}), 400, "malformed")

    standings = api.get(f"{url}/standings/").json()
    assert [r["rank"] for r in standings] == [1, 2, 3, 4]
    for row in standings:
        assert set(row) >= {"rank", "entrant_id", "name", "points", "played", "tiebreaks"}
        assert row["points"] == 0 and row["played"] == 0 and isinstance(row["tiebreaks"], dict)


def test_a_result_shows_in_pairings_and_standings(org, created, players, api):
    from games.tournaments.policies import tournament_match_finished

    _, clients = players
    url = f"{BASE}{created['id']}"
    for c in clients:
        c.post(f"{url}/register/")
    org.post(f"{url}/start/")
    first = api.get(f"{url}/pairings/").json()[0]
    tournament_match_finished(match_id=first["match_id"], winners=[0])
    shown = api.get(f"{url}/pairings/", {"round": 1}).json()[0]
    winner = first["entrant_ids"][0]
    assert shown["result"] == {"points": {winner: 3, first["entrant_ids"][1]: 0}, "winners": [winner], "by": "play"}
    top = api.get(f"{url}/standings/").json()[0]
    assert top["entrant_id"] == winner and top["points"] == 3 and top["played"] == 1


def test_drop_is_for_organizers_of_a_running_event(org, created, players, api):
    _, clients = players
    url = f"{BASE}{created['id']}"
    for c in clients:
        c.post(f"{url}/register/")
    entrant = api.get(f"{url}/").json()["entrants"][0]["entrant_id"]
    assert_error(org.post(f"{url}/drop/", {"entrant_id": entrant}, format="json"), 409, "not_running")
    org.post(f"{url}/start/")
    assert_error(clients[1].post(f"{url}/drop/", {"entrant_id": entrant}, format="json"), 403, "not_organizer")
    assert_error(org.post(f"{url}/drop/", {}, format="json"), 400, "malformed")
    assert_error(org.post(f"{url}/drop/", {"entrant_id": "999999"}, format="json"), 409, "not_registered")
    res = org.post(f"{url}/drop/", {"entrant_id": entrant}, format="json")
    assert res.status_code == 200
    assert next(e for e in res.json()["entrants"] if e["entrant_id"] == entrant)["status"] == "dropped"
    assert_error(org.post(f"{url}/drop/", {"entrant_id": entrant}, format="json"), 409, "already_dropped")
    assert TournamentRecord.objects.filter(tournament_id=created["id"], kind="dropped").count() == 1
    # a player withdrawing after the start is a drop of their own
    assert clients[1].post(f"{url}/withdraw/").status_code == 200
    assert_error(clients[1].post(f"{url}/withdraw/"), 409, "already_dropped")


def test_wrong_methods_are_json(api, created):
    assert_error(api.delete(f"{BASE}{created['id']}/"), 401, "not_authenticated")
    assert_error(api.get(f"{BASE}{created['id']}/start/"), 401, "not_authenticated")


def test_organizer_pauses_and_resumes_the_round_clock(org, created, players, api):
    _, clients = players
    url = f"{BASE}{created['id']}"
    assert api.get(f"{url}/").json()["clock"] is None
    assert_error(org.post(f"{url}/pause/"), 409, "not_running")
    for c in clients:
        c.post(f"{url}/register/")
    org.post(f"{url}/start/")
    clock = api.get(f"{url}/").json()["clock"]
    assert clock["round"] == 1 and clock["minutes"] == 50 and clock["paused"] is False and clock["ends_at"]
    assert_error(clients[0].post(f"{url}/pause/"), 403, "not_organizer")
    assert_error(api.post(f"{url}/pause/"), 401, "not_authenticated")
    assert_error(org.post(f"{url}/resume/"), 409, "not_paused")
    res = org.post(f"{url}/pause/", {"reason": "fire drill"}, format="json")
    assert res.status_code == 200
    assert res.json()["clock"]["paused"] is True and res.json()["clock"]["ends_at"] is None
    assert_error(org.post(f"{url}/pause/"), 409, "already_paused")
    res = org.post(f"{url}/resume/")
    assert res.status_code == 200 and res.json()["clock"]["paused"] is False
    assert res.json()["clock"]["ends_at"] >= clock["ends_at"]  # the pause pushed the limit later
    kinds = list(TournamentRecord.objects.filter(tournament_id=created["id"]).order_by("seq")
                 .values_list("kind", flat=True))
    assert kinds[-2:] == ["clock_paused", "clock_resumed"]
    assert TournamentRecord.objects.get(tournament_id=created["id"], kind="clock_paused").payload["reason"] == "fire drill"
