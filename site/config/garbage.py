"""Python's cyclic garbage collector, tuned for a server process that has finished loading.

With thresholds of (700 or 2,000, 10, 10) a server process of the friends' tables benchmark
ran a full pass every 6 to 15 s, up to 200-263 ms of CPU each with every thread stopped,
walking the objects Django, the templates and the rules had loaded (timed with gc.callbacks,
docs/site.md). What is loaded at start-up lives as long as the process, so it
is frozen out of the collector's reach, and collections are made rarer: most of the
requests' and frames' garbage is freed by reference counting. The collector's CPU fell about
tenfold in that benchmark; a young-generation pass now covers more objects (28-145 ms of
CPU seen), so the pauses are fewer, not gone.
"""

import gc

from django.conf import settings

#: gen 0 after this many allocations net of frees; gen 1 and 2 after so many of the one below
THRESHOLDS = (50_000, 20, 100)


def settle_for_serving() -> None:
    """Collect once, freeze what survives (the loaded code and settings), collect rarely.
    Not in a test process (settings.SETTLE_GC false), whose objects come and go."""
    if not settings.SETTLE_GC:
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
