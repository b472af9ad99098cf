"""What the home page and the lobby list: the games on offer, matches as rows for the templates,
and the running matches anyone may watch (with their spectator counts and fair-play delays).

Rows carry names, never ids or seqs a player would see: ``seats`` are labelled ("alice",
"Bot 2", ``identities.seat_label``) and shown numbered from 1 by the templates."""

from importlib import import_module

from django.conf import settings
from django.urls import reverse

from campaigns import selectors as campaigns
from games.application import selectors, watch
from games.application.identities import names_among_seat_lists, seat_label, seats_display
from games.kernel import RuleViolation, registry
from games.projections.models import MatchSummary
from games.tournaments import selectors as tournaments

from .wording import delay_words

LIST_LIMIT = 30
LIVE_LIMIT = 20  # rows of the "watch a live match" list (the most watched first)


def catalog() -> list:
    """Listed engines, plus the ones this deployment registered explicitly through
    KAMIZA_EXTRA_ENGINES (the e2e server registers the test-only Pebbles engine that way)."""
    engines = {e.slug: e for e in registry.all_engines()}
    for path in settings.KAMIZA_EXTRA_ENGINES:
        try:
            engine = registry.get(import_module(path).ENGINE.slug)
        except (ImportError, AttributeError, RuleViolation):
            continue
        engines.setdefault(engine.slug, engine)
    return sorted(engines.values(), key=lambda e: e.name.lower())


def game_name(slug: str) -> str:
    try:
        return registry.get(slug).name
    except RuleViolation:
        return slug


def _seats_words(seats: list[int]) -> str:
    """[0, 2] -> 'seats 1 and 3', [0, 2, 4] -> 'seats 1, 3 and 5' (seats count from 1 for people)."""
    numbers = [str(s + 1) for s in seats]
    return "seats " + (" and ".join(numbers) if len(numbers) < 3 else f"{', '.join(numbers[:-1])} and {numbers[-1]}")


TEAM_LETTERS = "ABCDEFGH"  # teams are lettered, so that "team A" is never taken for a seat number


def table_teams(game: str, options, seat_count: int) -> dict | None:
    """A team table's sides in a player's words, from the engine's own team rule (``teams``; Yokai and
    Yashima: team-mates sit across the table, 1+3 against 2+4): ``format`` ("2 against 2", "3 against
    3", "3 teams of 2"), ``sentence`` ("Seats 1 and 3 (team A) play together against seats 2 and 4
    (team B).") and ``team_of`` (each seat's team letter). None when every seat plays for itself (or
    the whole table plays together against the game)."""
    try:
        sides = registry.get(game).teams(dict(options or {}), seat_count)
    except RuleViolation:  # its game is no longer installed
        return None
    if not 2 <= len(sides) <= len(TEAM_LETTERS) or all(len(side) == 1 for side in sides):
        return None
    lettered = list(zip(TEAM_LETTERS, sides))
    team_of = [None] * seat_count
    for letter, side in lettered:
        for seat in side:
            if isinstance(seat, int) and 0 <= seat < seat_count:
                team_of[seat] = letter
    if len(sides) == 2:
        first, second = (f"{_seats_words(side)} (team {letter})" for letter, side in lettered)
        return {"format": f"{len(sides[0])} against {len(sides[1])}", "team_of": team_of,
                "sentence": f"S{first[1:]} play together against {second}."}
    sizes = {len(side) for side in sides}
    return {
        "format": f"{len(sides)} teams of {len(sides[0])}" if len(sizes) == 1 else " against ".join(str(len(x)) for x in sides),
        "team_of": team_of,
        "sentence": "Each team plays against the others: "
                    + ", ".join(f"team {letter} is {_seats_words(side)}" for letter, side in lettered) + ".",
    }


