"""The schema as a client generator reads it (docs/api.md, issue 40): one media type
per request body, operation ids named for what they do, every error an operation
gives in the one error shape, the headers a client sends and reads, no default in a
PATCH body; and the server keeping to it (415 for another media type, 403 and 409 in
the one shape)."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

from tests.conftest import as_user
from tournament.web.schema import Schema

pytestmark = pytest.mark.django_db
METHODS = ("get", "post", "put", "patch", "delete")
WRITES = ("post", "put", "patch", "delete")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
UPLOADS = {"team_import", "score_sheets_import"}
# The operation ids released (all of them in 0.4.0), by the operation each names: a
# client generated then calls these, so none is renamed or moved. A new operation
# names its own on its view, and needs no row here.
RELEASED_IDS = {
    "token_create": "POST /api/v1/auth/token/",
    "token_delete": "DELETE /api/v1/auth/token/",
    "export_get": "GET /api/v1/exports/{id}/",
    "export_download": "GET /api/v1/exports/{id}/export.xlsx",
    "health_get": "GET /api/v1/health/",
    "match_get": "GET /api/v1/matches/{id}/",
    "match_delete": "DELETE /api/v1/matches/{id}/",
    "match_confirm": "POST /api/v1/matches/{id}/confirm/",
    "deal_create": "POST /api/v1/matches/{id}/deals/",
    "deal_update": "PUT /api/v1/matches/{id}/deals/{number}/",
    "deal_delete": "DELETE /api/v1/matches/{id}/deals/{number}/",
    "dispute_list": "GET /api/v1/matches/{id}/disputes/",
    "dispute_create": "POST /api/v1/matches/{id}/disputes/",
    "dispute_rule": "POST /api/v1/matches/{id}/disputes/{dispute}/rule/",
    "match_forfeit": "POST /api/v1/matches/{id}/forfeit/",
    "match_history_list": "GET /api/v1/matches/{id}/history/",
    "penalty_create": "POST /api/v1/matches/{id}/penalties/",
    "penalty_delete": "DELETE /api/v1/matches/{id}/penalties/{penalty}/",
    "match_reopen": "POST /api/v1/matches/{id}/reopen/",
    "match_sheet_download": "GET /api/v1/matches/{id}/sheet.xlsx",
    "toss_create": "POST /api/v1/matches/{id}/toss/",
    "toss_delete": "DELETE /api/v1/matches/{id}/toss/",
    "person_list": "GET /api/v1/people/",
    "person_get": "GET /api/v1/people/{id}/",
    "person_update": "PATCH /api/v1/people/{id}/",
    "person_merge": "POST /api/v1/people/{id}/merge/",
    "person_split": "POST /api/v1/people/{id}/split/",
    "namesake_suggestion_list": "GET /api/v1/people/suggestions/",
    "namesake_suggestion_accept": "POST /api/v1/people/suggestions/{id}/accept/",
    "namesake_suggestion_dismiss": "POST /api/v1/people/suggestions/{id}/dismiss/",
    "rating_list": "GET /api/v1/ratings/",
    "season_list": "GET /api/v1/seasons/",
    "season_create": "POST /api/v1/seasons/",
    "season_get": "GET /api/v1/seasons/{slug}/",
    "season_update": "PATCH /api/v1/seasons/{slug}/",
    "season_standings_get": "GET /api/v1/seasons/{slug}/standings/",
    "season_workbook_download": "GET /api/v1/seasons/{slug}/standings.xlsx",
    "site_invitation_list": "GET /api/v1/site/invitations/",
    "site_invitation_create": "POST /api/v1/site/invitations/",
    "site_invitation_delete": "DELETE /api/v1/site/invitations/{id}/",
    "site_role_list": "GET /api/v1/site/roles/",
    "site_role_delete": "DELETE /api/v1/site/roles/{id}/",
    "tournament_list": "GET /api/v1/tournaments/",
    "tournament_create": "POST /api/v1/tournaments/",
    "tournament_get": "GET /api/v1/tournaments/{slug}/",
    "tournament_update": "PATCH /api/v1/tournaments/{slug}/",
    "bracket_get": "GET /api/v1/tournaments/{slug}/bracket/",
    "draw_get": "GET /api/v1/tournaments/{slug}/draw/",
    "draw_create": "POST /api/v1/tournaments/{slug}/draw/",
    "workbook_download": "GET /api/v1/tournaments/{slug}/export.xlsx",
    "export_list": "GET /api/v1/tournaments/{slug}/exports/",
    "export_create": "POST /api/v1/tournaments/{slug}/exports/",
    "knockout_seed": "POST /api/v1/tournaments/{slug}/knockout/",
    "link_list": "GET /api/v1/tournaments/{slug}/links/",
    "link_renew": "POST /api/v1/tournaments/{slug}/links/renew/",
    "match_list": "GET /api/v1/tournaments/{slug}/matches/",
    "match_create": "POST /api/v1/tournaments/{slug}/matches/",
    "member_list": "GET /api/v1/tournaments/{slug}/members/",
    "member_create": "POST /api/v1/tournaments/{slug}/members/",
    "member_delete": "DELETE /api/v1/tournaments/{slug}/members/{id}/",
    "round_list": "GET /api/v1/tournaments/{slug}/rounds/",
    "round_release": "POST /api/v1/tournaments/{slug}/rounds/{number}/release/",
    "round_sheets_download": "GET /api/v1/tournaments/{slug}/score-sheets.xlsx",
    "score_sheets_import": "POST /api/v1/tournaments/{slug}/score-sheets/import/",
    "section_list": "GET /api/v1/tournaments/{slug}/sections/",
    "section_create": "POST /api/v1/tournaments/{slug}/sections/",
    "section_get": "GET /api/v1/tournaments/{slug}/sections/{id}/",
    "section_update": "PATCH /api/v1/tournaments/{slug}/sections/{id}/",
    "section_delete": "DELETE /api/v1/tournaments/{slug}/sections/{id}/",
    "standings_get": "GET /api/v1/tournaments/{slug}/standings/",
    "standings_lots_draw": "POST /api/v1/tournaments/{slug}/standings/lots/",
    "statistics_get": "GET /api/v1/tournaments/{slug}/statistics/",
    "team_list": "GET /api/v1/tournaments/{slug}/teams/",
    "team_create": "POST /api/v1/tournaments/{slug}/teams/",
    "team_get": "GET /api/v1/tournaments/{slug}/teams/{id}/",
    "team_update": "PATCH /api/v1/tournaments/{slug}/teams/{id}/",
    "team_delete": "DELETE /api/v1/tournaments/{slug}/teams/{id}/",
    "team_check_in": "POST /api/v1/tournaments/{slug}/teams/{id}/check-in/",
    "team_check_in_undo": "DELETE /api/v1/tournaments/{slug}/teams/{id}/check-in/",
    "substitution_list": "GET /api/v1/tournaments/{slug}/teams/{id}/substitutions/",
    "substitution_create": "POST /api/v1/tournaments/{slug}/teams/{id}/substitutions/",
    "team_withdraw": "POST /api/v1/tournaments/{slug}/teams/{id}/withdraw/",
    "team_import": "POST /api/v1/tournaments/{slug}/teams/import/",
    "team_template_download": (
        "GET /api/v1/tournaments/{slug}/teams/import/template.xlsx"
    ),
}


@pytest.fixture
def schema(api):
    response = api.get(
        "/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    assert response.status_code == 200
    return response.json()


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def resolve(schema, node):
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[-1]]
    return node


def defaults_in(schema, node, seen=()) -> list[str]:
    """Every `default` inside a schema, through its references."""
    if isinstance(node, list):
        return [d for item in node for d in defaults_in(schema, item, seen)]
    if not isinstance(node, dict):
        return []
    ref = node.get("$ref")
    if ref:
        return (
            []
            if ref in seen
            else defaults_in(schema, resolve(schema, node), (*seen, ref))
        )
    found = ["default"] if "default" in node else []
    for key, value in node.items():
        if key in ("properties", "patternProperties"):
            found += [d for v in value.values() for d in defaults_in(schema, v, seen)]
        elif key in ("items", "additionalProperties", "allOf", "anyOf", "oneOf"):
            found += defaults_in(schema, value, seen)
    return found


def test_the_schema_validates_and_names_an_importable_package(schema):
    validate_schema(schema)
    # openapi-python-client names the package after the title: fiftysix_api_client.
    assert schema["info"]["title"] == "Fiftysix API"


def test_one_media_type_per_body_json_but_uploads(schema):
    bodies = 0
    for _, method, operation in operations(schema):
        body = operation.get("requestBody")
        if body is None:
            continue
        bodies += 1
        expected = (
            "multipart/form-data"
            if operation["operationId"] in UPLOADS
            else "application/json"
        )
        assert list(body["content"]) == [expected], (method, operation["operationId"])
    assert bodies >= 26


def test_every_view_names_its_operation_ids(monkeypatch):
    # Schema.get_operation_id is reached only where a view's method names no
    # operation_id (extend_schema(operation_id=…) beside it): record who.
    unnamed = []

    def fallback(schema):
        unnamed.append(f"{type(schema.view).__name__}.{schema.method.lower()}")
        return f"unnamed_{len(unnamed)}"

    monkeypatch.setattr(Schema, "get_operation_id", fallback)
    generated = SchemaGenerator().get_schema(request=None, public=True)
    assert unnamed == []
    assert len(list(operations(generated))) >= len(RELEASED_IDS)


def test_operation_ids_are_kept_unique_and_named_for_what_they_do(schema):
    seen = {}
    for path, method, operation in operations(schema):
        name = operation["operationId"]
        assert name not in seen, (name, seen.get(name), path)
        seen[name] = f"{method.upper()} {path}"
        # drf-spectacular's own would be the path's words and a verb of its own.
        assert not name.endswith(("_retrieve", "_destroy", "_partial_update")), name
        assert not name.startswith(("tournaments_", "matches_", "auth_", "exports_"))
    # A client generated from a released schema keeps working: no id renamed or moved.
    for name, where in RELEASED_IDS.items():
        assert seen.get(name) == where, (name, where, seen.get(name))
    assert {"deal_create", "standings_get", "token_create", "tournament_update"} <= set(
        seen
    )


def test_no_patch_body_carries_a_default(schema):
    patches = 0
    for _, method, operation in operations(schema):
        if method != "patch":
            continue
        patches += 1
        for media in operation["requestBody"]["content"].values():
            assert defaults_in(schema, media["schema"]) == [], operation["operationId"]
    assert patches == 5


def test_every_operation_documents_its_errors_in_the_one_shape(schema):
    names = {"Error", "ValidationErrors", "StaleVersion"}
    assert names <= set(schema["components"]["schemas"])
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["detail", "code"]
    assert error["additionalProperties"] is True
    assert schema["components"]["schemas"]["StaleVersion"]["required"] == [
        "detail",
        "code",
        "current_version",
    ]
    for path, method, operation in operations(schema):
        name, answers = operation["operationId"], operation["responses"]
        assert any(code.startswith("2") for code in answers), name
        assert {"500", "503"} <= set(answers), name
        if operation.get("security"):
            assert {"401", "403"} <= set(answers), name
        if "{" in path:
            assert "404" in answers, name
        if method in WRITES and name != "token_delete":
            assert {"400", "413"} <= set(answers), name
        if "requestBody" in operation:
            # A chunked body is refused (test_hostile_requests.py) as an unknown type.
            assert {"411", "415"} <= set(answers), name
        for code, answer in answers.items():
            if code[0] in "45" and name != "health_get" and code != "400":
                assert answer["content"]["application/json"]["schema"] in (
                    {"$ref": "#/components/schemas/Error"},
                    {
                        "anyOf": [
                            {"$ref": "#/components/schemas/StaleVersion"},
                            {"$ref": "#/components/schemas/Error"},
                        ]
                    },
                ), (name, code)
    conflicts = {
        operation["operationId"]: operation["responses"]["409"]
        for _, _, operation in operations(schema)
        if "409" in operation["responses"]
    }
    for name in ("deal_create", "deal_update", "deal_delete", "match_confirm"):
        assert "StaleVersion" in str(conflicts[name]["content"]), name
    assert "StaleVersion" not in str(conflicts["tournament_update"])
    assert {
        operation["operationId"]
        for _, _, operation in operations(schema)
        if "429" in operation["responses"]
    } == {"token_create"}


def test_the_headers_a_client_sends_and_reads(schema):
    etags = set()
    for _, method, operation in operations(schema):
        name = operation["operationId"]
        headers = {
            p["name"] for p in operation.get("parameters", []) if p["in"] == "header"
        }
        assert ("Idempotency-Key" in headers) == (method in WRITES), name
        if "If-None-Match" in headers:
            etags.add(name)
            answers = operation["responses"]
            assert "ETag" in answers["200"]["headers"], name
            assert "content" not in answers["304"], name
    assert etags == {"standings_get", "statistics_get"}


def test_the_token_needs_none_and_downloads_are_bytes(schema):
    token = schema["paths"]["/api/v1/auth/token/"]
    assert not token["post"].get("security")
    assert token["delete"]["security"]
    downloads = {
        operation["operationId"]
        for _, _, operation in operations(schema)
        if XLSX in operation["responses"].get("200", {}).get("content", {})
    }
    assert downloads == {
        "workbook_download",
        "export_download",
        "match_sheet_download",
        "round_sheets_download",
        "team_template_download",
        "season_workbook_download",
    }
    for _, _, operation in operations(schema):
        if operation["operationId"] in downloads:
            content = operation["responses"]["200"]["content"][XLSX]
            assert content["schema"] == {"type": "string", "format": "binary"}


def test_a_form_or_another_media_type_is_415_in_the_one_shape(api, organizer):
    as_user(api, organizer)
    for body, kind in (
        ("name=Open", "application/x-www-form-urlencoded"),
        ("--x--", "multipart/form-data; boundary=x"),
        ("name: Open", "text/yaml"),
    ):
        answer = api.post(
            "/api/v1/tournaments/spring-open/sections/", body, content_type=kind
        )
        assert answer.status_code == 415, (kind, answer.content)
        got = answer.json()
        assert got["code"] == "unsupported_media_type"
        assert kind.split(";")[0] in got["detail"]
    # An upload takes multipart only: JSON there is refused the same way.
    answer = api.post(
        "/api/v1/tournaments/spring-open/teams/import/", {"file": "x"}, format="json"
    )
    assert answer.status_code == 415
    assert answer.json()["code"] == "unsupported_media_type"


def test_a_token_sent_along_does_not_stop_getting_one(api, organizer):
    organizer.set_password("a-long-password-56")
    organizer.save()
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token-any-more")
    answer = api.post(
        "/api/v1/auth/token/",
        {"username": organizer.username, "password": "a-long-password-56"},
    )
    assert answer.status_code == 200, answer.json()
    assert api.delete("/api/v1/auth/token/").status_code == 401
