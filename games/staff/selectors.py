"""Staff reads: the unredacted log, the folded state at any seq, and every seat's view there.

Staff pages are the one place hidden information is shown (docs/architecture.md, "Redaction");
the views record a StaffAccess row for each read.
"""

from collections import defaultdict

from django.contrib.auth import get_user_model

from games.application import chat, selectors
from games.application.lobby import ACTIVE, PLATFORM_EVENTS
from games.eventstore import store
from games.eventstore.models import EventAnnotation, Match
from games.kernel import RuleViolation
from games.projections.models import MatchSummary
from games.kernel.digits import ascii_int
from games.tournaments.reports import reports_for_match

from . import diff, logfile, words


def events_unredacted(match: Match, *, until: int | None = None) -> list[dict]:
    """The stored events, upcast when the match's engine is installed (as stored otherwise:
    staff must still be able to read the log of a match whose engine is gone)."""
    return selectors.events_unredacted(match, until=until, strict=False)


def annotations_by_seq(match: Match) -> dict[int, list[EventAnnotation]]:
    out = defaultdict(list)
    for note in EventAnnotation.objects.filter(match=match).select_related("author").order_by("seq", "at"):
        out[note.seq].append(note)
    return dict(out)


def commands_by_first_seq(match: Match) -> dict[int, dict]:
    """The command each event run came from, as asked (its args may hold a seat's secret choice:
    staff pages only), keyed by the seq of its first event. Commands recorded before they were
    kept with their rows show without a body."""
    out = {}
    for command in store.commands_load(match):
        body = command.body
        out[command.first_seq] = {
            "kind": body.kind if body else None, "type": body.type if body else None,
            "args": body.args if body else None, "expected_seq": body.expected_seq if body else None,
            "seat": command.seat, "last_seq": command.last_seq,
        }
    return out


def clamp_seq(match: Match, raw) -> tuple[int, str | None]:
    """The seq to show for a ``?at=`` value (default: the head), and a note if it was adjusted."""
    head = match.head_seq
    if raw in (None, ""):
        return head, None
    try:
        at = int(str(raw).strip())
    except ValueError:
        return head, f"at={raw!r} is not a sequence number; showing the head ({head})"
    if at < 1:
        return min(1, head), f"at={at} is before the first event; showing seq {min(1, head)}"
    if at > head:
        return head, f"at={at} is past the head; showing the head ({head})"
    return at, None


def seat_views(match: Match, state: dict, status: dict) -> list[dict]:
    """Every seat's view and legal commands at ``state`` (and the spectator's view, seat None).

    Legal commands follow the player-facing rule in ``selectors.view_for_seat``: offered only to
    an awaited seat of an active match.
    """
    engine = selectors.engine_of(match)
    lobby = state["lobby"]
    out = []
    for seat in [*range(len(lobby["seats"])), None]:
        view, legal, error = None, [], None
        if state["game"] is not None:
            try:
                view = engine.view_for(state["game"], seat)
                if lobby["status"] == ACTIVE and seat is not None and seat in status["awaiting"]:
                    legal = engine.legal_commands(state["game"], seat)
            except Exception as exc:  # staff must still see the log when an engine's view is broken
                error = f"{type(exc).__name__}: {exc}"
        occupant = lobby["seats"][seat] if seat is not None else None
        out.append({
            "seat": seat,
            "label": "spectator" if seat is None else f"seat {seat + 1}",  # as the players number them
            "occupant": occupant,
            "awaited": seat is not None and seat in status["awaiting"],
            "view": view,
            "legal_commands": legal,
            "error": error,
        })
    return out


def event_seat(ev: dict):
    """The seat an event is by or about: its actor's seat, else its payload's ``seat`` (None if neither)."""
    seat = (ev.get("actor") or {}).get("seat")
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    payload = ev.get("payload")
    seat = payload.get("seat") if isinstance(payload, dict) else None
    return seat if isinstance(seat, int) and not isinstance(seat, bool) else None


