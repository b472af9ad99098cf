"""Recompute every rating from the match logs and compare with what is stored.

Finish order is the order of the ``MatchFinished`` events, ``(at, match id)``. Each finished match
is folded from scratch (its platform events only: the lobby is all ratings read) and replayed
through the same pure functions the live policy uses (``policy.rated_seats``, ``skill.rate``),
starting everyone from OpenSkill's prior. Stored floats must equal the rebuilt ones exactly.

``check`` is pure apart from its reads (and, with ``fix=True``, the rewrite of what differs);
``manage.py rebuild_ratings`` and ``manage.py rebuild_projections`` are thin wrappers around it.
"""

import json
from dataclasses import dataclass, field

from django.db import transaction

from games.application import lobby as L
from games.eventstore.models import MatchEvent

from . import skill
from .models import Rating, RatingChange
from .policy import aborted_by_drop, rated_seats

CHANGE_FIELDS = ("game", "seat", "rank", "finished_at", "mu_before", "sigma_before", "mu_after", "sigma_after",
                 "display_before", "display_after")
RATING_FIELDS = ("mu", "sigma", "display", "matches", "updated_at")
MISSING = "<missing>"


@dataclass(frozen=True)
class Difference:
    kind: str  # rating | change | log
    key: tuple  # (user_id, game) | (match_id, user_id) | (match_id,)
    field: str
    stored: object
    rebuilt: object

    def line(self) -> str:
        return f"{self.kind} {' '.join(map(str, self.key))} {self.field}: stored={_show(self.stored)} rebuilt={_show(self.rebuilt)}"


@dataclass
class Report:
    matches: int = 0  # rated matches replayed
    differences: list = field(default_factory=list)
    fixed: int = 0

    @property
    def clean(self) -> bool:
        return not self.differences

    def lines(self) -> list[str]:
        return [d.line() for d in self.differences]


def _show(value) -> str:
    if value is MISSING:
        return MISSING
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return json.dumps(value) if isinstance(value, (int, float, str)) else str(value)


# -- replay (reads the logs, writes nothing) -------------------------------------------------------


def lobbies_finished() -> list[tuple]:
    """[(finished at, match_id, lobby)] of every finished match, in finish order, each lobby folded
    from scratch from its platform events."""
    finished = list(MatchEvent.objects.filter(type=L.FINISHED).order_by("at", "match_id").values_list("match_id", "at"))
    lobbies: dict = {}
    rows = (MatchEvent.objects.filter(match_id__in=[m for m, _ in finished], type__in=L.PLATFORM_EVENTS)
            .order_by("match_id", "seq").values_list("match_id", "type", "payload").iterator(chunk_size=2000))
    for match_id, type_, payload in rows:
        lobbies[match_id] = L.lobby_evolve(lobbies.get(match_id), {"type": type_, "payload": payload})
    return [(at, match_id, lobbies[match_id]) for match_id, at in finished]


def replay() -> tuple[dict, dict, list]:
    """(ratings {(user_id, game): {mu, sigma, display, matches, updated_at}},
    changes {(match_id, user_id): {field: value}}, errors [Difference])."""
    ratings: dict = {}
    changes: dict = {}
    errors = []
    for at, match_id, lobby in lobbies_finished():
        try:
            seats = rated_seats(lobby)
        except Exception as exc:  # an engine no longer installed: report it, don't guess
            errors.append(Difference("log", (str(match_id),), "engine", "-", f"error: {type(exc).__name__}: {exc}"))
            continue
        if seats is None or aborted_by_drop(match_id, lobby):
            continue
        game = lobby["game"]
        priors = {}
        for s in seats:
            row = ratings.get((s.user_id, game))
            priors[s.user_id] = (row["mu"], row["sigma"]) if row else (skill.MU0, skill.SIGMA0)
        after = skill.rate(priors, seats)
        for s in seats:
            before = ratings.get((s.user_id, game))
            mu, sigma = after[s.user_id]
            changes[(match_id, s.user_id)] = {
                "game": game, "seat": s.seat, "rank": s.rank, "finished_at": at,
                "mu_before": priors[s.user_id][0], "sigma_before": priors[s.user_id][1],
                "mu_after": mu, "sigma_after": sigma,
                "display_before": before["display"] if before else skill.display(skill.MU0, skill.SIGMA0),
                "display_after": skill.display(mu, sigma),
            }
            ratings[(s.user_id, game)] = {"mu": mu, "sigma": sigma, "display": skill.display(mu, sigma),
                                          "matches": (before["matches"] if before else 0) + 1, "updated_at": at}
    return ratings, changes, errors


