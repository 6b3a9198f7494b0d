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
import threading
from collections import OrderedDict
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


class Recent:
    """A process's own memory of the latest values it used, by a key that is a digest
    of everything the value is made from: a value found is never stale, and one
    missing is made again (or read from the shared cache) as if this were empty. It
    spares a reading the unpickling of what Redis keeps. Bounded (the least recently
    used go first) and safe under threads."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._values: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            found = self._values.get(key)
            if found is not None:
                self._values.move_to_end(key)
            return found

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.limit:
                self._values.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()


def _unavailable(doing: str, key: str, error: Exception) -> None:
    log.warning(
        "cache unavailable %s %s (%s: %s); answered without it",
        doing,
        key,
        type(error).__name__,
        error,
    )