def _summary_row(summary: MatchSummary, user, names: dict) -> dict:
    seats = seats_display(summary.seats, names)
    teams = table_teams(summary.match.game, summary.match.options, len(seats))
    uid = user.pk if user.is_authenticated else None
    my_seat = next((i for i, s in enumerate(seats) if s and not s.get("bot") and s.get("user_id") == uid), None)
    return {
        "id": summary.match_id,
        "game": summary.match.game,
        "game_name": game_name(summary.match.game),
        "status": summary.status,
        "phase": summary.phase,
        "seq": summary.seq,  # for change detection (data-version) only, never shown
        "seats": [
            {"index": i, "label": seat_label(s), "team": teams["team_of"][i] if teams else None}
            for i, s in enumerate(seats)
        ],
        "teams": teams,  # a team table: its format and who partners whom, in words (else None)
        "filled": sum(1 for s in seats if s),
        "full": bool(seats) and all(seats),
        "my_seat": my_seat,
        "is_creator": uid is not None and summary.match.created_by_id == uid and my_seat is not None,
        "my_turn": my_seat is not None and my_seat in (summary.awaiting or []),
        "winners": [seats[w]["username"] for w in summary.winners or [] if isinstance(w, int) and w < len(seats) and seats[w]],
        "updated_at": summary.updated_at,
    }


def part_of(match_ids) -> dict[str, dict]:
    """{match_id: {"article", "name", "detail", "url"}} for the matches among ``match_ids`` that belong
    to a tournament (its table) or a campaign (one of its phases), so a player can tell them apart
    from casual matches and find the way back."""
    ids = [str(i) for i in match_ids]
    if not ids:
        return {}
    out = {
        match_id: {"article": "", "name": t["name"], "detail": f"round {t['round']}, table {t['table']}",
                   "url": reverse("frontend:tournament", args=[t["tournament_id"]])}
        for match_id, t in tournaments.tables_of_matches(ids).items()
    }
    for match_id, c in campaigns.phases_of_matches(ids).items():
        out[match_id] = {"article": "a ", "name": "campaign", "detail": f"chapter {c['chapter']}, {str(c['phase']).title()} Phase",
                         "url": reverse("frontend:campaign", args=[c["campaign_id"]])}
    return out


def summary_rows(summaries, user) -> list[dict]:
    summaries = list(summaries)
    names = names_among_seat_lists(s.seats for s in summaries)  # one lookup for the list
    rows = [_summary_row(s, user, names) for s in summaries]
    belongs = part_of(r["id"] for r in rows)
    for row in rows:
        row["part_of"] = belongs.get(str(row["id"]))
    return rows


def open_rows(user) -> list[dict]:
    return summary_rows(
        MatchSummary.objects.filter(status="open").select_related("match").order_by("-updated_at")[:LIST_LIMIT], user)


def version_of(rows: list[dict], *keys) -> str:
    """A list's change marker for the refreshing script (ids and the given fields)."""
    return ",".join(":".join(str(r[k]) for k in ("id", *keys)) for r in rows)


def delay_text(policy: watch.WatchPolicy) -> str:
    """'1 minute and 1 turn' - how far behind a fair-play policy shows a running match, in the words of
    the tournament and match pages (``wording.delay_words``)."""
    return delay_words(policy.delay_seconds, policy.delay_turns)


def live_rows(user, limit: int = LIVE_LIMIT) -> list[dict]:
    """The running matches, most watched first (then the latest moves): each row with ``watching``
    (spectators now, over every server), ``delay`` (a tournament's fair-play delay, in words, or
    "") and ``refused`` (the viewer plays in that match's tournament: no live view until it ends)."""
    recent = MatchSummary.objects.filter(status="active").select_related("match").order_by("-updated_at")
    rows = summary_rows(recent[:LIST_LIMIT * 2], user)
    ids = [r["id"] for r in rows]
    policies = watch.policies_of(ids) if ids else {}
    counts = selectors.spectator_counts(ids) if ids else {}
    uid = user.pk if user.is_authenticated else None
    for row in rows:
        key = str(row["id"])
        policy = policies.get(key)
        row["watching"] = counts.get(key, 0)
        row["refused"] = bool(policy and row["my_seat"] is None and uid is not None and uid in policy.barred)
        row["delay"] = delay_text(policy) if policy and policy.delayed and row["my_seat"] is None else ""
        row["players"] = [s["label"] for s in row["seats"] if s["label"]]
    rows.sort(key=lambda r: (-r["watching"], -r["updated_at"].timestamp()))
    return rows[:limit]
