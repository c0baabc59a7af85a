"""Values read from URLs. Numbers: ASCII digits only, never more than a page could mean.

`str.isdigit()` accepts "²" (which `int()` refuses) and `int()` accepts "٣", " 3", "1_0" and
raises on 5,000 digits; a query parameter gets none of that latitude.
"""

import re
import unicodedata
from typing import Any

MAX_DIGITS = 6
_NATURAL = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


def parse_natural(raw: str | None, digits: int = MAX_DIGITS) -> int | None:
    """A non-negative integer written in at most `digits` ASCII digits, else None."""
    if raw is None or not (_NATURAL if digits == MAX_DIGITS else _natural(digits)).fullmatch(raw):
        return None
    return int(raw)


def _natural(digits: int) -> re.Pattern[str]:
    return re.compile(rf"[0-9]{{1,{digits}}}")


#: more values than any form sends: the rest of a hostile query string is not even read.
MAX_VALUES_READ = 12


def clean_text(value: str) -> str:
    """One line of free text: no control characters, runs of white space made single."""
    text = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in value)
    return " ".join(text.split())


def query_values(params: Any, name: str) -> list[str]:
    """A parameter's values (a QueryDict, or a plain dict of strings or lists)."""
    if hasattr(params, "getlist"):
        values = params.getlist(name)
    else:
        value = params.get(name)
        values = value if isinstance(value, list) else ([] if value is None else [value])
    return [str(v) for v in values[:MAX_VALUES_READ]]


def query_value(params: Any, name: str) -> str:
    """The last of a parameter's values, or ""."""
    values = query_values(params, name)
    return values[-1] if values else ""
