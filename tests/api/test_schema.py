"""The OpenAPI schema is valid, and a schemathesis run over it finds no input that makes a 5xx."""

import io
import itertools

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.management import call_command
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from games.application import services

EXAMPLES = 25


def test_schema_validates_without_warnings():
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", stdout=out)
    text = out.getvalue()
    for path in ("/api/auth/register/", "/api/auth/token/", "/api/games/", "/api/games/{slug}/glossary/",
                 "/api/matches/{id}/commands/",
                 "/api/matches/{id}/events/", "/api/admin/matches/{id}/state/", "/api/auth/password/",
                 "/api/auth/password/reset/", "/api/auth/password/reset/confirm/", "/api/account/sessions/",
                 "/api/account/sessions/{id}/", "/api/account/tokens/", "/api/account/tokens/{id}/",
                 "/api/account/export/", "/api/account/delete/", "/api/tournaments/", "/api/tournaments/{id}/",
                 "/api/tournaments/{id}/register/", "/api/tournaments/invitations/",
                 "/api/tournaments/{id}/invitations/{invitation_id}/accept/", "/api/tournaments/{id}/pairings/",
                 "/api/tournaments/{id}/standings/", "/api/campaigns/", "/api/campaigns/{id}/",
                 "/api/campaigns/{id}/join/", "/api/campaigns/{id}/start/", "/api/campaigns/{id}/leave/",
                 "/api/campaigns/{id}/cancel/", "/api/matches/{id}/chat/",
                 "/api/matches/{id}/rematch/", "/api/matches/{id}/verify/", "/api/admin/matches/{id}/chat/",
                 "/api/admin/chat/{message_id}/hide/", "/api/matches/{id}/invitations/", "/api/invitations/",
                 "/api/invitations/join/", "/api/invitations/{id}/accept/", "/api/invitations/{id}/decline/",
                 "/api/invitations/{id}/revoke/", "/api/matches/{id}/resign/", "/api/matches/{id}/take-over/"):
        assert f'"{path}"' in text


@pytest.mark.django_db
def test_schema_and_docs_are_served(api):
    res = api.get("/api/schema/", {"format": "json"})
    assert res.status_code == 200 and res.json()["info"]["title"] == "Kamiza API"
    ops = [(p, m) for p, item in res.json()["paths"].items() for m in item]
    # platform (replay, glossary, resigning and taking over an absent player included), accounts, tournaments (16: the PATCH of settings and
    # delay, the cancel and the team invitations' list, accept and decline among them), reports and judging (the
    # staff's, and one tournament's list and resolve for its organizer), campaigns (8: leave and cancel among them),
    # ratings (2), chat, rematch and seed verification (5) with the staff's chat review and hiding (2),
    # invitations (6)
    assert len(ops) == 78
    assert all(
        "operationId" in res.json()["paths"][p][m] and res.json()["paths"][p][m]["responses"] for p, m in ops
    )
    assert api.get("/api/docs/").status_code == 200


@pytest.mark.django_db
def test_every_operation_with_a_body_documents_the_415_it_can_answer(api, make_user, client_for):
    """A body of a Content-Type no parser reads is 415 unsupported_media_type (the fuzzer found one
    undocumented on PATCH /api/auth/me/): every operation that takes a body says so."""
    paths = api.get("/api/schema/", {"format": "json"}).json()["paths"]
    with_body = [(p, m, op) for p, item in paths.items() for m, op in item.items() if "requestBody" in op]
    assert with_body and all("415" in op["responses"] for _, _, op in with_body)
    res = client_for(make_user()).generic("PATCH", "/api/auth/me/", b'{"display_name": "x"}', content_type="text/plain")
    assert res.status_code == 415 and res.json()["code"] == "unsupported_media_type"


@pytest.fixture
def api_schema(db):
    # Like Django's test client: a finished request must not close the test's DB connection.
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", WSGIHandler())
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def fuzz_world(db, make_user, started_pebbles):
    """A staff user (so staff endpoints are exercised too), an open match it created and a
    started match it plays in; the fuzzer's ``id`` path parameter cycles through them and random ids."""
    match, users = started_pebbles(options={"bonus_rolls": False})
    users[0].is_staff = True
    users[0].save()
    open_match = services.match_create(game="pebbles", seats=3, options={}, creator=users[0])
    return {"user": users[0], "ids": itertools.cycle([str(match.pk), str(open_match.pk), None])}


@pytest.mark.slow  # ~60 s on a busy machine
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_server_error(case, fuzz_world):
    if "id" in (case.path_parameters or {}):
        chosen = next(fuzz_world["ids"])
        if chosen is not None:
            case.path_parameters["id"] = chosen
    # logout deletes the token: take a fresh one for every example
    token = Token.objects.get_or_create(user=fuzz_world["user"])[0].key
    # beyond "no 5xx": every response (errors included) matches its documented status and schema
    case.call_and_validate(headers={"Authorization": f"Token {token}"},
                           checks=[not_a_server_error, status_code_conformance, response_schema_conformance])


@schema.parametrize()
@settings(max_examples=10, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_server_error_anonymously(case, fuzz_world):
    if "id" in (case.path_parameters or {}) and case.path_parameters["id"]:
        case.path_parameters["id"] = next(i for i in fuzz_world["ids"] if i)
    case.call_and_validate(checks=[not_a_server_error])
