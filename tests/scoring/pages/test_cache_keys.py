"""No visitor fills the shared cache (issue 51, part 3): a key names only what the
answer depends on, never the address a visitor typed.

Before, the standings' table was kept under a hash of the whole address, so each new
query string (`?x=1`, `?x=2`, ...) rendered the table again and kept ~29 KB in Redis
for six hours: 300 anonymous requests added 8.7 MB to the Redis that was also
Celery's broker; the venue screen kept a render per `?view=` number the same way.
Here the site's cache is a Redis of the test's own (tests/redis_server.py), empty,
configured as production configures it, and visitors send query strings no one sent
before: once the first ones have made what they make, the keys and the memory stay
where they are."""

from __future__ import annotations

import time

import pytest
import redis
from django.core.cache import cache
from django.test import Client

from tests.redis_server import RedisServer
from tests.scoring.league import hand_league

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
VISITS = 10_000
FIRST = 100
# Redis's own bookkeeping moves by some 10 KB between two readings (its clients'
# buffers); the old code kept a standings table of about 20 KB per visit, and 64 KB
# over 10,000 visits is 7 bytes a visit.
MEMORY_MARGIN = 64 * 1024


@pytest.fixture
def cache_redis(settings):
    """The site's cache on a Redis of this test's own, as the production settings
    make it (tournament/config/settings.py); a client that reads its size."""
    server = RedisServer()
    server.start()
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": server.url(0),
            "KEY_PREFIX": "fiftysix",
            "TIMEOUT": 6 * 3600,
        }
    }
    reader = redis.Redis.from_url(server.url(0))
    try:
        yield reader
    finally:
        reader.close()
        cache.close()
        server.stop()


def _size(reader: redis.Redis) -> tuple[int, int]:
    """(the keys Redis holds, the bytes it uses)."""
    return reader.dbsize(), reader.info("memory")["used_memory"]


def _visit(n: int, section: int) -> tuple[str, dict]:
    """The nth visitor's query string, each one new, and its headers: a made-up
    parameter, a section that is not the tournament's, a real section with a made-up
    parameter, an empty section; the whole page one time in ten, else the table's
    poll (htmx), so that each query's kind comes both ways (the whole page renders
    the site's frame around the same table: three times the time, nothing more
    kept)."""
    queries = [
        f"x={n}",
        f"section={10**6 + n}",
        f"section={section}&x={n}",
        f"section=&n={n}",
    ]
    return queries[n % 4], {} if n // 4 % 10 == 0 else HTMX


def test_ten_thousand_query_strings_leave_the_cache_as_the_first_hundred(
    client, api, cache_redis
):
    league = hand_league(api)
    url = f"/t/{league['tournament'].slug}/standings/"
    section = league["t10"].section_id
    started, cpu = time.monotonic(), time.process_time()
    for n in range(VISITS):
        if n == FIRST:
            keys, memory = _size(cache_redis)
        query, headers = _visit(n, section)
        answer = client.get(f"{url}?{query}", **headers)
        assert answer.status_code in (200, 400), (query, answer.status_code)
    took, cpu = time.monotonic() - started, time.process_time() - cpu
    after_keys, after_memory = _size(cache_redis)
    # The whole table and the one section's, each kept once.
    assert keys == 2
    assert after_keys == keys, (keys, after_keys)
    assert abs(after_memory - memory) <= MEMORY_MARGIN, (memory, after_memory)
    # Every poll asks for the table's own address, whatever the visitor's carried.
    whole = client.get(f"{url}?x=1&utm=2", **HTMX).content.decode()
    assert f'hx-get="{url}"' in whole
    one = client.get(f"{url}?x=1&section={section}", **HTMX).content.decode()
    assert f'hx-get="{url}?section={section}"' in one
    print(
        f"{VISITS} visits in {took:.1f} s ({cpu:.1f} s CPU); "
        f"{after_keys} keys; {memory} bytes after {FIRST}, {after_memory} after"
    )


# Every public page and answer of a tournament, with what each reads from its address.
PAGES = [
    "/",
    "/t/{slug}/",
    "/t/{slug}/teams/",
    "/t/{slug}/matches/",
    "/t/{slug}/screen/",
    "/t/{slug}/where/",
    "/t/{slug}/standings/",
    "/t/{slug}/teams/{team}/",
    "/t/{slug}/teams/{team}/players/{player}/",
    "/t/{slug}/statistics/",
    "/t/{slug}/bracket/",
    "/matches/{match}/",
    "/ratings/",
    "/seasons/",
    "/api/v1/tournaments/{slug}/standings/",
    "/api/v1/tournaments/{slug}/statistics/",
    "/api/v1/tournaments/{slug}/bracket/",
    "/api/v1/ratings/",
]
# Made-up values of every parameter a page reads (a section, a view of the screen,
# a round, a page, a search, a sort, a season), and one no page reads.
MADE_UP = (
    "x={n}&section={big}&view={big}&round={n}&page={n}&q=zz{n}&sort=r{n}"
    "&season=s{n}&players=p{n}&teams=t{n}&all=a{n}"
)


def test_no_public_page_keeps_anything_per_query_string(client, api, cache_redis):
    """The venue screen kept a render per `?view=` number; every other page and
    answer is held to the same: a new query string adds no key and no memory."""
    league = hand_league(api)
    team = league["t1"]
    values = {
        "slug": league["tournament"].slug,
        "team": team.pk,
        "player": team.players.first().name,
        "match": league["matches"]["t1"],
    }
    urls = [page.format(**values) for page in PAGES]
    spectator = Client()
    # Whatever each page keeps for what it shows, the screen every view of its turn.
    for url in urls:
        for headers in ({}, HTMX):
            assert spectator.get(url, **headers).status_code < 500, url
    for view in range(12):
        spectator.get(f"/t/{values['slug']}/screen/?view={view}")
    keys, memory = _size(cache_redis)
    assert keys > 0
    for url in urls:
        for n in range(30):
            query = MADE_UP.format(n=n, big=10**6 + n)
            answer = client.get(f"{url}?{query}", **(HTMX if n % 2 else {}))
            assert answer.status_code < 500, (url, answer.status_code)
    after_keys, after_memory = _size(cache_redis)
    assert after_keys == keys, (keys, after_keys)
    assert abs(after_memory - memory) <= MEMORY_MARGIN, (memory, after_memory)
