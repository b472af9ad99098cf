"""Leaving and abandoning a running campaign (docs/campaigns.md, "Leaving a running campaign").

A player leaves a running campaign at once between two phases, or, while a phase match is being
played, when that phase ends (``PlayerLeaving``, then ``PlayerLeft`` from the policy): a phase match's
seats are fixed while it runs, and the rulebook keeps the characters' progress between phases. The
seat goes and its characters pass to the first player left; nobody left, the campaign is abandoned
(``CampaignAbandoned``, reason ``party_left``). Its creator abandons it (``CampaignAbandoned``, reason
``creator``). Through the fold, the services (two players leaving at once too), the API and the pages."""

import threading

import pytest

from campaigns import domain, services
from campaigns.models import CampaignRecord, CampaignView
from campaigns.rebuild import check_campaigns
from games.application import selectors as match_selectors
from games.eventstore.models import Match
from games.kernel import RuleViolation

from tests.concurrency import run_threads
from tests.frontend.test_tournament_pages import browser
from tests.rest import api_as, assert_error

from .helpers import play_to_end

pytestmark = pytest.mark.django_db


def _refused(code, status, run):
    with pytest.raises(domain.CampaignRefused) as refused:
        run()
    assert (refused.value.code, refused.value.status) == (code, status)


def _started(make_user, on_commit, seats: int):
    """A started campaign of ``seats`` players (chapter 1's Adventure Phase match running)."""
    users = [make_user() for _ in range(seats)]
    campaign = services.campaign_create(user=users[0], game="harakiri", act=1, seats=seats)
    for user in users[1:]:
        services.campaign_join(campaign_id=campaign.pk, user=user)
    with on_commit(execute=True):
        services.campaign_start(campaign_id=campaign.pk, user=users[0])
    return campaign, users


def _between(make_user, on_commit, monkeypatch, seats: int, label: str):
    """A started campaign whose Adventure Phase has ended and whose next match could not be opened:
    between two phases (no match running) until staff retry. Returns (campaign, users, restore)."""
    campaign, users = _started(make_user, on_commit, seats)
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
    assert after == domain.after_leaves(announced)
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


