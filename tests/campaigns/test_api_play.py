"""Campaigns played THROUGH THE REST API: a seeded chapter (Adventure then Exploration Phase) for 1,
2, 3 and 4 players with the party carried over checked field by field against each match's folded
state, and a whole Act 1 campaign to ``finished``. No deck order ever leaves the server, nor any
campaign-book entry before the phase match reads it (the campaign's own documents hold none)."""

import pytest

from campaigns import domain
from campaigns.models import CampaignRecord
from campaigns.rebuild import check_campaigns
from games.application import selectors
from games.engines.harakiri import handover
from games.engines.harakiri.content import WEAPONS
from games.eventstore.models import Match

from tests.games.harakiri.adventure_canary import deck_runs

from tests.games.api_client import Client

from .api_play import Party, as_set_up, assert_adventure_starts_from, assert_exploration_starts_from, check_level_increase, ended

pytestmark = pytest.mark.django_db


def events_of(match_id) -> list[dict]:
    return selectors.events_unredacted(Match.objects.get(pk=match_id))


def _levels(campaign_id, chapter) -> dict:
    return {r.payload["character"]: r.payload for r in CampaignRecord.objects.filter(
        campaign_id=campaign_id, type=domain.LEVEL_INCREASED, payload__chapter=chapter)}


def _entry(doc, match_id) -> dict:
    return next(h for h in doc["history"] if h["match_id"] == match_id)


def play_chapter(party, cid, chapter, runs):
    """One chapter through the API; returns the campaign document after it. Checks the hand-over both
    ways and Level Increase against what each match's log and folded state say."""
    doc = party.campaign(cid, seat=len(party.users) - 1)
    assert (doc["status"], doc["chapter"], doc["phase"]) == ("active", chapter, "adventure")
    adventure_id = doc["current_match"]
    runs |= deck_runs(adventure_id)
    party.play(adventure_id)  # the finished listener runs the policy (eager)
    assert not party.seen_before_drawn(adventure_id), "a card left the server before it was drawn"
    assert not party.unread_named(adventure_id), "a campaign-book entry left the server before it was read"

    doc = party.campaign(cid)
    finished = ended(adventure_id, "AdventureFinished")
    assert _entry(doc, adventure_id) == {"chapter": chapter, "phase": "adventure", "match_id": adventure_id,
                                         "outcome": finished["outcome"]}
    assert doc["history"][-1] == {"chapter": chapter, "phase": "exploration", "match_id": doc["current_match"],
                                  "outcome": None}
    assert doc["phase"] == "exploration" and doc["sheet"] == finished["sheet"] and doc["failure"] is None
    exploration_id = doc["current_match"]
    options = Match.objects.get(pk=exploration_id).options
    assert options["party"] == handover.party_from_sheet(finished["sheet"]) and options["adventure"] == finished["outcome"]
    assert options["scenario"] == domain.chapter_doc(1, chapter)["exploration"]["scenario"]
    # "leave the market deck ... in the play area": the Adventure Phase's market deck, its cards in no order
    assert options["market"] == finished["market"] and options["share"] is True
    # the missions' results and the sheet's marks, for the chapter's consequences
    assert options["missions"] == finished["missions"] and options["marks"] == finished["sheet"]["marks"]
    set_up = as_set_up(exploration_id)
    assert_exploration_starts_from(finished["sheet"], set_up)
    assert sorted(set_up["market"]) == finished["market"]
    if doc["yomi"] is not None:
        assert options["yomi_track"] == {"marks": doc["yomi"]["marks"], "bold": doc["yomi"]["bold"]}
    exchange_before_the_exploration(party, exploration_id)
    if party.shopper:
        bought_in_the_adventure_and_equipped(party.shopper, adventure_id, finished["sheet"], set_up)

    party.play(exploration_id)
    if party.shopper:
        used_in_the_exploration(party.shopper, exploration_id)
    doc = party.campaign(cid)
    phase_ended = ended(exploration_id, "PhaseEnded")
    sheet = handover.sheet_from_party(phase_ended["party"], finished["sheet"])
    assert _entry(doc, exploration_id)["outcome"] == ("success" if phase_ended["result"] == "victory" else "failure")
    assert doc["sheet"] == sheet
    if doc["yomi"] is not None:
        assert doc["yomi"]["marks"] == phase_ended["yomi"]["marks"]
    party.decided += check_level_increase(doc, _levels(cid, chapter), finished["sheet"], sheet, exploration_id)
    if doc["status"] != "finished":
        assert (doc["chapter"], doc["phase"]) == (chapter + 1, "adventure")
        assert_adventure_starts_from(sheet, as_set_up(doc["current_match"]))
    return doc


