"""The web shell's pages through Django's test client: accounts, lobby forms, the match page."""

import json
import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from games.application import selectors, services
from games.projections.models import MatchSummary

from .test_account_pages import messages_shown

pytestmark = pytest.mark.django_db

PEBBLES = override_settings(KAMIZA_EXTRA_ENGINES=["tests.engines.pebbles"])


def boot_of(response) -> dict:
    html = response.content.decode()
    m = re.search(r'<script id="match-boot" type="application/json">(.*?)</script>', html, re.S)
    assert m, "the match page embeds its boot document"
    return json.loads(m.group(1))


# -- accounts ---------------------------------------------------------------------------------


def test_signup_creates_user_logs_in_and_enforces_password_validators(client):
    weak = client.post("/signup/", {"username": "alice", "password1": "123", "password2": "123"})
    assert weak.status_code == 200
    assert not get_user_model().objects.filter(username="alice").exists()
    assert "too short" in weak.content.decode()
    form = weak.context["form"]  # a weak password is the password's own error, not the confirmation's
    assert any("too short" in e for e in form.errors["password1"]) and "password2" not in form.errors
    mismatch = client.post("/signup/", {"username": "alice", "password1": "paper-lantern-42", "password2": "paper-lantern-43"})
    assert "password2" in mismatch.context["form"].errors

    ok = client.post("/signup/", {"username": "alice", "email": "", "password1": "paper-lantern-42", "password2": "paper-lantern-42"})
    assert ok.status_code == 302 and ok["Location"] == "/"
    user = get_user_model().objects.get(username="alice")
    assert user.profile.display_name == "alice"  # made through accounts.services.user_register
    lobby = client.get("/")
    assert 'data-testid="whoami">alice<' in lobby.content.decode()

    client.post("/logout/")
    dup = client.post("/signup/", {"username": "ALICE", "password1": "paper-lantern-42", "password2": "paper-lantern-42"})
    assert dup.status_code == 200 and "already exists" in dup.content.decode()


def test_login_logout(client, make_user):
    user = make_user(username="bob")
    bad = client.post("/login/", {"username": "bob", "password": "nope"})
    assert bad.status_code == 400 and "Wrong username or password" in bad.content.decode()
    good = client.post("/login/", {"username": "bob", "password": "correct-horse-battery-9", "next": "/matches/x/"})
    assert good.status_code == 302 and good["Location"] == "/matches/x/"
    assert client.get("/").context["user"] == user
    # an off-site next is ignored
    client.post("/logout/")
    off = client.post("/login/", {"username": "bob", "password": "correct-horse-battery-9", "next": "https://evil.example/"})
    assert off["Location"] == "/"
    assert client.get("/logout/").status_code == 405  # sign out is POST only
    client.post("/logout/")
    assert not client.get("/").context["user"].is_authenticated


@override_settings(LOGIN_RATE_LIMIT=2)
def test_login_is_rate_limited(client, make_user):
    make_user(username="carol")
    from django.core.cache import cache

    cache.clear()
    for _ in range(2):
        assert client.post("/login/", {"username": "carol", "password": "x"}).status_code == 400
    limited = client.post("/login/", {"username": "carol", "password": "correct-horse-battery-9"})
    assert limited.status_code == 429
    assert not client.get("/").context["user"].is_authenticated
    cache.clear()


# -- lobby ------------------------------------------------------------------------------------------


