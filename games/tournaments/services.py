"""Tournament services (Django): create, register, withdraw, start, drop, pair the next round, record a
result. Each runs in one transaction under the tournament's row lock, checks the new record against the
fold of the log (``state.apply``) and appends it; the unique constraints of ``TournamentRecord`` are the
last line of defence against a duplicated task or a concurrent request.

Errors are ``TournamentServiceError`` (stable code + HTTP status), never anything else for bad input.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import timezone as dt_timezone

import jsonschema
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from games.application import lobby
from games.application.accounts_lock import lock_accounts
from games.application.errors import PlatformError
from games.application.services import Actor as MatchActor
from games.application.services import match_hold_clock, match_release_clock, match_resign
from games.eventstore.models import MatchEvent
from games.kernel import RuleViolation, registry
from games.ratings.selectors import seeding_ratings
from games.tournaments import live, rounds
from games.tournaments.clock import round_ends_at, round_has_open_tables
from games.tournaments.errors import TournamentServiceError, from_pure
from games.tournaments.models import (
    CANCELLED,
    FINISHED,
    GAMES,
    REGISTERING,
    RUNNING,
    Entrant,
    EntrantMember,
    RoundDeadline,
    TeamInvitation,
    Tournament,
    TournamentRecord,
    TournamentTable,
)
from games.tournaments.records import (
    EDITABLE_SETTINGS,
    FORMAT_WORDS,
    MIN_SPECTATOR_DELAY_SECONDS,
    ROUNDS_FIXED_BY_FIELD,
    TOO_FEW_ENTRANTS,
    Adjudicated,
    Cancelled,
    ClockPaused,
    ClockResumed,
    Dropped,
    Overridden,
    Paired,
    Registered,
    Reported,
    Result,
    Settings,
    SettingsChanged,
    SpectatorDelaySet,
    Started,
    TournamentError,
    Withdrawn,
    check_spectator_delay,
    record_from_dict,
    record_to_dict,
)
from games.tournaments.state import State, apply, fold

ORGANIZERS_GROUP = "organizers"
CLOCK_OPTIONS = ("turn_seconds", "defense_seconds")


@dataclass(frozen=True)
class Actor:
    kind: str  # "user" | "worker" | "system"
    user_id: int | None = None
    task: str = ""

    def as_dict(self) -> dict:
        out = {"kind": self.kind, "user_id": self.user_id}
        if self.task:
            out["task"] = self.task
        return out

    @classmethod
    def of(cls, user) -> Actor:
        return cls("user", user.pk)


def is_organizer(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active and
                (user.is_staff or user.groups.filter(name=ORGANIZERS_GROUP).exists()))


def can_manage(user, tournament: Tournament) -> bool:
    """Who runs a tournament (start, drop, pause and resume the clock): its organizer, the organizer who
    created it (while still an organizer), or any staff member."""
    return is_organizer(user) and (user.is_staff or tournament.created_by_id == user.pk)


def _require_manager(tournament_id, user, what: str) -> None:
    try:
        tournament = Tournament.objects.only("created_by").get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValidationError, ValueError, TypeError):
        raise TournamentServiceError("not_found", "no such tournament") from None
    if not can_manage(user, tournament):
        raise TournamentServiceError("not_organizer", f"only this tournament's organizer (or staff) {what}")


def require_manager(tournament_id, user, what: str) -> None:
    """``not_found`` / ``not_organizer`` unless ``user`` runs the tournament: for a caller that checks
    who asks before it reads what they sent (the spectator delay page)."""
    _require_manager(tournament_id, user, what)


def tournament_head(tournament_id) -> int:
    """The seq of the tournament's last record (0 when none, or no such tournament): a page compares
    it before and after an action to say whether anything was recorded."""
    return Tournament.objects.filter(pk=tournament_id).values_list("head_seq", flat=True).first() or 0


def settings_of(tournament: Tournament) -> Settings:
    return Settings(format=tournament.format, table_size=tournament.table_size, teams=tournament.teams,
                    rounds=tournament.rounds, top_cut=tournament.top_cut, draw_key=tournament.draw_key,
                    **tournament.scoring)


# The parsed records of recently used tournaments, as committed: {tournament id: ((seq, record), ...)}.
# Records are append-only (a trigger refuses UPDATE and DELETE on PostgreSQL) and every append takes
# the tournament's row lock and the next seq, so a committed prefix of the log never changes: a read
# only fetches and parses the rows after the cached prefix (parsing the whole log was most of the cost
# of a fold). An entry is stored only once the transaction that read it has committed, so a rolled-back
# append never enters it.
_RECORDS: OrderedDict[str, tuple] = OrderedDict()
_RECORDS_KEPT = 64
_RECORDS_LOCK = threading.Lock()


def _cached_records(key: str) -> tuple:
    with _RECORDS_LOCK:
        found = _RECORDS.get(key)
        if found is not None:
            _RECORDS.move_to_end(key)
        return found or ()


def _keep_records(key: str, pairs: tuple) -> None:
    def store():
        with _RECORDS_LOCK:
            have = _RECORDS.get(key, ())
            if not have or (pairs and pairs[-1][0] > have[-1][0]):
                _RECORDS[key] = pairs
                _RECORDS.move_to_end(key)
                while len(_RECORDS) > _RECORDS_KEPT:
                    _RECORDS.popitem(last=False)

    transaction.on_commit(store)  # at once outside a transaction


def forget_records(tournament_id) -> None:
    """Drop what this process keeps of the tournament's log (the benchmark measures a cold read)."""
    with _RECORDS_LOCK:
        _RECORDS.pop(str(tournament_id), None)


def load_records(tournament_id, until: int | None = None) -> list:
    """The tournament's records in seq order (up to ``until``): the cached committed prefix plus the
    rows after it."""
    key = str(tournament_id)
    cached = _cached_records(key)
    after = cached[-1][0] if cached else 0
    if until is not None and until <= after:
        return [record for seq, record in cached if seq <= until]
    rows = TournamentRecord.objects.filter(tournament_id=tournament_id, seq__gt=after)
    if until is not None:
        rows = rows.filter(seq__lte=until)
    pairs = cached + tuple((seq, record_from_dict(payload))
                           for seq, payload in rows.order_by("seq").values_list("seq", "payload"))
    if until is None and len(pairs) > len(cached):
        _keep_records(key, pairs)
    return [record for _seq, record in pairs]


