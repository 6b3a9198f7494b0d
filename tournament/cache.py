"""The site's shared cache (settings CACHES: Redis in production, local memory in
the embedded default), for answers computed from the sheets and kept under their
fingerprint, so that a key is never stale: a change makes a new key.

Nothing in it is needed. A cache that is down is logged and the answer computed as
if it were empty, so Redis going away slows the site down and breaks nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

log = logging.getLogger(__name__)
T = TypeVar("T")


def cached(key: str, make: Callable[[], T]) -> T:
    """The value kept under `key`, or `make()`'s, then kept."""
    try:
        found = cache.get(key)
    except Exception:  # the cache is down or refused: compute, do not fail
        log.warning("cache unavailable reading %s", key, exc_info=True)
        return make()
    if found is not None:
        return found
    value = make()
    try:
        cache.set(key, value)
    except Exception:
        log.warning("cache unavailable writing %s", key, exc_info=True)
    return value
