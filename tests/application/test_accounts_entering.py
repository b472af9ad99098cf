"""A player's own way into a match (a seat, a new match, an invitation, a rematch) locks the account
first and refuses one that is no longer active (PostgreSQL's races: tests/accounts/test_account_delete_race.py)."""

import pytest

from games.application import invitations, services
from games.application.errors import AccountInactive
from games.eventstore.models import Match
from games.projections.models import MatchSummary

pytestmark = pytest.mark.django_db


def test_an_account_deactivated_on_the_way_in_takes_no_seat_and_opens_no_match(make_user):
    # docs/platform.md, "Accounts and the log": a running match never seats a deleted account
    # given an open match with an invitation link, and a player whose account was deactivated
    # after their request was let in
    host, player = make_user(), make_user(is_active=False)
    match = services.match_create(game="pebbles", seats=2, options={}, creator=host)
    link, _ = invitations.invitation_create(match_id=match.pk, user=host)
    entries = {
        "join": lambda: services.player_join(match_id=match.pk, user=player),
        "create": lambda: services.player_create(game="pebbles", seats=2, options={}, creator=player),
        "bots": lambda: services.match_create_with_bots(game="pebbles", seats=2, options={}, creator=player),
        "invitation": lambda: invitations.invitation_join(token=link["token"], user=player),
    }
    # when it tries each way in
    refusals = {}
    for name, enter in entries.items():
        with pytest.raises(AccountInactive) as refused:
            enter()
        refusals[name] = (refused.value.code, refused.value.status)
    # then each is refused with the same stable code, and nothing was written
    assert set(refusals.values()) == {("account_inactive", 403)}
    assert Match.objects.count() == 1 and not MatchSummary.objects.filter(players=player).exists()


def test_an_active_players_own_join_and_match_take_their_seats(make_user):
    host, player = make_user(), make_user()
    match = services.player_create(game="pebbles", seats=2, options={}, creator=host)
    services.player_join(match_id=match.pk, user=player)
    assert set(MatchSummary.objects.get(match_id=match.pk).players.values_list("pk", flat=True)) == {host.pk, player.pk}
