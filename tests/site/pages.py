"""Every page of the site, for tests that walk them all."""

from rules_engine.registry import VARIANTS

LANGS = ["sv", "nb", "de", "fi", "en"]


def page_paths() -> list[str]:
    paths = ["", "compare/", "sources/", "cards/", "house-rules/", "class/"]
    paths += [f"{slug}/" for slug in VARIANTS]
    paths += [f"{slug}/house-rules/" for slug in VARIANTS]
    paths += [f"{slug}/play/" for slug in VARIANTS]
    paths += [f"{slug}/teach/" for slug in VARIANTS]
    return paths


def all_pages() -> list[tuple[str, str]]:
    return [(lang, f"/{lang}/{path}") for lang in LANGS for path in page_paths()]
