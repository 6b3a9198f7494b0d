"""The OpenAPI schema and docs, and the health check's round trip through Celery."""

import pytest
from django.conf import settings

from tests.conftest import as_user
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


@pytest.mark.django_db(transaction=True)
def test_a_task_round_trips_through_the_worker(api, celery_worker_running, organizer):
    """On the PostgreSQL pass a real worker on Redis runs the task and reads the same
    database; on SQLite the task runs eagerly in the request."""
    assert (celery_worker_running is None) == settings.CELERY_TASK_ALWAYS_EAGER
    result = health_check.delay().get(timeout=20)
    assert result == {"worker": "ok", "tournaments": Tournament.objects.count()}
    as_user(api, organizer)
    response = api.get("/api/v1/health/?worker=1")
    assert response.status_code == 200
    assert response.json() == {
        "database": "ok",
        "worker": "ok",
        "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    }


@pytest.mark.django_db
def test_anonymous_health_check_does_not_queue_tasks(api):
    response = api.get("/api/v1/health/?worker=1")
    assert response.status_code == 200
    assert response.json()["worker"] == "not checked"
