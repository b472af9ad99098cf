"""An account deleted while it is in a tournament (``accounts.selfservice.account_anonymize``):
it leaves the field before the start, is dropped after it, and is refused while it sits at a table
of the round being played. No pairing and no match a round creates seats a deleted account.
(docs/tournaments.md, "An account deleted mid-tournament")"""

import pytest

from accounts.errors import InActiveMatch
from accounts.selfservice import account_anonymize
from games.application.identities import DELETED_PLAYER
from games.tournaments import selectors, services
from games.tournaments.models import Entrant, EntrantMember, TeamInvitation, TournamentRecord, TournamentTable
from games.tournaments.names import name_shown

from .helpers import register_team

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery-9"
WORKER = services.Actor("worker", task="test")


@pytest.fixture
def swiss(organizer, make_user):
    """A registering two-round Swiss of yashima, and a way to fill it."""
    t = services.tournament_create(creator=organizer, name="Winter Open", game="yashima", format="swiss",
                                   table_size=2, rounds=2, round_minutes=50,
                                   match_options={"turn_seconds": 90, "defense_seconds": 60})
    players = [make_user() for _ in range(5)]
    entrants = {u.pk: services.tournament_register(tournament_id=t.pk, user=u) for u in players}
    return t, players, entrants


def _table_of(t, entrant, round_no=1):
    return next(tt for tt in TournamentTable.objects.filter(tournament=t, round=round_no)
                if str(entrant.pk) in tt.entrant_ids)


def _decide(t, table, round_no=1):
    first, *rest = table.entrant_ids
    services.tournament_record_result(tournament_id=t.pk, round=round_no, table=table.table,
                                      places={first: 1, **{e: 2 for e in rest}}, by="play", actor=WORKER)


def _records(t, kind):
    return [r.payload for r in TournamentRecord.objects.filter(tournament=t, kind=kind).order_by("seq")]


def test_before_the_start_a_deleted_account_leaves_the_field(swiss, organizer):
    # given a registering tournament with five entrants
    t, players, entrants = swiss
    leaving = players[0]
    # when one of them deletes the account
    account_anonymize(leaving)
    # then its entrant has withdrawn, and the start seats the other four only
    assert Entrant.objects.get(pk=entrants[leaving.pk].pk).status == Entrant.WITHDRAWN
    assert _records(t, "withdrawn") == [{"kind": "withdrawn", "entrant_id": str(entrants[leaving.pk].pk)}]
    services.tournament_start(tournament_id=t.pk, user=organizer)
    seated = {e for tt in TournamentTable.objects.filter(tournament=t) for e in tt.entrant_ids}
    assert seated == {str(entrants[u.pk].pk) for u in players[1:]}


def test_a_deleted_account_at_a_table_of_the_round_being_played_is_refused(swiss, organizer):
    # given a started tournament whose first round is paired; the tables' matches are not created yet
    t, players, entrants = swiss
    services.tournament_start(tournament_id=t.pk, user=organizer)
    at_table = next(u for u in players if len(_table_of(t, entrants[u.pk]).entrant_ids) == 2)
    before = TournamentRecord.objects.filter(tournament=t).count()
    # when a player at an undecided table deletes the account
    with pytest.raises(InActiveMatch) as refused:
        account_anonymize(at_table)
    # then it is refused, naming the tournament, and nothing was written
    assert refused.value.extra == {"matches": [], "tournaments": [str(t.pk)]}
    assert "tournament table" in refused.value.message
    at_table.refresh_from_db()
    assert at_table.is_active
    assert TournamentRecord.objects.filter(tournament=t).count() == before
    assert Entrant.objects.get(pk=entrants[at_table.pk].pk).status == Entrant.REGISTERED


def test_once_its_table_is_decided_a_deleted_account_is_dropped_and_never_paired_again(swiss, organizer):
    # given round 1 of a started tournament, where one player's table has its result
    t, players, entrants = swiss
    services.tournament_start(tournament_id=t.pk, user=organizer)
    leaving = next(u for u in players if len(_table_of(t, entrants[u.pk]).entrant_ids) == 2)
    _decide(t, _table_of(t, entrants[leaving.pk]))
    # when that player deletes the account while the other tables still play
    account_anonymize(leaving)
    # then the entrant is dropped for that reason, keeps its result, and round 2 does not seat it
    entrant_id = str(entrants[leaving.pk].pk)
    assert {"kind": "dropped", "entrant_id": entrant_id, "reason": "account_deleted"} in _records(t, "dropped")
    assert any(entrant_id in r["places"] for r in _records(t, "result"))
    for table in TournamentTable.objects.filter(tournament=t, round=1):
        if len(table.entrant_ids) == 2 and entrant_id not in table.entrant_ids:
            _decide(t, table)
    services.tournament_pair_next_round(tournament_id=t.pk, actor=WORKER)
    round_two = TournamentTable.objects.filter(tournament=t, round=2)
    assert round_two.exists() and all(entrant_id not in tt.entrant_ids for tt in round_two)


def test_a_bye_does_not_hold_a_deletion_up(swiss, organizer):
    # given round 1 of a started tournament of five: one entrant has the bye
    t, players, entrants = swiss
    services.tournament_start(tournament_id=t.pk, user=organizer)
    bye = next(u for u in players if len(_table_of(t, entrants[u.pk]).entrant_ids) == 1)
    # when the player with the bye deletes the account
    account_anonymize(bye)
    # then the entrant is dropped at once
    assert Entrant.objects.get(pk=entrants[bye.pk].pk).status == Entrant.DROPPED


