"""Deleting an account while one of its matches starts, or while it enters a tournament or a match: the
two meet on a row lock (the match's, the tournament's or the account's)."""

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from accounts import selfservice
from accounts.errors import InActiveMatch
from games.application import services as match_services
from games.application.errors import AccountInactive
from games.eventstore.models import Match
from games.projections.models import MatchSummary
from tests.concurrency import run_threads, waiting_on_a_lock

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs one writer at a time"),
]


def _deletion_meets(lock_row, then, user) -> dict:
    """In one thread, a transaction that takes ``lock_row()``'s row lock, waits until the deletion of
    ``user`` (the other thread) waits for it, then runs ``then()`` and commits. ``{"refused": the
    deletion's InActiveMatch}`` if it was refused, else ``{}``."""
    locked, outcome = threading.Event(), {}

    def holder():
        with transaction.atomic():
            lock_row()
            locked.set()
            assert waiting_on_a_lock()  # the deletion, below
            then()

    def delete():
        assert locked.wait(10)
        try:
            selfservice.account_anonymize(user)
        except InActiveMatch as exc:
            outcome["refused"] = exc

    run_threads(2, lambda i: (holder, delete)[i]())
    return outcome


def test_a_deletion_waiting_for_a_match_that_starts_is_refused_and_the_account_stays(make_user):
    # the platform's deletion policy (docs/platform.md, "Accounts and the log"): refused while the
    # account plays a running match
    # given a full open match whose start is under way (its row locked by the starting transaction)
    host, player = make_user(), make_user()
    match = match_services.match_create(game="pebbles", seats=2, options={}, creator=host)
    match_services.match_join(match_id=match.pk, user=player)
    # when the player deletes their account meanwhile
    outcome = _deletion_meets(lambda: Match.objects.select_for_update().get(pk=match.pk),
                              lambda: match_services.match_start(match_id=match.pk, user=host), player)
    # then the match started with the player, and the deletion was refused for it
    assert MatchSummary.objects.get(match_id=match.pk).status == "active"
    assert outcome["refused"].extra == {"matches": [str(match.pk)]}
    player.refresh_from_db()
    assert player.is_active and MatchSummary.objects.filter(players=player, match_id=match.pk).exists()


def test_a_deletion_waiting_for_a_tournament_pairing_sees_the_new_table_and_is_refused(make_user, organizer):
    # docs/tournaments.md, "An account deleted mid-tournament": the deletion and a pairing meet on
    # the tournament's row lock
    # given a Swiss whose round 1 is decided, and round 2's pairing under way (the tournament locked)
    from games.tournaments import services as tournaments
    from games.tournaments.models import Entrant, Tournament, TournamentTable

    t = tournaments.tournament_create(creator=organizer, name="Race Cup", game="yashima", format="swiss",
                                      table_size=2, rounds=2, round_minutes=30,
                                      match_options={"turn_seconds": 90, "defense_seconds": 60})
    players = [make_user() for _ in range(4)]
    for user in players:
        tournaments.tournament_register(tournament_id=t.pk, user=user)
    tournaments.tournament_start(tournament_id=t.pk, user=organizer)
    worker = tournaments.Actor("worker", task="test")
    for table in TournamentTable.objects.filter(tournament=t, round=1):
        first, second = table.entrant_ids
        tournaments.tournament_record_result(tournament_id=t.pk, round=1, table=table.table,
                                             places={first: 1, second: 2}, by="play", actor=worker)
    leaving = players[0]
    # when a player deletes their account meanwhile
    outcome = _deletion_meets(lambda: Tournament.objects.select_for_update().get(pk=t.pk),
                              lambda: tournaments.tournament_pair_next_round(tournament_id=t.pk, actor=worker), leaving)
    # then round 2 seats the player, and the deletion was refused for its table
    entrant = Entrant.objects.get(tournament=t, members__user=leaving)
    assert any(str(entrant.pk) in tt.entrant_ids for tt in TournamentTable.objects.filter(tournament=t, round=2))
    assert outcome["refused"].extra == {"matches": [], "tournaments": [str(t.pk)]}
    leaving.refresh_from_db()
    assert leaving.is_active and entrant.status == Entrant.REGISTERED


def _entering_meets_deletion(user, enter, refused_as) -> Exception | None:
    """In one thread, the deletion of ``user`` under way: its row locked, until ``enter()`` (the other
    thread) waits for that lock. The ``refused_as`` exception ``enter()`` raised, or None."""
    locked, outcome = threading.Event(), {}

    def deletion():
        with transaction.atomic():
            get_user_model().objects.select_for_update(no_key=True).get(pk=user.pk)  # as the deletion locks it
            locked.set()
            assert waiting_on_a_lock()  # the entering, below
            selfservice.account_anonymize(user)

    def entering():
        assert locked.wait(10)
        try:
            enter()
        except refused_as as exc:
            outcome["refused"] = exc

    run_threads(2, lambda i: (deletion, entering)[i]())
    return outcome.get("refused")