def event_text(engine, ev: dict, names, facts=None) -> str:
    """One event in words, unredacted (staff see every hidden fact): the engine's ``describe`` of the
    stored payload (with the public ``facts``, ``selectors.narration_facts``), the lobby's sentences
    for platform events; ``""`` for bookkeeping, or when the engine is gone or cannot read the payload
    (the raw event is still shown)."""
    if ev["type"] in PLATFORM_EVENTS:
        return selectors.platform_text(ev["type"], ev["payload"] or {})
    if engine is None:
        return ""
    try:
        return selectors.describe(engine, {"type": ev["type"], "v": ev["v"], "payload": ev["payload"]}, None, names, facts)
    except Exception:  # a payload the engine no longer reads: staff still get the raw event
        return ""


def open_view(match: Match, state: dict) -> tuple[dict | None, str | None]:
    """The engine's unredacted drawing of ``state`` (every hand face up, ``engine.view_open``), or
    None when the engine has none; and the error if it failed."""
    try:
        return selectors.engine_of(match).view_open(state["game"]), None
    except Exception as exc:  # staff must still see the seats' boards and the log
        return None, f"{type(exc).__name__}: {exc}"


def board_docs(match: Match, state: dict, status: dict, views: list[dict], at: int) -> list[dict]:
    """The board renderer's documents at seq ``at``: first, when the engine draws one, the board with
    all hands open (``key`` "open": every seat's hidden information, unredacted), then one per seat
    and the spectator's (seat None), each as that seat saw it. The ``/view/`` shape with no legal
    commands (the staff board only shows)."""
    lobby = selectors.lobby_public(state["lobby"], match)

    def doc(seat, view, **extra):
        return {"seq": at, "seat": seat, "status": status, "deadline": None, "match": lobby, "view": view,
                "legal_commands": [], **extra}

    boards = []
    opened, _ = open_view(match, state)
    if opened is not None:
        boards.append({"key": "open", "label": "all hands open", "occupant": None, "doc": doc(None, opened, open=True)})
    boards += [{"key": "spectator" if sv["seat"] is None else str(sv["seat"]), "label": sv["label"],
                "occupant": (sv["occupant"] or {}).get("username"), "doc": doc(sv["seat"], sv["view"])}
               for sv in views if sv["error"] is None]
    return boards


def state_change(match: Match, state: dict | None, at: int) -> dict:
    """What the event at ``at`` changed: the diff of the folded states at ``at - 1`` and ``at``."""
    if state is None:
        return {"lines": [], "cut": False, "error": None}
    try:
        before = selectors.state_load(match, until=at - 1) if at > 1 else None
    except Exception as exc:
        return {"lines": [], "cut": False, "error": f"{type(exc).__name__}: {exc}"}
    lines, cut = diff.changes(before, state)
    return {"lines": lines, "cut": cut, "error": None}


def parse_filters(query) -> dict:
    """The timeline filters of a query: ``seat`` (a seat number, "" for any) and ``type`` (repeatable);
    ``error`` says why a seat that is not a number (0-9 digits only) was set aside (the page is then a 400)."""
    raw = str(query.get("seat", "")).strip()
    seat = ascii_int(raw)
    error = f"seat={raw[:20]!r} is not a seat number; showing every seat" if raw and seat is None else None
    types = [t for t in query.getlist("type") if t][:50] if hasattr(query, "getlist") else []
    return {"seat": seat, "types": types, "error": error}