def test_a_player_leaving_during_a_phase_leaves_when_it_ends_and_the_next_phase_opens_without_them(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    # rules: Harakiri, "Ending the Adventure Phase": "If you are going to pack the game away and play the Exploration
    # Phase of the chapter at a later time, save the character progress into each character case."
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-leave-running")
    campaign, (creator, leaver, third) = _started(make_user, on_commit, 3)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    # when the second player leaves while the Adventure Phase is being played
    state = services.campaign_leave(campaign_id=campaign.pk, user=leaver)
    # then the leave is announced; the seats (the campaign's and the match's) stay as they are
    assert [w["user_id"] for w in state["leaving"]] == [leaver.pk]
    assert [s["user_id"] for s in state["seats"]] == [creator.pk, leaver.pk, third.pk]
    lobby = match_selectors.state_load(match_selectors.match_get(adventure_id))["lobby"]
    assert [s["user_id"] for s in lobby["seats"]] == [creator.pk, leaver.pk, third.pk]
    assert _kinds(campaign)[-1] == domain.LEAVING
    # and saying it twice is refused, writing nothing
    _refused("already_leaving", 409, lambda: services.campaign_leave(campaign_id=campaign.pk, user=leaver))
    assert _kinds(campaign)[-1] == domain.LEAVING and _kinds(campaign).count(domain.LEAVING) == 1
    # when the phase ends (the policy runs on the finished match)
    play_to_end(adventure_id, "leave-running", on_commit)
    # then the player has left and the Exploration Phase seats the two others, Hattori passing to seat 0
    doc = services.campaign_get(campaign.pk)
    assert [s["user_id"] for s in doc["seats"]] == [creator.pk, third.pk] and doc["leaving"] == []
    assert doc["control"] == {"akira": 0, "hattori": 0, "hikaru": 1, "tomoe": 0}
    exploration = Match.objects.get(pk=doc["current_match"])
    assert exploration.seat_count == 2 and exploration.options["control"] == doc["control"]
    left = CampaignRecord.objects.get(campaign=campaign, type=domain.LEFT)
    assert left.payload == {"seat": 1, "user_id": leaver.pk, "reason": "left"}
    kinds = _kinds(campaign)
    assert kinds.index(domain.PHASE_FINISHED) < kinds.index(domain.LEFT) and kinds[-2:] == [domain.LEFT, domain.PHASE_STARTED]
    assert not services.campaign_list(leaver) and check_campaigns(fix=False) == ([], 0)


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


def test_the_last_players_leaving_during_a_phase_abandon_the_campaign_when_it_ends(
        make_user, fixed_match_seed, django_capture_on_commit_callbacks):
    on_commit = django_capture_on_commit_callbacks
    fixed_match_seed("campaign-leave-all")
    campaign, users = _started(make_user, on_commit, 2)
    adventure_id = services.campaign_get(campaign.pk)["current_match"]
    # when both players leave during the Adventure Phase
    for user in users:
        services.campaign_leave(campaign_id=campaign.pk, user=user)
    assert services.campaign_get(campaign.pk)["status"] == "active"
    # then, once it ends, both have left, the campaign is abandoned and no Exploration Phase opens
    play_to_end(adventure_id, "leave-all", on_commit)
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
    campaign, (creator, other) = _started(make_user, on_commit, 2)
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


def test_a_finished_campaign_is_neither_left_nor_abandoned(make_user):
    creator, other = make_user(), make_user()
    campaign = services.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    services.campaign_join(campaign_id=campaign.pk, user=other)
    view = CampaignView.objects.get(campaign=campaign)
    view.state = {**view.state, "status": "finished", "phase": "finished"}
    view.save(update_fields=["state"])
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
    # one leave is done, the other refused (no seat any more), and one abandonment is recorded
    assert sorted(outcomes) == ["left", "not_seated"]
    assert _kinds(campaign).count(domain.ABANDON) == 1 and services.campaign_get(campaign.pk)["status"] == "abandoned"


@pytest.mark.django_db(transaction=True)
def test_two_players_leaving_at_once_during_a_phase_are_both_announced(make_user, django_capture_on_commit_callbacks):
    campaign, users = _started(make_user, django_capture_on_commit_callbacks, 3)
    barrier = threading.Barrier(2)

    def leave(i):
        barrier.wait()
        services.campaign_leave(campaign_id=campaign.pk, user=users[1 + i])

    run_threads(2, leave)
    doc = services.campaign_get(campaign.pk)
    assert sorted(w["user_id"] for w in doc["leaving"]) == sorted(u.pk for u in users[1:])
    assert len(doc["seats"]) == 3 and _kinds(campaign).count(domain.LEAVING) == 2
    assert check_campaigns(fix=False) == ([], 0)


# -- the API -----------------------------------------------------------------------------------------


def test_the_api_leaves_and_abandons_a_running_campaign_with_stable_codes(make_user, django_capture_on_commit_callbacks):
    campaign, (creator, leaver, other) = _started(make_user, django_capture_on_commit_callbacks, 3)
    url = f"/api/campaigns/{campaign.pk}/"
    assert api_as(None).post(f"{url}leave/").status_code == 401
    assert_error(api_as(make_user()).post(f"{url}leave/"), 403, "not_seated")
    # a player leaves during the phase: the document says who leaves
    res = api_as(leaver).post(f"{url}leave/")
    assert res.status_code == 200
    assert [(w["user_id"], w["username"], w["chapter"], w["phase"]) for w in res.json()["leaving"]] == [
        (leaver.pk, leaver.get_username(), 1, "adventure")]
    assert res.json()["abandoned"] is None and res.json()["status"] == "active"
    assert_error(api_as(leaver).post(f"{url}leave/"), 409, "already_leaving")
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
    fields = schema["components"]["schemas"]["Campaign"]["properties"]
    assert "party_left" in fields["abandoned"]["description"] and fields["leaving"]["type"] == "array"


# -- the pages -----------------------------------------------------------------------------------------


def test_the_page_offers_leaving_and_abandoning_and_says_who_leaves_and_who_plays_what_next(
        make_user, django_capture_on_commit_callbacks):
    campaign, (creator, leaver, other) = _started(make_user, django_capture_on_commit_callbacks, 3)
    path = f"/campaigns/{campaign.pk}/"
    page = browser(leaver).get(path).content.decode()
    # a player sees a leave that waits for the phase's end, saying who takes their characters
    assert 'data-testid="campaign-leave"' in page and "Leave when this phase ends" in page
    assert f"Then your seat goes and {creator.get_username()} plays your characters from the next phase" in page
    assert 'data-testid="campaign-abandon"' not in page
    # when they leave, they stay on the page, told their characters are still theirs until then
    res = browser(leaver).post(f"{path}leave/", follow=True)
    body = res.content.decode()
    assert res.redirect_chain[-1][0] == path and "You leave the campaign when this phase ends" in body
    assert 'data-testid="campaign-leave"' not in body
    # and the others read who leaves and who plays which character from the next phase
    page = browser(other).get(path).content.decode()
    assert f"{leaver.get_username()} leaves the campaign when this phase ends." in page
    assert f"From the next phase: {creator.get_username()} plays Akira, Hattori, Tomoe; {other.get_username()} plays Hikaru." in page
    assert "(leaves when this phase ends)" in page
    # the creator abandons it; every page then says by whom
    page = browser(creator).get(path).content.decode()
    assert 'data-testid="campaign-abandon"' in page and "Abandon this campaign?" in page
    browser(creator).post(f"{path}cancel/")
    page = browser(other).get(path).content.decode()
    assert f"Abandoned by {creator.get_username()} on " in page and "in chapter 1: it will not be played further." in page
    assert 'data-testid="campaign-leave"' not in page and 'data-testid="campaign-abandoned"' in page
    res = browser(other).post(f"{path}leave/", follow=True)
    assert "This campaign was abandoned" in res.content.decode()
