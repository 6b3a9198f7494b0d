"""Redis bounded, the broker's queue never dropped (issue 51, part 3; docs/deploy.md,
"Redis").

A Redis evicts by one policy for everything it holds, so the site runs two: Celery's
broker, which never evicts (a key dropped there is a queued task lost) and refuses
new writes once full, and the shared cache, which drops its least recently used keys
once full. Compose and the plain server's configuration say so; and a Redis run with
each shipped policy (its memory made small) does what is said: the cache stays within
its bound however much is kept in it, and a full broker refuses a task, which the
request logs as not sent, and keeps every task already queued."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
import redis
import yaml
from django.core.cache import cache

from tests.redis_server import RedisServer, celery_on
from tournament.db.cache import cached
from tournament.ops.queue import task_send

ROOT = Path(__file__).resolve().parents[2]
SMALL = 4 * 1024 * 1024  # a bound a test fills in a moment
VALUE = 64 * 1024


def _compose() -> dict:
    return yaml.safe_load((ROOT / "deploy/compose.yaml").read_text())


def _option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def _conf(path: str) -> dict[str, str]:
    """A redis.conf's directives, the last of each winning, as Redis reads them."""
    found = {}
    for line in (ROOT / path).read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.strip().partition(" ")
            found[name] = value
    return found


def test_compose_runs_the_broker_and_the_cache_apart_each_bounded():
    services = _compose()["services"]
    broker, kept = services["redis"]["command"], services["cache"]["command"]
    assert _option(broker, "--maxmemory-policy") == "noeviction"
    assert _option(kept, "--maxmemory-policy") == "allkeys-lru"
    for command in (broker, kept):
        assert re.fullmatch(r"\d+mb", _option(command, "--maxmemory")), command
        assert _option(command, "--save") == ""  # nothing outlives a restart
    for name in ("redis", "cache"):
        assert services[name]["healthcheck"]["test"], name
    # Every process of the site (web1, web2 and the worker share these) on both.
    environment = _compose()["x-app"]["environment"]
    assert environment["CELERY_BROKER_URL"].startswith("redis://redis:")
    assert environment["CACHE_URL"].startswith("redis://cache:")
    assert services["web1"]["depends_on"]["cache"]["condition"] == "service_healthy"


def test_the_plain_server_runs_a_second_instance_for_the_cache():
    broker = _conf("deploy/redis/broker.conf")
    assert broker["maxmemory-policy"] == "noeviction"
    assert re.fullmatch(r"\d+mb", broker["maxmemory"])
    lines = [
        line
        for line in (ROOT / "deploy/redis/cache.conf").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    # Debian's settings first, so that the cache's own lines win.
    assert lines[0] == "include /etc/redis/redis.conf"
    kept = _conf("deploy/redis/cache.conf")
    assert kept["maxmemory-policy"] == "allkeys-lru"
    assert re.fullmatch(r"\d+mb", kept["maxmemory"])
    # Debian's redis-server@<name>.service reads /etc/redis/redis-<name>.conf and
    # gives the instance /run/redis-<name>/.
    assert kept["pidfile"] == "/run/redis-cache/redis-server.pid"
    address = f"redis://127.0.0.1:{kept['port']}/0"
    deploy = (ROOT / "docs/deploy.md").read_text()
    assert "redis-server@cache" in deploy
    assert f"CACHE_URL={address}" in deploy
    assert f"CACHE_URL={address}" in (ROOT / ".env.example").read_text()
    web = (ROOT / "deploy/systemd/fiftysix-web.service").read_text()
    assert "redis-server@cache.service" in web


def _shipped(service: str) -> RedisServer:
    """A Redis run with the compose service's own command line, its memory SMALL."""
    command = list(_compose()["services"][service]["command"][1:])
    command[command.index("--maxmemory") + 1] = str(SMALL)
    server = RedisServer(command)
    server.start()
    return server


def test_the_cache_stays_within_its_bound_however_much_is_kept(settings):
    server = _shipped("cache")
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url(0),
        }
    }
    reader = redis.Redis.from_url(server.url(0))
    try:
        for n in range(200):  # 12.5 MB kept in a 4 MB cache, every answer given
            assert cached(f"answer:{n}", lambda: b"x" * VALUE) == b"x" * VALUE
            assert reader.info("memory")["used_memory"] <= SMALL + 2 * VALUE
        assert 0 < reader.dbsize() < 200
        assert cache.get("answer:199") == b"x" * VALUE  # the newest kept
        assert reader.info("stats")["evicted_keys"] > 0
    finally:
        reader.close()
        cache.close()
        server.stop()


@pytest.fixture
def full_broker(monkeypatch, settings):
    """The site's Celery on a broker run as compose runs it, its memory SMALL;
    (the server, a client)."""
    server = _shipped("redis")
    forget_connections = celery_on(server.url(0), monkeypatch, settings)
    reader = redis.Redis.from_url(server.url(0))
    try:
        yield server, reader
    finally:
        reader.close()
        server.stop()
        forget_connections()


def test_a_full_broker_refuses_a_task_and_keeps_those_queued(full_broker, caplog):
    from tournament.config.celery import app
    from tournament.tasks import health_check

    _, reader = full_broker
    queue = app.conf.task_default_queue
    for _ in range(3):
        assert task_send(health_check, missed="nothing") is True
    assert reader.llen(queue) == 3
    with pytest.raises(redis.exceptions.OutOfMemoryError):
        for n in range(200):  # 12.5 MB into a 4 MB broker
            reader.set(f"filler:{n}", b"x" * VALUE)
    # The refused write's 64 KB buffer is given back after it, which leaves room for
    # a task again; a broker full of small tasks has none: held there.
    used = reader.info("memory")["used_memory"]
    reader.config_set("maxmemory", used - VALUE)
    caplog.set_level(logging.WARNING)
    assert task_send(health_check, missed="nothing meanwhile") is False
    said = [r.getMessage() for r in caplog.records if "not sent" in r.getMessage()]
    assert len(said) == 1 and "maxmemory" in said[0], said
    assert reader.llen(queue) == 3  # nothing queued was dropped to make room
    assert reader.info("stats")["evicted_keys"] == 0
