"""URL converter that matches only the engine's variant slugs."""

import re

from django.urls import register_converter

from rules_engine.registry import VARIANTS


class VariantConverter:
    # Only known slugs match, so `/xx/` is a plain 404 rather than a redirect to `/en/xx/`.
    regex = "|".join(re.escape(slug) for slug in VARIANTS) or "(?!)"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(VariantConverter, "variant")
