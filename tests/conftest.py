"""Fixtures shared by the whole suite. The Pebbles test engine is registered for every test
(it is never in the production catalog: it lives under tests/, not games/engines/, and is unlisted)."""

import uuid

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.application import services
from games.kernel import registry
from tests.engines import counter, pebbles

registry.register(pebbles.ENGINE)
registry.register(counter.ENGINE)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # The production hasher costs ~0.3 s per user on this machine; tests create hundreds.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Rate-limit counters (login attempts, registration throttle) must not leak between tests.
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def make_user(django_user_model):
    counter = {"n": 0}

    def make(username=None, password="correct-horse-battery-9", **extra):
        counter["n"] += 1
        username = username or f"player{counter['n']}-{uuid.uuid4().hex[:6]}"
        return django_user_model.objects.create_user(username=username, password=password, **extra)

    return make


@pytest.fixture
def organizer(make_user):
    """A user in the organizers group (which may create and run tournaments)."""
    from django.contrib.auth.models import Group

    user = make_user()
    user.groups.add(Group.objects.get_or_create(name="organizers")[0])
    return user


@pytest.fixture
def started_pebbles(make_user):
    """A started 2-seat Pebbles match: (match, [user0, user1])."""

    def start(seats=2, options=None, bots=()):
        users = [make_user() for _ in range(seats)]
        match = services.match_create(game="pebbles", seats=seats, options=options or {}, creator=users[0])
        for i, user in enumerate(users[1:], start=1):
            if i in bots:
                services.match_add_bot(match_id=match.pk, user=users[0], seat=i)
            else:
                services.match_join(match_id=match.pk, user=user, seat=i)
        services.match_start(match_id=match.pk, user=users[0])
        match.refresh_from_db()
        return match, users

    return start


@pytest.fixture
def finished_pebbles(started_pebbles):
    """A finished 2-seat Pebbles match, played to the end by its two users: (match, [user0, user1])."""
    from games.application import selectors

    def finish():
        match, users = started_pebbles(options={"bonus_rolls": False, "target": 5})
        for _ in range(40):
            match.refresh_from_db()
            state = selectors.state_load(match)
            status = selectors.status_of(match, state)
            if status["finished"]:
                return match, users
            seat = status["awaiting"][0]
            legal = selectors.view_for_seat(match, seat, state)["legal_commands"][0]
            services.match_submit_command(match_id=match.pk, seat=seat, actor=services.Actor.user(users[seat]),
                                          command_id=uuid.uuid4(), expected_seq=match.head_seq,
                                          type_=legal["type"], args=legal.get("args") or {})
        raise AssertionError("the match did not finish")

    return finish


@pytest.fixture
def rates(settings):
    """``rates(scope="1/minute", ...)``: the DRF throttle rates of these scopes for this test."""
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                                   "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates}}
    return set_rates


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def client_for():
    """An APIClient authenticated with ``user``'s token."""

    def make(user):
        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
        return c

    return make


@pytest.fixture
def command():
    """A /commands/ request body."""

    def make(type_="pass", args=None, expected_seq=0, command_id=None):
        return {"command_id": str(command_id or uuid.uuid4()), "expected_seq": expected_seq, "type": type_,
                "args": {} if args is None else args}

    return make
