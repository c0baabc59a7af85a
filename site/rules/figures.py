"""Simulated figures per variant: computed by `manage.py simulate_figures`, read from a file.

Bot-vs-bot games are too slow to run per request, and the numbers only change with the
engine, so the command writes var/figures.json and pages read it (once per file version).
"""

import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext as _

FIGURES_FILE = "figures.json"


def figures_path() -> Path:
    return Path(getattr(settings, "VAR_DIR", settings.BASE_DIR / "var")) / FIGURES_FILE


@lru_cache(maxsize=4)
def _read(path: Path, mtime_ns: int) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def load_figures() -> dict | None:
    path = figures_path()
    try:
        return _read(path, path.stat().st_mtime_ns)
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def bar_rows(values: dict[str, float]) -> list[dict]:
    """Bar lengths as a percentage of the largest value, for bars drawn one per row.

    Each row is laid out by CSS (label, bar, value), so labels of any length wrap instead of
    running into the bars, on a phone as on a projector.
    """
    top = max(values.values(), default=0) or 1
    return [
        {"key": key, "value": value, "percent": round(100 * value / top, 1)}
        for key, value in values.items()
    ]


def _number(text: str) -> str:
    return text


def _percent(text: str) -> str:
    # Translators: a percentage, "97%" in English; write it as your language does, e.g.
    # with a no-break space before the sign ("97 %").
    return _("%(number)s%%") % {"number": text}


def figure_charts(figures: dict, names: dict[str, str]) -> list[dict]:
    """The three charts of the comparison page, labelled in the visitor's language."""
    per_variant = figures.get("variants", {})
    specs = [
        ("plays", _("Average number of moves in a game"), 0, _number),
        ("equal_rank_rate", _("Equal tops per game"), 1, _number),
        ("stuck_rate", _("Games that got stuck at least once"), 0, _percent),
    ]
    charts = []
    for key, title, decimals, written in specs:
        values = {
            slug: float(stats[key])
            for slug, stats in per_variant.items()
            if slug in names and stats.get(key) is not None
        }
        if not values:
            continue
        rows = bar_rows(values)
        for row in rows:
            row["label"] = names[row["key"]]
            row["display"] = written(number_format(row["value"], decimal_pos=decimals))
        charts.append({"key": key, "title": title, "rows": rows})
    return charts