def match_review(match: Match, at: int, *, filters: dict | None = None, report_id=None) -> dict:
    """Everything the staff match page shows at seq ``at``: the board documents of every seat, the
    history in words (filtered by seat and type), what the event at ``at`` changed, the annotations and
    players' reports pinned at their seqs, and the raw state, views and payloads."""
    filters = filters or {"seat": None, "types": []}
    events = events_unredacted(match)
    try:
        engine = selectors.engine_of(match)
    except RuleViolation:
        engine = None
    state, status, views, fold_error = None, None, [], None
    if at >= 1:
        try:
            state = selectors.state_load(match, until=at)
            status = selectors.status_of(match, state)
            views = seat_views(match, state, status)
        except Exception as exc:  # a stream that no longer folds is exactly what staff need to see
            fold_error = f"{type(exc).__name__}: {exc}"
    try:
        head = selectors.state_load(match)
        names = selectors.seat_names(head["lobby"])
        facts = selectors.narration_facts(engine, head) if engine is not None else None
        players = players_line(engine, match, head, names)
    except Exception:
        names, facts, players = (), None, ""
    notes = annotations_by_seq(match)
    reports = reports_for_match(match.pk)
    pinned = defaultdict(list)
    for report in reports:
        pinned[report["seq"]].append(report)
    asked = commands_by_first_seq(match)
    timeline = [{**ev, "annotations": notes.get(ev["seq"], []), "reports": pinned.get(ev["seq"], []),
                 "text": event_text(engine, ev, names, facts), "seat": event_seat(ev), "command": asked.get(ev["seq"])}
                for ev in events]
    shown = [ev for ev in timeline
             if (filters["seat"] is None or ev["seat"] == filters["seat"])
             and (not filters["types"] or ev["type"] in filters["types"])]
    opened = next((r for r in reports if str(r["id"]) == str(report_id)), None) if report_id else None
    for ev in shown:  # no sentence from the engine: a short line of our own, so no row reads blank
        ev["quiet"] = "" if ev["text"] else words.quiet_sentence(ev, names)
    pinned_seqs = {at} | set(notes) | set(pinned)
    users = usernames(words.actor_user_ids(ev["actor"] for ev in timeline))
    return {
        "match": match,
        "summary": MatchSummary.objects.filter(match=match).first(),
        "at": at,
        "head": match.head_seq,
        "prev": at - 1 if at > 1 else None,
        "next": at + 1 if at < match.head_seq else None,
        "event_at": next((ev for ev in timeline if ev["seq"] == at), None),
        "state": state,
        "status": status,
        "seat_views": views,
        "boards": board_docs(match, state, status, views, at) if state is not None and state["game"] is not None else [],
        "change": state_change(match, state, at),
        "fold_error": fold_error,
        "timeline": shown,
        "rows": words.fold_quiet_runs(shown, pinned_seqs),
        "who": {"names": list(names), "users": users},
        "filtered": len(shown) != len(timeline),
        "filters": filters,
        "event_types": sorted({ev["type"] for ev in timeline}),
        "seats": list(range(match.seat_count)),
        "names": list(names),
        "game_name": engine.name if engine is not None else match.game,
        "players": players,
        "reports": reports,
        "opened_report": opened,
        "orphan_notes": [n for seq, ns in notes.items() if seq > match.head_seq for n in ns],
        "chat": chat.chat_for_staff(match),
    }


def players_line(engine, match: Match, head: dict, names) -> str:
    """Who plays with whom, for the page's header: the running game's sides (before the start, those
    the options make), or a cooperative game's party."""
    seats = match.seat_count
    if engine is None:
        return words.sides_words([[seat] for seat in range(seats)], names)
    if engine.cooperative:
        return words.sides_words([list(range(seats))], names, together=True)
    game = head["game"]
    sides = engine.sides(game, seats) if game is not None else engine.teams(head["lobby"].get("options") or {}, seats)
    return words.sides_words(sides, names)


def usernames(user_ids) -> dict:
    """``{user id: username}`` for these ids, in one query (accounts that are gone are left out)."""
    if not user_ids:
        return {}
    return dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))


def log_header(match: Match) -> dict:
    try:
        state = selectors.state_load(match)
    except Exception:  # an unknown engine or a stream that no longer folds: still downloadable
        state = None
    header = {
        "id": str(match.pk),
        "game": match.game,
        "engine_version": match.engine_version,
        "seat_count": match.seat_count,
        "options": match.options,
        "seed_hash": match.seed_hash,
        "created_at": match.created_at.isoformat(),
        "head_seq": match.head_seq,
    }
    if state and state["lobby"].get("seed"):  # revealed by MatchFinished / MatchAbandoned
        header["seed"] = state["lobby"]["seed"]
    return header


def log_export(match: Match):
    """The match's log file, line by line (see ``logfile``)."""
    return logfile.log_lines(log_header(match), events_unredacted(match, until=match.head_seq))


def recent_matches(limit: int = 50, query: str = ""):
    qs = Match.objects.select_related("summary", "created_by").order_by("-created_at")
    if query:
        qs = qs.filter(summary__players__username__icontains=query).distinct()
    return list(qs[:limit])
