"""Display preferences a visitor can switch on: they persist in cookies, work without JS."""

from dataclasses import dataclass

from django.http import HttpRequest

COOKIE_MAX_AGE = 60 * 60 * 24 * 365
PREFERENCES = ("large", "fourcolour")


@dataclass(frozen=True)
class Preferences:
    large: bool = False
    fourcolour: bool = False

    @property
    def html_classes(self) -> str:
        classes = []
        if self.large:
            classes.append("large-type")
        if self.fourcolour:
            classes.append("four-colour")
        return " ".join(classes)


def read_preferences(request: HttpRequest) -> Preferences:
    return Preferences(**{name: request.COOKIES.get(f"pref-{name}") == "1" for name in PREFERENCES})
