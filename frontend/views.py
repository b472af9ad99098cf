"""The web shell: server-rendered pages over the application layer (services + selectors only).

Lobby actions are plain HTML forms posting here (they work without JavaScript); the match page
is rendered once from the caller's seat view and then kept live by ``static/js/match.js`` over
the match socket. Everything a page shows comes from ``view_for_seat`` / ``events_for_seat``
for the viewer's own seat, so hidden information never reaches the browser.
"""

import re

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from accounts import throttles
from accounts.errors import EmailTaken
from accounts.services import user_authenticate, user_logout, user_register
from games.api.throttles import MatchCreateThrottle, MatchJoinThrottle, allow
from games.application import selectors, services, watch
from games.application.errors import MatchNotFound, PlatformError
from games.application.identities import seat_label
from games.application.lobby import OPEN, bot_seats
from games.kernel import RuleViolation, registry
from games.projections.models import MatchSummary
from games.projections.profiles import profile
from games.ratings import selectors as ratings
from games.ratings.errors import NotFound as RatingsNotFound
from games.tournaments import reports as tournament_reports
from games.tournaments import selectors as tournament_selectors

from .account_views import throttled_form
from .charts import rating_chart
from .forms import EMAIL_TAKEN, LoginForm, MatchCreateForm, SeatForm, SignUpForm
from .listings import LIST_LIMIT, catalog, game_name, live_rows, open_rows, part_of, summary_rows, table_teams, version_of
from .throttling import throttled_page, too_quick
from .wording import delay_words, form_refusal, refusal

LOG_TAIL = 200  # events rendered into the page; older ones are fetched over the socket on demand
_SLUG = re.compile(r"^[a-z0-9_-]{1,40}$")


# -- helpers ----------------------------------------------------------------------------------


def _next_or(request, fallback: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, {request.get_host()}, require_https=request.is_secure()):
        return target
    return fallback


def _do_login(request, username: str, password: str):
    """Rate-limited check (accounts.services), then a session login. Raises TooManyAttempts."""
    user = user_authenticate(request, username, password)
    if user is not None:
        login(request, user)
    return user


# -- accounts ---------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("frontend:home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST":
        # the API's registration rate (REGISTER_RATE), in the same per-address bucket (accounts.throttles)
        wait = throttles.page_wait(request, throttles.REGISTER)
        if wait is not None:
            form = throttled_form(SignUpForm, request, wait, fields=("username", "email"))
            response = render(request, "frontend/signup.html", {"form": form, "next": request.POST.get("next", "")},
                              status=429)
            response["Retry-After"] = str(wait)
            return response
    if request.method == "POST" and form.is_valid():
        try:
            user = user_register(username=form.cleaned_data["username"], password=form.cleaned_data["password1"],
                                 email=form.cleaned_data.get("email") or "")
        except ValidationError as err:  # a weak password, or the name taken a moment ago
            form.add_error(None if hasattr(err, "error_dict") else "password2", err)
        except EmailTaken:  # the address taken a moment ago (accounts.emails)
            form.add_error("email", EMAIL_TAKEN)
        if form.errors:
            return render(request, "frontend/signup.html", {"form": form, "next": request.POST.get("next", "")})
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.get_username()}.")
        return redirect(_next_or(request, reverse("frontend:home")))
    return render(request, "frontend/signup.html", {"form": form, "next": request.GET.get("next", "")})


@require_http_methods(["GET", "POST"])
def login_view(request):
    if request.user.is_authenticated:
        return redirect(_next_or(request, reverse("frontend:home")))
    form = LoginForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            user = _do_login(request, form.cleaned_data["username"], form.cleaned_data["password"])
        except (PlatformError, RuleViolation) as err:  # e.g. rate limited
            form_refusal(form, err)
            status = getattr(err, "status", 429)
        else:
            if user is not None:
                return redirect(_next_or(request, reverse("frontend:home")))
            form.add_error(None, "Wrong username or password.")
            status = 400
    return render(request, "frontend/login.html", {"form": form, "next": request.GET.get("next", "")}, status=status)


@require_POST
def logout_view(request):
    user_logout(request)
    return redirect("frontend:login")


# -- lobby -------------------------------------------------------------------------------------


