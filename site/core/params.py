"""Numbers read from URLs: ASCII digits only, never more than a page could mean.

`str.isdigit()` accepts "²" (which `int()` refuses) and `int()` accepts "٣", " 3", "1_0" and
raises on 5,000 digits; a query parameter gets none of that latitude.
"""

import re

MAX_DIGITS = 6
_NATURAL = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


def parse_natural(raw: str | None) -> int | None:
    """A non-negative integer written in at most MAX_DIGITS ASCII digits, else None."""
    if raw is None or not _NATURAL.fullmatch(raw):
        return None
    return int(raw)