def test_a_deleted_account_takes_its_team_out_and_its_invitations_with_it(organizer, make_user):
    # given a registering 2v2 event: a team of a and b, and c's pending invitation to d
    t = services.tournament_create(creator=organizer, name="Pairs", game="yokai", format="swiss", table_size=4,
                                   teams=True, round_minutes=40, match_options={"turn_seconds": 60})
    a, b, c, d = (make_user() for _ in range(4))
    team = register_team(t.pk, a, b)
    asked = services.tournament_register(tournament_id=t.pk, user=c, partner=d)
    # when a and d delete their accounts
    account_anonymize(a)
    account_anonymize(d)
    # then the team has withdrawn (b may enter again) and the invitation is cancelled
    assert Entrant.objects.get(pk=team.pk).status == Entrant.WITHDRAWN
    assert not EntrantMember.objects.filter(tournament=t, active=True).exists()
    assert TeamInvitation.objects.get(pk=asked.pk).status == TeamInvitation.CANCELLED
    assert isinstance(services.tournament_register(tournament_id=t.pk, user=b, partner=c), TeamInvitation)


def test_the_api_refuses_it_with_the_tournament_named(swiss, organizer, client_for):
    t, players, entrants = swiss
    services.tournament_start(tournament_id=t.pk, user=organizer)
    at_table = next(u for u in players if len(_table_of(t, entrants[u.pk]).entrant_ids) == 2)
    res = client_for(at_table).post("/api/account/delete/", {"password": PASSWORD}, format="json")
    assert res.status_code == 409
    body = res.json()
    assert body["code"] == "in_active_match" and body["extra"] == {"matches": [], "tournaments": [str(t.pk)]}


def test_every_read_shows_a_deleted_entrant_as_deleted_player_and_the_log_keeps_its_name(swiss, organizer, client):
    # given a started tournament in which one player's table is decided
    t, players, entrants = swiss
    services.tournament_start(tournament_id=t.pk, user=organizer)
    leaving = next(u for u in players if len(_table_of(t, entrants[u.pk]).entrant_ids) == 2)
    old_name, entrant_id = leaving.get_username(), str(entrants[leaving.pk].pk)
    _decide(t, _table_of(t, entrants[leaving.pk]))
    selectors.tournament_standings(t)  # the standings projection, stored with the names entered
    # when that player deletes the account
    account_anonymize(leaving)
    # then the detail, the standings and the page say "deleted player"; the log is not rewritten
    detail = selectors.tournament_detail(t)
    assert next(e for e in detail["entrants"] if e["entrant_id"] == entrant_id)["name"] == DELETED_PLAYER
    assert next(r for r in selectors.tournament_standings(t) if r["entrant_id"] == entrant_id)["name"] == DELETED_PLAYER
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert DELETED_PLAYER in page and old_name not in page
    registered = next(p for p in _records(t, "registered") if p["entrant_id"] == entrant_id)
    assert registered["name"] == old_name


def test_a_team_shows_only_its_deleted_player_as_deleted():
    # rules: the team's name is its players' usernames joined in entry order
    # (names: identities.names_among, {user id: current username, or "deleted player"})
    assert name_shown("aiko & ren", [7, 9], {7: "aiko", 9: DELETED_PLAYER}) == f"aiko & {DELETED_PLAYER}"
    assert name_shown("aiko & ren", [7, 9], {7: DELETED_PLAYER, 9: DELETED_PLAYER}) == f"{DELETED_PLAYER} & {DELETED_PLAYER}"
    assert name_shown("aiko", [7], {7: DELETED_PLAYER}) == DELETED_PLAYER
    assert name_shown("aiko & ren", [7, 9], {3: DELETED_PLAYER}) == "aiko & ren"
    # a name that cannot be taken apart: each player named afresh
    assert name_shown("odd name", [7, 9], {7: DELETED_PLAYER, 9: "ren"}) == f"{DELETED_PLAYER} & ren"


def test_a_team_shows_a_renamed_player_by_the_new_name():
    # rules: the team's name is its players' usernames joined in entry order
    assert name_shown("aiko & ren", [7, 9], {7: "aiko", 9: "renji"}) == "aiko & renji"
    assert name_shown("aiko", [7], {7: "hanako"}) == "hanako"


def test_a_deleted_or_deactivated_account_cannot_enter(organizer, make_user):
    # given a registering team event, a deactivated player and a deleted one
    t = services.tournament_create(creator=organizer, name="Pairs", game="yokai", format="swiss", table_size=4,
                                   teams=True, round_minutes=40, match_options={"turn_seconds": 60})
    active, inactive, deleted = make_user(), make_user(is_active=False), make_user()
    account_anonymize(deleted)
    # when they try to enter, then an inactive account is refused, and so is a team naming one
    for user, partner, expected in ((inactive, active, ("account_inactive", 403)),
                                    (active, deleted, ("unknown_partner", 422))):
        with pytest.raises(services.TournamentServiceError) as refused:
            services.tournament_register(tournament_id=t.pk, user=user, partner=partner)
        assert (refused.value.code, refused.value.status) == expected
    assert not TeamInvitation.objects.filter(tournament=t).exists()
