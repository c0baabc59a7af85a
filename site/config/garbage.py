"""Python's cyclic garbage collector, tuned for a server process that has finished loading.

With the default thresholds (700, 10, 10) a server process holding live games collected its
older generations several times a minute, and each such pass stopped every thread for
100-570 ms while it walked the objects Django, the templates and the rules had loaded (seen
in benchmarks/tables_load.py on this 2-core machine, gen 1 and 2 passes timed with
gc.callbacks): a move's frame waited for it, and they were the slowest moves of the run.
What is loaded at start-up lives as long as the process, so it is frozen out of the
collector's reach, and collections are made rarer: the requests' and frames' garbage is
mostly freed by reference counting, not by the collector.
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
