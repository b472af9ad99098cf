"""Campaigns through the services: the log, the policy after each phase, the party carried over."""

import pytest

from campaigns import domain, services
from campaigns.models import CampaignRecord, CampaignView
from campaigns.rebuild import check_campaigns
from games.application import selectors
from games.engines.harakiri import handover
from games.eventstore.models import Match

from .helpers import play_to_end

pytestmark = pytest.mark.django_db


def _campaign(make_user, seats, on_commit):
    users = [make_user() for _ in range(seats)]
    campaign = services.campaign_create(user=users[0], game="harakiri", act=1, seats=seats)
    for user in users[1:]:
        services.campaign_join(campaign_id=campaign.pk, user=user)
    with on_commit(execute=True):
        services.campaign_start(campaign_id=campaign.pk, user=users[0])
    return campaign, users


def _ended(match_id, type_):
    return [e for e in selectors.events_unredacted(Match.objects.get(pk=match_id)) if e["type"] == type_][-1]["payload"]


def _game(match_id):
    return selectors.state_load(Match.objects.get(pk=match_id))["game"]


def assert_exploration_starts_from(sheet, game, aside):
    """The Exploration match's folded characters, field by field, against the Adventure sheet."""
    for cid, case in sheet["characters"].items():
        ch = game["characters"][cid]
        held = aside[cid]
        assert ch["level"] == case["level"] and ch["health"] == case["health"], cid
        assert ch["attrs"] == case["attributes"], cid
        for key in ("skills", "kami", "affinity", "karma", "coins", "heads", "boss_heads"):
            assert ch[key] == case[key], (cid, key)
        assert sorted(ch["weapons"] + held["weapons"]) == sorted(case["weapons"] + ([held["borrowed"]] if "borrowed" in held else []))
        assert sorted([i["id"] for i in ch["items"]] + held["items"]) == sorted(case["items"]), cid
        if "armor" in held:
            assert (held["armor"]["card"], held["armor"]["value"]) == (case["armor"], case["armor_value"])
        else:
            assert (ch["armor_card"], ch["armor"]) == (case["armor"], case["armor_value"]), cid


def assert_adventure_starts_from(sheet, game):
    """The next Adventure match's folded characters, field by field, against the campaign sheet."""
    for cid, case in sheet["characters"].items():
        ch = game["characters"][cid]
        for key in case:
            assert ch[key] == case[key], (cid, key, ch[key], case[key])
    for key in ("marks", "travel_removed"):
        assert sorted(game[key]) == sorted(sheet.get(key, [])), key
    assert set(sheet.get("discovered", [])) <= set(game["discovered"])