@PEBBLES
def test_create_join_bot_start_through_the_lobby_forms(client, make_user):
    alice, bob = make_user(username="alice"), make_user(username="bob")
    client.force_login(alice)
    page = client.get("/lobby/")
    assert 'value="pebbles"' in page.content.decode()

    # the options are real fields: an unticked "Bonus rolls" (default on) is the only option sent
    created = client.post("/matches/new/", {"game": "pebbles", "seats": "3", "pebbles__target": "30"})
    assert created.status_code == 302
    match_id = created["Location"].split("/")[2]
    summary = MatchSummary.objects.get(match_id=match_id)
    assert summary.status == "open" and summary.seats[0]["username"] == "alice"
    assert summary.match.options == {"bonus_rolls": False} and summary.match.seat_count == 3

    client.force_login(bob)
    lobby = client.get("/lobby/").content.decode()
    assert f'data-match-id="{match_id}"' in lobby and "Join" in lobby
    for path in ("/lobby/?fragment=open", "/?fragment=open"):  # the lobby's refresh (and its old address)
        fragment = client.get(path).content.decode()
        assert f'data-match-id="{match_id}"' in fragment and "<html" not in fragment
    version = re.search(r'data-version="([^"]*)"', fragment).group(1)
    assert client.post(f"/matches/{match_id}/join/").status_code == 302
    assert re.search(r'data-version="([^"]*)"', client.get("/lobby/?fragment=open").content.decode()).group(1) != version
    # bob cannot start nor add bots: a refusal message in words (no code), not an error page
    refused = client.post(f"/matches/{match_id}/start/", follow=True).content.decode()
    shown = messages_shown(refused)  # the words without the code; the code only as a class
    assert "Only the match&#x27;s creator can do this." in shown and "code-not_creator" in shown

    client.force_login(alice)
    client.post(f"/matches/{match_id}/bot/")
    client.post(f"/matches/{match_id}/start/")
    summary.refresh_from_db()
    assert summary.status == "active"
    assert [s["username"] for s in summary.seats] == ["alice", "bob", "Bot 3"]
    mine = client.get("/lobby/").content.decode()
    assert 'data-testid="active-matches"' in mine and match_id in mine


@pytest.mark.parametrize("game, post, seats, teams, sentence", [
    ("yokai", {"yokai__teams": "on"}, 4, list("ABAB"),
     "2 against 2: Seats 1 and 3 (team A) play together against seats 2 and 4 (team B)."),
    ("yashima", {"yashima__teams": "on"}, 4, list("ABAB"),
     "2 against 2: Seats 1 and 3 (team A) play together against seats 2 and 4 (team B)."),
    ("yashima", {"yashima__teams": "on"}, 6, list("ABABAB"),
     "3 against 3: Seats 1, 3 and 5 (team A) play together against seats 2, 4 and 6 (team B)."),
    ("yashima", {"yashima__teams": "on", "yashima__team_size": "2"}, 6, list("ABCABC"),
     "3 teams of 2: Each team plays against the others: team A is seats 1 and 4, team B is seats 2 and 5, "
     "team C is seats 3 and 6."),
])
def test_an_open_team_table_says_its_format_and_who_partners_whom(client, make_user, game, post, seats, teams, sentence):
    """The open-tables row said "1/4 seated" and the seats 1-4, nothing more: a player could not tell
    a 2 against 2 table, nor who they would play with, before it started. The row now names the format
    and each seat's team (the engine's own rule: team-mates sit across the table), and the match page's
    seats say who plays with whom."""
    client.force_login(make_user(username="alice"))
    created = client.post("/matches/new/", {"game": game, "seats": str(seats), **post})
    assert created.status_code == 302, created.content.decode()[:400]
    match_id = created["Location"].split("/")[2]
    fragment = client.get("/lobby/?fragment=open").content.decode()
    row = fragment.split(f'data-match-id="{match_id}"')[1].split("</tr>")[0]
    fmt = sentence.split(":")[0]
    assert re.search(rf'data-testid="table-format">{fmt}</strong> · 1/{seats} seated', row), row
    assert re.findall(r'data-team="([A-Z])">· team \1</span>', row) == teams
    response = client.get(f"/matches/{match_id}/")
    page = response.content.decode()
    table = page.split('data-testid="table-teams">')[1].split("</p>")[0]
    assert " ".join(re.sub(r"<[^>]+>", " ", table).split()).replace(" :", ":") == sentence
    # the match page's seat list tags each seat with its team too (match.js draws it from the boot),
    # not only the sentence below it
    assert boot_of(response)["team_of"] == teams


def test_a_table_without_teams_says_nothing_of_teams(client, make_user):
    client.force_login(make_user(username="alice"))
    created = client.post("/matches/new/", {"game": "yokai", "seats": "4"})
    match_id = created["Location"].split("/")[2]
    row = client.get("/lobby/?fragment=open").content.decode().split(f'data-match-id="{match_id}"')[1].split("</tr>")[0]
    assert "team" not in row and "against" not in row and "0/4 seated" not in row and "1/4 seated" in row
    response = client.get(f"/matches/{match_id}/")
    assert 'data-testid="table-teams"' not in response.content.decode()
    assert boot_of(response)["team_of"] is None