def state_of(tournament_id, until: int | None = None) -> State:
    """The fold of the log (up to record ``until``, default: all of it)."""
    try:
        return fold(load_records(tournament_id, until))
    except TournamentError as err:  # a log the fold refuses is corrupt: say so, never a 500
        raise TournamentServiceError("corrupt_log", f"the tournament log is inconsistent: {err.message}", 500) from err


# -- create ---------------------------------------------------------------------------------------


# Fair play (docs/tournaments.md): spectators of a running match are a full turn and at least a minute
# behind by default; the minute is also the floor (records.check_spectator_delay).
SPECTATOR_DELAY_SECONDS = MIN_SPECTATOR_DELAY_SECONDS
SPECTATOR_DELAY_TURNS = 1


def tournament_create(*, creator, name: str, game: str, format: str, table_size: int, teams: bool = False,
                      rounds: int | None = None, top_cut: int | None = None, round_minutes: int,
                      match_options: dict | None = None, starts_at=None, rated: bool = True,
                      max_entrants: int | None = None, scoring: dict | None = None,
                      spectator_delay_seconds: int = SPECTATOR_DELAY_SECONDS,
                      spectator_delay_turns: int = SPECTATOR_DELAY_TURNS) -> Tournament:
    if not is_organizer(creator):
        raise TournamentServiceError("not_organizer", "only organizers (staff or the organizers group) create tournaments")
    if not isinstance(name, str) or not name.strip() or len(name) > 120:
        raise TournamentServiceError("invalid_name", "a tournament needs a name of 1-120 characters")
    if game not in dict(GAMES):
        raise TournamentServiceError("invalid_game", f"tournaments are played in {', '.join(dict(GAMES))}")
    if not _positive_int(round_minutes):
        raise TournamentServiceError("invalid_round_minutes", "round_minutes must be a positive integer")
    try:
        check_spectator_delay(spectator_delay_seconds, spectator_delay_turns)
    except TournamentError as err:
        raise from_pure(err) from err
    if max_entrants is not None and (not _positive_int(max_entrants) or max_entrants < 2):
        raise TournamentServiceError("invalid_max_entrants", "max_entrants must be an integer of at least 2")
    scoring = dict(scoring or {})
    if set(scoring) - {"pod_scoring", "bye_points", "tiebreaks"}:
        raise TournamentServiceError("invalid_settings", "scoring takes pod_scoring, bye_points and tiebreaks")
    try:
        settings = Settings(format=format, table_size=table_size, teams=bool(teams), rounds=rounds, top_cut=top_cut,
                            **scoring)
    except TournamentError as err:
        raise from_pure(err) from err
    except TypeError as err:
        raise TournamentServiceError("invalid_settings", "bad tournament settings") from err
    _check_rounds_apply(format, rounds)
    starts_at = _future_start(starts_at)
    options = _match_options(game, settings, match_options)
    return Tournament.objects.create(
        name=name.strip(), game=game, format=format, table_size=table_size, teams=settings.teams, rounds=rounds,
        top_cut=top_cut, round_minutes=round_minutes, match_options=options, starts_at=starts_at, rated=bool(rated),
        max_entrants=max_entrants, scoring={k: v for k, v in settings.to_dict().items() if k in scoring},
        spectator_delay_seconds=spectator_delay_seconds, spectator_delay_turns=spectator_delay_turns,
        seed=(seed := secrets.token_hex(32)), seed_hash=hashlib.sha256(seed.encode()).hexdigest(), created_by=creator,
    )


def _check_rounds_apply(format: str, rounds) -> None:
    """``rounds`` sets the Swiss rounds (of ``swiss`` and of ``swiss_top_cut`` before its cut); a round
    robin and a single elimination play as many rounds as their field needs, so a number given for
    them would be ignored: refused instead (``rounds_not_applicable``). A tournament stored with one
    before this check still plays by its field (the setting is ignored, as it always was)."""
    if rounds is not None and format in ROUNDS_FIXED_BY_FIELD:
        raise TournamentServiceError("rounds_not_applicable",
                                     f"{FORMAT_WORDS[format]} plays as many rounds as its field needs: leave rounds "
                                     "empty (rounds sets the Swiss rounds only)")


def _future_start(starts_at, now=None):
    """A start time must be ahead (``starts_at_in_past`` otherwise: a typo would start the event at
    the next sweep); kept in UTC. None: no start time (the organizer starts it by hand)."""
    if starts_at is None:
        return None
    if not isinstance(starts_at, datetime) or timezone.is_naive(starts_at):
        raise TournamentServiceError("invalid_starts_at", "starts_at is a date and time with its time zone")
    if starts_at <= (now or timezone.now()):
        raise TournamentServiceError("starts_at_in_past", "the start time has already passed: choose a later one")
    return starts_at.astimezone(dt_timezone.utc)


def _positive_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def tournament_set_spectator_delay(*, tournament_id, user, seconds: int | None = None,
                                   turns: int | None = None) -> Tournament:
    """The tournament's organizer (or staff) changes the fair-play delay before or during the event:
    recorded in the log (``spectator_delay_set``) and applied at once, running matches included (the
    watch policy reads it from the tournament). An omitted value keeps its current setting."""
    _require_manager(tournament_id, user, "sets the spectator delay")
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status == FINISHED:
            raise TournamentServiceError("tournament_finished", "the tournament is over: no match is left to watch live")
        _check_not_cancelled(tournament)
        seconds = tournament.spectator_delay_seconds if seconds is None else seconds
        turns = tournament.spectator_delay_turns if turns is None else turns
        if (seconds, turns) == (tournament.spectator_delay_seconds, tournament.spectator_delay_turns):
            return tournament  # nothing changes: nothing to record
        _append(tournament, state_of(tournament.pk), SpectatorDelaySet(seconds, turns), Actor.of(user))
        tournament.spectator_delay_seconds, tournament.spectator_delay_turns = seconds, turns
        tournament.save(update_fields=["spectator_delay_seconds", "spectator_delay_turns"])
        return tournament


