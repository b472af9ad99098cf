"""Campaigns played THROUGH THE REST API: a seeded chapter (Adventure then Exploration Phase) for 1,
2, 3 and 4 players with the party carried over checked field by field against each match's folded
state, and a whole Act 1 campaign to ``finished``. No deck order ever leaves the server, nor any
campaign-book entry before the phase match reads it (the campaign's own documents hold none)."""

import pytest

from campaigns import domain
from campaigns.models import CampaignRecord
from campaigns.rebuild import check_campaigns
from games.engines.harakiri import handover
from games.eventstore.models import Match

from tests.games.harakiri.adventure_canary import deck_runs

from .api_play import Party, as_set_up, assert_adventure_starts_from, assert_exploration_starts_from, check_level_increase, ended

pytestmark = pytest.mark.django_db


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
    kept = party.kept
    party_option, aside = handover.party_from_sheet(finished["sheet"], kept)
    assert options["party"] == party_option and options["adventure"] == finished["outcome"]
    assert options["scenario"] == domain.chapter_doc(1, chapter)["exploration"]["scenario"]
    assert_exploration_starts_from(finished["sheet"], as_set_up(exploration_id), aside)
    if doc["yomi"] is not None:
        assert options["yomi_track"] == {"marks": doc["yomi"]["marks"], "bold": doc["yomi"]["bold"]}

    party.play(exploration_id)
    doc = party.campaign(cid)
    phase_ended = ended(exploration_id, "PhaseEnded")
    sheet, party.kept = handover.sheet_from_party(phase_ended["party"], aside,
                                                  {k: v for k, v in finished["sheet"].items() if k != "characters"})
    assert _entry(doc, exploration_id)["outcome"] == ("success" if phase_ended["result"] == "victory" else "failure")
    assert doc["sheet"] == sheet
    if doc["yomi"] is not None:
        assert doc["yomi"]["marks"] == phase_ended["yomi"]["marks"]
    party.decided += check_level_increase(doc, _levels(cid, chapter), finished["sheet"], sheet, exploration_id)
    if doc["status"] != "finished":
        assert (doc["chapter"], doc["phase"]) == (chapter + 1, "adventure")
        assert_adventure_starts_from(sheet, as_set_up(doc["current_match"]))
    return doc


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
    party.kept, party.decided = {}, 0
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
    label = "campaign-api-act-1"
    fixed_match_seed(label)
    party = _party(make_user, 2, label, django_capture_on_commit_callbacks)
    cid = party.open_campaign()
    runs = set()
    chapters = [c["number"] for c in domain.chapters(1)]
    for chapter in chapters:
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