def lobby(request, create_form=None):
    user = request.user
    open_matches = open_rows(user)
    open_version = version_of(open_matches, "seq")
    if request.GET.get("fragment") == "open":  # lobby.js refreshes the open-matches table with this
        return render(request, "frontend/_open_matches.html", {"open_matches": open_matches, "open_version": open_version})
    if request.GET.get("fragment") == "live":
        return live_fragment(request)
    active_rows, finished_rows = [], []
    if user.is_authenticated:
        mine = MatchSummary.objects.filter(players=user).select_related("match").order_by("-updated_at")
        active_rows = summary_rows(mine.filter(status="active")[:LIST_LIMIT], user)
        finished_rows = summary_rows(mine.filter(status__in=["finished", "abandoned"])[:LIST_LIMIT], user)
    if create_form is None:
        create_form = MatchCreateForm(games=catalog(), game=request.GET.get("game"))
    live = live_rows(user)
    return render(request, "frontend/lobby.html", {
        "open_matches": open_matches,
        "open_version": open_version,
        "live_matches": live,
        "live_version": version_of(live, "watching", "filled"),
        "active_matches": active_rows,
        "finished_matches": finished_rows,
        "create_form": create_form,
        "rated_games": ratings.rated_games(),
    }, status=400 if create_form.errors else 200)


def live_fragment(request):
    """The "watch a live match" list alone, for the refreshing script (home and lobby)."""
    live = live_rows(request.user)
    return render(request, "frontend/_live_matches.html",
                  {"live_matches": live, "live_version": version_of(live, "watching", "filled")})


@login_required
@require_POST
def match_create(request):
    form = MatchCreateForm(request.POST, games=catalog())
    if not form.is_valid():
        return lobby(request, create_form=form)
    wait = allow(MatchCreateThrottle, request)
    if wait is not None:
        return throttled_page(form, wait, "creating matches", lambda f: lobby(request, create_form=f))
    try:
        match = services.player_create(
            game=form.cleaned_data["game"], seats=form.cleaned_data["seats"],
            options=form.cleaned_data["options"], creator=request.user, rated=form.cleaned_data["rated"],
        )
    except (RuleViolation, PlatformError) as err:
        form_refusal(form, err)
        return lobby(request, create_form=form)
    return redirect("frontend:match", match_id=match.pk)


def _lobby_action(request, match_id, action):
    try:
        match = selectors.match_get(match_id)
    except MatchNotFound:
        raise Http404("no such match")
    seat_form = SeatForm(request.POST)
    seat = seat_form.cleaned_data.get("seat") if seat_form.is_valid() else None
    try:
        action(match, seat)
    except (RuleViolation, PlatformError) as err:
        refusal(request, err)
    return redirect(_next_or(request, reverse("frontend:match", kwargs={"match_id": match.pk})))


@login_required
@require_POST
def match_join(request, match_id):
    if too_quick(request, MatchJoinThrottle, "joining matches"):
        return redirect(_next_or(request, reverse("frontend:match", kwargs={"match_id": match_id})))
    return _lobby_action(request, match_id, lambda m, seat: services.player_join(match_id=m.pk, user=request.user, seat=seat))


@login_required
@require_POST
def match_leave(request, match_id):
    return _lobby_action(request, match_id, lambda m, seat: services.match_leave(match_id=m.pk, user=request.user))


@login_required
@require_POST
def match_take_over(request, match_id):
    """Take over an absent player's characters in a cooperative match (the page asks first;
    docs/platform.md, "An absent player"): refused with its reason until the match has waited a day."""
    def take(m, seat):
        if seat is None:
            raise RuleViolation("bad_seat", "name the seat to take over")
        services.match_take_over(match_id=m.pk, user=request.user, seat=seat)
    return _lobby_action(request, match_id, take)


@login_required
@require_POST
def match_resign(request, match_id):
    """Concede the running match (the page asks for a confirmation first): the other side wins."""
    return _lobby_action(request, match_id, lambda m, seat: services.match_resign(match_id=m.pk, user=request.user))


@login_required
@require_POST
def match_add_bot(request, match_id):
    return _lobby_action(request, match_id, lambda m, seat: services.match_add_bot(match_id=m.pk, user=request.user, seat=seat))


@login_required
@require_POST
def match_start(request, match_id):
    return _lobby_action(request, match_id, lambda m, seat: services.match_start(match_id=m.pk, user=request.user))


# -- the match page ------------------------------------------------------------------------------


