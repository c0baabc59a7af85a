"""The game page, drawn for a role: the demo's player and watcher, teacher mode's teacher,
follower and pupil, and the examples' sandbox all see one game through this module.

The role decides what is shown: whose seat the table is turned to, whether the page acts
(and for which seats, with which keys), whether every card is face up, whether a paused
table's cards can be asked about, and whether a poll that brings nothing new keeps the
board (the digest). The apps add what only they know (a lesson's questions, the demo's
summary) to the context and name their page template; the answer (a whole page, or for
htmx only the game's part) is put together here.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from enum import StrEnum

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers

from presentation.table import Table, build_table, teaching_hands
from presentation.table.refs import mark_explainable
from rules_engine.game import Game


class Role(StrEnum):
    PLAYER = "player"  # holds a seat of a demo game and plays it
    WATCHER = "watcher"  # has a demo game's link, sees the table as its player does
    TEACHER = "teacher"  # controls a lesson on the projector; may play seats
    FOLLOWER = "follower"  # follows a lesson on a phone
    PUPIL = "pupil"  # a follower who joined the class and answers its questions
    SANDBOX = "sandbox"  # tries moves in a position (an example's, or a class question's)

    @property
    def reveals(self) -> bool:
        """Every card face up (teaching shows what each player holds)."""
        return self not in (Role.PLAYER, Role.WATCHER)

    @property
    def digests(self) -> bool:
        """A poll whose answer shows what is shown keeps the board (static/js/play.js)."""
        return self in (Role.PLAYER, Role.WATCHER)


def table_for(
    role: Role,
    game: Game,
    seats: list[str],
    *,
    seat: int | None = None,
    acting: Sequence[int] = (),
    names: Sequence[str] | None = None,
    paused: bool = False,
    interactive: bool = True,
) -> Table:
    """The table as `role` sees it. `seat`: the player's own seat (PLAYER, SANDBOX) or the
    seat a watcher's table is turned to; `acting`: the seats a teacher plays at one keyboard;
    `names`: the seats' names (a lesson's, a friends' table's); `paused`: the game's clock is
    stopped, so nobody moves (a teacher may then ask about any card); `interactive`: the
    sandbox offers moves."""
    if role is Role.PLAYER:
        return build_table(game, seats, seat, interactive=not paused, names=names)
    if role is Role.WATCHER:
        return build_table(game, seats, seat, interactive=False, watcher=True, names=names)
    if role is Role.SANDBOX:
        return build_table(game, seats, seat, interactive=interactive, reveal=True, names=names)
    hands = {}
    if role is Role.TEACHER and acting and not paused:
        hands = teaching_hands(game.variant.family, list(acting))
    table = build_table(
        game, seats, 0, interactive=bool(hands), reveal=True, hands=hands, names=names
    )
    if role is Role.TEACHER and paused:
        mark_explainable(table)
    return table


#: what differs between two answers showing the same game: the next request's delay, the
#: lines for the live region (read out once, from the answer that brought them) and the
#: per-request token and nonce
PER_REQUEST = re.compile(
    r'<div class="poll"[^>]*></div>|<div hidden data-announce>.*?</div>'
    r'|name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"',
    re.S,
)


def state_digest(state: str) -> str:
    """A fingerprint of what a board answer shows: equal for two answers that would look
    the same, so the page keeps its board (and the focus and choice on it) for a poll
    that brings nothing new (static/js/play.js)."""
    return hashlib.blake2b(PER_REQUEST.sub("", state).encode(), digest_size=12).hexdigest()


def render_game(
    request: HttpRequest,
    role: Role,
    *,
    template: str,
    context: dict,
    version: int,
    status: int = 200,
) -> HttpResponse:
    """The game's page for `role`, or for htmx only its game part: the partial `game` of
    `template`, rendered once (the whole page puts the same string in its place)."""
    fragment = bool(request.htmx)
    context = {**context, "role": role.value, "fragment": fragment}
    state = render_to_string(f"{template}#game", context, request)
    digest = state_digest(state) if role.digests else ""
    if fragment:
        response = HttpResponse(state, status=status)
    else:
        page = {**context, "state": state, "state_digest": digest}
        response = render(request, template, page, status=status)
    response["X-Game-Version"] = str(version)
    if digest:
        response["X-Game-Digest"] = digest
    patch_vary_headers(response, ["HX-Request"])
    return response