@PEBBLES
@pytest.mark.parametrize("post, field, needle", [
    ({"game": "pebbles", "seats": "2", "pebbles__target": "1"}, "pebbles__target", "greater than or equal to 5"),
    ({"game": "pebbles", "seats": "9"}, "seats", "Select a valid choice"),
    ({"game": "yashima", "seats": "1"}, "seats", "is played by 2 to 6 players"),
    ({"game": "yashima", "seats": "5", "yashima__teams": "on"}, None, "Team games need teams of the same size"),
    ({"game": "yashima", "seats": "4", "yashima__teams": "on", "yashima__team_size": "3"}, None,
     "4 seats cannot make teams of 3"),
    ({"game": "pebbles", "seats": "two"}, "seats", "Select a valid choice"),
    ({"game": "harakiri", "seats": "2", "harakiri__characters": ["akira", "tomoe", "akane"]},
     "harakiri__characters", "Choose exactly 4 (you chose 3)."),
    ({"game": "harakiri", "seats": "2", "harakiri__control__akira": "1"},
     "harakiri__control__hattori", "choose a player for every one in play"),
    ({"game": "harakiri", "seats": "2", "harakiri__leader": "2"}, "harakiri__leader", "Player 3 is not at this table"),
    ({"game": "yokai", "seats": "2", "yokai__teams": "on"}, None, "2 against 2 needs exactly 4 players: players 1 and 3 play against players 2 and 4."),
])
def test_create_refusals_are_form_errors(client, make_user, post, field, needle):
    client.force_login(make_user())
    resp = client.post("/matches/new/", post)
    assert resp.status_code == 400
    form = resp.context["create_form"]
    errors = form.errors.get(field or "__all__")
    assert errors and any(needle in e for e in errors), form.errors
    html = resp.content.decode()
    assert "teams_need_four_players" not in html and "bad_options" not in html


@PEBBLES
def test_the_create_form_is_generated_from_each_games_options_schema(client, make_user):
    client.force_login(make_user(username="mika"))
    html = client.get("/lobby/?game=yokai").content.decode()
    assert "<textarea" not in html and "JSON" not in html
    # one fieldset per game, the players' choice spans every game's range, the chosen game preselected
    for slug in ("harakiri", "yashima", "yokai", "pebbles"):
        assert f'data-game="{slug}"' in html
    assert '<option value="yokai" selected data-min="2" data-max="4">' in html
    assert '<option value="harakiri" data-min="1" data-max="4" data-cooperative="">' in html
    seats = re.search(r'<select name="seats".*?</select>', html, re.S).group(0)
    assert re.findall(r'value="(\d+)"', seats) == ["1", "2", "3", "4", "5", "6"]  # Yashima seats up to 6
    # player-facing labels: titles, players numbered from 1, hero and scenario names
    for label in ("Round limit", "Turn clock (seconds)", "Defense clock (seconds)", "Teams", "Team size", "Scenario",
                  "Act 1 - The Burning Village", "Heroes", "Takashi (samurai, Act 2)", "Who plays each hero",
                  "Party leader", "Player 1", "Player 4", "Automatic", "Shuffle when restoring"):
        assert label in html, label
    for field in ("yashima__round_cap", "yashima__turn_seconds", "yokai__teams", "harakiri__scenario",
                  "harakiri__control__takashi", "pebbles__bonus_rolls"):
        assert f'name="{field}"' in html, field
    assert 'name="harakiri__party"' not in html and 'name="harakiri__yomi_track"' not in html  # campaign-only

    # each game's fields make its options; defaults are left out
    def create(post):
        resp = client.post("/matches/new/", post)
        assert resp.status_code == 302, resp.context["create_form"].errors if resp.context else resp
        return MatchSummary.objects.get(match_id=resp["Location"].split("/")[2]).match

    match = create({"game": "yokai", "seats": "4", "yokai__teams": "on", "yokai__turn_seconds": "45"})
    assert match.options == {"teams": True, "turn_seconds": 45} and match.seat_count == 4
    match = create({"game": "yashima", "seats": "2", "yashima__round_cap": "3", "yashima__restore_shuffle": "on",
                    "yashima__defense_seconds": "60", "yashima__turn_seconds": ""})
    assert match.options == {"round_cap": 3}
    match = create({"game": "harakiri", "seats": "2", "harakiri__scenario": "act1_kachi_warren",
                    "harakiri__characters": ["akira", "hattori", "takashi", "akane"],
                    "harakiri__control__akira": "0", "harakiri__control__hattori": "0",
                    "harakiri__control__takashi": "1", "harakiri__control__akane": "1",
                    "harakiri__control__tomoe": "1",  # a hero not in play: ignored
                    "harakiri__leader": "1", "harakiri__failure_procedure": "on", "harakiri__round_cap": "2"})
    assert match.options == {"scenario": "act1_kachi_warren", "characters": ["akane", "akira", "hattori", "takashi"],
                             "control": {"akane": 1, "akira": 0, "hattori": 0, "takashi": 1}, "leader": 1,
                             "round_cap": 2}