# -- comparison (pure) ----------------------------------------------------------------------------


def compare(kind: str, stored: dict, rebuilt: dict, fields) -> list[Difference]:
    """Both {key: {field: value}}; floats compare exactly."""
    out = []
    for key in sorted(set(stored) | set(rebuilt), key=lambda k: tuple(map(str, k))):
        a, b = stored.get(key), rebuilt.get(key)
        if a is None or b is None:
            out.append(Difference(kind, tuple(map(str, key)), "*", a or MISSING, b or MISSING))
            continue
        out += [Difference(kind, tuple(map(str, key)), f, a[f], b[f]) for f in fields if a[f] != b[f]]
    return out


def stored() -> tuple[dict, dict]:
    ratings = {(r["user_id"], r["game"]): r for r in Rating.objects.values("user_id", "game", *RATING_FIELDS)}
    changes = {(c["match_id"], c["user_id"]): c for c in RatingChange.objects.values("match_id", "user_id", *CHANGE_FIELDS)}
    return ratings, changes


# -- a run --------------------------------------------------------------------------------------


def _fix(rebuilt_ratings: dict, rebuilt_changes: dict, diffs: list[Difference]) -> int:
    for d in diffs:
        if d.kind == "change":
            match_id, user_id = d.key
            key = next(k for k in rebuilt_changes if (str(k[0]), str(k[1])) == (match_id, user_id)) \
                if d.rebuilt is not MISSING else None
            RatingChange.objects.filter(match_id=match_id, user_id=user_id).delete()
            if key is not None:
                RatingChange.objects.create(match_id=key[0], user_id=key[1], **rebuilt_changes[key])
        elif d.kind == "rating":
            user_id, game = d.key
            Rating.objects.filter(user_id=user_id, game=game).delete()
            if d.rebuilt is not MISSING:
                Rating.objects.create(user_id=int(user_id), game=game, **rebuilt_ratings[(int(user_id), game)])
    return len(diffs)


def check(*, fix: bool = False) -> Report:
    """Replay every rated match and compare; with ``fix``, rewrite what differs (the whole run in
    one transaction, Rating rows locked). Returns the differences found before fixing."""
    with transaction.atomic():
        if fix:
            list(Rating.objects.select_for_update().values_list("pk", flat=True))
        rebuilt_ratings, rebuilt_changes, errors = replay()
        stored_ratings, stored_changes = stored()
        diffs = errors + compare("rating", stored_ratings, rebuilt_ratings, RATING_FIELDS) \
            + compare("change", stored_changes, rebuilt_changes, CHANGE_FIELDS)
        report = Report(matches=len({m for m, _ in rebuilt_changes}), differences=diffs)
        if fix:
            fixable = [d for d in diffs if d.kind != "log"]
            # A changed field of a row: rewrite the whole row once.
            unique = list({(d.kind, d.key): d for d in fixable}.values())
            _fix(rebuilt_ratings, rebuilt_changes, unique)
            report.fixed = len(fixable)
    return report


def report_run(stdout, fix: bool) -> int:
    """Run the check (and fix); print it; return how many differences remain."""
    report = check(fix=fix)
    for line in report.lines():
        stdout.write(line)
    stdout.write(f"replayed {report.matches} rated match(es): {len(report.differences)} rating difference(s)")
    if not fix or not report.differences:
        return len(report.differences)
    stdout.write(f"fixed {report.fixed} rating difference(s); checking again")
    after = check(fix=False)
    for line in after.lines():
        stdout.write(f"still differs: {line}")
    if not after.differences:
        stdout.write("all ratings now match the logs")
    return len(after.differences)
