"""A party playing a campaign THROUGH THE REST API: the campaign is created, joined and started by
its players, each phase match is played seat by seat from each seat's own /view/ (the Adventure
Phase by the bot-like player of ``tests/engines/harakiri_adventure/bot.py``, the Exploration Phase
preferring attacks and interactions), the eager worker takes every SYSTEM step and the campaign's
policy after each phase, and every response is recorded for the canary checks."""

from rest_framework.test import APIClient

from games.application import selectors
from games.engines.harakiri.adventure.content import BLACKSMITH
from games.engines.harakiri.content import ITEMS
from games.eventstore.models import Match
from games.kernel import SYSTEM, Rng
from tests.engines.harakiri_adventure import bot
from tests.games.api_client import Client
from tests.games.harakiri import adventure_canary as canary

MAX_COMMANDS = 5000
EAGER = ("attack", "resolve_attack", "interact")


class Party:
    """The campaign's players, one API client each, and every response any of them received."""

    def __init__(self, users, on_commit, label):
        self.users, self.on_commit = users, on_commit
        self.rng = Rng(label.encode(), "choices")
        self.responses = []  # (match id or None for the campaign's own documents, seat, seq, body)
        self.match = None
        self.apis = []
        for user in users:
            api = APIClient()
            api.force_authenticate(user)
            self.apis.append(api)

    def record(self, seat, seq, body):
        self.responses.append((self.match if seq is not None else None, seat, seq, body))

    def post(self, seat, path, body=None):
        with self.on_commit(execute=True):
            resp = self.apis[seat].post(path, body or {}, format="json")
        assert resp.status_code < 500, resp.content[:500]
        self.record(seat, None, resp.content)
        return resp

    def campaign(self, cid, seat=0) -> dict:
        resp = self.apis[seat].get(f"/api/campaigns/{cid}/")
        assert resp.status_code == 200, resp.content[:500]
        self.record(seat, None, resp.content)
        return resp.json()

    def open_campaign(self, **body) -> str:
        resp = self.post(0, "/api/campaigns/", {"game": "harakiri", "act": 1, "seats": len(self.users), **body})
        assert resp.status_code == 201, resp.json()
        cid = resp.json()["id"]
        for seat in range(1, len(self.users)):
            assert self.post(seat, f"/api/campaigns/{cid}/join/").status_code == 200
        resp = self.post(0, f"/api/campaigns/{cid}/start/")
        assert resp.status_code == 200, resp.json()
        return cid

    def play(self, match_id) -> int:
        """The phase match to its end, every seat choosing among its own listed commands."""
        url = f"/api/matches/{match_id}/"
        self.match = match_id
        clients = [Client(u, i, url, self.record, self.on_commit) for i, u in enumerate(self.users)]
        for step in range(MAX_COMMANDS):
            doc = clients[0].view()
            if doc["status"]["finished"]:
                for client in clients:
                    client.follow()
                return step
            awaiting = doc["status"]["awaiting"]
            assert awaiting and SYSTEM not in awaiting, "the worker leaves no SYSTEM step behind"
            client = clients[awaiting[self.rng.below(len(awaiting))]]
            own = client.view()
            legal = own["legal_commands"]
            assert legal, own["view"]
            client.command(self.pick(own["view"], legal), own["seq"])
        raise AssertionError(f"{match_id} did not finish")

    # (character, weapon): in the Adventure Phase the character works at a blacksmith's city until it
    # can pay for the weapon, buys it and equips it; in the Exploration Phase it attacks whenever it can
    shopper = None

    def pick(self, view, legal):
        if "flow" in view:  # an Adventure Phase view
            return self.shopping(view, legal) or bot.pick(view, legal, self.rng)
        if view["phase"] == "share":  # the exchanges before the Exploration Phase: play_chapter makes one
            return {"type": "end_share", "args": {}}
        turn = view.get("turn") or {}
        if self.shopper and turn.get("who") == self.shopper[0]:
            attacks = [c for c in legal if c["type"] == "attack" and c["args"].get("skill") is None]
            if attacks:
                return attacks[0]
        eager = [c for c in legal if c["type"] in EAGER]
        pool = eager if eager and self.rng.below(4) else (
            [c for c in legal if c["type"] != "end_activation"] if self.rng.below(4) else legal)
        pool = pool or legal
        return pool[self.rng.below(len(pool))]

    def shopping(self, view, legal):
        """The shopper's Adventure command, or None to let the bot-like player decide."""
        flow = view["flow"]
        if not self.shopper or flow["stage"] != "activation" or flow.get("active") != self.shopper[0] or view.get("choice"):
            return None
        cid, card = self.shopper
        ch, shop = view["characters"][cid], flow.get("shop")

        def of(type_, **args):
            found = [c for c in legal if c["type"] == type_ and all(c["args"].get(k) == v for k, v in args.items())]
            return found[0] if found else None
        if card in ch["weapons"]:
            return of("swap_weapon") if ch["equipped"] != card else (of("leave") if shop else None)
        if shop and shop["kind"] == "blacksmith":
            spare = [w for w in ch["weapons"] if w != ch["equipped"]]
            return of("buy", card=card) or (of("sell", card=spare[0]) if spare else None) or of("leave")
        if shop:
            return None
        if ch["coins"] >= BLACKSMITH[card]["cost"]:
            return of("blacksmith")
        return of("work") if of("blacksmith") else None

    def leaked(self, runs) -> list[str]:
        """Deck runs (three cards in their dealt order) found in any response, the campaign's included."""
        return canary.leaked_runs(runs, [body for _, _, _, body in self.responses])

    def seen_before_drawn(self, match_id) -> list[tuple]:
        return canary.seen_before_drawn(match_id, self._of(match_id))

    def unread_named(self, match_id) -> list[tuple]:
        """Campaign-book entries the match's responses named before its log read them."""
        return canary.unread_named(match_id, self._of(match_id))

    def campaign_unread(self) -> list[str]:
        """Campaign-book entries the campaign's own documents name (they hold none: the sheet, the
        party, the history)."""
        return [secret for body in (b for match, _, seq, b in self.responses if seq is None) for secret in canary.pack_unread(body)]

    def _of(self, match_id) -> list[tuple]:
        return [(seat, seq, body) for match, seat, seq, body in self.responses if match == match_id]