def _check_not_cancelled(tournament: Tournament) -> None:
    if tournament.status == CANCELLED:
        raise TournamentServiceError("tournament_cancelled", "the tournament was cancelled")


DELAY_FIELDS = ("spectator_delay_seconds", "spectator_delay_turns")


def tournament_update(*, tournament_id, user, changes: dict) -> Tournament:
    """The organizer (or staff) changes the tournament: before the start any of ``EDITABLE_SETTINGS``
    (name, starts_at - None clears it -, round_minutes, max_entrants, rated, rounds), recorded as one
    ``settings_changed`` record of what differs (none when nothing does); before or during the event
    the spectator delay (``spectator_delay_set``). All or nothing, in one transaction."""
    _require_manager(tournament_id, user, "changes it")
    changes = dict(changes)
    delay = {k: changes.pop(k) for k in DELAY_FIELDS if k in changes}
    unknown = sorted(set(changes) - set(EDITABLE_SETTINGS))
    if unknown:
        raise TournamentServiceError("invalid_settings", f"{', '.join(unknown)} cannot be changed after creation")
    with transaction.atomic():
        if changes:
            _change_settings(tournament_id, user, changes)
        if delay:
            tournament_set_spectator_delay(tournament_id=tournament_id, user=user,
                                           seconds=delay.get("spectator_delay_seconds"),
                                           turns=delay.get("spectator_delay_turns"))
        return Tournament.objects.get(pk=tournament_id)


def _locked_before_start(tournament_id, started: str) -> Tournament:
    """The tournament, locked, while it still registers: ``tournament_finished``, ``tournament_cancelled``
    or ``already_started`` (with the words ``started``) otherwise."""
    tournament = _locked(tournament_id)
    if tournament.status == FINISHED:
        raise TournamentServiceError("tournament_finished", "the tournament is over")
    _check_not_cancelled(tournament)
    if tournament.status != REGISTERING:
        raise TournamentServiceError("already_started", started)
    return tournament


def _change_settings(tournament_id, user, changes: dict) -> None:
    tournament = _locked_before_start(tournament_id, "the tournament has started: only the spectator delay changes "
                                                     "now")
    wanted = {name: _editable_value(tournament, name, value) for name, value in changes.items()}
    differs = {name: value for name, value in wanted.items() if getattr(tournament, name) != value}
    if not differs:
        return  # nothing changes: nothing to record
    as_json = {name: value.isoformat() if isinstance(value, datetime) else value for name, value in differs.items()}
    _append(tournament, state_of(tournament.pk), SettingsChanged(as_json), Actor.of(user))
    for name, value in differs.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(differs))


def _editable_value(tournament: Tournament, name: str, value):
    """One setting's new value, checked as at creation (the same codes)."""
    if name == "name":
        if not isinstance(value, str) or not value.strip() or len(value.strip()) > 120:
            raise TournamentServiceError("invalid_name", "a tournament needs a name of 1-120 characters")
        return value.strip()
    if name == "starts_at":
        return _future_start(value)
    if name == "round_minutes":
        if not _positive_int(value) or value > 24 * 60:
            raise TournamentServiceError("invalid_round_minutes", "round_minutes must be 1-1440 minutes")
        return value
    if name == "max_entrants":
        if value is None:
            return None
        if not _positive_int(value) or value < 2:
            raise TournamentServiceError("invalid_max_entrants", "max_entrants must be an integer of at least 2")
        entered = Entrant.objects.filter(tournament=tournament, status=Entrant.REGISTERED).count()
        if value < entered:
            raise TournamentServiceError("max_entrants_below_field",
                                         f"{entered} entrants are registered already: the cap cannot be lower")
        return value
    if name == "rated":
        if not isinstance(value, bool):
            raise TournamentServiceError("invalid_settings", "rated is true or false")
        return value
    # rounds
    if value is not None and not _positive_int(value):
        raise TournamentServiceError("invalid_rounds", "rounds must be a positive integer")
    _check_rounds_apply(tournament.format, value)
    return value


def tournament_cancel(*, tournament_id, user, reason: str = "") -> Tournament:
    """The organizer (or staff) cancels a tournament that has not started: a ``cancelled`` record, the
    status ``cancelled`` (it leaves the list of events; its page says so, with the reason), and the
    pending team invitations are cancelled. Nothing is recorded after it."""
    _require_manager(tournament_id, user, "cancels it")
    reason = str(reason or "").strip()
    if len(reason) > 500:
        raise TournamentServiceError("invalid_reason", "the reason is at most 500 characters")
    with transaction.atomic():
        tournament = _locked_before_start(tournament_id, "a tournament that has started cannot be cancelled: it is "
                                                         "played to its end")
        _append(tournament, state_of(tournament.pk), Cancelled(reason), Actor.of(user))
        tournament.status = CANCELLED
        tournament.save(update_fields=["status"])
        TeamInvitation.objects.filter(tournament=tournament, status=TeamInvitation.PENDING).update(
            status=TeamInvitation.CANCELLED, decided_at=timezone.now())
        return tournament


def _match_options(game: str, settings: Settings, options) -> dict:
    """Every tournament match is created with these options: valid for the engine at the table's seat
    count, and with the engine's decision clocks switched on (a tournament cannot wait forever)."""
    engine = registry.get(game)
    options = dict(options or {})
    if not isinstance(options, dict):
        raise TournamentServiceError("invalid_match_options", "match_options must be an object")
    schema_props = engine.options_schema.get("properties", {})
    if "teams" in schema_props:
        options["teams"] = settings.teams
    elif settings.teams:
        raise TournamentServiceError("invalid_match_options", f"{engine.name} has no team play")
    for clock in CLOCK_OPTIONS:
        if clock in schema_props and clock in options and not _positive_int(options[clock]):
            raise TournamentServiceError("clock_required", f"{clock} must be a positive number of seconds in a tournament")
    if "turn_seconds" in schema_props and "turn_seconds" not in options:
        raise TournamentServiceError("clock_required", "a tournament match needs turn_seconds (the decision clock)")
    try:
        jsonschema.validate(options, engine.options_schema)
        engine.validate_options(options, settings.table_size)
    except jsonschema.ValidationError as err:
        raise TournamentServiceError("invalid_match_options", err.message) from err
    except RuleViolation as err:
        raise TournamentServiceError("invalid_match_options", err.message) from err
    return options