def bought_in_the_adventure_and_equipped(shopper, adventure_id, sheet, set_up):
    """The weapon the Adventure Phase's player bought and equipped is the Exploration Phase's
    equipped weapon, with the card's own stats (no level 1 weapon standing in)."""
    # rules: Harakiri, "Level Increase", step 4: "Update the Blacksmith deck, adding the armor and weapon cards for the
    # character's new level"; "Exploration Phase Setup", step 12: "Gather the attack dice corresponding to the type of
    # weapon you have equipped"
    cid, card = shopper
    bought = [e["payload"] for e in events_of(adventure_id) if e["type"] == "EquipmentBought"]
    assert {"character": cid, "card": card} in [{k: p[k] for k in ("character", "card")} for p in bought]
    assert sheet["characters"][cid]["equipped"] == card and sheet["characters"][cid]["level"] >= WEAPONS[card]["level"]
    ch = set_up["characters"][cid]
    assert (ch["equipped"], ch["weapons"]) == (card, sheet["characters"][cid]["weapons"])
    assert WEAPONS[card]["level"] == 2 and WEAPONS[card]["strong"] != WEAPONS[ch["weapons"][0]]["strong"]


def used_in_the_exploration(shopper, exploration_id):
    """The character attacked with it: its dice are the card's fast or strong attack."""
    cid, card = shopper
    attacks = [e["payload"]["attack"] for e in events_of(exploration_id) if e["type"] == "AttackRolled"
               and e["payload"]["attack"]["attacker"] == cid and not e["payload"]["attack"].get("double")]
    with_it = [a for a in attacks if a["weapon"] == card and a["skill"] is None]
    assert with_it, f"{cid} never attacked with {card}"
    for a in with_it:
        assert sorted(d["die"] for d in a["dice"] if d["die"] != "focus") == sorted(WEAPONS[card][a["mode"]]), a


def exchange_before_the_exploration(party, match_id):
    """Exploration Phase Setup, step 2, through the API: every seat is awaited; the seat playing a
    character holding Jirōbō's omamori hands it to the next character (a special item: no limit
    refuses it), which every seat's
    view then shows; each seat says it is done, and the oracle's round begins."""
    # rules: Harakiri, "Exploration Phase Setup", step 2: "Characters can exchange items as per the share action
    # during the Adventure Phase before the Exploration Phase starts"
    url = f"/api/matches/{match_id}/"
    clients = [Client(u, i, url, party.record, party.on_commit) for i, u in enumerate(party.users)]
    doc = clients[0].view()
    assert doc["view"]["phase"] == "share" and doc["status"]["awaiting"] == list(range(len(clients)))
    before = {c: [i["id"] for i in ch["items"]] for c, ch in doc["view"]["characters"].items()}
    order = ["akira", "hattori", "hikaru", "tomoe"]
    holder = next(c for c in order if "jirobo_omamori" in before[c])
    taker = order[(order.index(holder) + 1) % 4]
    giver = clients[doc["view"]["control"][holder]]
    gift = {"type": "share", "args": {"from": holder, "to": taker, "what": "jirobo_omamori", "amount": 1}}
    own = giver.view()
    assert gift in own["legal_commands"]
    giver.command(gift, own["seq"])
    left = list(before[holder])
    left.remove("jirobo_omamori")
    for client in clients:
        seen = client.view()["view"]["characters"]
        assert [i["id"] for i in seen[holder]["items"]] == left
        assert [i["id"] for i in seen[taker]["items"]] == [*before[taker], "jirobo_omamori"]
    for client in clients:
        own = client.view()
        client.command({"type": "end_share", "args": {}}, own["seq"])
    doc = clients[0].view()
    assert doc["view"]["phase"] != "share" and doc["view"]["share"] is None and doc["view"]["round"] == 1


FORGED = {  # a record of each kind a finished phase derives, as no phase of the campaign derived it
    domain.LEVEL_INCREASED: {"chapter": 1, "character": "akira", "level": 2, "attribute": "power", "skill": "forged"},
    domain.KAMI_CHANGED: {"chapter": 1, "character": "tomoe", "kami": "ryujin"},
    domain.MARKED: {"chapter": 1, "mark": "forged_mark"},
    domain.DISCOVERED: {"chapter": 1, "location": "mount_fuji"},
    domain.CITY: {"location": "sendai", "status": "razed", "chapter": 1},
}


def _reported(cid, seq) -> list[str]:
    return [d.field for d in check_campaigns(fix=False)[0] if d.match_id == str(cid) and d.field.startswith(f"seq {seq} ")]