def test_lobby_actions_need_login_and_a_real_match(client, make_user):
    assert client.post("/matches/new/", {"game": "pebbles", "seats": "2"})["Location"].startswith("/login/")
    client.force_login(make_user())
    assert client.post(f"/matches/{uuid.uuid4()}/join/").status_code == 404
    assert client.get(f"/matches/{uuid.uuid4()}/").status_code == 404
    assert client.get("/matches/not-a-uuid/").status_code == 404


def test_a_missing_page_is_a_page_of_the_site_with_the_way_back(client, make_user):
    client.force_login(make_user())
    for path, said in (("/lobyy/", ""), (f"/matches/{uuid.uuid4()}/", "No such match. "), ("/users/nobody-here/", "No such user. ")):
        res = client.get(path)
        html = res.content.decode()
        assert res.status_code == 404 and 'data-testid="nav-lobby"' in html and 'href="/lobby/"' in html, path
        assert f"{said}Kamiza has no page at <code>{path}</code>" in html, html
        assert "Resolver404" not in html
    res = client.get("/api/nope/")  # the API keeps answering JSON
    assert res.status_code == 404 and res.json()["code"] == "not_found"


def test_the_500_page_renders_without_a_request_context():
    from django.template import loader

    html = loader.get_template("500.html").render({})
    assert "Something went wrong on our side" in html and "every move that was confirmed is kept" in html


def test_a_match_of_an_uninstalled_game_is_a_404_not_a_500(client, started_pebbles, monkeypatch):
    from games.kernel import registry

    match, (alice, _) = started_pebbles()
    client.force_login(alice)
    monkeypatch.setattr(registry, "_engines", {k: v for k, v in registry._engines.items() if k != "pebbles"})
    from games.application import selectors as sel

    sel.cache_clear()
    assert client.get(f"/matches/{match.pk}/").status_code == 404
    assert client.get("/").status_code == 200


# -- the match page ----------------------------------------------------------------------------------


def test_match_page_embeds_only_the_viewers_seat_view(client, started_pebbles):
    match, (alice, bob) = started_pebbles()
    state = selectors.state_load(match)
    bob_secrets = [t["secret"] for t in state["game"]["hands"]["1"]]
    alice_secrets = [t["secret"] for t in state["game"]["hands"]["0"]]
    pile_secrets = [t["secret"] for t in state["game"]["pile"]]

    client.force_login(alice)
    resp = client.get(f"/matches/{match.pk}/")
    html = resp.content.decode()
    boot = boot_of(resp)
    assert boot["seat"] == 0 and boot["doc"]["seat"] == 0
    assert boot["ws_path"] == f"/ws/matches/{match.pk}/"
    assert boot["doc"] == json.loads(json.dumps(selectors.view_for_seat(match, 0)))
    assert [e["seq"] for e in boot["events"]] == list(range(1, match.head_seq + 1))
    assert any(c["type"] == "play" for c in boot["doc"]["legal_commands"])
    for secret in alice_secrets:
        assert secret in html  # her own hand is hers to see
    for secret in bob_secrets + pile_secrets:
        assert secret not in html

    client.force_login(bob)
    html_b = client.get(f"/matches/{match.pk}/").content.decode()
    for secret in alice_secrets + pile_secrets:
        assert secret not in html_b
    assert boot_of(client.get(f"/matches/{match.pk}/"))["doc"]["legal_commands"] == []


# docs/ratings.md: one bot seat makes the whole match unrated, whatever the flag says
def test_the_rated_line_and_the_profile_count_a_bot_table_as_unrated(client, started_pebbles):
    people, (alice, _) = started_pebbles()
    with_bot, (carol, _) = started_pebbles(bots=(1,))
    assert people.rated and with_bot.rated  # the flag alone, as created
    client.force_login(alice)
    assert '<dd id="status-rated" data-testid="rated">yes</dd>' in client.get(f"/matches/{people.pk}/").content.decode()
    client.force_login(carol)
    page = client.get(f"/matches/{with_bot.pk}/").content.decode()
    assert '<dd id="status-rated" data-testid="rated">no: a bot has a seat</dd>' in page
    profile = client.get(f"/users/{carol.username}/").content.decode()
    assert "active · unrated" in profile