# -- the log --------------------------------------------------------------------------------------


def _locked(tournament_id) -> Tournament:
    """The tournament under its row lock; every write takes it, so every committed write is published
    to the tournament's live sockets (a refused or rolled-back one is not)."""
    try:
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    except (Tournament.DoesNotExist, ValidationError, ValueError, TypeError):
        raise TournamentServiceError("not_found", "no such tournament") from None
    live.publish_on_commit(tournament.pk)
    return tournament


def _append(tournament: Tournament, state: State, record, actor: Actor, *, entrant: Entrant | None = None) -> TournamentRecord:
    """Check ``record`` against the fold, then append it (caller holds the row lock, inside a transaction)."""
    try:
        apply(state, record)
    except TournamentError as err:
        raise from_pure(err) from err
    tournament.head_seq += 1
    row = TournamentRecord(tournament=tournament, seq=tournament.head_seq, kind=record.kind,
                           payload=record_to_dict(record), round=getattr(record, "round", None),
                           table=getattr(record, "table", None), entrant=entrant, actor=actor.as_dict(),
                           at=timezone.now())
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError as err:
        raise TournamentServiceError("conflict", "that decision has already been recorded") from err
    Tournament.objects.filter(pk=tournament.pk).update(head_seq=tournament.head_seq)
    return row


def _entrant(tournament: Tournament, entrant_id) -> Entrant:
    try:
        return Entrant.objects.get(tournament=tournament, pk=int(entrant_id))
    except (Entrant.DoesNotExist, ValueError, TypeError):
        raise TournamentServiceError("not_registered", f"no entrant {entrant_id} in this tournament") from None


# -- registration ---------------------------------------------------------------------------------


def tournament_register(*, tournament_id, user, partner=None) -> Entrant | TeamInvitation:
    """Register ``user`` as one entrant. In a 2v2 team event a team needs both players' consent: naming
    ``partner`` asks them (a pending ``TeamInvitation``, returned), unless ``partner`` has already asked
    ``user``, which enters the team (the ``Entrant``, returned). Asking someone else replaces the
    player's earlier pending invitation."""
    with transaction.atomic():
        _check_accounts(user, partner)
        tournament = _locked(tournament_id)
        _check_open(tournament)
        if tournament.teams and partner is None:
            raise TournamentServiceError("partner_required", "a team event takes a team: name your partner")
        if not tournament.teams and partner is not None:
            raise TournamentServiceError("no_teams", "this is not a team event")
        if partner is None:
            return _enter(tournament, [user], Actor.of(user))
        if partner.pk == user.pk:
            raise TournamentServiceError("invalid_partner", "your partner must be another player")
        _check_free(tournament, user, partner)
        asked = (TeamInvitation.objects.select_for_update()
                 .filter(tournament=tournament, inviter=partner, partner=user, status=TeamInvitation.PENDING).first())
        if asked is not None:  # they asked first: naming them back is saying yes
            return _accept(tournament, asked, user)
        _check_room(tournament)
        mine = TeamInvitation.objects.select_for_update().filter(tournament=tournament, inviter=user,
                                                                 status=TeamInvitation.PENDING)
        same = next((i for i in mine if i.partner_id == partner.pk), None)
        if same is not None:
            return same
        mine.update(status=TeamInvitation.CANCELLED, decided_at=timezone.now())
        return TeamInvitation.objects.create(tournament=tournament, inviter=user, partner=partner)


def tournament_invitation_accept(*, tournament_id, invitation_id, user) -> Entrant:
    """The invited partner says yes: the team (inviter and partner) is entered as one entrant."""
    with transaction.atomic():
        _check_accounts(user)  # the inviter's deletion cancels the invitation (checked below)
        tournament = _locked(tournament_id)
        invitation = _invitation(tournament, invitation_id)
        if invitation.partner_id != user.pk:
            raise TournamentServiceError("not_invited", "only the invited partner can accept this invitation", 403)
        _check_pending(invitation)
        _check_open(tournament)
        _check_free(tournament, invitation.inviter, user)
        return _accept(tournament, invitation, user)


