"""The one exception handler: every error is JSON {code, message, extra?} with a stable code."""

import logging

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions as drf

from games.api.errors import exception_handler
from games.application.errors import CommandIdReused, LobbyError, MatchNotFound, NotYourDecision, VersionConflict
from games.kernel import RuleViolation


@pytest.mark.parametrize(
    "exc, status, code",
    [
        (drf.ValidationError({"seats": ["bad"]}), 400, "malformed"),
        (drf.ParseError(), 400, "malformed"),
        (drf.NotAuthenticated(), 401, "not_authenticated"),
        (drf.AuthenticationFailed(), 401, "authentication_failed"),
        (drf.PermissionDenied(), 403, "permission_denied"),
        (drf.NotFound(), 404, "not_found"),
        (drf.MethodNotAllowed("PUT"), 405, "method_not_allowed"),
        (drf.NotAcceptable(), 406, "not_acceptable"),
        (drf.UnsupportedMediaType("text/plain"), 415, "unsupported_media_type"),
        (drf.Throttled(wait=3), 429, "throttled"),
        (Http404(), 404, "not_found"),
        (DjangoPermissionDenied(), 403, "permission_denied"),
        (DjangoValidationError({"email": ["nope"]}), 400, "malformed"),
        (VersionConflict(7), 409, "version_conflict"),
        (NotYourDecision("no"), 403, "not_your_decision"),
        (CommandIdReused("again"), 422, "command_id_reused"),
        (MatchNotFound("gone"), 404, "not_found"),
        (LobbyError("seat_taken", "taken"), 409, "seat_taken"),
        (RuleViolation("not_your_turn", "wait", {"turn": 1}), 422, "not_your_turn"),
    ],
)
def test_mapping(exc, status, code):
    res = exception_handler(exc, {})
    assert res.status_code == status
    assert res.data["code"] == code and isinstance(res.data["message"], str) and res.data["message"]
    assert set(res.data) <= {"code", "message", "extra", "current_seq"}


def test_validation_error_puts_field_errors_in_extra():
    res = exception_handler(drf.ValidationError({"password": ["too short", "too common"]}), {})
    assert res.data["extra"] == {"password": ["too short", "too common"]}
    assert res.data["message"] == "password: too short"
    res = exception_handler(drf.ValidationError(["whole thing bad"]), {})
    assert res.data["extra"] == {"non_field_errors": ["whole thing bad"]}


def test_version_conflict_has_current_seq_in_extra_and_top_level():
    res = exception_handler(VersionConflict(12), {})
    assert res.data["extra"] == {"current_seq": 12} and res.data["current_seq"] == 12


def test_rule_violation_keeps_its_extra():
    res = exception_handler(RuleViolation("illegal_target", "no", {"target": "x"}), {})
    assert res.data == {"code": "illegal_target", "message": "no", "extra": {"target": "x"}}


def test_throttled_sets_retry_after():
    assert exception_handler(drf.Throttled(wait=5), {}).headers["Retry-After"] == "5"


def test_anything_else_is_logged_and_a_json_500(caplog):
    with caplog.at_level(logging.ERROR, logger="games.api.errors"):
        res = exception_handler(ZeroDivisionError("boom"), {})
    assert res.status_code == 500
    assert res.data == {"code": "server_error", "message": "internal server error"}
    assert "boom" not in str(res.data)
    assert any("unhandled" in r.getMessage() for r in caplog.records)


@pytest.mark.django_db
def test_absurdly_nested_json_is_400_malformed(api, make_user, client_for):
    c = client_for(make_user())
    body = "[" * 100_000 + "]" * 100_000
    res = c.post("/api/matches/", data=body, content_type="application/json")
    assert res.status_code == 400 and res.json()["code"] == "malformed"
    res = api.post("/api/auth/token/", data='{"username": ' + body + "}", content_type="application/json")
    assert res.status_code == 400 and res.json()["code"] == "malformed"


@pytest.mark.django_db
def test_missing_trailing_slash(api, make_user, client_for):
    res = api.get("/api/games", {"x": "1"})
    assert res.status_code == 301 and res["Location"] == "/api/games/?x=1"
    res = client_for(make_user()).post("/api/matches", {"game": "pebbles"}, format="json")
    assert res.status_code == 404 and res.json()["code"] == "not_found" and "/api/matches/" in res.json()["message"]


# A JSON body may escape a lone UTF-16 surrogate ("\ud800"), which no UTF-8 response can carry. DRF's
# choice fields repeat a refused value in their message: the refusal must stay a 400, never a 500.
@pytest.mark.django_db
@pytest.mark.parametrize("path, body", [
    ("/api/matches/{match}/chat/", '{"text": "hi", "channel": "\\ud800"}'),
    ("/api/tournaments/", '{"name": "Cup", "game": "\\ud800", "format": "\\udfff", "table_size": 2}'),
    ("/api/campaigns/", '{"game": "\\ud800", "act": 1, "seats": 2}'),
])
def test_a_refused_lone_surrogate_is_a_400_with_a_readable_message(path, body, started_pebbles, make_user, client_for):
    match, _ = started_pebbles()
    res = client_for(make_user()).post(path.format(match=match.pk), data=body, content_type="application/json")
    assert res.status_code in (400, 403), res.content
    doc = res.json()
    assert doc["code"] in ("malformed", "permission_denied") and doc["message"], doc
    if res.status_code == 400:
        assert "\ufffd" in res.content.decode(), "the refused value is shown, replaced by U+FFFD"


def test_every_error_body_is_encodable():
    res = exception_handler(RuleViolation("bad_options", "unknown kami '\ud800'", {"kami": ["\udc00", "ok"]}), {})
    assert res.data == {"code": "bad_options", "message": "unknown kami '\ufffd'", "extra": {"kami": ["\ufffd", "ok"]}}
