"""Counting tries in fixed time windows, in Django's configured cache.

No count lives in a process: gunicorn's workers (and several servers) must share one, so
the counts are in CACHES["default"]. With more than one server that cache must be a shared
one (Redis, Memcached, the database cache); a per-process cache would multiply every limit
by the number of processes (docs/hardening.md).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.core.cache import caches


@dataclass(frozen=True)
class Limit:
    """At most `tries` counted tries per `seconds` for one key (an address, a session)."""

    name: str
    tries: int
    seconds: int

    def _key(self, who: str) -> str:
        window = int(time.time()) // self.seconds
        digest = hashlib.sha256(who.encode("utf-8", "surrogatepass")).hexdigest()[:32]
        return f"throttle:{self.name}:{window}:{digest}"

    def exceeded(self, who: str) -> bool:
        """Whether `who` has used up its tries in the current window."""
        return (caches["default"].get(self._key(who)) or 0) >= self.tries

    def count(self, who: str) -> None:
        """One more try for `who` in the current window."""
        cache, key = caches["default"], self._key(who)
        if not cache.add(key, 1, self.seconds + 1):
            try:
                cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.add(key, 1, self.seconds + 1)