def tournament_invitation_decline(*, tournament_id, invitation_id, user) -> TeamInvitation:
    """The invited partner says no (``declined``), or the player who asked takes it back (``cancelled``)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        invitation = _invitation(tournament, invitation_id)
        if user.pk not in (invitation.partner_id, invitation.inviter_id):
            raise TournamentServiceError("not_invited", "this invitation is between two other players", 403)
        _check_pending(invitation)
        invitation.status = (TeamInvitation.DECLINED if user.pk == invitation.partner_id
                             else TeamInvitation.CANCELLED)
        invitation.decided_at = timezone.now()
        invitation.save(update_fields=["status", "decided_at"])
        return invitation


def _invitation(tournament: Tournament, invitation_id) -> TeamInvitation:
    try:
        return (TeamInvitation.objects.select_for_update().select_related("inviter", "partner")
                .get(tournament=tournament, pk=int(invitation_id)))
    except (TeamInvitation.DoesNotExist, ValueError, TypeError):
        raise TournamentServiceError("not_found", "no such team invitation in this tournament") from None


def _check_accounts(user, partner=None) -> None:
    """Lock the accounts about to be entered, before the tournament (``accounts_lock``): refused
    if one has been deleted meanwhile."""
    gone = lock_accounts([user, partner])
    if user.pk in gone:
        raise TournamentServiceError("account_inactive", "this account has been deleted or deactivated", 403)
    if partner is not None and partner.pk in gone:
        raise TournamentServiceError("unknown_partner", "your partner's account no longer exists")


def _check_pending(invitation: TeamInvitation) -> None:
    if invitation.status != TeamInvitation.PENDING:
        raise TournamentServiceError("invitation_closed", f"this invitation is no longer open ({invitation.status})")


def _check_open(tournament: Tournament) -> None:
    _check_not_cancelled(tournament)
    if tournament.status != REGISTERING:
        raise TournamentServiceError("registration_closed", "registration is closed: the tournament has started")


def _check_free(tournament: Tournament, user, partner) -> None:
    taken = set(EntrantMember.objects.filter(tournament=tournament, active=True, user__in=[user, partner])
                .values_list("user_id", flat=True))
    if user.pk in taken:
        raise TournamentServiceError("already_registered", "already registered in this tournament")
    if partner.pk in taken:
        raise TournamentServiceError("partner_registered", f"{partner.get_username()} is already in another team")


def _check_room(tournament: Tournament) -> None:
    active = Entrant.objects.filter(tournament=tournament, status=Entrant.REGISTERED).count()
    if tournament.max_entrants is not None and active >= tournament.max_entrants:
        raise TournamentServiceError("tournament_full", "the tournament is full")


def _accept(tournament: Tournament, invitation: TeamInvitation, user) -> Entrant:
    """Enter the team of ``invitation`` (the inviter first), and close every other pending invitation
    either player had sent or received in this tournament."""
    entrant = _enter(tournament, [invitation.inviter, invitation.partner], Actor.of(user))
    now = timezone.now()
    invitation.status, invitation.entrant, invitation.decided_at = TeamInvitation.ACCEPTED, entrant, now
    invitation.save(update_fields=["status", "entrant", "decided_at"])
    members = [invitation.inviter_id, invitation.partner_id]
    (TeamInvitation.objects.filter(tournament=tournament, status=TeamInvitation.PENDING)
     .filter(Q(inviter_id__in=members) | Q(partner_id__in=members))
     .update(status=TeamInvitation.CANCELLED, decided_at=now))
    return entrant


def _enter(tournament: Tournament, members: list, actor: Actor) -> Entrant:
    """Enter ``members`` (one player, or a team that has both consented) as one entrant: the rows and
    the ``registered`` record (caller holds the row lock and has checked registration is open)."""
    taken = EntrantMember.objects.filter(tournament=tournament, active=True, user__in=members)
    if taken.exists():
        raise TournamentServiceError("already_registered", "already registered in this tournament")
    _check_room(tournament)
    name = " & ".join(m.get_username() for m in members)
    entrant = Entrant.objects.create(tournament=tournament, name=name)
    try:
        with transaction.atomic():
            for member in members:
                EntrantMember.objects.create(tournament=tournament, entrant=entrant, user=member)
    except IntegrityError as err:
        raise TournamentServiceError("already_registered", "already registered in this tournament") from err
    state = state_of(tournament.pk)
    _append(tournament, state, Registered(str(entrant.pk), name, tuple(m.pk for m in members)), actor, entrant=entrant)
    return entrant


def tournament_withdraw(*, tournament_id, user) -> Entrant:
    """Before the start the entrant leaves the field; after it, withdrawing is a drop (results kept)."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        member = (EntrantMember.objects.select_related("entrant")
                  .filter(tournament=tournament, user=user, active=True).first())
        if member is None:
            raise TournamentServiceError("not_registered", "you are not registered in this tournament")
        entrant = member.entrant
        if tournament.status == FINISHED:
            raise TournamentServiceError("tournament_finished", "the tournament is over: there is nothing to leave")
        _check_not_cancelled(tournament)
        if tournament.status != REGISTERING and entrant.status == Entrant.DROPPED:
            raise TournamentServiceError("already_dropped", "you have already left this tournament")
        _leave(tournament, state_of(tournament.pk), entrant, Actor.of(user), reason="withdrew")
        return entrant


def _concede_running_match(tournament: Tournament, state: State, entrant: Entrant, actor: Actor) -> None:
    """A dropped entrant resigns the match it is playing in the round being played: at a table of
    two sides (two players or two teams) its opponents win now instead of waiting out its clock, and
    the round can end; at a pod of three or more it leaves the game (the engine's concede) and the
    others play on, where the game allows it. The caller holds the tournament's lock (the match's
    result is recorded on commit, as any other)."""
    if not _at_open_table(state, str(entrant.pk)):
        return
    tables = TournamentTable.objects.filter(tournament=tournament, round=state.current_round, match__isnull=False)
    table = next((t for t in tables if str(entrant.pk) in t.entrant_ids), None)
    if table is None:
        return
    asked_by = MatchActor(kind=actor.kind, user_id=actor.user_id, extra={"purpose": "tournament_drop"})
    for member in EntrantMember.objects.select_related("user").filter(entrant=entrant):
        try:
            match_resign(match_id=table.match_id, user=member.user, actor=asked_by)
            return
        except (PlatformError, RuleViolation):
            continue  # not seated (a team-mate is), over already, or no side to resign to


def _leave(tournament: Tournament, state: State, entrant: Entrant, actor: Actor, *, reason: str) -> None:
    """Before the start the entrant leaves the field (its members may enter again); after it, it is
    dropped with ``reason`` and keeps its results. The caller holds the tournament's lock."""
    if tournament.status == REGISTERING:
        _append(tournament, state, Withdrawn(str(entrant.pk)), actor, entrant=entrant)
        entrant.status = Entrant.WITHDRAWN
        EntrantMember.objects.filter(entrant=entrant).update(active=False)
    else:
        _append(tournament, state, Dropped(str(entrant.pk), reason=reason), actor, entrant=entrant)
        entrant.status = Entrant.DROPPED
        if reason != ACCOUNT_DELETED:  # a deletion is refused while its match runs (tournaments_leave_deleted_account)
            _concede_running_match(tournament, state, entrant, actor)
    entrant.save(update_fields=["status"])


# -- an account being deleted ---------------------------------------------------------------------

ACCOUNT_DELETED = "account_deleted"  # the reason of a drop, and the actor's task


