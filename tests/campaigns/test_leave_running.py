"""Leaving and abandoning a running campaign (docs/campaigns.md, "Leaving a running campaign").

A player leaves a running campaign at once: between two phases, or while a phase match is being
played (they resign from it: their characters pass there to the same player as in the campaign);
only a leave said as the phase match has just ended waits for the policy (``PlayerLeaving``, then
``PlayerLeft``). The seat goes and its characters pass to the first player left; nobody left, the campaign is abandoned
(``CampaignAbandoned``, reason ``party_left``). Its creator abandons it (``CampaignAbandoned``, reason
``creator``). Through the fold, the services (two players leaving at once too), the API and the pages."""

import threading
from html import unescape

import pytest

from campaigns import domain, services
from campaigns.models import CampaignRecord, CampaignView
from campaigns.rebuild import check_campaigns
from games.application import decisions
from games.application import selectors as match_selectors
from games.application import services as match_services
from games.eventstore.models import Match, MatchEvent
from games.kernel import SYSTEM, RuleViolation, Rng

from tests.concurrency import run_threads
from tests.frontend.test_tournament_pages import browser
from tests.rest import api_as, assert_error

from .helpers import play_to_end, started_campaign

pytestmark = pytest.mark.django_db


def _refused(code, status, run):
    with pytest.raises(domain.CampaignRefused) as refused:
        run()
    assert (refused.value.code, refused.value.status) == (code, status)


def _between(make_user, on_commit, monkeypatch, seats: int, label: str):
    """A started campaign whose Adventure Phase has ended and whose next match could not be opened:
    between two phases (no match running) until staff retry. Returns (campaign, users, restore)."""
    campaign, users = started_campaign(make_user, on_commit, seats)
    real = domain.exploration_options

    def refused(*args, **kwargs):
        raise RuleViolation("bad_options", "refused for the test")

    monkeypatch.setattr(domain, "exploration_options", refused)
    play_to_end(services.campaign_get(campaign.pk)["current_match"], label, on_commit)
    doc = services.campaign_get(campaign.pk)
    assert (doc["status"], doc["phase"], doc["current_match"]) == ("active", "between", None)
    return campaign, users, lambda: monkeypatch.setattr(domain, "exploration_options", real)


def _kinds(campaign) -> list[str]:
    return [r.type for r in CampaignRecord.objects.filter(campaign=campaign).order_by("seq")]


# -- the fold ------------------------------------------------------------------------------------


def _running_records(seats: int) -> list[dict]:
    control = domain.check_control(None, seats)
    return [{"type": domain.CREATED, "payload": {"game": "harakiri", "act": 1, "seats": seats, "control": control,
                                                 "creator_id": 100}},
            *[{"type": domain.SEATED, "payload": {"seat": i, "user_id": 100 + i, "username": f"p{i}"}} for i in range(seats)],
            {"type": domain.STARTED, "payload": {}},
            {"type": domain.PHASE_STARTED, "payload": {"chapter": 1, "phase": "adventure", "match_id": "m1"}}]


def _leaving(user_id: int) -> dict:
    return {"type": domain.LEAVING, "payload": {"seat": user_id - 100, "user_id": user_id, "username": f"p{user_id - 100}",
                                                "chapter": 1, "phase": "adventure", "match_id": "m1", "at": "t"}}


def test_a_leave_announced_during_a_phase_changes_no_seat_until_the_leave_records_are_appended():
    # rules: Harakiri, "The Characters": "If playing with fewer than four players, divide the characters between
    # yourselves as you choose. If playing solo, you control all four characters."
    # given a running campaign of three (Akira and Hikaru with p0, Hattori with p1, Tomoe with p2)
    state = domain.fold(_running_records(3))
    assert state["control"] == {"akira": 0, "hattori": 1, "hikaru": 2, "tomoe": 0}
    # when p0 (the creator) and p2 announce they leave during the phase
    announced = domain.fold(_running_records(3) + [_leaving(100), _leaving(102)])
    # then nobody's seat changes yet: the phase match's seats are fixed while it runs
    assert announced["seats"] == state["seats"] and announced["control"] == state["control"]
    assert [w["user_id"] for w in announced["leaving"]] == [100, 102]
    # and the leaves done at the phase's end take each seat as the one before it left it
    records = domain.leave_records(announced, [100, 102], "t2")
    assert [(r["type"], r["payload"]["seat"], r["payload"]["user_id"]) for r in records] == [
        (domain.LEFT, 0, 100), (domain.LEFT, 1, 102)]
    after = domain.fold(_running_records(3) + [_leaving(100), _leaving(102), *records])
    # p1 is left alone with all four characters, and the creator's part
    assert after["seats"] == [{"user_id": 101, "username": "p1"}] and set(after["control"].values()) == {0}
    assert (after["creator_id"], after["status"], after["leaving"]) == (101, "active", [])
    assert {k: v for k, v in after.items() if k != "departures"} == {
        k: v for k, v in domain.after_leaves(announced).items() if k != "departures"}
    # and the view keeps who left, where, and who plays their characters since (the page reads it as it is)
    assert [(d["username"], d["reason"], d["chapter"], d["phase"], d["heir"], d["at"]) for d in after["departures"]] == [
        ("p0", "left", 1, "adventure", "p1", "t2"), ("p2", "left", 1, "adventure", "p1", "t2")]
    # a campaign nobody leaves folds without the keys, as the views folded before they existed
    assert "leaving" not in state and "abandoned" not in state
    assert domain.public("c", state)["leaving"] == [] and domain.public("c", state)["abandoned"] is None