def match_page(request, match_id):
    """Players see their seat's view; anyone else (signed in or not) spectates, as on the API."""
    try:
        match = selectors.match_get(match_id)
    except MatchNotFound:
        raise Http404("no such match")
    try:
        state = selectors.state_load(match)
    except RuleViolation:  # its game is no longer installed on this server
        raise Http404("this match's game is not available")
    try:
        viewer = selectors.viewer_of(match, request.user, state)
    except watch.LiveViewRefused:  # fair play: another running match of the viewer's tournament
        return render(request, "frontend/match_refused.html", {"game_name": game_name(match.game),
                                                               "part_of": part_of([match.pk]).get(str(match.pk))},
                      status=403)
    seat = viewer.seat
    doc = selectors.view_for_viewer(match, viewer, state)
    head = doc["seq"]  # a delayed spectator's head is the seq they may see
    log_from = max(0, head - LOG_TAIL)
    events = selectors.events_for_viewer(match, viewer, after=log_from, until=head)
    board = None
    if _SLUG.match(match.game) and finders.find(f"js/boards/{match.game}.js"):
        board = f"js/boards/{match.game}.js"
    boot = {
        "match_id": str(match.pk),
        "game": match.game,
        "game_name": game_name(match.game),
        "seat": seat,
        "user_id": request.user.pk if request.user.is_authenticated else None,
        "username": request.user.get_username() if request.user.is_authenticated else "",
        # the lobby's creator_id: a creator who left handed the rights on
        "is_creator": request.user.is_authenticated and state["lobby"].get("creator_id") == request.user.pk,
        "ws_path": f"/ws/matches/{match.pk}/",
        "api_base": f"/api/matches/{match.pk}/",
        "doc": doc,
        "events": events,
        "log_from": log_from,
    }
    teams = table_teams(match.game, match.options, match.seat_count)
    # each seat's team letter beside it in the seat list, as in the lobby ("· team A"); None when each plays for themself
    boot["team_of"] = teams["team_of"] if teams else None
    delay = None
    if viewer.until is not None:  # a spectator of a running tournament match: say why it is behind
        policy = watch.policy_of(match)
        delay = {"seconds": policy.delay_seconds, "turns": policy.delay_turns,
                 "words": delay_words(policy.delay_seconds, policy.delay_turns)} if policy else None
    # the page's badge says "Delayed 1 minute and 1 turn" instead of "Live", in the tournament page's words
    boot["spectator_delay"] = delay
    return render(request, "frontend/match.html", {
        "match": match,
        "part_of": part_of([match.pk]).get(str(match.pk)),
        "rated_words": rated_words(doc["match"]),
        "resign_confirm": resign_confirm(match, state, seat),
        "cooperative_resign": _cooperative_resign(match),
        "take_over": [{"seat": s, "name": (doc["match"]["seats"][s] or {}).get("username") or f"Seat {s + 1}"}
                      for s in doc.get("take_over") or []],  # the seats as shown (identities: names now)
        "paused_words": paused_words(doc["match"].get("clock_reason")),
        # a judge's ruling that replaced the result the game gave (the standings count the ruling)
        "judge_correction": correction_words(tournament_selectors.correction_of_match(match.pk))
        if doc["match"]["status"] == "finished" else None,
        "spectator_delay": delay,
        # a seat whose player resigned (or was taken over) while the others play on: no more turns to announce
        "seat_left": seat is not None and seat in (doc["match"].get("conceded") or []),
        # a player of a tournament match may report a moment of it to the judges (once it has begun)
        "can_report": state["lobby"]["status"] != OPEN and tournament_reports.can_report(match.pk, request.user),
        "game_name": boot["game_name"],
        "seat": seat,
        "doc": doc,
        "is_creator": boot["is_creator"],
        "board_script": board,
        "boot": boot,
    })


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def ordinal(place) -> str:
    return ORDINALS[place - 1] if isinstance(place, int) and 0 < place <= len(ORDINALS) else f"place {place}"


def correction_words(correction: dict | None) -> str | None:
    """'A judge corrected this result: alice first, carol second ("reason").' for a table's result a
    judge replaced (``tournaments.correction_of_match``), None when none did."""
    if not correction:
        return None
    places = ", ".join(f"{row['name']} {ordinal(row['place'])}" for row in correction["places"])
    reason = str(correction.get("reason") or "").strip()
    return f"A judge corrected this result: {places}" + (f" (“{reason}”)." if reason else ".")


# The one wording of a paused round (words.js ``PAUSED`` is its twin): the tournament page and the match
# page start their sentences with it.
PAUSED_SENTENCE = "The round is paused"


def paused_words(reason) -> str:
    """The banner while a tournament's organizer holds the match (match.js ``pausedWords`` says the same live)."""
    why = str(reason or "").strip()
    return f"{PAUSED_SENTENCE} by the organizer{': ' + why if why else ''}. Moves wait until it resumes; clocks are stopped."