def test_a_registration_waiting_for_the_accounts_deletion_is_refused(make_user, organizer):
    # docs/tournaments.md, "An account deleted mid-tournament": entering takes the account's row lock
    # before the tournament's, as the deletion does
    # given a registering tournament, and the account's deletion under way (its row locked)
    from games.tournaments import services as tournaments
    from games.tournaments.errors import TournamentServiceError
    from games.tournaments.models import EntrantMember

    t = tournaments.tournament_create(creator=organizer, name="Late Cup", game="yashima", format="swiss",
                                      table_size=2, rounds=2, round_minutes=30,
                                      match_options={"turn_seconds": 90, "defense_seconds": 60})
    player = make_user()
    # when the player registers meanwhile
    refused = _entering_meets_deletion(
        player, lambda: tournaments.tournament_register(tournament_id=t.pk, user=player), TournamentServiceError)
    # then the registration waited for the deletion and was refused: nobody deleted is entered
    assert (refused.code, refused.status) == ("account_inactive", 403)
    assert not EntrantMember.objects.filter(tournament=t).exists()


def test_a_join_waiting_for_the_accounts_deletion_is_refused(make_user):
    # docs/platform.md, "Accounts and the log": a player's own join locks the account first
    # given an open match, and a player's account deletion under way
    host, player = make_user(), make_user()
    match = match_services.match_create(game="pebbles", seats=2, options={}, creator=host)
    # when the player takes a seat meanwhile
    refused = _entering_meets_deletion(
        player, lambda: match_services.player_join(match_id=match.pk, user=player), AccountInactive)
    # then the join waited and was refused: the seat stays free, so no start can seat the deleted account
    assert (refused.code, refused.status) == ("account_inactive", 403)
    assert not MatchSummary.objects.filter(players=player).exists()
    assert MatchSummary.objects.get(match_id=match.pk).status == "open"


def test_opening_a_match_or_accepting_an_invitation_during_the_deletion_is_refused(make_user):
    # docs/platform.md, "Accounts and the log": creating a match seats its creator, and an accepted
    # invitation seats its invitee; both lock the account first
    from games.application import invitations

    host, player = make_user(), make_user()
    match = match_services.match_create(game="pebbles", seats=3, options={}, creator=host)
    link, _ = invitations.invitation_create(match_id=match.pk, user=host)
    # given the player's deletion under way, when they open a match, then accept the link
    opened = _entering_meets_deletion(
        player, lambda: match_services.player_create(game="pebbles", seats=2, options={}, creator=player),
        AccountInactive)
    other = make_user()
    joined = _entering_meets_deletion(
        other, lambda: invitations.invitation_join(token=link["token"], user=other), AccountInactive)
    # then both were refused and neither account sits anywhere
    assert (opened.code, joined.code) == ("account_inactive", "account_inactive")
    assert not MatchSummary.objects.filter(players__in=[player, other]).exists()
    assert Match.objects.count() == 1


def test_a_rematch_accepted_during_a_players_deletion_is_refused(finished_pebbles):
    # docs/platform.md, "Accounts and the log": the last acceptance locks every player's account
    # before it creates the new match
    from games.application import rematch
    from games.application.errors import SocialRefused

    match, (first, second) = finished_pebbles()
    rematch.rematch_accept(match_id=match.pk, user=second)
    # given the second player's deletion under way, when the first accepts (the last acceptance)
    refused = _entering_meets_deletion(
        second, lambda: rematch.rematch_accept(match_id=match.pk, user=first), SocialRefused)
    # then no rematch is created with the deleted account in it
    assert refused.code == "rematch_unavailable"
    assert Match.objects.count() == 1


def test_a_deletion_meeting_a_campaign_start_waits_for_it_and_is_refused(make_user):
    # docs/campaigns.md, "Seats": the deletion and the campaign's start meet on the campaign's lock;
    # the start seats the player in its first match (a row that refers to the account) meanwhile
    from campaigns import services as campaigns
    from campaigns.models import Campaign

    creator, player = make_user(), make_user()
    campaign = campaigns.campaign_create(user=creator, game="harakiri", act=1, seats=2)
    campaigns.campaign_join(campaign_id=campaign.pk, user=player)
    # when the player deletes their account while the creator starts the campaign
    outcome = _deletion_meets(lambda: Campaign.objects.select_for_update().get(pk=campaign.pk),
                              lambda: campaigns.campaign_start(campaign_id=campaign.pk, user=creator), player)
    # then the start committed with the player seated, and the deletion was refused for its match
    started = MatchSummary.objects.get(players=player, status="active")
    assert outcome["refused"].extra["matches"] == [str(started.match_id)]
    player.refresh_from_db()
    assert player.is_active
