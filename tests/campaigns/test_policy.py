"""Campaigns through the services: the log, the policy after each phase, the party carried over."""

import copy

import pytest

from campaigns import domain, services
from campaigns.models import CampaignRecord, CampaignView
from campaigns.rebuild import check_campaigns
from games.eventstore.models import Match

from .helpers import play_to_end, started_campaign

pytestmark = pytest.mark.django_db


def _solo_adventure(make_user, fixed_match_seed, on_commit, seed: str):
    """A started one-player campaign whose Adventure Phase match has the fixed seed ``seed``:
    (campaign, users, the adventure's match id)."""
    fixed_match_seed(seed)
    campaign, users = started_campaign(make_user, on_commit, 1)
    return campaign, users, services.campaign_get(campaign.pk)["current_match"]


def test_the_policy_run_twice_opens_one_next_match(make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    on_commit = django_capture_on_commit_callbacks
    campaign, _, adventure_id = _solo_adventure(make_user, fixed_match_seed, on_commit, "campaign-twice")
    assert services.policy_run(adventure_id) == "not_finished"
    play_to_end(adventure_id, "twice", on_commit)
    for _ in range(3):
        with on_commit(execute=True):
            assert services.policy_run(adventure_id) == "done"
    started = CampaignRecord.objects.filter(campaign=campaign, type=domain.PHASE_STARTED)
    assert [(r.payload["chapter"], r.payload["phase"]) for r in started] == [(1, "adventure"), (1, "exploration")]
    assert CampaignRecord.objects.filter(campaign=campaign, type=domain.PHASE_FINISHED).count() == 1
    assert Match.objects.filter(game="harakiri").count() == 2
    # rules: Harakiri, "Ending the Adventure Phase": the adventure and Exploration Phase preparation sections of a chapter may specify consequences for ... succeeding or failing certain missions
    from games.application import selectors
    ended = [e for e in selectors.events_unredacted(selectors.match_get(adventure_id))
             if e["type"] == "AdventureFinished"][-1]["payload"]
    options = Match.objects.get(pk=services.campaign_get(campaign.pk)["current_match"]).options
    assert options["missions"] == ended["missions"] and set(options["missions"]) == {"1", "2", "5"}
    assert options["marks"] == ended["sheet"]["marks"] and options["adventure"] == ended["outcome"]
    assert services.policy_run(Match.objects.create(game="harakiri", seat_count=1, seed="00", seed_hash="00").pk) == "not_a_campaign_match"


def test_the_rebuild_check_finds_a_view_that_differs_from_the_log_and_fixes_it(make_user, django_capture_on_commit_callbacks):
    campaign, _ = started_campaign(make_user, django_capture_on_commit_callbacks, 1)
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
    campaign, _, adventure_id = _solo_adventure(make_user, fixed_match_seed, on_commit, "campaign-sweep")
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

    campaign, _ = started_campaign(make_user, django_capture_on_commit_callbacks, 1)
    view = CampaignView.objects.get(campaign=campaign)
    view.state = {**view.state, "phase": "finished"}
    view.save()
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("rebuild_projections", stdout=out)
    assert f"{campaign.pk} campaign state.phase" in out.getvalue()
    call_command("rebuild_projections", "--fix", stdout=StringIO())
    assert services.campaign_get(campaign.pk)["phase"] == "adventure"


def test_a_next_phase_the_options_refuse_is_recorded_shown_and_retried_by_staff(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks, monkeypatch):
    from rest_framework.test import APIClient

    from campaigns import tasks

    on_commit = django_capture_on_commit_callbacks
    campaign, users, adventure_id = _solo_adventure(make_user, fixed_match_seed, on_commit, "campaign-refused")
    real = domain.exploration_options

    def refused(state, chapter, outcome, missions=None):  # a party the Exploration Phase's option validation refuses
        options = real(state, chapter, outcome, missions)
        return {**options, "party": {**options["party"], "akira": {**options["party"]["akira"], "level": 9}}}

    monkeypatch.setattr(domain, "exploration_options", refused)
    play_to_end(adventure_id, "refused", on_commit)  # the finished listener runs the policy, which is refused
    view = services.campaign_get(campaign.pk)
    assert (view["status"], view["phase"], view["current_match"]) == ("active", "between", None)
    assert view["history"][-1]["match_id"] == adventure_id and view["history"][-1]["outcome"] in ("success", "failure")
    failure = view["failure"]
    assert (failure["chapter"], failure["phase"], failure["match_id"], failure["code"]) == (1, "adventure", adventure_id, "bad_options")
    assert services.policy_run(adventure_id) == "failed"  # a redelivered task appends nothing more
    assert tasks.sweep_campaigns() == 0 and services.pending_policies() == []
    assert CampaignRecord.objects.filter(campaign=campaign, type=domain.POLICY_FAILED).count() == 1

    url = f"/api/campaigns/{campaign.pk}/retry/"
    player, staff = APIClient(), APIClient()
    player.force_authenticate(users[0])
    staff.force_authenticate(make_user(is_staff=True))
    resp = player.post(url)
    assert (resp.status_code, resp.json()["code"]) == (403, "not_staff")
    assert APIClient().post(url).status_code == 401
    with on_commit(execute=True):
        resp = staff.post(url)  # still refused: recorded again
    assert resp.status_code == 200 and resp.json()["failure"]["code"] == "bad_options"
    monkeypatch.setattr(domain, "exploration_options", real)  # the cause is fixed
    with on_commit(execute=True):
        resp = staff.post(url)
    doc = resp.json()
    assert resp.status_code == 200 and doc["failure"] is None and doc["phase"] == "exploration"
    assert Match.objects.get(pk=doc["current_match"]).options["phase"] == "exploration"
    resp = staff.post(url)
    assert (resp.status_code, resp.json()["code"]) == (409, "nothing_to_retry")
    kinds = [r.type for r in CampaignRecord.objects.filter(campaign=campaign).order_by("seq")]
    assert kinds.count(domain.POLICY_FAILED) == 2 and kinds.count(domain.POLICY_RETRIED) == 2
    assert kinds.count(domain.PHASE_FINISHED) == 1 and kinds[-1] == domain.PHASE_STARTED
    assert check_campaigns(fix=False) == ([], 0)


def test_an_integrity_error_opening_the_next_phase_is_recorded_not_rolled_back_as_a_race(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks, monkeypatch):
    from django.db import IntegrityError

    on_commit = django_capture_on_commit_callbacks
    campaign, _, adventure_id = _solo_adventure(make_user, fixed_match_seed, on_commit, "campaign-integrity")
    real = services._open_match

    def broken(state, options):  # a constraint the next match's creation breaks (not a concurrent run)
        raise IntegrityError("UNIQUE constraint failed: eventstore_event.match_id, eventstore_event.seq")

    monkeypatch.setattr(services, "_open_match", broken)
    play_to_end(adventure_id, "integrity", on_commit)
    view = services.campaign_get(campaign.pk)
    assert view["history"][-1]["outcome"] in ("success", "failure")  # the phase's finish is kept
    assert (view["phase"], view["failure"]["code"]) == ("between", "internal_error")  # and the failure shown
    assert services.policy_run(adventure_id) == "failed"  # not "raced": nothing rolled back for a sweep to loop on
    assert services.pending_policies() == []
    monkeypatch.setattr(services, "_open_match", real)
    with on_commit(execute=True):
        assert services.policy_run(adventure_id, retry=True) == "exploration_opened"
    assert services.campaign_get(campaign.pk)["phase"] == "exploration"


def _first_sheet() -> dict:
    """Chapter 1's characters as the Adventure Phase's setup gives them, weapons chosen."""
    from games.engines.harakiri.adventure import engine, steps
    from tests.engines.harakiri_adventure.helpers import WEAPONS

    state = engine.initial_state({}, 1, engine.deck_contents({}))
    for cid, weapon in WEAPONS.items():
        state["characters"][cid].update(weapons=[weapon], equipped=weapon)
    return steps.sheet(state)


def test_yomi_marks_one_box_per_defeated_character_and_stop_at_a_bold_square():
    # rules: Harakiri, "Yomi Mode": mark a box ... for each character who was defeated. Once you reach one of the bold squares, do not continue marking boxes. Instead, all characters face the Shinigami
    state = {"yomi": {"marks": 3, "bold": [5, 10], "face_shinigami": False}}
    assert domain.yomi_marks(state, ["hikaru"])["marks"] == 4
    marked = domain.yomi_marks(state, ["akira", "hikaru", "tomoe"])
    assert (marked["marks"], marked["marked"], marked["bold_reached"], marked["face_shinigami"]) == (5, 2, 5, True)
    state = domain.apply(domain.apply(None, {"type": domain.CREATED, "payload": {
        "game": "harakiri", "act": 1, "seats": 1, "control": domain.default_control(1), "creator_id": 1,
        "yomi_mode": True}}), {"type": domain.SEATED, "payload": {"seat": 0, "user_id": 1, "username": "a"}})
    assert state["yomi"] == {"marks": 0, "bold": [5, 10, 15, 20], "face_shinigami": False}
    options = domain.exploration_options({**state, "sheet": _first_sheet()}, 1, "success")
    assert (options["yomi_mode"], options["yomi_track"]) == (True, {"marks": 0, "bold": [5, 10, 15, 20]})


def test_the_level_increase_records_the_players_choice_even_when_a_resurrection_took_that_point():
    # rules: Harakiri, "Level Increase", step 1: "Increase the chosen attribute by 1"; "Defeated Characters": a failed
    # resurrection test loses an attribute point (Tomoe loses dexterity, then chooses dexterity for her level)
    before = _first_sheet()
    after = copy.deepcopy(before)
    after["characters"]["tomoe"].update(level=2, skills=[*before["characters"]["tomoe"]["skills"], "divine_arrow"])
    levels = {"tomoe": {"level": 2, "attribute": "dexterity"}}
    [record] = domain.level_records(1, before, after, levels)
    assert record["payload"] == {"chapter": 1, "character": "tomoe", "level": 2, "attribute": "dexterity",
                                 "skill": "divine_arrow"}
    assert domain.level_records(1, before, after)[0]["payload"]["attribute"] is None  # the attributes alone hide it


def test_rebuild_derives_a_levels_attribute_from_the_players_choice_in_the_phase_log(monkeypatch):
    # rules: Harakiri, "Level Increase", step 1: "Increase the chosen attribute by 1"; "Defeated Characters": a failed
    # resurrection test loses an attribute point - the chosen attribute is read from PhaseEnded.levels, as the policy
    # recorded it, not from a comparison of the attributes (Tomoe lost dexterity, then chose dexterity for her level)
    from types import SimpleNamespace

    from campaigns import rebuild
    from games.engines.harakiri import handover

    before = _first_sheet()
    after = copy.deepcopy(before)
    after["characters"]["tomoe"].update(level=2, skills=[*before["characters"]["tomoe"]["skills"], "divine_arrow"])
    endings = {"m1": {"outcome": "success", "sheet": before, "market": []},
               "m2": {"result": "victory", "party": handover.party_from_sheet(after),
                      "levels": {"tomoe": {"level": 2, "attribute": "dexterity"}}}}
    monkeypatch.setattr(rebuild, "_ending", lambda p: endings[p["match_id"]])
    records, state = [], None

    def append(*new):
        nonlocal state
        for r in new:
            records.append(SimpleNamespace(seq=len(records) + 1, type=r["type"], payload=r["payload"]))
            state = domain.apply(state, r)

    append({"type": domain.CREATED, "payload": {"game": "harakiri", "act": 1, "seats": 1, "control": domain.default_control(1),
                                                "creator_id": 1}},
           {"type": domain.SEATED, "payload": {"seat": 0, "user_id": 1, "username": "a"}},
           {"type": domain.STARTED, "payload": {}},
           {"type": domain.PHASE_STARTED, "payload": {"chapter": 1, "phase": "adventure", "match_id": "m1"}})
    append(*domain.after_adventure(state, endings["m1"]))
    append({"type": domain.PHASE_STARTED, "payload": {"chapter": 1, "phase": "exploration", "match_id": "m2"}})
    append(*domain.after_exploration(state, endings["m2"]))
    level = records[-1]
    assert (level.type, level.payload["attribute"]) == (domain.LEVEL_INCREASED, "dexterity")
    assert rebuild.phase_differences("c", records) == []
    level.payload = {**level.payload, "attribute": None}  # what comparing the attributes alone would give
    assert [d.field for d in rebuild.phase_differences("c", records)] == [f"seq {level.seq} LevelIncreased.attribute"]
