"""The site's shared cache (settings CACHES: Redis in production, local memory in
the embedded default), for answers computed from the sheets and kept under their
fingerprint, so that a key is never stale: a change makes a new key.

Nothing in it is needed. A cache that is down is logged and the answer computed as
if it were empty, so Redis going away slows the site down and breaks nothing. The log
says it in one warning line per miss, without a traceback: while Redis is down every
such answer misses, and a traceback each time would bury the lines that matter. The
settings give Redis a second to answer (REDIS_TIMEOUT_SECONDS), so a dead one does
not hold the request either.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache

log = logging.getLogger(__name__)
T = TypeVar("T")


def cached(key: str, make: Callable[[], T]) -> T:
    """The value kept under `key`, or `make()`'s, then kept."""
    try:
        found = cache.get(key)
    except Exception as error:  # the cache is down or refused: compute, do not fail
        _unavailable("reading", key, error)
        return make()
    if found is not None:
        return found
    value = make()
    try:
        cache.set(key, value)
    except Exception as error:
        _unavailable("writing", key, error)
    return value


def cached_many(keys: list[str]) -> dict[str, Any]:
    """The values kept under `keys` (those found), in one round trip; {} when the
    cache is down."""
    try:
        return cache.get_many(keys)
    except Exception as error:
        _unavailable("reading", f"{len(keys)} keys", error)
        return {}


def keep_many(values: dict[str, Any]) -> None:
    """Keep `values` by key, in one round trip; nothing when the cache is down."""
    if not values:
        return
    try:
        cache.set_many(values)
    except Exception as error:
        _unavailable("writing", f"{len(values)} keys", error)


def _unavailable(doing: str, key: str, error: Exception) -> None:
    log.warning(
        "cache unavailable %s %s (%s: %s); answered without it",
        doing,
        key,
        type(error).__name__,
        error,
    )
