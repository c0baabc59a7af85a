"""Examples: scenario files under content/<variant>/examples/, replayed once by the engine.

A replay is cached per file version, so stepping through an example costs a lookup: the
board at every step is the engine's own board, never one drawn by the site.
"""

import logging
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from rules_engine.scenario import Step, failures_of, load, replay

logger = logging.getLogger(__name__)

# Example files are named in lowercase words joined by hyphens. A name is checked before it
# touches the file system: 251 characters make the OS refuse the path (ENAMETOOLONG).
EXAMPLE_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_NAME_LENGTH = 80


@dataclass(frozen=True)
class Example:
    variant: str
    name: str
    section: str
    titles: dict
    intro: dict
    steps: tuple[Step, ...]
    failures: tuple[str, ...]
    version: int = 0  # the file's mtime: caches of anything derived from it key on this

    @property
    def last(self) -> int:
        return len(self.steps) - 1

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles.get("en") or self.name

    def narration(self, index: int, lang: str) -> str:
        texts = self.intro if index == 0 else (self.steps[index].say or {})
        return texts.get(lang) or texts.get("en") or ""


def examples_dir(variant: str) -> Path:
    return settings.CONTENT_DIR / variant / "examples"


@lru_cache(maxsize=256)
def _replayed(path: Path, mtime_ns: int, variant: str) -> Example:
    scenario = load(path)
    steps = replay(scenario, debug=False)
    return Example(
        variant=variant,
        name=path.stem,
        section=scenario.meta.get("section", ""),
        titles=scenario.meta.get("title") or {},
        intro=scenario.meta.get("intro") or {},
        steps=tuple(steps),
        failures=tuple(failures_of(steps)),
        version=mtime_ns,
    )


def is_example_name(name: str) -> bool:
    return len(name) <= MAX_NAME_LENGTH and EXAMPLE_NAME.fullmatch(name) is not None


def load_example(variant: str, name: str) -> Example | None:
    if not is_example_name(name):
        return None
    path = examples_dir(variant) / f"{name}.json"
    try:
        info = path.stat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    try:
        return _replayed(path, info.st_mtime_ns, variant)
    except (ValueError, KeyError):
        # A file the engine cannot set up is left off the page; the replay test names it.
        logger.exception("example %s/%s cannot be replayed", variant, name)
        return None


def examples_for(variant: str) -> list[Example]:
    folder = examples_dir(variant)
    if not folder.is_dir():
        return []
    found = (load_example(variant, p.stem) for p in sorted(folder.glob("*.json")))
    return [e for e in found if e is not None]


def examples_by_section(variant: str) -> dict[str, list[Example]]:
    grouped: dict[str, list[Example]] = {}
    for example in examples_for(variant):
        grouped.setdefault(example.section, []).append(example)
    return grouped
