"""Every route of a URLconf, with its path parameters and how to write a path for it."""

import inspect
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.urls import URLResolver, get_resolver
from django.urls.resolvers import LocalePrefixPattern, RegexPattern, RoutePattern
from django.utils import translation

from core.methods import declared_methods

ALL_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"})
ROUTE_PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class Param:
    """A path parameter: the converter's regex says which values reach the view at all."""

    name: str
    regex: str
    slashes: bool  # the `path` converter (or a regex part) may carry "/"

    def reaches_view(self, value: str) -> bool:
        return re.fullmatch(self.regex, value) is not None


@dataclass(frozen=True)
class Route:
    name: str | None
    view: Callable
    parts: tuple  # pattern objects, root first
    params: tuple[Param, ...]

    @property
    def localized(self) -> bool:
        return any(isinstance(part, LocalePrefixPattern) for part in self.parts)

    @property
    def own(self) -> bool:
        """The view is the project's code, not a package's (Django's admin, say)."""
        try:
            source = Path(inspect.getsourcefile(inspect.unwrap(self.view)) or "").resolve()
        except TypeError:
            return False
        return source.is_relative_to(settings.BASE_DIR) and "site-packages" not in source.parts

    @property
    def declared_methods(self) -> frozenset[str]:
        """The methods the view says it answers: core.methods.allow's record, or the handlers
        of a class-based view (Django's generic views answer OPTIONS, form views PUT). A
        package's view answers what its package decided."""
        if not self.own:
            return ALL_METHODS
        allowed = declared_methods(self.view)
        if allowed is not None:
            return allowed
        view_class = getattr(self.view, "view_class", None)
        if view_class is None:
            return frozenset()
        return frozenset(m.upper() for m in view_class.http_method_names if hasattr(view_class, m))

    @property
    def label(self) -> str:
        return "".join(_text(part, "<lang>", i) for i, part in enumerate(self.parts)) or "/"

    def resolver_route(self, lang: str) -> str:
        """What ResolverMatch.route says for this route while `lang` is active."""
        with translation.override(lang):
            return "".join(_text(part, None, i) for i, part in enumerate(self.parts))

    def path(self, lang: str, values: Mapping[str, str]) -> str:
        """A percent-encoded path; values are raw strings (hostile ones included)."""
        out = []
        for i, part in enumerate(self.parts):
            if isinstance(part, LocalePrefixPattern):
                with translation.override(lang):
                    out.append(part.language_prefix)
            elif isinstance(part, RoutePattern):
                quoted = ROUTE_PARAMETER.sub(lambda m: self._quoted(m["name"], values), str(part))
                out.append(quoted)
            else:
                out.append(quote(values[_regex_name(i)], safe="/", errors="surrogateescape"))
        return "/" + "".join(out)

    def _quoted(self, name: str, values: Mapping[str, str]) -> str:
        param = next(p for p in self.params if p.name == name)
        return _quoted_value(param, values[name])


def _quoted_value(param: Param, value: str) -> str:
    return quote(value, safe="/" if param.slashes else "", errors="surrogateescape")


def _regex_name(index: int) -> str:
    return f"regex-part-{index}"


def _text(part: object, locale_placeholder: str | None, index: int) -> str:
    if isinstance(part, LocalePrefixPattern) and locale_placeholder is not None:
        return locale_placeholder + "/"
    text = str(part)
    return text.removeprefix("^") if index else text


def _params(parts: tuple) -> tuple[Param, ...]:
    found = []
    for i, part in enumerate(parts):
        if isinstance(part, RoutePattern):
            for name, converter in part.converters.items():
                slashes = re.fullmatch(converter.regex, "a/b") is not None
                found.append(Param(name, converter.regex, slashes))
        elif isinstance(part, RegexPattern):
            regex = part.regex.pattern.removeprefix("^").removesuffix("$").removesuffix(r"\Z")
            found.append(Param(_regex_name(i), regex, True))
    return tuple(found)


def _walk(patterns: list, parents: tuple) -> Iterator[Route]:
    for entry in patterns:
        parts = (*parents, entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _walk(entry.url_patterns, parts)
        else:
            yield Route(entry.name, entry.callback, parts, _params(parts))


def all_routes(urlconf: str | None = None) -> list[Route]:
    """Every route of the URLconf (the project's unless named), in URLconf order."""
    with translation.override(settings.LANGUAGE_CODE):
        return list(_walk(get_resolver(urlconf).url_patterns, ()))


def route_of(routes: list[Route], match_route: str, lang: str) -> Route | None:
    return next((r for r in routes if r.resolver_route(lang) == match_route), None)