def resign_confirm(match, state: dict, seat=None) -> str:
    """The Resign button's question: with two sides the others win at once (a team's resignation loses
    for all its seats); with more the game goes on without the player, said in the game's words when
    it has them (``EngineBase.resign_words``; docs/platform.md, "Resigning")."""
    game, seats = state["game"], len(state["lobby"]["seats"])
    engine = selectors.engine_of(match)
    if engine.cooperative and selectors.concedes(engine):
        return cooperative_resign_confirm(engine, state, seat)
    # before the start (a page opened in the lobby asks it once the match runs), by the match's options
    sides = engine.sides(game, seats) if game is not None else engine.teams(state["lobby"].get("options") or {}, seats)
    if len(sides) > 2:
        words = engine.resign_words or "You leave the game and the others play on without you"
        return f"Resign this match? {words}; this cannot be undone."
    if any(seat in side and len(side) > 1 for side in sides):
        return "Resign this match? Your team loses and the other team wins at once; this cannot be undone."
    return "Resign this match? Your opponents win at once; this cannot be undone."


def _cooperative_resign(match) -> bool:
    engine = selectors.engine_of(match)
    return engine.cooperative and selectors.concedes(engine)


def cooperative_resign_confirm(engine, state: dict, seat) -> str:
    """A cooperative game's Resign question: the player's characters pass to the first player left
    and the party plays on; the last player's leaving ends the match (docs/games/harakiri.md,
    "Resigning"; match.js ``cooperativeResignWords`` says the same once another player has left)."""
    heir = selectors.resign_heir(engine, state, seat) if state["game"] is not None else (1 if seat == 0 else 0)
    seats = selectors.seat_names(state["lobby"])  # as shown: the name now, or "deleted player"
    if heir is None or heir >= len(seats):
        return ("Resign this match? You are the last player at the table: the party fails and the match "
                "ends; this cannot be undone.")
    name = seats[heir] or f"Seat {heir + 1}"
    return f"Resign this match? Your characters pass to {name}; the party plays on without you. This cannot be undone."


def counts_for_ratings(match_doc: dict) -> bool:
    """The rated flag, and every seat a person: one bot makes the match unrated (docs/ratings.md)."""
    return bool(match_doc.get("rated")) and not bot_seats({"seats": match_doc.get("seats") or []})


def rated_words(match_doc: dict) -> str:
    """The status panel's "Rated" (match.js ``ratedWords`` says the same once the page is live)."""
    if not match_doc.get("rated"):
        return "no"
    if not counts_for_ratings(match_doc):
        return "no: a bot has a seat"
    return "yes (unless a bot takes a seat)" if match_doc.get("status") == "open" else "yes"


# -- ratings and profiles -----------------------------------------------------------------------------


LEADERBOARD_LIMIT = 100


def leaderboards(request):
    game = ratings.busiest_game()
    if game is None:
        raise Http404("no rated game is installed")
    return redirect("frontend:leaderboard", game=game)


def leaderboard(request, game):
    try:
        engine = ratings.rated_engine(game)
        rows = ratings.leaderboard(game, LEADERBOARD_LIMIT)
    except RatingsNotFound as err:
        if err.code != "game_not_rated":
            raise Http404("no leaderboard for this game")
        # a cooperative game (the API's game_not_rated): said in words, with the rated games' boards
        return render(request, "frontend/leaderboard_unrated.html", {
            "game": registry.get(game), "games": ratings.rated_games(),
        }, status=404)
    return render(request, "frontend/leaderboard.html", {
        "game": engine, "rows": rows, "games": ratings.rated_games(),
        "me": request.user.pk if request.user.is_authenticated else None,
    })


def profile_page(request, username):
    try:
        doc = profile(username)
    except RatingsNotFound:
        raise Http404("no such user")
    games = [
        {"slug": slug, "name": game_name(slug), **rating, "chart": rating_chart(rating["history"])}
        for slug, rating in doc["ratings"].items()
    ]
    recent = [
        {**m, "game_name": game_name(m["game"]), "counted": counts_for_ratings({"rated": m["rated"], "seats": m["seat_list"]}),
         "players": [seat_label(s) for s in m["seat_list"]],
         "delta": None if m["rating_after"] is None else m["rating_after"] - m["rating_before"]}
        for m in doc["recent_matches"]
    ]
    return render(request, "frontend/profile.html", {
        "username": doc["username"], "games": games, "recent": recent,
        "tournaments": [{**t, "game_name": game_name(t["game"])} for t in doc["tournaments"]],
    })