def ended(match_id, type_) -> dict:
    return [e for e in selectors.events_unredacted(Match.objects.get(pk=match_id)) if e["type"] == type_][-1]["payload"]


def game(match_id, until=None) -> dict:
    return selectors.state_load(Match.objects.get(pk=match_id), until=until)["game"]


def as_set_up(match_id) -> dict:
    """A phase match's folded state right after its setup (before the worker's first step)."""
    match = Match.objects.get(pk=match_id)
    return game(match_id, until=match.events.get(type__in=("AdventureStarted", "PhaseStarted")).seq)


def assert_exploration_starts_from(sheet, folded):
    """The Exploration match's folded characters, field by field, against the Adventure sheet: every
    weapon, armor and item exactly as the Adventure Phase left it (one catalogue for both phases)."""
    for cid, case in sheet["characters"].items():
        ch = folded["characters"][cid]
        assert ch["level"] == case["level"] and ch["health"] == case["health"], cid
        assert ch["attrs"] == case["attributes"], cid
        for key in ("skills", "kami", "affinity", "karma", "coins", "heads", "boss_heads", "weapons", "equipped"):
            assert ch[key] == case[key], (cid, key)
        assert (ch["armor_card"], ch["armor"]) == (case["armor"], case["armor_value"]), cid
        uses = case.get("item_uses", {})
        assert ch["items"] == [{"id": i, "uses": uses.get(i, ITEMS[i].get("uses"))} for i in case["items"]], cid
        # "Level Increase" step 5: "the character will gain an extra Ki die, up to their current level"
        assert len(ch["ki"]["supply"]) == case["level"], cid


