"""The home page (the three games, their how-to-play linked to the served rules pages, two-click
starts), the rules pages, the live matches to watch (spectator counts, tournament fair play, the
demo matches), and the player-facing pages free of developer terms."""

import re
from html.parser import HTMLParser

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from games.application import presence, services, watch
from games.kernel import registry
from games.projections.models import MatchSummary

pytestmark = pytest.mark.django_db

PEBBLES = override_settings(KAMIZA_EXTRA_ENGINES=["tests.engines.pebbles"])


class Page(HTMLParser):
    """What a person reads on a page (text and the attributes read aloud; no script or style), its
    links and its element ids."""

    SPOKEN = ("title", "aria-label", "placeholder", "alt", "value")

    def __init__(self, html: str):
        super().__init__()
        self.text, self.links, self.ids, self.tags, self._skip = [], [], set(), [], 0
        self.feed(html)
        self.text = " ".join(" ".join(self.text).split())

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append((tag, attrs))
        if tag in ("script", "style"):
            self._skip += 1
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href") is not None:
            self.links.append(attrs["href"])
        for name in self.SPOKEN:
            if attrs.get(name) and not (name == "value" and (tag != "button" and attrs.get("type") != "submit")):
                self.text.append(attrs[name])

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def page(client, path) -> Page:
    resp = client.get(path)
    assert resp.status_code == 200, (path, resp.status_code)
    return Page(resp.content.decode())


