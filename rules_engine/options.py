"""Option schemas: every documented variant rule, Open default and house rule a game can switch.

The keys and choice values are shared with the site's texts (content/README.md), so they are
part of the public contract: never rename one without the content.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

OptionType = Literal["bool", "choice", "int"]
OptionSource = Literal["source", "open", "house"]


class OptionError(ValueError):
    """An unknown option key or a value outside the option's schema."""


@dataclass(frozen=True)
class OptionSpec:
    key: str
    type: OptionType
    default: Any
    choices: tuple = field(default=())
    #: "source": documented option in the source text; "open": the project's Open default;
    #: "house": the source's own house rule.
    source: OptionSource = "source"
    #: anchor of the rules text that explains it (usually "options").
    section: str = "options"

    def describe_values(self) -> str:
        if self.type == "bool":
            return "true, false"
        return ", ".join(str(c) for c in self.choices)

    def check(self, value: Any, *, from_string: bool = False) -> Any:
        """Return the validated value or raise OptionError."""
        if from_string and isinstance(value, str):
            value = self._parse(value)
        if self.type == "bool":
            if isinstance(value, bool):
                return value
        elif self.type == "int":
            if isinstance(value, int) and not isinstance(value, bool) and (
                not self.choices or value in self.choices
            ):
                return value
        elif isinstance(value, str) and value in self.choices:
            return value
        raise OptionError(
            f"option {self.key!r}: bad value {value!r}; valid values: {self.describe_values()}"
        )

    def _parse(self, text: str) -> Any:
        low = text.strip().lower()
        if self.type == "bool":
            if low in ("true", "1", "yes", "on"):
                return True
            if low in ("false", "0", "no", "off"):
                return False
            return text
        if self.type == "int":
            try:
                return int(low)
            except ValueError:
                return text
        return text.strip()

    def to_json(self) -> dict:
        return {
            "key": self.key,
            "type": self.type,
            "default": self.default,
            "choices": list(self.choices),
            "source": self.source,
            "section": self.section,
        }


def validate_options(
    specs: Iterable[OptionSpec],
    given: Any,
    *,
    from_strings: bool = False,
    name: str = "this variant",
) -> dict:
    """Full option dict (defaults filled in) or OptionError naming the bad key or value.

    `specs` is a variant's option schema; rules_engine.registry.validate_options takes a slug
    (this module knows no variants: the registry imports it, never the other way round)."""
    if given is not None and not isinstance(given, Mapping):
        raise OptionError(f"options must be an object of key: value, got {given!r}")
    by_key = {s.key: s for s in specs}
    result = {s.key: s.default for s in by_key.values()}
    for key, value in (given or {}).items():
        spec = by_key.get(key) if isinstance(key, str) else None
        if spec is None:
            valid = ", ".join(by_key) or "(none)"
            raise OptionError(f"unknown option {key!r} for {name}; valid options: {valid}")
        result[key] = spec.check(value, from_string=from_strings)
    return result


def parse_option_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """"key=value" strings (CLI --option) to a dict of strings."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise OptionError(f"option {pair!r}: expected key=value")
        out[key.strip()] = value
    return out
