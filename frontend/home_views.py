"""The home page (the three games, each with a short how-to-play, started in two clicks; the live
matches to watch) and each game's rules page (its guide and its whole rules glossary)."""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games.api.throttles import MatchCreateThrottle
from games.application import services
from games.application.errors import PlatformError
from games.kernel import RuleViolation, registry
from games.projections.models import MatchSummary

from . import views
from .forms import players_text
from .listings import catalog, live_rows, version_of
from .throttling import too_quick
from .wording import refusal

MODES = ("bot", "open")


def anchor(ref: str) -> str:
    """The rules page's element id of a glossary group ("keyword") or entry ("keyword:KINDLE")."""
    return re.sub(r"[^A-Za-z0-9_-]", lambda m: "plus" if m.group() == "+" else "_", ref.replace(":", "-"))


def _ref_link(slug: str, glossary: dict, ref: str) -> dict:
    if ref in glossary["entries"]:
        label = glossary["entries"][ref]["term"]
    else:
        label = glossary["groups"][ref]
    return {"href": f"{reverse('frontend:game-rules', args=[slug])}#{anchor(ref)}", "label": label}


def _guide(engine) -> tuple[dict, dict | None]:
    glossary = engine.glossary()
    guide = glossary.get("guide")
    if not guide:
        return glossary, None
    steps = [{**step, "links": [_ref_link(engine.slug, glossary, ref) for ref in step.get("see", [])]}
             for step in guide["steps"]]
    return glossary, {"summary": guide["summary"], "steps": steps}


def _quick_starts(engine) -> dict:
    """The two one-click starts of a game: against bots (solo for a cooperative game that one
    person can play) and an open table for others to join."""
    solo = engine.cooperative and engine.min_seats == 1
    bot_seats = engine.min_seats if solo else max(engine.min_seats, min(2, engine.max_seats))
    open_seats = max(engine.min_seats, min(2, engine.max_seats))
    return {
        "bot": {"seats": bot_seats, "label": "Play solo" if solo else "Play against a bot",
                "hint": "You play the whole party." if solo else "A bot takes the other seat; the match starts at once."},
        "open": {"seats": open_seats, "label": f"Open a table for {open_seats}",
                 "hint": "Others join from the lobby; you can add bots, then start."},
    }


def _card(engine) -> dict:
    _, guide = _guide(engine)
    return {
        "slug": engine.slug,
        "name": engine.name,
        "players": players_text(engine) + (", cooperative" if engine.cooperative else ""),
        "guide": guide,
        "quick": _quick_starts(engine),
    }


def home(request):
    fragment = request.GET.get("fragment")
    if fragment == "open":  # the lobby used to live here: its refreshing script still works
        return views.lobby(request)
    if fragment == "live":
        return views.live_fragment(request)
    user = request.user
    live = live_rows(user)
    my_turns = 0
    if user.is_authenticated:
        mine = MatchSummary.objects.filter(players=user, status="active").only("seats", "awaiting")
        for summary in mine:
            seat = next((i for i, s in enumerate(summary.seats or []) if s and not s.get("bot")
                         and s.get("user_id") == user.pk), None)
            my_turns += seat is not None and seat in (summary.awaiting or [])
    return render(request, "frontend/home.html", {
        "games": [_card(e) for e in registry.all_engines()],
        "live_matches": live,
        "live_version": version_of(live, "watching", "filled"),
        "my_turns": my_turns,
        "open_tables": MatchSummary.objects.filter(status="open").count(),
    })


def game_rules(request, slug):
    engine = next((e for e in catalog() if e.slug == slug), None)
    if engine is None:
        raise Http404("no such game")
    glossary, guide = _guide(engine)
    groups = []
    for group, title in glossary["groups"].items():
        entries = [{**entry, "id": anchor(key)} for key, entry in glossary["entries"].items() if entry["group"] == group]
        groups.append({"key": group, "id": anchor(group), "title": title, "entries": entries})
    return render(request, "frontend/rules.html", {
        "game": _card(engine), "guide": guide, "groups": groups, "provisional": glossary.get("provisional", False),
    })


@login_required
@require_POST
def match_quick(request):
    """Two clicks from the home page: "Play against a bot" creates the match, gives every other
    seat to a bot and starts it; "Open a table" creates an open match. Either lands on the table."""
    engine = next((e for e in catalog() if e.slug == request.POST.get("game")), None)
    mode = request.POST.get("mode")
    if engine is None or mode not in MODES:
        messages.error(request, "Choose a game and how to play it.")
        return redirect("frontend:home")
    if too_quick(request, MatchCreateThrottle, "creating matches"):
        return redirect("frontend:home")
    seats = _quick_starts(engine)[mode]["seats"]
    try:
        if mode == "bot":
            match = services.match_create_with_bots(game=engine.slug, seats=seats, options={}, creator=request.user)
        else:
            match = services.player_create(game=engine.slug, seats=seats, options={}, creator=request.user)
    except (RuleViolation, PlatformError) as err:
        refusal(request, err)
        return redirect("frontend:home")
    return redirect("frontend:match", match_id=match.pk)


@require_http_methods(["GET", "HEAD"])
def favicon(request):
    """Browsers ask for /favicon.ico on pages that name no icon (the API's JSON, the schema): the site's icon."""
    return redirect(static("img/kamiza.svg"), permanent=True)
