"""The OpenAPI schema and docs, and the health check (docs/deploy.md): its shape, its
one query, 503 when the database does not answer or is not migrated, and the
worker's round trip through Celery."""

import tomllib
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tournament.models import Tournament
from tournament.tasks import health_check


@pytest.mark.django_db
def test_schema_describes_the_api_and_docs_render(api):
    response = api.get(
        "/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path in (
        "/api/v1/auth/token/",
        "/api/v1/tournaments/",
        "/api/v1/tournaments/{slug}/sections/",
        "/api/v1/tournaments/{slug}/teams/",
        "/api/v1/tournaments/{slug}/teams/{id}/",
        "/api/v1/tournaments/{slug}/teams/import/",
        "/api/v1/tournaments/{slug}/members/",
    ):
        assert any(p.replace("{pk}", "{id}") == path for p in schema["paths"]), path
    docs = api.get("/api/v1/docs/")
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
    assert b"cdn.jsdelivr" not in docs.content  # served from our own static files


CHECKS = {"database", "migrations", "cache", "broker", "worker"}


def _version() -> str:
    text = (Path(__file__).resolve().parents[3] / "pyproject.toml").read_text()
    return tomllib.loads(text)["project"]["version"]


@pytest.mark.django_db(transaction=True)
def test_a_task_round_trips_through_the_worker(api, celery_worker_running):
    """On the PostgreSQL pass a real worker on Redis runs the task and reads the same
    database, and the health check then sees it; on SQLite the task runs eagerly in
    the request and the health check says so."""
    assert (celery_worker_running is None) == settings.CELERY_TASK_ALWAYS_EAGER
    result = health_check.delay().get(timeout=20)
    assert result == {"worker": "ok", "tournaments": Tournament.objects.count()}
    response = api.get("/api/v1/health/")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "ok", body
    eager = settings.CELERY_TASK_ALWAYS_EAGER
    assert body["checks"]["worker"]["ok"] is True
    assert body["checks"]["worker"].get("eager", False) is eager
    assert body["checks"]["broker"].get("eager", False) is eager
    if not eager:
        assert body["checks"]["worker"]["seen_seconds_ago"] < 60


@pytest.mark.django_db
def test_health_needs_no_account_and_one_query(api, django_assert_max_num_queries):
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")  # ignored, not refused
    with django_assert_max_num_queries(1):
        response = api.get("/api/v1/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["version"] == _version()
    from tournament.ops.version import COMMIT

    assert body["commit"] == COMMIT
    assert set(body["checks"]) == CHECKS
    for check in body["checks"].values():
        assert isinstance(check["ok"], bool) and check["ms"] >= 0
    assert body["checks"]["database"]["ok"] and body["checks"]["migrations"]["ok"]
    assert response["Cache-Control"] == "no-store"
    text = response.content.decode()
    for secret in ("SECRET", "password", settings.SECRET_KEY):
        assert secret not in text


@pytest.mark.django_db
def test_an_unapplied_migration_is_503_in_the_same_shape(api, monkeypatch):
    from tournament.ops import health

    shipped = {**health.migrations_on_disk(), ("scoring", "9999_not_yet"): frozenset()}
    monkeypatch.setattr(health, "migrations_on_disk", lambda: shipped)
    response = api.get("/api/v1/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded" and body["version"] == _version()
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["migrations"] == {
        "ok": False,
        "ms": body["checks"]["migrations"]["ms"],
        "missing": ["scoring.9999_not_yet"],
    }


@pytest.mark.django_db
def test_a_database_that_does_not_answer_is_503(api, monkeypatch):
    from django.db import OperationalError
    from django.db.backends.utils import CursorWrapper

    def down(self, sql, params=None):
        raise OperationalError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", down)
    response = api.get("/api/v1/health/")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["database"]["ok"] is False
    assert checks["database"]["error"] == "OperationalError"
    assert checks["migrations"]["ok"] is False


@pytest.mark.django_db
def test_a_cache_that_fails_degrades_but_serves(api, monkeypatch):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    monkeypatch.setattr(cache, "set", down)
    response = api.get("/api/v1/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["cache"] == {
        "ok": False,
        "ms": body["checks"]["cache"]["ms"],
        "error": "ConnectionError",
    }


@pytest.mark.django_db
def test_every_page_names_the_version_in_its_footer(client):
    from tournament.ops.version import COMMIT

    page = client.get("/").content.decode()
    footer = f'lang="en" title="{COMMIT}">56 {_version()}</span>'
    assert f'<span class="version" {footer}' in page


@pytest.mark.django_db(transaction=True)
def test_a_database_a_newer_release_migrated_is_503_saying_so(api):
    """An instance of older code left running on a database that newer code migrated
    (docs/deploy.md, "Upgrade with compose") is taken for unhealthy: its writes could
    leave out what the newer schema keeps."""
    from django.db.migrations.recorder import MigrationRecorder

    MigrationRecorder.Migration.objects.create(app="scoring", name="9999_from_later")
    try:
        response = api.get("/api/v1/health/")
    finally:
        MigrationRecorder.Migration.objects.filter(name="9999_from_later").delete()
    assert response.status_code == 503
    migrations = response.json()["checks"]["migrations"]
    assert migrations["ok"] is False
    assert migrations["ahead"] == ["scoring.9999_from_later"]
    assert "missing" not in migrations
    assert api.get("/api/v1/health/").status_code == 200


@pytest.mark.django_db
def test_the_footer_names_the_account_and_links_its_password(client, organizer):
    """On a phone the header leaves the account's name out (site.css): the footer
    names it on every page, with the way to change its password."""
    client.force_login(organizer)
    for address in ("/", "/t/spring-open/"):
        page = client.get(address).content.decode()
        footer = page[page.index('<footer class="site">') :]
        assert "Logged in as org ·" in footer
        assert 'href="/accounts/password/"' in footer
    assert "Logged in as" not in Client().get("/").content.decode()