def assert_tampering_with_what_the_phases_derive_is_reported(cid):
    """``rebuild_projections`` checks every record a finished phase derives against the phase match's
    log: a derived record changed, removed, or added without a phase deriving it is reported."""
    records = list(CampaignRecord.objects.filter(campaign_id=cid).order_by("seq"))
    kinds = {r.type for r in records}
    assert {domain.PHASE_FINISHED, domain.LEVEL_INCREASED, domain.MARKED} <= kinds  # a chapter levels up and marks
    for kind, payload in FORGED.items():  # added
        forged = CampaignRecord.objects.create(campaign_id=cid, seq=records[-1].seq + 1, type=kind, payload=payload)
        assert _reported(cid, forged.seq) == [f"seq {forged.seq} {kind}"], kind
        forged.delete()
    for record in records:
        if record.type not in FORGED:
            continue
        real = dict(record.payload)
        record.payload = {**real, **{k: v for k, v in FORGED[record.type].items() if k != "chapter"}}
        record.save(update_fields=["payload"])  # changed
        assert _reported(cid, record.seq), record.type
        record.payload = real
        record.save(update_fields=["payload"])
        record.delete()  # removed: what follows no longer matches what the phase derives
        assert [d for d in check_campaigns(fix=False)[0] if d.match_id == str(cid)], record.type
        record.save(force_insert=True)
    assert check_campaigns(fix=False) == ([], 0)


def _party(make_user, seats, label, on_commit) -> Party:
    party = Party([make_user() for _ in range(seats)], on_commit, label)
    party.decided = 0
    return party


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_a_seeded_chapter_through_the_api_carries_the_party_over_exactly(
        seats, make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # rules: Harakiri, "Ending the Adventure Phase", "Ending the Exploration Phase", "Level Increase", "Yomi Mode"
    label = f"campaign-api-chapter-{seats}"
    fixed_match_seed(label)
    party = _party(make_user, seats, label, django_capture_on_commit_callbacks)
    yomi_mode = seats >= 3  # the Shinigami Expansion's track, carried by the campaign
    cid = party.open_campaign(yomi_mode=yomi_mode)
    doc = party.campaign(cid)
    assert Match.objects.get(pk=doc["current_match"]).options["control"] == domain.default_control(seats)
    assert (doc["yomi"] is not None) is yomi_mode
    runs = set()
    doc = play_chapter(party, cid, 1, runs)
    if yomi_mode:
        adventure = CampaignRecord.objects.get(campaign_id=cid, type=domain.PHASE_FINISHED, payload__phase="adventure")
        defeated = ended(adventure.payload["match_id"], "AdventureFinished")["defeated"]
        assert adventure.payload["yomi"]["defeated"] == defeated
        assert adventure.payload["yomi"]["marks"] <= len(defeated)  # a bold square may stop the marking
    assert check_campaigns(fix=False) == ([], 0)
    if seats == 1:
        assert_tampering_with_what_the_phases_derive_is_reported(cid)
    assert runs and not party.leaked(runs), "a deck order left the server"
    assert not party.campaign_unread(), "a campaign document names a campaign-book entry"


@pytest.mark.slow
def test_a_whole_act_1_campaign_through_the_api_to_finished(make_user, fixed_match_seed,
                                                            django_capture_on_commit_callbacks):
    # rules: Harakiri, "Level Increase" steps 1-5 with the players choosing attributes and skills as decisions
    # a seed whose chapter 2 Adventure Phase lasts long enough for Akira to work for the Nodachi's 20 coins
    label = "campaign-api-act-1-11"
    fixed_match_seed(label)
    party = _party(make_user, 2, label, django_capture_on_commit_callbacks)
    cid = party.open_campaign()
    runs = set()
    chapters = [c["number"] for c in domain.chapters(1)]
    for chapter in chapters:
        # chapter 2: Akira (level 2 after chapter 1) buys the level 2 Nodachi in Kyoto, equips it, and fights with it
        party.shopper = ("akira", "ronin_nodachi") if chapter == 2 else None
        doc = play_chapter(party, cid, chapter, runs)
    assert (doc["status"], doc["phase"], doc["current_match"]) == ("finished", "finished", None)
    assert [(h["chapter"], h["phase"]) for h in doc["history"]] == [(c, p) for c in chapters for p in ("adventure", "exploration")]
    assert all(h["outcome"] in ("success", "failure") for h in doc["history"])
    assert party.decided > 0, "the players chose attributes or skills as decisions"
    assert all(len(p["levels"]) == 3 and p["level"] == 4 for p in doc["characters"].values())  # a level per chapter
    mine = party.apis[1].get("/api/campaigns/", {"mine": 1}).json()
    assert [(c["id"], c["status"]) for c in mine] == [(cid, "finished")]
    assert check_campaigns(fix=False) == ([], 0)
    assert runs and not party.leaked(runs), "a deck order left the server"
    assert not party.campaign_unread(), "a campaign document names a campaign-book entry"