def tournaments_leave_deleted_account(user) -> list[str]:
    """An account being deleted (``accounts.selfservice.account_anonymize``, in its transaction)
    leaves every tournament it has not finished, each under its lock, taken in id order: before the
    start its entrant withdraws (a team's too, which cannot play without it), after the start its
    entrant is dropped (``account_deleted``; its results stay), and its pending team invitations
    are cancelled. So no later round, and no match a round creates, seats a deleted account.

    Returns the tournaments it cannot leave yet, having written nothing: those where its entrant sits
    at a table of the round being played that has no result, whose match is running or is about to
    be created. The caller refuses the deletion then, as it does during a running match."""
    invited = Q(inviter=user) | Q(partner=user)
    ids = sorted(set(EntrantMember.objects.filter(user=user, active=True, tournament__status__in=(REGISTERING, RUNNING))
                     .values_list("tournament_id", flat=True))
                 | set(TeamInvitation.objects.filter(invited, status=TeamInvitation.PENDING)
                       .values_list("tournament_id", flat=True)))
    held = []
    for tournament_id in ids:
        tournament = _locked(tournament_id)
        member = (EntrantMember.objects.select_related("entrant")
                  .filter(tournament=tournament, user=user, active=True).first())
        playing = tournament.status in (REGISTERING, RUNNING) and member is not None
        held.append((tournament, state_of(tournament.pk), member.entrant if playing else None))
    seated = [str(t.pk) for t, state, entrant in held if entrant is not None and _at_open_table(state, str(entrant.pk))]
    if seated:
        return seated
    actor = Actor("system", user.pk, task=ACCOUNT_DELETED)
    for tournament, state, entrant in held:
        if entrant is not None and entrant.status != Entrant.DROPPED:
            _leave(tournament, state, entrant, actor, reason=ACCOUNT_DELETED)
        TeamInvitation.objects.filter(invited, tournament=tournament, status=TeamInvitation.PENDING).update(
            status=TeamInvitation.CANCELLED, decided_at=timezone.now())
    return []


def _at_open_table(state: State, entrant_id: str) -> bool:
    """Whether the entrant sits at a table of the round being played that has no result yet."""
    if not state.rounds:
        return False
    current = state.rounds[-1]
    return any(entrant_id in table.entrant_ids and not table.is_bye and number not in current.results
               for number, table in current.tables.items())


# -- running --------------------------------------------------------------------------------------


def tournament_start(*, tournament_id, user) -> Tournament:
    """Close registration, seed the field (rating, then registration order) and pair round 1."""
    _require_manager(tournament_id, user, "starts it")
    return _start(tournament_id, Actor.of(user))


