"""A message told to a player (a refusal's reason) that can say itself again in another
language: a class table of a two-language lesson shows it in both (play.page).

`Told` is the message in the active language, a plain `str` to everything that shows or
passes it on (a view, the game's socket, a template), and keeps how it was made, so the
page can make it once more under the second language.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils import translation
from django.utils.functional import Promise


class Told(str):
    make: Callable[[], str]

    def __new__(cls, make: Callable[[], str]) -> Told:
        told = super().__new__(cls, make())
        told.make = make
        return told

    def __reduce__(self) -> tuple:
        # Stored or sent anywhere (a pickle), it is the text it says: the wording stays here.
        return (str, (str(self),))

    def in_language(self, lang: str) -> str:
        with translation.override(lang):
            return str(self.make())


def told(message: Promise | Callable[[], str]) -> Told:
    """A lazy translation (gettext_lazy) or a function that words the message."""
    if isinstance(message, Promise):
        return Told(lambda: str(message))
    return Told(message)


def in_language(message: str, lang: str) -> str:
    """`message` in `lang` ("" when it cannot say itself again: not a Told)."""
    return message.in_language(lang) if isinstance(message, Told) and message else ""