def assert_adventure_starts_from(sheet, folded):
    """The next Adventure match's folded characters, field by field, against the campaign sheet."""
    for cid, case in sheet["characters"].items():
        ch = folded["characters"][cid]
        for key in case:
            assert ch[key] == case[key], (cid, key, ch[key], case[key])
        # "Level Increase" step 4: "Update the Blacksmith deck, adding the armor and weapon cards for the character's new level"
        assert ch["blacksmith_level"] == min(3, case["level"]), cid
    for key in ("marks", "travel_removed"):
        assert sorted(folded[key]) == sorted(sheet.get(key, [])), key
    assert set(sheet.get("discovered", [])) <= set(folded["discovered"])
    assert sorted(c["location"] for c in sheet.get("cities", []) if c["status"] == "razed") == folded["cities"]["razed"]


def level_decisions(match_id, before) -> dict:
    """{character: {"level", "skill", "raised", "decided_attribute", "decided_skill"}} from the
    Exploration match's aftermath: the level and skill its level increase set, the attribute it
    raised (against the attributes just before it: a failed resurrection may have lowered one), and
    what the character's player chose where there was a decision (None where a single option was
    taken without one)."""
    out, pending = {}, None
    attrs = {cid: dict(case["attributes"]) for cid, case in before["characters"].items()}
    for ev in selectors.events_unredacted(Match.objects.get(pk=match_id)):
        p = ev["payload"]
        if ev["type"] == "DecisionMade" and p["kind"] in ("level_attribute", "level_skill"):
            pending = p["option"]
        elif ev["type"] == "AttributesChanged" and "attrs" in p["set"]:
            if p.get("reason") == "level increase":
                raised = [a for a, v in p["set"]["attrs"].items() if v > attrs[p["who"]][a]]
                out.setdefault(p["who"], {}).update(level=p["set"]["level"], raised=raised,
                                                    decided_attribute=(pending or {}).get("attribute"))
                pending = None
            attrs[p["who"]] = dict(p["set"]["attrs"])
        elif ev["type"] == "SkillsChanged" and p.get("reason") == "level increase":
            out.setdefault(p["who"], {}).update(skill=p["set"]["skills"][-1], decided_skill=(pending or {}).get("skill"))
            pending = None
    return out


def check_level_increase(campaign_doc, records, before, after, exploration_id):
    """"Level Increase" steps 1-3 through the campaign: the attribute the player chose +1 (never
    above 3), the skill the player chose from the new level's token, health at the new maximum;
    each level recorded once in the campaign's log and shown in the character's progress."""
    from games.engines.harakiri.adventure.content import CHARACTERS, LEVELS

    gained = level_decisions(exploration_id, before)
    for cid, case in after["characters"].items():
        old = before["characters"][cid]
        if case["level"] == old["level"]:
            assert cid not in records and cid not in gained
            continue
        record, decided = records[cid], gained[cid]
        assert case["level"] == old["level"] + 1 == record["level"] == decided["level"]
        assert decided["raised"] == ([record["attribute"]] if record["attribute"] else [])
        assert all(v <= 3 for v in case["attributes"].values())
        assert decided["decided_attribute"] in (None, record["attribute"])  # the player's choice, recorded
        assert record["skill"] == decided["skill"] and decided["decided_skill"] in (None, record["skill"])
        assert record["skill"] in LEVELS["skill_tokens"][cid][str(case["level"])]
        assert case["skills"] == [*old["skills"], record["skill"]]
        maximum = LEVELS["health_by_class"][CHARACTERS[cid]["class"]][case["level"] - 1]
        assert case["health"] == maximum, cid  # step 3: "regain health up to the new maximum level"
        assert campaign_doc["characters"][cid]["levels"][-1] == {
            "level": case["level"], "chapter": record["chapter"], "attribute": record["attribute"], "skill": record["skill"]}
    return sum(1 for d in gained.values() if d.get("decided_attribute") or d.get("decided_skill"))