def tournament_start_scheduled(*, tournament_id, now=None, inside=None) -> Tournament | None:
    """A worker starts a tournament whose ``starts_at`` has passed (idempotent: None if it is not due
    or already started). With fewer than two entrants it stays registering and its ``starts_at`` is
    cleared (recorded: ``settings_changed`` with ``reason: too_few_entrants``, which the page shows), so
    the sweep stops retrying; the organizer starts it by hand or sets a new time."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != REGISTERING or tournament.starts_at is None or tournament.starts_at > now:
            return None
        if Entrant.objects.filter(tournament=tournament, status=Entrant.REGISTERED).count() < 2:
            _append(tournament, state_of(tournament.pk), SettingsChanged({"starts_at": None}, reason=TOO_FEW_ENTRANTS),
                    Actor("worker", task="tournament_start"))
            tournament.starts_at = None
            tournament.save(update_fields=["starts_at"])
            return None
        return _start(tournament_id, Actor("worker", task="tournament_start"), inside)


def _ratings_refresh(tournament: Tournament, entrants: list[Entrant]) -> None:
    """Each entrant's seeding rating, as the field closes: its player's display rating in the game
    (a team's, its members' mean); a newcomer has the starting value."""
    members = list(EntrantMember.objects.filter(entrant__in=entrants, active=True).values_list("entrant_id", "user_id"))
    shown = seeding_ratings(tournament.game, {uid for _, uid in members})
    for entrant in entrants:
        values = [shown[uid] for eid, uid in members if eid == entrant.pk]
        entrant.rating = sum(values) / len(values) if values else 0.0
    Entrant.objects.bulk_update(entrants, ["rating"])


def _start(tournament_id, actor: Actor, inside=None) -> Tournament:
    with transaction.atomic():
        tournament = _locked(tournament_id)
        _check_not_cancelled(tournament)
        if tournament.status != REGISTERING:
            raise TournamentServiceError("already_started", "the tournament has already started")
        entrants = list(Entrant.objects.filter(tournament=tournament, status=Entrant.REGISTERED))
        if len(entrants) < 2:
            raise TournamentServiceError("too_few_entrants", "a tournament needs at least two entrants")
        _ratings_refresh(tournament, entrants)
        TeamInvitation.objects.filter(tournament=tournament, status=TeamInvitation.PENDING).update(
            status=TeamInvitation.EXPIRED, decided_at=timezone.now())  # the field is closed
        order = tuple(str(e.pk) for e in sorted(entrants, key=lambda e: (-e.rating, e.pk)))
        state = state_of(tournament.pk)
        _append(tournament, state, Started(order), actor)
        tournament.status = RUNNING
        _pair(tournament, state, actor, inside)
        return tournament


def tournament_pair_next_round(*, tournament_id, actor: Actor, inside=None) -> Paired | None:
    """Pair the next round if the current one is complete (idempotent: a duplicated or late call is a
    no-op returning None); finish the tournament when there is no next round. While the organizer has
    the round paused nothing moves on (None): the next round is paired, or the tournament finishes,
    after the resume. ``inside()``, if given, runs inside the pairing's transaction once the round and
    its tables are written, before the commit (the workers' chaos point, to test a worker killed there)."""
    if round_still_played(tournament_id):
        return None  # the usual case (a match ended, others play on): no lock taken, no fold
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != RUNNING:
            return None
        state = state_of(tournament.pk)
        if not state.round_complete() or state.round_paused:
            return None
        return _pair(tournament, state, actor, inside)


def round_still_played(tournament_id) -> bool:
    """A cheap look (three small indexed queries, no lock, no fold) at whether the tournament's current round
    still has a table without a result. Only a shortcut: True is final for now (a result is never
    taken back), False is checked again against the fold under the lock."""
    current = Tournament.objects.filter(pk=tournament_id, status=RUNNING).values_list("round", flat=True).first()
    if not current:
        return False
    return round_has_open_tables(tournament_id, current)


def _pair(tournament: Tournament, state: State, actor: Actor, inside=None) -> Paired | None:
    try:
        paired = rounds.next_pairing(settings_of(tournament), state)
    except TournamentError as err:
        raise from_pure(err) from err
    RoundDeadline.objects.filter(tournament=tournament).delete()  # every earlier round is complete
    if paired is None:
        tournament.status = FINISHED
        tournament.save(update_fields=["status"])
        return None
    row = _append(tournament, state, paired, actor)
    TournamentTable.objects.bulk_create([
        TournamentTable(tournament=tournament, round=paired.round, table=t.table, entrant_ids=list(t.entrant_ids))
        for t in paired.tables
    ])
    if any(not t.is_bye for t in paired.tables):
        RoundDeadline.objects.create(tournament=tournament, round=paired.round,
                                     due_at=row.at + timedelta(minutes=tournament.round_minutes))
    tournament.round = paired.round
    tournament.save(update_fields=["status", "round"])
    if inside is not None:
        inside()
    return paired


def tournament_drop(*, tournament_id, user, entrant_id) -> Entrant:
    """An organizer drops an entrant: never paired again, keeps every result."""
    _require_manager(tournament_id, user, "drops an entrant")
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != RUNNING:
            raise TournamentServiceError("not_running", "only a running tournament drops entrants")
        entrant = _entrant(tournament, entrant_id)
        if not EntrantMember.objects.filter(entrant=entrant, user_id=user.pk).exists():  # their own: a withdrawal
            _require_impartial(tournament, user, "drop another entrant")
        state = state_of(tournament.pk)
        _append(tournament, state, Dropped(str(entrant.pk), reason="organizer"), Actor.of(user), entrant=entrant)
        entrant.status = Entrant.DROPPED
        entrant.save(update_fields=["status"])
        _concede_running_match(tournament, state, entrant, Actor.of(user))
        return entrant


def tournament_pause_clock(*, tournament_id, user, reason: str = "") -> Tournament:
    """An organizer stops the clock of the round being played (recorded; the round time limit does not
    run while it is paused), and with it the decision clocks of the round's running matches, which
    resume with the time they had left."""
    reason = str(reason or "")[:500]
    return _clock(tournament_id, user, lambda rnd: ClockPaused(rnd, reason=reason), hold=True, reason=reason)


def tournament_resume_clock(*, tournament_id, user) -> Tournament:
    """An organizer restarts the paused clock of the round being played, and its matches' clocks. A
    round that ended during the pause is resumed too: then the next round is due (the API's and the
    page's resume call ``policies.tournament_advance`` next, which pairs it and creates its matches)."""
    return _clock(tournament_id, user, ClockResumed, hold=False)


def _match_clocks(tournament: Tournament, round_no: int, user, *, hold: bool, reason: str = "") -> None:
    """Stop (or restart) the decision clock of every running match of the round: a player whose turn
    it was when the organizer paused keeps the time they had left. A match that ended meanwhile, or
    whose clock is already where it should be, is left as it is."""
    purpose = "tournament_pause" if hold else "tournament_resume"
    actor = MatchActor(kind="user", user_id=user.pk, extra={"purpose": purpose})
    tables = TournamentTable.objects.filter(tournament=tournament, round=round_no, match__isnull=False)
    for match_id in tables.values_list("match_id", flat=True):
        try:
            if hold:
                match_hold_clock(match_id=match_id, actor=actor, reason=reason)
            else:
                match_release_clock(match_id=match_id, actor=actor)
        except PlatformError:
            continue  # over already (match_not_active), or clock_held / clock_not_held


def _clock(tournament_id, user, make_record, *, hold: bool, reason: str = "") -> Tournament:
    _require_manager(tournament_id, user, "pauses or resumes the clock")
    with transaction.atomic():
        tournament = _locked(tournament_id)
        if tournament.status != RUNNING:
            raise TournamentServiceError("not_running", "only a running tournament has a round clock")
        _require_impartial(tournament, user, "pause or resume the round's clock")
        state = state_of(tournament.pk)
        _append(tournament, state, make_record(state.current_round), Actor.of(user))
        # the workers enforce the limit from the deadline row: none while paused, later by the pause after it
        RoundDeadline.objects.filter(tournament=tournament, round=state.current_round).update(
            due_at=round_ends_at(tournament, state.current_round))
        _match_clocks(tournament, state.current_round, user, hold=hold, reason=reason)
        return tournament


def tournament_record_result(*, tournament_id, round: int, table: int, places: dict, by: str, actor: Actor) -> bool:
    """Count a table's result once: a repeat with the same places is a no-op (False), a different one
    is refused (``result_already_recorded``). A match's outcome (``play``/``time``) arriving for a table
    a judge has already decided is a no-op too: the judge's decision stands, and a redelivered
    ``MatchFinished`` after an override is not an error (docs/tournaments.md, "Disputes")."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        state = state_of(tournament.pk)
        if 1 <= round <= state.current_round:
            existing = state.rounds[round - 1].results.get(table)
            if existing is not None and existing.places == places and existing.by == by:
                return False
            if existing is not None and existing.by == "judge" and by in ("play", "time"):
                return False
        _append(tournament, state, Result(round, table, dict(places), by), actor)
        return True


# -- judges ---------------------------------------------------------------------------------------


def plays_in(user, tournament: Tournament) -> bool:
    """Whether ``user`` is a player of the tournament: a member of an entrant that took part (registered,
    or dropped after the start; not one withdrawn before it)."""
    return EntrantMember.objects.filter(tournament=tournament, user_id=user.pk,
                                        entrant__status__in=(Entrant.REGISTERED, Entrant.DROPPED)).exists()


def _require_impartial(tournament: Tournament, user, what: str) -> None:
    """``conflict_of_interest`` when ``user`` plays in the tournament (staff included): a player does not
    use the organizer's powers over the other entrants or the clock their own match runs on, as they do
    not judge its results (``judge_role``); a staff member who does not play in it can."""
    if plays_in(user, tournament):
        raise TournamentServiceError("conflict_of_interest", f"you play in this tournament, so you cannot {what}: "
                                     "a staff member who does not play in it can")


def judge_role(user, tournament: Tournament) -> str:
    """In what capacity ``user`` may judge the tournament's results and reports: ``staff`` (any
    tournament), or ``organizer`` (its own organizer, ``can_manage``). Refused: ``not_judge`` for
    anyone else, ``conflict_of_interest`` for anyone who plays in it, staff included (another staff
    judge rules there)."""
    if not (user and user.is_authenticated and user.is_active):
        raise TournamentServiceError("not_judge", "only staff or the tournament's organizer judge its results")
    if not (user.is_staff or can_manage(user, tournament)):
        raise TournamentServiceError("not_judge", "only staff or this tournament's organizer judge its results")
    if plays_in(user, tournament):
        raise TournamentServiceError("conflict_of_interest", "you play in this tournament, so you cannot judge its "
                                     "results: another staff judge rules on its disputes")
    return "staff" if user.is_staff else "organizer"


def _judge_table(tournament_id, user, round_no: int, table: int, *, overriding: bool = False):
    """The tournament (locked), its state and the judge's role for a judge's decision. Only an
    override can be blocked by the bracket having moved on: upholding changes no result, so it always
    answers a report."""
    if not (user and user.is_authenticated and user.is_active):
        raise TournamentServiceError("not_judge", "only staff or the tournament's organizer judge its results")
    tournament = _locked(tournament_id)
    role = judge_role(user, tournament)
    state = state_of(tournament.pk)
    if overriding and bracket_moved_on(state, round_no):
        raise TournamentServiceError("bracket_moved_on", "the bracket has moved past that round: its result stands "
                                     "(a judge can only uphold it)")
    return tournament, state, role


def bracket_moved_on(state: State, round_no) -> bool:
    """Whether ``round_no`` is an elimination round the bracket has already left (a later round is
    paired from its winners): its result can no longer change."""
    return isinstance(round_no, int) and 1 <= round_no < state.current_round and \
        state.rounds[round_no - 1].stage == "elimination"


def cut_seeded_after(state: State, round_no) -> bool:
    """Whether ``round_no`` is a Swiss round of a Swiss with top cut whose cut has been seeded: its
    result can still be overridden (the Swiss standings change) but the bracket stays as seeded."""
    return isinstance(round_no, int) and 1 <= round_no <= state.current_round and \
        state.rounds[round_no - 1].stage == "swiss" and any(r.stage == "elimination" for r in state.rounds)


CUT_WARNING = ("the top cut was seeded from the Swiss standings before this decision: overriding a Swiss round "
               "changes the Swiss standings and tiebreaks, not the bracket already seeded")


def match_in_progress(tournament: Tournament, state: State, round_no, table_no) -> bool:
    """Whether the table has no result yet and its match is still being played (started, neither
    finished nor abandoned). A judge decides a table once its match is over: overriding a running
    match would complete the round under the players' feet and refuse its own ``MatchFinished``."""
    if not (isinstance(round_no, int) and 1 <= round_no <= state.current_round):
        return False
    if table_no in state.rounds[round_no - 1].results:
        return False
    match_id = (TournamentTable.objects.filter(tournament=tournament, round=round_no, table=table_no)
                .values_list("match_id", flat=True).first())
    if match_id is None:
        return False  # a bye, or a table whose match was never created: nothing is being played
    return not MatchEvent.objects.filter(match_id=match_id, type__in=(lobby.FINISHED, lobby.ABANDONED)).exists()


