"""Hostile values: what an attacker or a careless client puts where a view expects a value.

Every markup payload carries MARKER, so a response that reflects one unescaped is found by
looking for the payload itself. Invalid UTF-8 is written with surrogate escapes ("\\udcff"
is the byte 0xFF on the wire).
"""

import re
from dataclasses import dataclass

MARKER = "fuzzmark"


@dataclass(frozen=True)
class Payload:
    kind: str
    value: str

    @property
    def markup(self) -> bool:
        return MARKER in self.value and any(c in self.value for c in "<>\"'")


def _all(kind: str, *values: str) -> list[Payload]:
    return [Payload(kind, v) for v in values]


PAYLOADS: list[Payload] = [
    *_all("unicode digits", "²", "٣", "０", "𝟗", "Ⅻ", "1²", "²:0", "0:²", "٣:٠"),
    *_all(
        "numbers", "-1", "-0", "0", "9" * 40, "9" * 5000, "-" + "9" * 5000, "1e308", "NaN",
        "inf", "0x1f", "1_000", " 7 ", "+3", "4294967296", "18446744073709551617", "0.5",
    ),
    *_all("long", "A" * 10240, "é" * 5120, "a" * 251, "-" * 300),
    *_all("nul", "\x00", "1\x00", "a\x00b", "\x00" * 64),
    *_all(
        "traversal", "../../../../etc/passwd", "..%2F..%2Fmanage.py", "..\\..\\windows\\win.ini",
        "/etc/passwd", "....//....//etc/passwd", "%2e%2e%2f", "file:///etc/passwd",
    ),
    *_all(
        "markup", f"<script>{MARKER}()</script>", f'"><svg onload={MARKER}()>',
        f"'><img src=x onerror={MARKER}()>", f"</textarea><b>{MARKER}</b>",
        f'javascript:{MARKER}()//"><a>', f"{{{{ {MARKER} }}}}{{% debug %}}<i>{MARKER}</i>",
    ),
    *_all(
        "encoding", "\udcff\udcfe", "%ff%fe", "\u202e", "💥", "\ufeff", "\x1b[31m",
        "\r\nX-Fuzz: 1",
    ),
    *_all("shape", "", " ", "null", "[]", "{}", ",,,", ":::", "0:0:0", "-1:-1", "true", "*"),
]

# One of each kind (and the ones that found bugs): the quick profile's values.
QUICK: list[Payload] = [
    p for p in PAYLOADS
    if p.value in {
        "²", "٣", "²:0", "-1", "9" * 5000, "1_000", " 7 ", "A" * 10240, "a" * 251, "\x00",
        "a\x00b", "../../../../etc/passwd", "\udcff\udcfe", "\r\nX-Fuzz: 1", "", ":::",
    } or p.kind == "markup"
]

# Every parameter gets the core values; the rest of QUICK is dealt out among a route's
# parameters, so each is sent once per route (a view reading 30 names stays affordable).
CORE: list[Payload] = [
    p for p in QUICK
    if p.value in {"²", "9" * 5000, "-1", "A" * 10240, "\x00", "\udcff\udcfe", ""}
    or p.value.startswith(("<script>", '"><svg'))
]
DEALT: list[Payload] = [p for p in QUICK if p not in CORE]

_DIGITS = re.compile(r"[0-9]+")


def core_splices(valid: str) -> list[Payload]:
    """The splices every parameter gets: its number as "²" and as 5,000 nines, markup added."""
    keep = {_DIGITS.sub("²", valid, count=1), _DIGITS.sub("9" * 5000, valid, count=1),
            valid + f"<b>{MARKER}</b>"}
    return [p for p in splices(valid) if p.value in keep]


def splices(valid: str) -> list[Payload]:
    """A valid value bent out of shape: its numbers swapped for hostile ones, grown, cut;
    a JSON object field by field (json_shapes)."""
    out = list(json_shapes(valid))
    if _DIGITS.search(valid):
        for number in ("²", "٣", "9" * 5000, "-1", "0" * 7):
            out.append(Payload("splice", _DIGITS.sub(number, valid, count=1)))
    out += [
        Payload("splice", valid + "\x00"),
        Payload("splice", valid + f"<b>{MARKER}</b>"),
        Payload("splice", ",".join([valid] * (10240 // (len(valid) + 1) + 1)) if valid else ""),
        Payload("splice", valid[: len(valid) // 2]),
        Payload("splice", valid + "a" * 300),
    ]
    return [p for p in out if p.value != valid]


PATH_EXTRAS: list[Payload] = _all(
    "path", "a" * 251, "a" * 300, "a" * 4000, "-", "_", "--", "0" * 5000, "con", ".", "..",
)


def path_payloads(valid: str, quick: bool) -> list[Payload]:
    base = QUICK if quick else PAYLOADS
    return [*PATH_EXTRAS, *base, *splices(valid)]


# JSON fields (#25): a value that is a JSON object is bent field by field, so every field a
# view reads meets every shape (a NUL escaped as \u0000 passes a raw-text check and is
# refused by PostgreSQL's jsonb; a number beyond float; a list where a string was).
JSON_VALUES: list[str] = [
    '"\\u0000"', '"a\\u0000b"', '["\\u0000"]', "1e400", "-1", "0.5", str(10**40), "true",
    "null", "[]", "{}", '[["x"]]', '{"a": {"b": {"c": 1}}}', '"' + "A" * 700 + '"', '""',
    '"²"', '"<b>' + MARKER + '</b>"',
]
JSON_WHOLE: list[str] = [
    "[]", "1", "null", '"x"', '"\\u0000"', "[" * 5000 + "]" * 5000, '{"\\u0000": 1}', "{",
]


def json_shapes(valid: str) -> list[Payload]:
    """A JSON object's text with one field at a time given every shape in JSON_VALUES, a key
    holding a NUL added, and the whole replaced by other JSON; none for a non-JSON value."""
    import json

    try:
        data = json.loads(valid)
    except ValueError:
        return []
    if not isinstance(data, dict) or not data:
        return []
    out = [Payload("json", text) for text in JSON_WHOLE]
    for key in data:
        others = {k: v for k, v in data.items() if k != key}
        head = json.dumps(others)[:-1] + (", " if others else "")
        for value in JSON_VALUES:
            out.append(Payload("json", f"{head}{json.dumps(key)}: {value}}}"))
    out.append(Payload("json", json.dumps({**data, "k\x00": True})))
    return out


# Form posts declaring a charset other than UTF-8 (#25), and Host headers no site serves.
CHARSETS = ("latin-1", "utf-16", "shift_jis", "x-no-such-charset", "utf-8")
BAD_HOSTS = ("evil.example", "evil\tINFO forged", "a" * 300, "[::1", "localhost:99999")