@pytest.mark.parametrize("seats", [1, 2])
def test_a_seeded_chapter_adventure_then_exploration_carries_the_party_over_exactly(
        seats, make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # rules: Harakiri, "Ending the Adventure Phase", "Ending the Exploration Phase", "Level Increase"
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed(f"campaign-chapter-{seats}")
    campaign, users = _campaign(make_user, seats, on_commit)
    view = services.campaign_get(campaign.pk)
    assert (view["status"], view["chapter"], view["phase"]) == ("active", 1, "adventure")
    adventure_id = view["current_match"]
    assert Match.objects.get(pk=adventure_id).options["control"] == domain.default_control(seats)

    play_to_end(adventure_id, f"adventure-{seats}", on_commit)  # the finished listener runs the policy
    view = services.campaign_get(campaign.pk)
    ended = _ended(adventure_id, "AdventureFinished")
    assert view["history"][0] == {"chapter": 1, "phase": "adventure", "match_id": adventure_id, "outcome": ended["outcome"]}
    assert view["phase"] == "exploration" and view["sheet"] == ended["sheet"]
    exploration_id = view["current_match"]
    options = Match.objects.get(pk=exploration_id).options
    party, aside = handover.party_from_sheet(ended["sheet"])
    assert options["party"] == party and options["adventure"] == ended["outcome"]
    assert options["scenario"] == "act1_burning_village"
    assert_exploration_starts_from(ended["sheet"], _game(exploration_id), aside)

    play_to_end(exploration_id, f"exploration-{seats}", on_commit)
    view = services.campaign_get(campaign.pk)
    phase_ended = _ended(exploration_id, "PhaseEnded")
    sheet, _ = handover.sheet_from_party(phase_ended["party"], aside,
                                         {k: v for k, v in ended["sheet"].items() if k != "characters"})
    assert view["history"][1]["outcome"] == ("success" if phase_ended["result"] == "victory" else "failure")
    assert view["sheet"] == sheet
    assert (view["chapter"], view["phase"]) == (2, "adventure")
    assert_adventure_starts_from(sheet, _game(view["current_match"]))
    gained = {r.payload["character"]: r.payload for r in CampaignRecord.objects.filter(campaign=campaign, type=domain.LEVEL_INCREASED)}
    for cid, case in sheet["characters"].items():
        before = ended["sheet"]["characters"][cid]
        if case["level"] > before["level"]:
            assert gained[cid]["level"] == case["level"] and gained[cid]["skill"] in case["skills"]
            assert view["characters"][cid]["levels"][-1]["skill"] == gained[cid]["skill"]
        else:
            assert cid not in gained
    diffs, _ = check_campaigns(fix=False)
    assert diffs == []


def test_the_policy_run_twice_opens_one_next_match(make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-twice")
    campaign, _ = _campaign(make_user, 1, on_commit)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    assert services.policy_run(adventure_id) == "not_finished"
    play_to_end(adventure_id, "twice", on_commit)
    for _ in range(3):
        with on_commit(execute=True):
            assert services.policy_run(adventure_id) == "done"
    started = CampaignRecord.objects.filter(campaign=campaign, type=domain.PHASE_STARTED)
    assert [(r.payload["chapter"], r.payload["phase"]) for r in started] == [(1, "adventure"), (1, "exploration")]
    assert CampaignRecord.objects.filter(campaign=campaign, type=domain.PHASE_FINISHED).count() == 1
    assert Match.objects.filter(game="harakiri").count() == 2
    assert services.policy_run(Match.objects.create(game="harakiri", seat_count=1, seed="00", seed_hash="00").pk) == "not_a_campaign_match"


def test_the_rebuild_check_finds_a_view_that_differs_from_the_log_and_fixes_it(make_user, django_capture_on_commit_callbacks):
    campaign, _ = _campaign(make_user, 1, django_capture_on_commit_callbacks)
    assert check_campaigns(fix=False) == ([], 0)
    view = CampaignView.objects.get(campaign=campaign)
    view.state = {**view.state, "chapter": 3}
    view.save()
    diffs, _ = check_campaigns(fix=False)
    assert [d.field for d in diffs] == ["state.chapter"]
    assert check_campaigns(fix=True)[1] == 1
    assert check_campaigns(fix=False) == ([], 0)


def test_control_follows_the_rulebook_for_1_to_4_players(make_user):
    # rules: Harakiri, "If playing with 4 players, each player controls their own character ... If playing solo, you control all four characters."
    assert set(domain.check_control(None, 1).values()) == {0}
    assert sorted(domain.check_control(None, 4).values()) == [0, 1, 2, 3]
    assert domain.check_control({"akira": 1, "hattori": 1, "hikaru": 1, "tomoe": 0}, 2)["tomoe"] == 0
    for bad in ({"akira": 0, "hattori": 0, "hikaru": 0, "tomoe": 0}, {"akira": 0, "hattori": 2, "hikaru": 1, "tomoe": 1},
                {"akira": 0, "hattori": 1}, "all"):
        with pytest.raises(domain.CampaignRefused):
            domain.check_control(bad, 2)


def test_the_sweep_reruns_the_policy_of_a_phase_whose_task_was_lost(make_user, fixed_match_seed,
                                                                    django_capture_on_commit_callbacks, monkeypatch):
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-sweep")
    campaign, _ = _campaign(make_user, 1, on_commit)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    assert services.pending_policies() == []
    from campaigns import tasks
    monkeypatch.setattr(tasks, "schedule_policy", lambda match_id: None)  # the worker died with the task
    from games.application import hooks
    monkeypatch.setattr(hooks, "_finished_listeners", [])
    play_to_end(adventure_id, "sweep", on_commit)
    assert services.campaign_get(campaign.pk)["phase"] == "adventure"
    assert services.pending_policies() == [adventure_id]
    with on_commit(execute=True):
        assert tasks.sweep_campaigns() == 1
    assert services.campaign_get(campaign.pk)["phase"] == "exploration"
    assert services.pending_policies() == []


def test_manage_rebuild_projections_reports_and_fixes_a_campaign_view(make_user, django_capture_on_commit_callbacks):
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    campaign, _ = _campaign(make_user, 1, django_capture_on_commit_callbacks)
    view = CampaignView.objects.get(campaign=campaign)
    view.state = {**view.state, "phase": "finished"}
    view.save()
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("rebuild_projections", stdout=out)
    assert f"{campaign.pk} campaign state.phase" in out.getvalue()
    call_command("rebuild_projections", "--fix", stdout=StringIO())
    assert services.campaign_get(campaign.pk)["phase"] == "adventure"