def test_the_last_player_leaving_is_recorded_as_an_abandonment():
    # rules: Harakiri, "The Characters": "If playing solo, you control all four characters" (one player at least)
    state = domain.fold(_running_records(2))
    records = domain.leave_records(state, [100, 101], "t")
    assert [r["type"] for r in records] == [domain.LEFT, domain.LEFT, domain.ABANDON]
    assert records[-1]["payload"] == {"reason": "party_left", "by": None, "username": None, "at": "t",
                                      "chapter": 1, "phase": "adventure", "match_id": "m1"}
    after = domain.fold(_running_records(2) + records)
    assert after["status"] == "abandoned" and domain.public("c", after)["abandoned"]["reason"] == "party_left"


# -- the services ----------------------------------------------------------------------------------


def _three_in_the_first_phase(make_user, fixed_match_seed, on_commit):
    """Three players in a campaign's first Adventure Phase, from one seed: (campaign, users, match id)."""
    fixed_match_seed("campaign-leave-running")
    campaign, users = started_campaign(make_user, on_commit, 3)
    return campaign, users, services.campaign_get(campaign.pk)["current_match"]


def test_a_player_leaving_during_a_phase_leaves_at_once_in_the_match_and_the_campaign_alike(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # rules: Harakiri, "The Characters": "If playing with fewer than four players, divide the characters between
    # yourselves as you choose."
    on_commit = django_capture_on_commit_callbacks
    campaign, (creator, leaver, third), adventure_id = _three_in_the_first_phase(make_user, fixed_match_seed, on_commit)
    # when the second player leaves while the Adventure Phase is being played
    with on_commit(execute=True):
        state = services.campaign_leave(campaign_id=campaign.pk, user=leaver)
    # then they leave the campaign at once: the seat goes, Hattori passes to the first player left
    assert state.get("leaving", []) == [] and [s["user_id"] for s in state["seats"]] == [creator.pk, third.pk]
    assert state["control"] == {"akira": 0, "hattori": 0, "hikaru": 1, "tomoe": 0}
    left = CampaignRecord.objects.get(campaign=campaign, type=domain.LEFT)
    assert left.payload.pop("at") and left.payload == {"seat": 1, "user_id": leaver.pk, "reason": "left"}
    # and they resigned from the phase match, where Hattori passed to the same player (the match keeps its seats)
    match = match_selectors.match_get(adventure_id)
    full = match_selectors.state_load(match)
    assert full["lobby"]["status"] == "active" and full["lobby"]["conceded"] == [1]
    assert full["game"]["control"] == {"akira": 0, "hattori": 0, "hikaru": 2, "tomoe": 0}
    passed = [e for e in match_selectors.events_unredacted(match) if e["type"] == "PlayerLeftParty"]
    assert [e["payload"]["to"] for e in passed] == [0]
    # and leaving again is refused: they have no seat
    _refused("not_seated", 403, lambda: services.campaign_leave(campaign_id=campaign.pk, user=leaver))
    # when the phase ends, the Exploration Phase seats the two others with the same characters
    play_to_end(adventure_id, "leave-running", on_commit)
    doc = services.campaign_get(campaign.pk)
    assert [s["user_id"] for s in doc["seats"]] == [creator.pk, third.pk] and doc["leaving"] == []
    exploration = Match.objects.get(pk=doc["current_match"])
    assert exploration.seat_count == 2 and exploration.options["control"] == doc["control"]
    kinds = _kinds(campaign)
    assert kinds.index(domain.LEFT) < kinds.index(domain.PHASE_FINISHED) and kinds[-1] == domain.PHASE_STARTED
    assert not services.campaign_list(leaver) and check_campaigns(fix=False) == ([], 0)


def test_a_leave_said_as_the_phase_match_has_just_ended_waits_for_the_policy(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # given a phase match that has finished, its policy not yet run (the worker's task still queued)
    on_commit = django_capture_on_commit_callbacks
    campaign, (creator, leaver, third), adventure_id = _three_in_the_first_phase(make_user, fixed_match_seed, on_commit)
    _play_without_policy(adventure_id)
    # when a player leaves then, the leave is announced (the match no longer runs to resign from)
    state = services.campaign_leave(campaign_id=campaign.pk, user=leaver)
    assert [w["user_id"] for w in state["leaving"]] == [leaver.pk] and len(state["seats"]) == 3
    _refused("already_leaving", 409, lambda: services.campaign_leave(campaign_id=campaign.pk, user=leaver))
    # and the policy does it when it records the phase's end
    services.policy_run(adventure_id)
    doc = services.campaign_get(campaign.pk)
    assert [s["user_id"] for s in doc["seats"]] == [creator.pk, third.pk] and doc["leaving"] == []
    kinds = _kinds(campaign)
    assert kinds.index(domain.PHASE_FINISHED) < kinds.index(domain.LEFT)


def test_a_player_who_resigned_on_the_match_page_leaves_the_campaign_at_once(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # rules: Harakiri, "The Characters": "If playing with fewer than four players, divide the characters between
    # yourselves as you choose." A resignation is leaving the party (docs/games/harakiri.md, "Resigning").
    on_commit = django_capture_on_commit_callbacks
    campaign, (creator, leaver, third), adventure_id = _three_in_the_first_phase(make_user, fixed_match_seed, on_commit)
    # when the second player resigns from the phase match itself (its page), not through the campaign
    with on_commit(execute=True):
        match_services.match_resign(match_id=adventure_id, user=leaver)
    # then they leave the campaign at once, as a leave through the campaign does: the seat goes, and
    # Hattori is with the same player as in the match (the campaign's seats: the match's seats still in play)
    doc = services.campaign_get(campaign.pk)
    assert [s["user_id"] for s in doc["seats"]] == [creator.pk, third.pk] and doc["status"] == "active"
    assert doc["control"] == {"akira": 0, "hattori": 0, "hikaru": 1, "tomoe": 0}
    game = match_selectors.state_load(match_selectors.match_get(adventure_id))["game"]
    assert game["control"] == {"akira": 0, "hattori": 0, "hikaru": 2, "tomoe": 0}
    left = CampaignRecord.objects.get(campaign=campaign, type=domain.LEFT)
    assert left.payload.pop("at") and left.payload == {"seat": 1, "user_id": leaver.pk, "reason": "resigned"}
    # and the campaign no longer counts them: leaving it again is refused, it is no longer theirs
    _refused("not_seated", 403, lambda: services.campaign_leave(campaign_id=campaign.pk, user=leaver))
    assert not services.campaign_list(leaver)
    # and when the phase ends, the next phase seats the two others with the same characters; nothing more is left
    play_to_end(adventure_id, "leave-running", on_commit)
    doc = services.campaign_get(campaign.pk)
    assert [s["user_id"] for s in doc["seats"]] == [creator.pk, third.pk]
    assert Match.objects.get(pk=doc["current_match"]).options["control"] == doc["control"]
    assert _kinds(campaign).count(domain.LEFT) == 1 and check_campaigns(fix=False) == ([], 0)


def test_a_player_taken_over_on_the_match_page_leaves_the_campaign_their_characters_with_the_taker(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # docs/platform.md, "An absent player": after a day with no move, another player takes the seat's characters over
    import datetime

    on_commit = django_capture_on_commit_callbacks
    campaign, (creator, absent, taker), adventure_id = _three_in_the_first_phase(make_user, fixed_match_seed, on_commit)
    match = match_selectors.match_get(adventure_id)
    assert 1 in match_selectors.status_of(match, match_selectors.state_load(match))["awaiting"]
    # given nobody has moved for a day
    last = MatchEvent.objects.filter(match=match).order_by("-seq").values_list("at", flat=True).first()
    MatchEvent.objects.filter(match=match).update(at=last - datetime.timedelta(seconds=decisions.IDLE_TAKE_OVER_SECONDS + 60))
    # when the third player takes over the second's characters on the match page
    with on_commit(execute=True):
        match_services.match_take_over(match_id=adventure_id, user=taker, seat=1)
    # then the second leaves the campaign at once, Hattori with the one who took him over (not the first player)
    doc = services.campaign_get(campaign.pk)
    assert [s["user_id"] for s in doc["seats"]] == [creator.pk, taker.pk]
    assert doc["control"] == {"akira": 0, "hattori": 1, "hikaru": 1, "tomoe": 0}
    left = CampaignRecord.objects.get(campaign=campaign, type=domain.LEFT)
    assert left.payload.pop("at") and left.payload == {
        "seat": 1, "user_id": absent.pk, "reason": "taken_over", "taken_over_by": taker.pk}
    assert [(d["user_id"], d["reason"], d["heir_id"]) for d in doc["departures"]] == [(absent.pk, "taken_over", taker.pk)]
    assert check_campaigns(fix=False) == ([], 0)


def test_the_last_player_resigning_on_the_match_page_abandons_the_campaign(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-resign-last")
    campaign, (alone,) = started_campaign(make_user, on_commit, 1)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    # when the only player resigns on the match page (the match ends: the party has left)
    with on_commit(execute=True):
        match_services.match_resign(match_id=adventure_id, user=alone)
    # then the campaign is abandoned (nobody left), and its policy opens nothing
    doc = services.campaign_get(campaign.pk)
    assert (doc["status"], doc["abandoned"]["reason"], doc["seats"]) == ("abandoned", "party_left", [])
    assert services.policy_run(adventure_id) == "abandoned"
    assert Match.objects.filter(game="harakiri").count() == 1 and check_campaigns(fix=False) == ([], 0)


def test_a_resignation_whose_campaign_leave_was_lost_is_found_by_the_sweep(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    on_commit = django_capture_on_commit_callbacks
    campaign, (creator, leaver, third), adventure_id = _three_in_the_first_phase(make_user, fixed_match_seed, on_commit)
    # given a resignation on the match page whose scheduled campaign leave never ran (a lost task)
    with on_commit(execute=False):
        match_services.match_resign(match_id=adventure_id, user=leaver)
    assert len(services.campaign_get(campaign.pk)["seats"]) == 3
    assert services.pending_work() == ([], [adventure_id])
    # when the sweep's run comes, the player leaves; a second run appends nothing
    assert services.phase_resigns_run(adventure_id) == "left"
    assert services.phase_resigns_run(adventure_id) == "nobody" and services.pending_work() == ([], [])
    assert [s["user_id"] for s in services.campaign_get(campaign.pk)["seats"]] == [creator.pk, third.pk]


def test_a_leave_pressed_before_the_resignations_scheduled_leave_ran_records_the_resignation(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # docs/campaigns.md, "Leaving a running campaign": a resignation on the match page is leaving the
    # campaign; the first cause wins, whichever write records it
    on_commit = django_capture_on_commit_callbacks
    campaign, (creator, leaver, third), adventure_id = _three_in_the_first_phase(make_user, fixed_match_seed, on_commit)
    # given a resignation on the match page whose scheduled campaign leave has not run yet
    with on_commit(execute=False):
        match_services.match_resign(match_id=adventure_id, user=leaver)
    assert len(services.campaign_get(campaign.pk)["seats"]) == 3
    # when that player presses the campaign's Leave first
    with on_commit(execute=True):
        services.campaign_leave(campaign_id=campaign.pk, user=leaver)
    # then the departure says they resigned (not "left"), and the scheduled leave appends nothing more
    left = CampaignRecord.objects.get(campaign=campaign, type=domain.LEFT)
    assert left.payload.pop("at") and left.payload == {"seat": 1, "user_id": leaver.pk, "reason": "resigned"}
    assert services.phase_resigns_run(adventure_id) == "nobody"
    doc = services.campaign_get(campaign.pk)
    assert [(d["user_id"], d["reason"], d["heir_id"]) for d in doc["departures"]] == [(leaver.pk, "resigned", creator.pk)]
    assert check_campaigns(fix=False) == ([], 0)


def test_a_leave_pressed_before_a_take_overs_scheduled_leave_ran_records_the_take_over(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # docs/platform.md, "An absent player": the characters stay with the player who took them over
    import datetime

    on_commit = django_capture_on_commit_callbacks
    campaign, (creator, absent, taker), adventure_id = _three_in_the_first_phase(make_user, fixed_match_seed, on_commit)
    match = match_selectors.match_get(adventure_id)
    last = MatchEvent.objects.filter(match=match).order_by("-seq").values_list("at", flat=True).first()
    MatchEvent.objects.filter(match=match).update(at=last - datetime.timedelta(seconds=decisions.IDLE_TAKE_OVER_SECONDS + 60))
    # given the third player took the second's characters over, and the campaign's leave has not run yet
    with on_commit(execute=False):
        match_services.match_take_over(match_id=adventure_id, user=taker, seat=1)
    # when the absent player comes back and presses the campaign's Leave
    with on_commit(execute=True):
        services.campaign_leave(campaign_id=campaign.pk, user=absent)
    # then the departure is the take-over's, Hattori with the taker (not the first player, as a plain leave gives)
    left = CampaignRecord.objects.get(campaign=campaign, type=domain.LEFT)
    assert left.payload.pop("at") and left.payload == {
        "seat": 1, "user_id": absent.pk, "reason": "taken_over", "taken_over_by": taker.pk}
    assert services.campaign_get(campaign.pk)["control"] == {"akira": 0, "hattori": 1, "hikaru": 1, "tomoe": 0}
    assert services.phase_resigns_run(adventure_id) == "nobody" and check_campaigns(fix=False) == ([], 0)


def _play_without_policy(match_id):
    """Play the match to its end with the worker's SYSTEM steps only (no finished listener runs)."""
    import uuid

    rng = Rng(b"no-policy", "x")
    for _ in range(3000):
        match = match_selectors.match_get(match_id)
        state = match_selectors.state_load(match)
        if state["lobby"]["status"] != "active":
            return
        engine = match_selectors.engine_of(match)
        awaiting = engine.status(state["game"]).awaiting
        seat = SYSTEM if SYSTEM in awaiting else awaiting[0]
        legal = engine.legal_commands(state["game"], seat)
        pool = [c for c in legal if c["type"] != "end_activation"] if rng.below(4) else legal
        pick = (pool or legal)[rng.below(len(pool or legal))]
        actor = match_services.Actor.worker("test") if seat == SYSTEM else match_services.Actor("user")
        match_services.match_submit_command(match_id=match_id, seat=seat, actor=actor, command_id=uuid.uuid4(),
                                            expected_seq=match.head_seq, type_=pick["type"], args=pick["args"])
    raise AssertionError("the match did not end")


def test_between_phases_a_player_leaves_at_once_and_the_retried_phase_opens_without_them(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks, monkeypatch):
    # rules: Harakiri, "The Characters": "If playing with fewer than four players, divide the characters between
    # yourselves as you choose."
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-leave-between")
    campaign, (creator, leaver), restore = _between(make_user, on_commit, monkeypatch, 2, "leave-between")
    # when the second player leaves while no phase match runs
    state = services.campaign_leave(campaign_id=campaign.pk, user=leaver)
    # then the seat goes at once and the creator plays all four characters
    assert [s["user_id"] for s in state["seats"]] == [creator.pk] and set(state["control"].values()) == {0}
    assert "leaving" not in state and _kinds(campaign)[-1] == domain.LEFT
    _refused("not_seated", 403, lambda: services.campaign_leave(campaign_id=campaign.pk, user=leaver))
    # and when staff retry the next phase, it opens with the creator alone
    restore()
    with on_commit(execute=True):
        doc = services.policy_retry(campaign_id=campaign.pk, user=make_user(is_staff=True))
    assert Match.objects.get(pk=doc["current_match"]).seat_count == 1
    assert check_campaigns(fix=False) == ([], 0)


def test_the_last_player_leaving_between_phases_abandons_the_campaign_and_it_opens_nothing_more(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks, monkeypatch):
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-leave-last")
    campaign, (alone,), restore = _between(make_user, on_commit, monkeypatch, 1, "leave-last")
    # when the only player leaves
    state = services.campaign_leave(campaign_id=campaign.pk, user=alone)
    # then the campaign is abandoned, and the log says so
    assert state["status"] == "abandoned" and state["abandoned"]["reason"] == "party_left"
    assert _kinds(campaign)[-2:] == [domain.LEFT, domain.ABANDON]
    # and nothing opens after it, even when staff retry
    restore()
    with on_commit(execute=True):
        services.policy_retry(campaign_id=campaign.pk, user=make_user(is_staff=True))
    assert Match.objects.filter(game="harakiri").count() == 1
    assert check_campaigns(fix=False) == ([], 0)


def test_the_last_players_leaving_during_a_phase_end_its_match_and_abandon_the_campaign(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-leave-all")
    campaign, users = started_campaign(make_user, on_commit, 2)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    # when both players leave during the Adventure Phase
    with on_commit(execute=True):
        services.campaign_leave(campaign_id=campaign.pk, user=users[0])
    assert services.campaign_get(campaign.pk)["status"] == "active"
    with on_commit(execute=True):
        services.campaign_leave(campaign_id=campaign.pk, user=users[1])
    # then the phase match ends with nobody to play it (no winners), the campaign is abandoned, nothing opens
    full = match_selectors.state_load(match_selectors.match_get(adventure_id))
    assert full["lobby"]["status"] == "finished" and full["lobby"]["conceded"] == [0, 1]
    doc = services.campaign_get(campaign.pk)
    assert (doc["status"], doc["abandoned"]["reason"], doc["seats"]) == ("abandoned", "party_left", [])
    assert _kinds(campaign)[-3:] == [domain.LEFT, domain.LEFT, domain.ABANDON]
    assert services.policy_run(adventure_id) == "abandoned"
    assert Match.objects.filter(game="harakiri").count() == 1
    assert check_campaigns(fix=False) == ([], 0)


def test_the_creator_abandons_a_running_campaign_and_nothing_opens_after_its_phase(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-abandon")
    campaign, (creator, other) = started_campaign(make_user, on_commit, 2)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    _refused("not_creator", 403, lambda: services.campaign_cancel(campaign_id=campaign.pk, user=other))
    # when its creator abandons it during the Adventure Phase
    state = services.campaign_cancel(campaign_id=campaign.pk, user=creator)
    # then it is abandoned, with who, when and where; the seats stay, each player still finds it
    doc = services.campaign_get(campaign.pk)
    assert state["status"] == doc["status"] == "abandoned"
    assert {k: doc["abandoned"][k] for k in ("reason", "by", "username", "chapter", "phase", "match_id")} == {
        "reason": "creator", "by": creator.pk, "username": creator.get_username(), "chapter": 1,
        "phase": "adventure", "match_id": adventure_id}
    assert [c["id"] for c in services.campaign_list(other)] == [str(campaign.pk)]
    # and every way out of it is refused as abandoned, writing nothing
    before = len(_kinds(campaign))
    _refused("campaign_abandoned", 409, lambda: services.campaign_leave(campaign_id=campaign.pk, user=other))
    _refused("campaign_abandoned", 409, lambda: services.campaign_cancel(campaign_id=campaign.pk, user=creator))
    assert len(_kinds(campaign)) == before
    # the phase match is left to its players: when it ends the campaign records it and opens nothing
    play_to_end(adventure_id, "abandon", on_commit)
    assert services.policy_run(adventure_id) == "abandoned"
    assert Match.objects.filter(game="harakiri").count() == 1
    assert services.campaign_get(campaign.pk)["history"][-1]["outcome"] in ("success", "failure")
    assert check_campaigns(fix=False) == ([], 0)


def _finished_campaign(make_user):
    """A two-player campaign whose view says it is over: (campaign, creator, the other player)."""
    creator, other = make_user(), make_user()
    campaign = services.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    services.campaign_join(campaign_id=campaign.pk, user=other)
    view = CampaignView.objects.get(campaign=campaign)
    view.state = {**view.state, "status": "finished", "phase": "finished"}
    view.save(update_fields=["state"])
    return campaign, creator, other


def test_a_finished_campaign_is_neither_left_nor_abandoned(make_user):
    campaign, creator, other = _finished_campaign(make_user)
    _refused("campaign_finished", 409, lambda: services.campaign_leave(campaign_id=campaign.pk, user=other))
    _refused("campaign_finished", 409, lambda: services.campaign_cancel(campaign_id=campaign.pk, user=creator))


# -- two players at once ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_players_leaving_at_once_between_phases_both_leave_and_the_last_one_abandons(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks, monkeypatch):
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-leave-race")
    campaign, users, _ = _between(make_user, on_commit, monkeypatch, 3, "leave-race")
    # when the two players who are not the creator leave at the same moment
    barrier = threading.Barrier(2)

    def leave(i):
        barrier.wait()
        services.campaign_leave(campaign_id=campaign.pk, user=users[1 + i])

    run_threads(2, leave)
    # then both left (each seat as the other's leave left it), the creator plays all four characters
    doc = services.campaign_get(campaign.pk)
    assert [s["user_id"] for s in doc["seats"]] == [users[0].pk] and set(doc["control"].values()) == {0}
    lefts = [r.payload for r in CampaignRecord.objects.filter(campaign=campaign, type=domain.LEFT).order_by("seq")]
    assert sorted(p["user_id"] for p in lefts) == sorted(u.pk for u in users[1:]) and lefts[-1]["seat"] == 1
    assert check_campaigns(fix=False) == ([], 0)
    # and when the last player's leave is sent twice at the same moment (a double click)
    barrier = threading.Barrier(2)
    outcomes = []

    def last(i):
        barrier.wait()
        try:
            services.campaign_leave(campaign_id=campaign.pk, user=users[0])
            outcomes.append("left")
        except domain.CampaignRefused as exc:
            outcomes.append(exc.code)

    run_threads(2, last)
    # one leave is done, the other refused as abandoned (its 409 comes before any seat check),
    # and one abandonment is recorded
    assert sorted(outcomes) == ["campaign_abandoned", "left"]
    assert _kinds(campaign).count(domain.ABANDON) == 1 and services.campaign_get(campaign.pk)["status"] == "abandoned"


@pytest.mark.django_db(transaction=True)
def test_two_players_leaving_at_once_during_a_phase_both_leave_the_match_and_the_campaign(
        make_user, django_capture_on_commit_callbacks):
    campaign, users = started_campaign(make_user, django_capture_on_commit_callbacks, 3)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    barrier = threading.Barrier(2)

    def leave(i):
        barrier.wait()
        services.campaign_leave(campaign_id=campaign.pk, user=users[1 + i])

    run_threads(2, leave)
    doc = services.campaign_get(campaign.pk)
    assert [s["user_id"] for s in doc["seats"]] == [users[0].pk] and set(doc["control"].values()) == {0}
    full = match_selectors.state_load(match_selectors.match_get(adventure_id))
    assert sorted(full["lobby"]["conceded"]) == [1, 2] and set(full["game"]["control"].values()) == {0}
    assert _kinds(campaign).count(domain.LEFT) == 2 and check_campaigns(fix=False) == ([], 0)


# -- the API -----------------------------------------------------------------------------------------


def test_the_api_leaves_and_abandons_a_running_campaign_with_stable_codes(make_user, django_capture_on_commit_callbacks):
    campaign, (creator, leaver, other) = started_campaign(make_user, django_capture_on_commit_callbacks, 3)
    url = f"/api/campaigns/{campaign.pk}/"
    assert api_as(None).post(f"{url}leave/").status_code == 401
    assert_error(api_as(make_user()).post(f"{url}leave/"), 403, "not_seated")
    # a player leaves during the phase: at once (they resign from the phase match), so nobody waits in `leaving`
    res = api_as(leaver).post(f"{url}leave/")
    assert res.status_code == 200
    assert res.json()["leaving"] == [] and [s["user_id"] for s in res.json()["seats"]] == [creator.pk, other.pk]
    assert res.json()["abandoned"] is None and res.json()["status"] == "active"
    assert_error(api_as(leaver).post(f"{url}leave/"), 403, "not_seated")
    # only the creator abandons it
    assert_error(api_as(other).post(f"{url}cancel/"), 403, "not_creator")
    res = api_as(creator).post(f"{url}cancel/")
    assert res.status_code == 200 and res.json()["status"] == "abandoned"
    assert (res.json()["abandoned"]["reason"], res.json()["abandoned"]["by"]) == ("creator", creator.pk)
    assert api_as(None).get(url).json()["abandoned"]["username"] == creator.get_username()
    for user, path in ((other, "leave/"), (creator, "cancel/"), (creator, "start/"), (make_user(), "join/")):
        assert_error(api_as(user).post(f"{url}{path}"), 409, "campaign_abandoned")


def test_the_schema_documents_the_new_codes_and_fields():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    leave = schema["paths"]["/api/campaigns/{id}/leave/"]["post"]["responses"]
    cancel = schema["paths"]["/api/campaigns/{id}/cancel/"]["post"]["responses"]
    assert all(code in leave["409"]["description"] for code in ("already_leaving", "campaign_finished", "campaign_abandoned"))
    assert "campaign_finished" in cancel["409"]["description"]
    for action in ("join", "start"):
        assert "campaign_finished" in schema["paths"][f"/api/campaigns/{{id}}/{action}/"]["post"]["responses"]["409"]["description"]
    fields = schema["components"]["schemas"]["Campaign"]["properties"]
    assert "party_left" in fields["abandoned"]["description"] and fields["leaving"]["type"] == "array"


# -- the pages -----------------------------------------------------------------------------------------


def test_the_page_offers_leaving_and_abandoning_and_says_who_leaves_and_who_plays_what_next(
        make_user, django_capture_on_commit_callbacks):
    campaign, (creator, leaver, other) = started_campaign(make_user, django_capture_on_commit_callbacks, 3)
    path = f"/campaigns/{campaign.pk}/"
    page = browser(leaver).get(path).content.decode()
    # a player sees a leave done at once, saying they resign from the phase and who takes their characters
    assert 'data-testid="campaign-leave"' in page and "Leave the campaign" in page
    assert (f"You resign from the phase being played and your seat goes: {creator.get_username()} plays your "
            "characters from now on, in this phase and the next ones; the party plays on without you.") in page
    assert 'data-testid="campaign-abandon"' not in page
    # when they leave, they go to the campaigns list, told the others play their characters from now on
    res = browser(leaver).post(f"{path}leave/", follow=True)
    body = res.content.decode()
    assert res.redirect_chain[-1][0] == "/campaigns/"
    assert "You have left the campaign and resigned from the phase being played" in body
    # and the others read who plays which character now
    page = browser(other).get(path).content.decode()
    players = page.split('data-testid="campaign-players"')[-1].split("</ul>")[0]
    assert leaver.get_username() not in players
    assert f"{creator.get_username()}: Akira, Hattori, Tomoe</li>" in players
    assert "(leaves when this phase ends)" not in page
    # the creator abandons it; every page then says by whom
    page = browser(creator).get(path).content.decode()
    assert 'data-testid="campaign-abandon"' in page and "Abandon this campaign?" in page
    browser(creator).post(f"{path}cancel/")
    page = browser(other).get(path).content.decode()
    assert f"Abandoned by {creator.get_username()} on " in page and "in chapter 1: it will not be played further." in page
    assert 'data-testid="campaign-leave"' not in page and 'data-testid="campaign-abandoned"' in page
    res = browser(other).post(f"{path}leave/", follow=True)
    assert "This campaign was abandoned" in res.content.decode()


# -- the refusals of an abandoned campaign say what happened, with the documented codes ------------------


def test_a_campaign_abandoned_by_its_creator_with_players_seated_says_so_in_its_refusals(
        make_user, django_capture_on_commit_callbacks):
    # given a running campaign whose creator abandoned it while bob still sits in it
    campaign, (creator, bob) = started_campaign(make_user, django_capture_on_commit_callbacks, 2)
    url = f"/api/campaigns/{campaign.pk}/"
    assert api_as(creator).post(f"{url}cancel/").status_code == 200
    # when anyone tries to cancel, leave or join it
    for user, path in ((creator, "cancel/"), (bob, "leave/"), (make_user(), "join/"), (creator, "start/")):
        res = api_as(user).post(f"{url}{path}")
        # then it is 409 campaign_abandoned, saying its creator abandoned it (not that every player left)
        assert_error(res, 409, "campaign_abandoned")
        message = res.json()["message"]
        assert f"abandoned by its creator ({creator.get_username()})" in message, (path, message)
        assert "every player has left" not in message


def test_a_campaign_whose_last_player_left_refuses_its_creator_as_abandoned_not_as_not_creator(
        make_user, django_capture_on_commit_callbacks):
    # given a solo campaign whose only player, its creator, left it during the Adventure Phase
    campaign, (creator,) = started_campaign(make_user, django_capture_on_commit_callbacks, 1)
    url = f"/api/campaigns/{campaign.pk}/"
    res = api_as(creator).post(f"{url}leave/")
    assert res.status_code == 200 and res.json()["status"] == "abandoned" and res.json()["creator_id"] is None
    before = len(_kinds(campaign))
    # when that creator cancels, leaves, starts or joins it again, or anyone else does
    for user, path in ((creator, "cancel/"), (creator, "leave/"), (creator, "start/"), (creator, "join/"),
                       (make_user(), "cancel/"), (make_user(), "leave/")):
        res = api_as(user).post(f"{url}{path}")
        # then each answers 409 campaign_abandoned (as docs/campaigns.md promises), saying every player left
        assert_error(res, 409, "campaign_abandoned")
        assert "every player has left" in res.json()["message"]
    # and nothing was written
    assert len(_kinds(campaign)) == before


def test_a_finished_campaign_refuses_a_stranger_as_finished_too(make_user):
    # given a finished campaign
    campaign, creator, other = _finished_campaign(make_user)
    # when someone without a seat, or not its creator, leaves or cancels it
    stranger = make_user()
    # then the campaign's own 409 answers first (not 403 not_seated / not_creator)
    _refused("campaign_finished", 409, lambda: services.campaign_leave(campaign_id=campaign.pk, user=stranger))
    _refused("campaign_finished", 409, lambda: services.campaign_cancel(campaign_id=campaign.pk, user=other))


def test_a_finished_campaign_answers_join_and_start_as_finished_not_started(make_user):
    # given a finished campaign (its act played to the end)
    campaign, creator, other = _finished_campaign(make_user)
    url = f"/api/campaigns/{campaign.pk}/"
    # when anyone joins or starts it: its creator, a player who is not, a stranger
    for user, path in ((make_user(), "join/"), (other, "join/"), (creator, "start/"), (other, "start/"),
                       (make_user(), "start/")):
        res = api_as(user).post(f"{url}{path}")
        # then it is 409 campaign_finished (before any 403 not_creator), saying it is over
        assert_error(res, 409, "campaign_finished")
        assert "over" in res.json()["message"], (path, res.json())
    # and a running campaign still answers campaign_started
    view = CampaignView.objects.get(campaign=campaign)
    view.state = {**view.state, "status": "active", "phase": "between"}
    view.save(update_fields=["state"])
    assert_error(api_as(make_user()).post(f"{url}join/"), 409, "campaign_started")
    assert_error(api_as(other).post(f"{url}start/"), 409, "campaign_started")


def test_the_page_says_who_left_when_and_who_plays_their_characters_now(make_user, django_capture_on_commit_callbacks):
    # given a running 2-player campaign whose page alice has open, with the start's notice
    campaign, (alice, dave) = started_campaign(make_user, django_capture_on_commit_callbacks, 2)
    path = f"/campaigns/{campaign.pk}/"
    page = browser(alice).get(path).content.decode()
    assert "· 2 players</span>" in page and 'data-testid="campaign-left-notice"' not in page
    # when dave leaves during the Adventure Phase
    assert browser(dave).post(f"{path}leave/").status_code == 302
    # then alice's live fragment says who left, when and where, and that she plays his characters now
    live = unescape(browser(alice).get(f"{path}?fragment=live").content.decode())
    notice = live.split('data-testid="campaign-left-notice"')[1].split("</p>")[0]
    assert f"{dave.get_username()} left the campaign on " in notice
    assert "UTC, in chapter 1's Adventure Phase: you play their characters now." in notice
    # and the list under the party says it once more only in short (the notice's sentence is on the page once)
    sentence = notice.split(">", 1)[1].strip()
    assert live.count(sentence) == 1
    departures = live.split('data-testid="campaign-departures"')[1].split("</ul>")[0]
    assert f"<li>{dave.get_username()} left · chapter 1's Adventure Phase · " in departures
    assert "UTC · characters to you</li>" in departures and "the campaign on" not in departures
    # and it carries the header's new player count and the party for campaign.js to refresh the header
    assert 'data-subtitle="Act 1 · 1 player"' in live and f'data-party="{alice.get_username()}"' in live
    # and a watcher reads who plays them by name; the full page's header says 1 player
    watcher = unescape(browser(make_user()).get(path).content.decode())
    assert f"chapter 1's Adventure Phase: {alice.get_username()} plays their characters now." in watcher
    assert "· 1 player</span>" in watcher
    # and once the campaign is over, the party box says it in the past (to dave, of himself, as "you")
    browser(alice).post(f"{path}leave/")
    over = unescape(browser(dave).get(path).content.decode())
    departures = over.split('data-testid="campaign-departures"')[1].split("</ul>")[0]
    assert "<li>You left · chapter 1's Adventure Phase · " in departures
    assert f"UTC · your characters to {alice.get_username()}</li>" in departures
    assert f"<li>{alice.get_username()} left · chapter 1's Adventure Phase · " in departures
    assert "UTC · nobody left to play them</li>" in departures
    assert 'data-testid="campaign-left-notice"' not in over


def test_the_page_says_a_player_who_resigned_on_the_match_page_left_and_who_plays_their_characters_now(
        make_user, django_capture_on_commit_callbacks):
    # given a running 3-player campaign in its Adventure Phase
    campaign, (alice, bob, carol) = started_campaign(make_user, django_capture_on_commit_callbacks, 3)
    path = f"/campaigns/{campaign.pk}/"
    match_id = services.campaign_get(campaign.pk)["current_match"]
    # when bob resigns on the phase match's own page (not the campaign's leave)
    with django_capture_on_commit_callbacks(execute=True):
        assert browser(bob).post(f"/matches/{match_id}/resign/").status_code == 302
    # then carol's campaign page says at once that he left, when and where, and who plays his characters now
    live = unescape(browser(carol).get(f"{path}?fragment=live").content.decode())
    notice = live.split('data-testid="campaign-left-notice"')[1].split("</p>")[0]
    assert f"{bob.get_username()} resigned from the phase's match and so left the campaign on " in notice
    assert f"UTC, in chapter 1's Adventure Phase: {alice.get_username()} plays their characters now." in notice
    # and the list under the party has it short (the notice says it in full)
    departures = live.split('data-testid="campaign-departures"')[1].split("</ul>")[0]
    assert f"<li>{bob.get_username()} resigned from the phase's match · chapter 1's Adventure Phase · " in departures
    assert f"UTC · characters to {alice.get_username()}</li>" in departures
    # and the party shows him no more: alice plays his Hattori, as in the match
    players = live.split('data-testid="campaign-players"')[-1].split("</ul>")[0]
    assert bob.get_username() not in players
    assert f"{alice.get_username()}: Akira, Hattori, Tomoe</li>" in players
    assert 'data-subtitle="Act 1 · 2 players"' in live
    # and alice reads that she plays them; bob's own page no longer offers him the campaign's leave
    mine = unescape(browser(alice).get(path).content.decode())
    assert "in chapter 1's Adventure Phase: you play their characters now." in mine
    assert 'data-testid="campaign-leave"' not in browser(bob).get(path).content.decode()
    # and the API document says the same seats and hands
    doc = api_as(None).get(f"/api/campaigns/{campaign.pk}/").json()
    assert [s["username"] for s in doc["seats"]] == [alice.get_username(), carol.get_username()]
    assert doc["control"] == {"akira": 0, "hattori": 0, "hikaru": 1, "tomoe": 0}
    assert [(d["username"], d["reason"], d["chapter"], d["phase"], d["heir"]) for d in doc["departures"]] == [
        (bob.get_username(), "resigned", 1, "adventure", alice.get_username())]


def test_the_departures_list_says_each_departure_short():
    from frontend.campaign_views import departure_line, departure_words

    at = "2026-12-07T03:40:00+00:00"
    taken = {"username": "dave9", "reason": "taken_over", "chapter": 2, "phase": "exploration", "heir": "carol", "at": at}
    # a player taken over: how, where, when and who has the characters, to a watcher and to the taker
    assert departure_line(taken) == ("dave9 was taken over in the phase's match after a day's wait · "
                                     "chapter 2's Exploration Phase · 7 Dec 2026, 03:40 UTC · characters to carol")
    assert departure_line(taken, "carol").endswith(" · characters to you")
    # and to the player themself, and shorter than the standing card's sentence
    assert departure_line(taken, "dave9").startswith("You were taken over in the phase's match")
    assert departure_line(taken, "dave9").endswith(" · your characters to carol")
    assert len(departure_line(taken)) < len(departure_words(taken))
    # a deleted account, a departure from a log without times or phases, the last player
    gone = {"username": "deleted player", "reason": "account_deleted", "chapter": 1, "phase": "between",
            "heir": None, "at": None}
    assert departure_line(gone, "deleted player") == "A player whose account was deleted · chapter 1 · nobody left to play them"


def test_the_page_reads_who_left_from_the_campaigns_view_not_its_log(make_user, django_capture_on_commit_callbacks):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # given a running campaign one of whose players left
    campaign, (alice, dave, _) = started_campaign(make_user, django_capture_on_commit_callbacks, 3)
    path = f"/campaigns/{campaign.pk}/"
    assert browser(dave).post(f"{path}leave/").status_code == 302
    # when its page is rendered (the live fragment, refetched on every change)
    with CaptureQueriesContext(connection) as queries:
        live = unescape(browser(alice).get(f"{path}?fragment=live").content.decode())
    # then it says who left, without reading the campaign's log (folded once into its view)
    assert f"{dave.get_username()} left the campaign on " in live
    assert not [q["sql"] for q in queries.captured_queries if "campaigns_campaignrecord" in q["sql"]]