def signed_in(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_the_home_page_presents_each_game_with_a_how_to_play_linked_to_its_rules():
    client = Client()
    home = page(client, "/")
    rules_pages = {}
    for engine in registry.all_engines():
        card = f"game-{engine.slug}"
        assert card + "-name" in home.ids
        players = f"{engine.min_seats} to {engine.max_seats} players"  # from the engine's seat range
        assert engine.name in home.text and players in home.text
        guide = engine.glossary()["guide"]
        assert guide["summary"] in home.text
        for step in guide["steps"]:
            assert f"{step['title']}. {step['text']}" in home.text
        rules_pages[engine.slug] = page(client, f"/games/{engine.slug}/rules/")
    assert "1 to 4 players, cooperative" in home.text  # Harakiri
    assert "Sign in to play" in home.text and "Play against a bot" not in home.text  # anonymous: no start buttons
    # every rules link of the home page lands on a section or entry of the served rules page
    rule_links = [link for link in home.links if "/rules/" in link]
    assert len(rule_links) > 30
    for link in rule_links:
        path, _, anchor = link.partition("#")
        slug = path.split("/")[2]
        assert not anchor or anchor in rules_pages[slug].ids, link
    # nothing links outside the project
    assert all(link.startswith(("/", "#")) for link in home.links), home.links
    yashima = rules_pages["yashima"]
    assert "KINDLE" in yashima.text and "This attack is +3 ATK against targets with BURN status" in yashima.text
    assert {"keyword", "keyword-KINDLE", "concept-RESTORATION", "how-to-play"} <= yashima.ids
    assert "line-plushealth" in rules_pages["harakiri"].ids  # "+health": a safe id
    assert all(link.startswith(("/", "#")) for r in rules_pages.values() for link in r.links)
    assert client.get("/games/no-such-game/rules/").status_code == 404
    # the addresses a visitor may guess from a rules page's own lead to the games
    assert client.get("/games/")["Location"] == "/" and client.get("/games/yokai/")["Location"] == "/games/yokai/rules/"
    signed_out = page(Client(), "/games/yokai/rules/")
    assert "/signup/?next=/%23game-yokai-name" in signed_out.links and "Sign up to play Yokai Battle" in signed_out.text


@PEBBLES
def test_a_game_without_a_guide_has_a_plain_rules_page():
    rules = page(Client(), "/games/pebbles/rules/")
    assert "Pebbles (test engine)" in rules.text and "no rules summary yet" in rules.text


@PEBBLES
def test_two_clicks_from_the_home_page_start_a_match(make_user):
    me = make_user(username="kiku")
    c = signed_in(me)
    home = page(c, "/")
    assert "Play against a bot" in home.text and "Play solo" in home.text and "Open a table for 2" in home.text
    quick = [attrs for tag, attrs in home.tags if tag == "form" and attrs.get("action") == "/matches/quick/"]
    assert len(quick) == 2 * len(registry.all_engines())

    # one click on "Play against a bot": created, the other seat a bot, started; the table opens
    resp = c.post("/matches/quick/", {"game": "yokai", "mode": "bot"})
    assert resp.status_code == 302 and resp["Location"].startswith("/matches/")
    summary = MatchSummary.objects.select_related("match").get(match_id=resp["Location"].split("/")[2])
    assert summary.status == "active" and summary.match.game == "yokai" and not summary.match.rated
    assert [(s["username"], bool(s.get("bot"))) for s in summary.seats] == [("kiku", False), ("Bot 2", True)]
    # Harakiri is cooperative and one person can lead the whole party: "Play solo"
    solo = MatchSummary.objects.get(match_id=c.post("/matches/quick/", {"game": "harakiri", "mode": "bot"})["Location"].split("/")[2])
    assert solo.status == "active" and len(solo.seats) == 1
    # "Open a table": an open two-seat match others join from the lobby
    table = c.post("/matches/quick/", {"game": "yashima", "mode": "open"})
    opened = MatchSummary.objects.get(match_id=table["Location"].split("/")[2])
    assert opened.status == "open" and len(opened.seats) == 2 and opened.seats[1] is None
    assert f'data-match-id="{opened.match_id}"' in c.get("/lobby/").content.decode()
    home = page(c, "/")
    assert "1 open table waiting for players" in home.text
    assert re.search(r"It is your move in [12] match(es)?\.", home.text)  # the Yokai match (and Harakiri's?)

    # a wrong request is a message on the home page, never an error page; anonymous callers sign in first
    for bad in ({"game": "chess", "mode": "bot"}, {"game": "yokai", "mode": "fast"}):
        res = c.post("/matches/quick/", bad, follow=True)
        assert res.status_code == 200 and "Choose a game and how to play it." in res.content.decode()
    assert Client().post("/matches/quick/", {"game": "yokai", "mode": "bot"})["Location"].startswith("/login/")
    assert c.get("/matches/quick/").status_code == 405


@PEBBLES
def test_live_matches_to_watch_with_counts_and_the_tournament_watch_policy(make_user, started_pebbles, monkeypatch):
    monkeypatch.setattr(presence, "_backend", presence.MemoryPresence())
    watched, (alice, bob) = started_pebbles()
    quiet, _ = started_pebbles()
    carol, dan = make_user(username="carol"), make_user(username="dan")
    fair = watch.WatchPolicy(delay_seconds=60, delay_turns=1, barred=frozenset({carol.pk}))
    monkeypatch.setattr(watch, "_providers", [lambda ids: {str(quiet.pk): fair} if str(quiet.pk) in ids else {}])
    presence.report("server-a", {watched.pk: 2}, ttl=60)
    presence.report("server-b", {watched.pk: 1}, ttl=60)

    for path in ("/", "/lobby/"):
        html = signed_in(dan).get(path).content.decode()
        rows = re.findall(r'<li class="live-row" data-match-id="([^"]+)"', html)
        assert rows[:2] == [str(watched.pk), str(quiet.pk)], "the most watched first"
    fragment = Client().get("/?fragment=live").content.decode()
    assert "<html" not in fragment
    row = Page(fragment.split(f'data-match-id="{watched.pk}"')[1].split("</li>")[0])
    assert "3 watching" in row.text and f"/matches/{watched.pk}/" in row.links and "Watch" in row.text
    assert alice.username in row.text and bob.username in row.text
    delayed = Page(fragment.split(f'data-match-id="{quiet.pk}"')[1].split("</li>")[0])
    assert "no one watching yet" in delayed.text and "shown 1 minute and 1 turn behind" in delayed.text
    # a player of that tournament may not watch it live: no link, a reason
    barred = Page(signed_in(carol).get("/?fragment=live").content.decode().split(f'data-match-id="{quiet.pk}"')[1]
                  .split("</li>")[0])
    assert f"/matches/{quiet.pk}/" not in barred.links and "it opens when it ends" in barred.text
    # a player sees their own match as theirs, not as one to watch
    own = Page(signed_in(alice).get("/?fragment=live").content.decode().split(f'data-match-id="{watched.pk}"')[1]
               .split("</li>")[0])
    assert "Your match" in own.text and "Watch" not in own.text

    # the list's version changes with the counts, so the page's script swaps it in
    version = re.search(r'data-version="([^"]*)"', fragment).group(1)
    presence.report("server-b", {}, ttl=60)
    assert re.search(r'data-version="([^"]*)"', Client().get("/?fragment=live").content.decode()).group(1) != version


def test_the_demo_matches_are_in_the_list(monkeypatch):
    monkeypatch.setattr(presence, "_backend", presence.MemoryPresence())
    call_command("seed_demo", stdout=open("/dev/null", "w"))
    live = page(Client(), "/")
    running = MatchSummary.objects.filter(status="active", match__created_by__username="bob")
    assert running.count() == len(registry.all_engines())
    for summary in running:
        assert f"/matches/{summary.match_id}/" in live.links
    assert "bob, Bot 2" in live.text and "(bot)" not in live.text  # a bot's name said once


# -- developer terms -------------------------------------------------------------------------------

UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
DEV_TERMS = [
    re.compile(r"\bseq\b", re.I),
    re.compile(r"\bseats? 0\b", re.I),
    re.compile(r"\bseats? \d\+\d"),
    re.compile(r"\bnull\b"),
    re.compile(r"\bNone\b"),
    re.compile(r"\(\s*[a-z]+(?:_[a-z]+)+\s*\)"),  # a raw error code in brackets: (not_your_turn)
    re.compile(r"\b[a-z]+(?:_[a-z]+)+\b"),  # any snake_case identifier: turn_seconds, round_cap
    UUID,
]


def assert_no_developer_terms(text: str, where: str):
    for pattern in DEV_TERMS:
        found = pattern.search(text)
        assert not found, f"{where}: {found.group(0)!r} in ...{text[max(0, found.start() - 80):found.end() + 80]}..."


@PEBBLES
def test_player_pages_show_no_developer_terms(make_user, started_pebbles):
    running, (alice, bob) = started_pebbles()
    creator = make_user(username="sora")
    open_match = services.match_create(game="pebbles", seats=3, options={}, creator=creator)
    anonymous, player, other = Client(), signed_in(alice), signed_in(make_user(username="riku"))
    checks = [
        (anonymous, "/"), (player, "/"), (anonymous, "/lobby/"), (player, "/lobby/"), (other, "/lobby/?game=harakiri"),
        (other, f"/matches/{open_match.pk}/"), (player, f"/matches/{running.pk}/"),
        (anonymous, f"/matches/{running.pk}/"), (other, "/?fragment=live"), (other, "/lobby/?fragment=open"),
    ]
    for client, path in checks:
        resp = client.get(path)
        assert resp.status_code == 200, path
        html = resp.content.decode()
        assert 'start="0"' not in html, path  # seat lists count from 1
        assert_no_developer_terms(Page(html).text, path)
    # a refusal reads as a sentence, without its code
    refused = other.post(f"/matches/{running.pk}/join/", follow=True)
    assert_no_developer_terms(Page(refused.content.decode()).text, "a refused join")
    bad = other.post("/matches/new/", {"game": "yokai", "seats": "2", "yokai__teams": "on"})
    assert bad.status_code == 400
    assert_no_developer_terms(Page(bad.content.decode()).text, "a refused create")
    assert "2 against 2 needs exactly 4 players: players 1 and 3 play against players 2 and 4." in Page(bad.content.decode()).text


def test_every_page_names_the_sites_icon_and_favicon_ico_finds_it():
    """A tab shows Kamiza's icon, and a browser asking /favicon.ico (the API's JSON names no icon) is
    sent to it instead of a 404."""
    client = Client()
    assert 'rel="icon" href="/static/img/kamiza.svg"' in client.get("/").content.decode()
    res = client.get("/favicon.ico")
    assert res.status_code == 301 and res["Location"] == "/static/img/kamiza.svg"
    assert 'href="/static/img/kamiza.svg"' in client.get("/api/docs/").content.decode()  # the API's pages too