# docs/platform.md, "Resigning"
def test_a_seated_player_resigns_from_the_match_page_after_a_confirmation(client, started_pebbles, make_user):
    match, (alice, bob) = started_pebbles()
    client.force_login(bob)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    form = re.search(r'<form id="resign-form"[^>]*>', page).group(0)
    assert " hidden" not in form and 'data-confirm="Resign this match?' in form
    assert boot_of(client.get(f"/matches/{match.pk}/"))["doc"]["resignable"] is True
    # a spectator has no such form; a game of three sides offers none
    client.force_login(make_user())
    assert 'id="resign-form"' not in client.get(f"/matches/{match.pk}/").content.decode()
    three, users = started_pebbles(seats=3)
    client.force_login(users[0])
    assert re.search(r'<form id="resign-form"[^>]* hidden', client.get(f"/matches/{three.pk}/").content.decode())
    # the form resigns, and the page says the match is over
    client.force_login(bob)
    res = client.post(f"/matches/{match.pk}/resign/")
    assert res.status_code == 302 and res["Location"] == f"/matches/{match.pk}/"
    match.refresh_from_db()
    assert selectors.state_load(match)["lobby"]["winners"] == [0]
    again = client.post(f"/matches/{match.pk}/resign/", follow=True)
    assert "The match is over." in messages_shown(again.content.decode())


def test_match_page_for_a_spectator_and_the_board_hook(client, started_pebbles, make_user, settings, tmp_path):
    match, users = started_pebbles()
    client.force_login(make_user())
    resp = client.get(f"/matches/{match.pk}/")
    boot = boot_of(resp)
    assert boot["seat"] is None and boot["doc"]["legal_commands"] == []
    html = resp.content.decode()
    assert "js/match.js" in html and "js/boards/registry.js" in html
    assert "js/boards/pebbles.js" not in html  # no board renderer: the generic view

    (tmp_path / "js" / "boards").mkdir(parents=True)
    (tmp_path / "js" / "boards" / "pebbles.js").write_text("// test board\n")
    settings.STATICFILES_DIRS = [*settings.STATICFILES_DIRS, str(tmp_path)]
    from django.contrib.staticfiles import finders

    finders.get_finder.cache_clear()
    try:
        assert "js/boards/pebbles.js" in client.get(f"/matches/{match.pk}/").content.decode()
    finally:
        finders.get_finder.cache_clear()


def test_match_page_log_is_capped_to_the_tail(client, started_pebbles, monkeypatch):
    from frontend import views

    match, (alice, bob) = started_pebbles(options={"bonus_rolls": False})
    monkeypatch.setattr(views, "LOG_TAIL", 2)
    for user, seat in ((alice, 0), (bob, 1)):
        match.refresh_from_db()
        services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(user),
                                      command_id=uuid.uuid4(), expected_seq=match.head_seq, type_="pass", args={})
    match.refresh_from_db()
    client.force_login(alice)
    boot = boot_of(client.get(f"/matches/{match.pk}/"))
    assert [e["seq"] for e in boot["events"]] == [match.head_seq - 1, match.head_seq]
    assert boot["log_from"] == match.head_seq - 2 and boot["doc"]["seq"] == match.head_seq


def test_anonymous_visitors_spectate(client, started_pebbles, make_user):
    match, _ = started_pebbles()
    state = selectors.state_load(match)
    secrets = [t["secret"] for hand in state["game"]["hands"].values() for t in hand]
    resp = client.get(f"/matches/{match.pk}/")
    assert resp.status_code == 200
    boot = boot_of(resp)
    assert boot["seat"] is None and boot["user_id"] is None and boot["doc"]["legal_commands"] == []
    assert not any(secret in resp.content.decode() for secret in secrets)

    creator = make_user()
    open_match = services.match_create(game="pebbles", seats=2, options={}, creator=creator)
    html = client.get(f"/matches/{open_match.pk}/").content.decode()
    assert "to join this match" in html and f"/login/?next=/matches/{open_match.pk}/" in html
    assert f'action="/matches/{open_match.pk}/join/"' not in html
