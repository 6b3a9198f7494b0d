"""Every setting is listed once (docs/deploy.md, "Settings"): each name the settings
read from the environment is in deploy/.env.example and in docs/deploy.md's table, and
both name nothing else but what the deployment's own files read. The root
.env.example (a plain server's short list) names only real settings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# env.str("NAME", ...), env.bool(...), env("NAME"), environ.Env().str("NAME", ...)
READ = re.compile(r"\b(?:env|Env\(\))(?:\.\w+)?\(\s*\"([A-Z][A-Z0-9_]+)\"")
LISTED = re.compile(r"^#?\s*([A-Z][A-Z0-9_]+)=", re.MULTILINE)
# Read by compose.yaml, the start scripts, deploy/dump.py and deploy/nightly-dump, not
# by the settings.
DEPLOYMENT = {
    "FIFTYSIX_DOMAIN": "deploy/compose.yaml",
    "ACME_EMAIL": "deploy/compose.yaml",
    "POSTGRES_PASSWORD": "deploy/compose.yaml",
    "FIFTYSIX_IMAGE": "deploy/compose.yaml",
    "FIFTYSIX_TAG": "deploy/compose.yaml",
    "WEB_CONCURRENCY": "deploy/start-web",
    "WEB_TIMEOUT": "deploy/start-web",
    "WEB_BIND": "deploy/start-web",
    "MIGRATE_ON_START": "deploy/start-web",
    "WORKER_CONCURRENCY": "deploy/start-worker",
    "DUMP_DIR": "deploy/dump.py",
    "DUMP_AT": "deploy/nightly-dump",
    "DUMP_NIGHTLY_KEPT": "deploy/nightly-dump",
    "DUMP_BEFORE_MIGRATE_DAYS": "deploy/nightly-dump",
}


def _settings() -> set[str]:
    return set(READ.findall((ROOT / "tournament/config/settings.py").read_text()))


def _listed(path: str) -> set[str]:
    return set(LISTED.findall((ROOT / path).read_text()))


def _table() -> list[str]:
    text = (ROOT / "docs/deploy.md").read_text()
    section = text.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", section, re.MULTILINE)


def test_the_settings_are_found():
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "FIFTYSIX_VAR_DIR"} <= _settings()
    assert "CELERY_RESULT_BACKEND" in _settings()  # its call spans two lines


def test_every_setting_is_in_the_example_and_the_table():
    assert _settings() - _listed("deploy/.env.example") == set()
    assert _settings() - set(_table()) == set()


def test_they_list_nothing_else():
    known = _settings() | set(DEPLOYMENT)
    assert _listed("deploy/.env.example") - known == set()
    assert set(_table()) - known == set()
    assert _listed(".env.example") - _settings() == set()


def test_the_table_has_each_setting_once_and_the_example_all_of_them():
    table = _table()
    assert len(table) == len(set(table))
    assert set(table) == _listed("deploy/.env.example")


def test_the_deployment_reads_what_it_lists():
    for name, path in DEPLOYMENT.items():
        assert name in (ROOT / path).read_text(), (name, path)


@pytest.mark.parametrize(
    "proxies, forwarded, remote, client",
    [
        (0, "203.0.113.9", "10.0.0.2", "10.0.0.2"),  # no proxy: the connection's
        (1, "203.0.113.9", "10.0.0.2", "203.0.113.9"),  # Caddy wrote the client's
        (1, "6.6.6.6, 203.0.113.9", "10.0.0.2", "203.0.113.9"),  # a forged entry
        (2, "6.6.6.6, 203.0.113.9, 10.0.0.7", "10.0.0.2", "203.0.113.9"),
        (1, "", "10.0.0.2", "10.0.0.2"),  # a proxy that wrote nothing
    ],
)
def test_the_lockout_reads_the_clients_address_behind_trusted_proxies(
    settings, rf, proxies, forwarded, remote, client
):
    from axes.helpers import get_client_ip_address

    settings.TRUSTED_PROXIES = proxies
    request = rf.post("/accounts/login/", REMOTE_ADDR=remote)
    if forwarded:
        request.META["HTTP_X_FORWARDED_FOR"] = forwarded
    assert get_client_ip_address(request) == client


def _copied() -> list[str]:
    """What deploy/Containerfile copies from the build context (not from a stage)."""
    text = (ROOT / "deploy/Containerfile").read_text().replace("\\\n", " ")
    found = []
    for line in text.splitlines():
        words = line.split()
        if words[:1] == ["COPY"] and not any(w.startswith("--from") for w in words):
            found += [w for w in words[1:-1] if not w.startswith("--")]
    return found


def test_the_build_context_holds_every_file_the_image_copies():
    """.dockerignore shuts everything out and lets each copied path in by name: a file
    the Containerfile copies that it does not name fails the build ("no items
    matching glob"), as deploy/gunicorn.conf.py once did, in the container pass only."""
    admitted = [
        line[1:]
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.startswith("!")
    ]
    copied = _copied()
    assert "deploy/gunicorn.conf.py" in copied and "tournament/" in copied
    for path in copied:
        assert (ROOT / path).exists(), path
        assert any(
            path == name or (name.endswith("/") and path.startswith(name))
            for name in admitted
        ), f"{path} is copied by deploy/Containerfile but not let in by .dockerignore"


def test_every_command_compose_runs_in_the_image_is_in_the_image():
    """Each `deploy/…` a compose service of the site's image runs (web, worker, beat,
    the nightly dump) is copied into the image: a role whose script is not there
    cannot start (deploy/start-beat once was not)."""
    compose = (ROOT / "deploy/compose.yaml").read_text()
    commands = set(re.findall(r'command: \["(deploy/[\w.-]+)"', compose))
    assert {"deploy/start-web", "deploy/start-worker", "deploy/start-beat"} <= commands
    copied = _copied()
    missing = sorted(
        c
        for c in commands
        if not any(
            c == path or (path.endswith("/") and c.startswith(path)) for path in copied
        )
    )
    assert not missing, f"deploy/Containerfile does not copy {missing}"