def tournament_uphold(*, tournament_id, user, round: int, table: int, reason: str = "",
                      report_id: int | None = None) -> None:
    """A judge (staff, or the tournament's organizer who does not play in it) reviewed a table's result
    and upheld it (recorded in the log with who, in what role, and why), answering the report
    ``report_id`` if given."""
    with transaction.atomic():
        tournament, state, role = _judge_table(tournament_id, user, round, table)
        _append(tournament, state, Adjudicated(round, table, judge=user.get_username(), reason=str(reason),
                                               report_id=report_id, role=role), Actor.of(user))


def tournament_override(*, tournament_id, user, round: int, table: int, places: dict, reason: str,
                        report_id: int | None = None) -> None:
    """A judge (as for ``tournament_uphold``) replaces a table's result with a written reason; the
    standings follow (``by: judge``). In an elimination stage only the current round can still change.
    ``report_id``: the report it answers."""
    with transaction.atomic():
        tournament, state, role = _judge_table(tournament_id, user, round, table, overriding=True)
        if not isinstance(places, dict):
            raise TournamentServiceError("invalid_result", "places map each entrant of the table to its place")
        if match_in_progress(tournament, state, round, table):
            raise TournamentServiceError("match_in_progress", "the match is still being played: a judge decides "
                                         "its result once it has ended (by play or the round's time limit)")
        _append(tournament, state, Overridden(round, table, dict(places), judge=user.get_username(),
                                              reason=str(reason or ""), report_id=report_id, role=role),
                Actor.of(user))


def tournament_report(*, tournament_id, user, round: int, table: int, report_id: int, entrant_id: str,
                      seq: int) -> TournamentRecord:
    """Record in the log that a player of the table filed the report ``report_id`` (the ``MatchReport``
    row, written by ``reports.report_file`` in the same transaction), so the standings show it. A report
    on an elimination round the bracket has moved past is refused (``bracket_moved_on``): no judge could
    change its result any more."""
    with transaction.atomic():
        tournament = _locked(tournament_id)
        state = state_of(tournament.pk)
        if bracket_moved_on(state, round):
            raise TournamentServiceError("bracket_moved_on", "the bracket has moved past that round: its result "
                                         "stands and can no longer be reported")
        return _append(tournament, state, Reported(round, table, report_id, str(entrant_id), seq), Actor.of(user))
