"""Compression in the embedded default (`make run`: no DATABASE_URL, runserver and
whitenoise): Django's GZipMiddleware compresses pages and static files alike, and
production leaves it to Caddy. Compressed answers carry weak ETags (W/"…"); a poll
that sends one back is still answered 304 (If-None-Match compares weakly, RFC 9110
§13.1.2: tournament/web/etags.py)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scoring.league import hand_league

ROOT = Path(__file__).resolve().parents[2]
GZIP = "django.middleware.gzip.GZipMiddleware"
WHITENOISE = "whitenoise.middleware.WhiteNoiseMiddleware"
HTMX = {"HTTP_HX_REQUEST": "true"}


def _middleware(tmp_path: Path, **env: str) -> list[str]:
    """MIDDLEWARE as the real settings make it in a process of their own, from
    nothing but `env` (the embedded default when it is empty)."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE", "CELERY_"))
    }
    code = "import json; from django.conf import settings; "
    code += "print(json.dumps(settings.MIDDLEWARE))"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
        cwd=ROOT,
        env=clean
        | {
            "FIFTYSIX_VAR_DIR": str(tmp_path),
            "DJANGO_SETTINGS_MODULE": "tournament.config.settings",
        }
        | env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def embedded(tmp_path_factory) -> list[str]:
    return _middleware(tmp_path_factory.mktemp("embedded"))


def test_only_the_embedded_default_compresses(embedded, tmp_path):
    # Outside whitenoise, so that the static files it answers are compressed too.
    assert embedded.index(GZIP) < embedded.index(WHITENOISE)
    production = _middleware(
        tmp_path,
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="x7" * 30,
        DJANGO_ALLOWED_HOSTS="fiftysix.example.org",
        DATABASE_URL="postgres://fiftysix@127.0.0.1:5432/fiftysix",
        CELERY_BROKER_URL="redis://127.0.0.1:6379/0",
    )
    assert GZIP not in production  # Caddy compresses (deploy/Caddyfile)


@pytest.mark.django_db
def test_a_page_and_a_static_file_are_compressed(client, settings, embedded):
    settings.MIDDLEWARE = embedded
    settings.DEBUG = True  # as under `make run`: whitenoise finds the static files
    for url in ("/", "/static/css/site.css"):
        plain = client.get(url)
        assert plain.status_code == 200, url
        assert "Content-Encoding" not in plain  # a client that does not ask
        answer = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
        assert answer.status_code == 200, url
        assert answer["Content-Encoding"] == "gzip", url
        assert "Accept-Encoding" in answer["Vary"]
        body = (
            b"".join(answer.streaming_content) if answer.streaming else answer.content
        )
        unpacked = gzip.decompress(body)
        whole = b"".join(plain.streaming_content) if plain.streaming else plain.content
        assert len(body) < len(unpacked)
        if url.startswith("/static/"):
            assert unpacked == whole
        else:
            assert b"<html" in unpacked


@pytest.mark.django_db
def test_a_poll_with_the_weak_etag_it_was_given_is_304(client, api, settings, embedded):
    settings.MIDDLEWARE = embedded
    league = hand_league(api)
    slug = league["tournament"].slug
    gzipped = {"HTTP_ACCEPT_ENCODING": "gzip", **HTMX}
    for url in (
        f"/t/{slug}/standings/",
        f"/api/v1/tournaments/{slug}/standings/",
        f"/api/v1/tournaments/{slug}/statistics/",
    ):
        first = client.get(url, **gzipped)
        assert first.status_code == 200, url
        strong = client.get(url, **HTMX)["ETag"]
        assert first["Content-Encoding"] == "gzip", url
        weak = first["ETag"]  # what the gzip client was given, and sends back
        assert weak == f"W/{strong}", url
        again = client.get(url, HTTP_IF_NONE_MATCH=weak, **gzipped)
        assert again.status_code == 304, url
        assert again["ETag"] == strong  # the 304 names what it stands for
        # Among others, weak or strong, either way round.
        listed = f'"other", {weak}'
        assert client.get(url, HTTP_IF_NONE_MATCH=listed, **HTMX).status_code == 304
        assert client.get(url, HTTP_IF_NONE_MATCH=strong, **gzipped).status_code == 304
        assert (
            client.get(url, HTTP_IF_NONE_MATCH='W/"other"', **HTMX).status_code == 200
        )
