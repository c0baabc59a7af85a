"""What a page's body needs in its <head> and <body> tag, read from the body itself.

A page loads htmx only when its body makes htmx requests, site.js only when it has elements
site.js works on, and carries a CSRF header for htmx only when the body posts with htmx. New
pages get the right scripts without naming them; a new site.js hook joins SITE_JS_HOOKS.
"""

import re

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django_htmx.jinja import htmx_script

register = template.Library()

SITE_JS_HOOKS = ("data-example-viewer", "data-deferred-viewer")
# site.js fetches deferred viewers through htmx.ajax; play.js (the demo's table and the
# sandbox) reads and posts through htmx.ajax at the URLs its game box names.
PLAY_JS_READS = ("data-game-url", "data-try-url")
PLAY_JS_POSTS = ("data-move-url", "data-clock-url")
_USES_HTMX = re.compile(
    r"\s(?:data-)?hx-[a-z-]+=|\s(?:"
    + "|".join(("data-deferred-viewer", *PLAY_JS_READS, *PLAY_JS_POSTS))
    + r")="
)
# A live game page holds a WebSocket (htmx's ws extension, served by django-htmx).
_USES_SOCKET = re.compile(r"\sws-connect=")
_USES_SITE_JS = re.compile(r"\s(?:" + "|".join(SITE_JS_HOOKS) + r")\b")
_POSTS_WITH_HTMX = re.compile(
    r"\s(?:data-)?hx-(?:post|put|patch|delete)=|\s(?:" + "|".join(PLAY_JS_POSTS) + r")="
)


@register.simple_tag
def page_scripts(body: str) -> SafeString:
    """Script tags for the body's needs. No nonce: scripts from 'self' need none."""
    tags = SafeString("")
    if _USES_HTMX.search(body):
        extensions = ["hx-ws"] if _USES_SOCKET.search(body) else []
        tags += htmx_script(nonce=None, extensions=extensions)
    if _USES_SITE_JS.search(body):
        tags += format_html('<script type="module" src="{}"></script>', static("js/site.js"))
    return tags


@register.filter
def uses_htmx(body: str) -> bool:
    return bool(_USES_HTMX.search(body))


@register.filter
def posts_with_htmx(body: str) -> bool:
    return bool(_POSTS_WITH_HTMX.search(body))
