"""Schemathesis against the project's own OpenAPI schema: every operation, with
generated paths, queries, headers and bodies, as an organizer and as anonymous. No
answer may be a server error, and every documented answer must match the schema.
Then again with requests that break the schema (negative mode): no server error, and
every refusal is JSON that names what is wrong.

The world is a published tournament with a played league, a seeded knockout, a
penalty and a built workbook, so that half of the cases name real objects (the other
half keep the generated ids, out-of-range numbers included). The number of examples
per operation is bounded (FUZZ_EXAMPLES, 12 by default), so the suite stays quick;
set it higher to search longer.
"""

import json
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from scoring.excel import services as excel_services
from scoring.models import ExportJob, Match, Penalty
from scoring.sheets import services as sheets_services
from tests.brackets.knockout import final_league
from tournament.models import Membership, Section, Team

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
SLUG = "fuzz-cup"


@pytest.fixture
def in_process():
    """The WSGI app on the test's own connection: Django closes connections at each
    request's start and end, which its test client turns off, and so do we here."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(db, in_process):
    tournament, organizer = final_league(2, 3, qualifiers=4, slug=SLUG)
    tournament.published = True
    tournament.save()
    services_ko = __import__("brackets.services", fromlist=["knockout_seed"])
    services_ko.knockout_seed(tournament=tournament, user=organizer)
    match = Match.objects.filter(tournament=tournament, stage="league").first()
    sheets_services.score_sheet_reopen(match_id=match.pk, user=organizer, reason="fuzz")
    sheets_services.score_sheet_penalty_record(
        match_id=match.pk,
        user=organizer,
        version=None,
        deal=1,
        offender="A",
        kind="out_of_turn",
        by_organizer=True,
    )
    job, _ = excel_services.export_request(tournament=tournament, user=organizer)
    return {
        "token": Token.objects.create(user=organizer).key,
        "ids": {
            "slug": SLUG,
            "matches": match.pk,
            "number": 1,
            "penalty": Penalty.objects.filter(deal__match=match).first().pk,
            "exports": ExportJob.objects.filter(tournament=tournament).first().pk,
            "members": Membership.objects.filter(tournament=tournament)
            .exclude(user=organizer)
            .values_list("pk", flat=True)
            .first()
            or job.pk,
            "sections": Section.objects.filter(tournament=tournament).first().pk,
            "teams": Team.objects.filter(tournament=tournament).first().pk,
            "rounds": 1,
        },
    }


def _schema():
    """The schema /api/v1/schema/ serves (drf-spectacular's generator, rendered as
    JSON), called on the WSGI application in-process."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    from tournament.config.wsgi import application

    generated = SchemaGenerator().get_schema(request=None, public=True)
    loaded = schemathesis.openapi.from_dict(
        json.loads(OpenApiJsonRenderer().render(generated))
    )
    loaded.app = application
    return loaded


schema = _schema()
schema.config.generation.update(modes=[GenerationMode.POSITIVE])


def _breakable_operations() -> set[tuple[str, str]]:
    """Operations with a query, a body, or a path parameter held to a pattern or a
    number (an id): something a request can break. The others (a slug is any text)
    have no negative case for schemathesis to make."""
    found = set()
    for result in schema.get_all_operations():
        operation = result.ok()
        patterned = any(
            "pattern" in p.definition.get("schema", {})
            or p.definition.get("schema", {}).get("type") == "integer"
            for p in operation.path_parameters
        )
        if patterned or len(operation.query) or operation.body.items:
            found.add((operation.method.lower(), operation.path))
    return found


BREAKABLE = _breakable_operations()


def _breakable(context) -> bool:
    return (context.operation.method.lower(), context.operation.path) in BREAKABLE


# The same operations with paths, queries and bodies that break the schema.
negative = _schema().include(_breakable)
negative.config.generation.update(modes=[GenerationMode.NEGATIVE])


def _real_ids(case, ids: dict) -> None:
    """Half the cases (by their generated values) name the world's objects."""
    params = case.path_parameters or {}
    if not params or hash(repr(sorted(params.items()))) % 2:
        return
    parts = case.path.strip("/").split("/")
    for name in params:
        owner = next(
            (parts[i - 1] for i, p in enumerate(parts) if p == "{" + name + "}"), ""
        )
        if name == "slug":
            params[name] = ids["slug"]
        elif name == "id" and owner in ids:
            params[name] = ids[owner]
        elif name in ids:
            params[name] = ids[name]


# Plain bodies, read as the schema describes them: the embedded default compresses
# every answer to a client that accepts gzip (docs/decisions.md, "Compression"), and
# the checks read the body as it comes.
PLAIN = {"Accept-Encoding": "identity"}

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
CHECKS = [not_a_server_error, response_schema_conformance]


@schema.parametrize()
@FUZZ
def test_the_api_as_an_organizer(case, world):
    _real_ids(case, world["ids"])
    response = case.call(headers={"Authorization": f"Token {world['token']}", **PLAIN})
    case.validate_response(response, checks=CHECKS)


@schema.parametrize()
@FUZZ
def test_the_api_as_anonymous(case, world):
    _real_ids(case, world["ids"])
    case.headers = {
        k: v for k, v in (case.headers or {}).items() if k != "Authorization"
    }
    response = case.call(headers=PLAIN)
    case.validate_response(response, checks=CHECKS)
    assert (
        response.status_code not in (200, 201, 202, 204)
        or case.method
        in (
            "GET",
            "HEAD",
            "OPTIONS",
        )
        or case.path in ("/api/v1/auth/token/",)
    ), f"anonymous {case.method} {case.formatted_path} answered {response.status_code}"


def _named_refusal(response) -> None:
    """A 4xx is a JSON object that names a field, or says what and why."""
    if response.status_code < 400:
        return
    kind = response.headers.get("Content-Type") or response.headers.get("content-type")
    kind = kind[0] if isinstance(kind, list) else kind
    assert kind and kind.startswith("application/json"), (response.status_code, kind)
    body = response.json()
    assert isinstance(body, dict) and body, body
    if "detail" in body:
        assert isinstance(body["detail"], str) and body["detail"].strip(), body


@negative.parametrize()
@FUZZ
def test_the_api_refuses_what_breaks_the_schema(case, world):
    _real_ids(case, world["ids"])
    response = case.call(headers={"Authorization": f"Token {world['token']}", **PLAIN})
    case.validate_response(response, checks=[not_a_server_error])
    _named_refusal(response)


@negative.parametrize()
@FUZZ
def test_the_api_refuses_what_breaks_the_schema_anonymous(case, world):
    _real_ids(case, world["ids"])
    case.headers = {
        k: v for k, v in (case.headers or {}).items() if k != "Authorization"
    }
    response = case.call(headers=PLAIN)
    case.validate_response(response, checks=[not_a_server_error])
    _named_refusal(response)
