"""URL converter for short codes: only the code alphabet matches, anything else is a 404."""

from django.urls import register_converter

from .models import CODE_PATTERN


class ShortCodeConverter:
    regex = CODE_PATTERN

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ShortCodeConverter, "hcode")
