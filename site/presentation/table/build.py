"""The table as one page sees it, put together by the game family's presenter."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import translation

from presentation.board import zone_label
from rules_engine.game import SPECTATOR, Game

from .model import DEMO_KEYS, Command, Hands, Keys, SeatView, Table
from .names import seat_name
from .presenter import TablePresenter
from .registry import presenter_class, presenter_for


def build_table(
    game: Game,
    seats: list[str],
    viewer: int | None,
    *,
    interactive: bool,
    reveal: bool = False,
    hands: dict[int, Keys] | None = None,
    names: Sequence[str] | None = None,
    watcher: bool = False,
) -> Table:
    """The table seen from `viewer`'s seat; `interactive` when the viewer holds that seat and
    may act. `reveal` shows what the teaching view shows (the examples' sandbox): every held
    pile face up, as the examples do, while the viewer still acts for one seat. A `watcher`
    sees the table turned to `viewer`'s seat without being that player: no seat is "you".

    `hands` names the seats the page acts for and their keys (default: the viewer's seat
    with the demo's keys); `names` replaces the seats' names (teacher mode names its own)."""
    presenter = presenter_for(game)
    # A watcher sees what anyone at the table sees: no seat's hidden cards.
    board = game.board(None if reveal else SPECTATOR if watcher else viewer)
    interactive = interactive and not game.over
    you = None if watcher else viewer
    if hands is None:
        hands = {viewer: DEMO_KEYS} if viewer is not None else {}
    acting = Hands(dict(hands) if interactive else {})
    lead = next(iter(acting.keys), None)
    n = game.players
    centre = presenter.centre(board, acting)
    commands: list[Command] = []
    for seat, keys in acting.keys.items():
        commands += presenter.commands(board, keys, acting.owner(seat))
    # The hint speaks to the one player the page plays for (none: what all can see).
    said = presenter.hint(board, None if acting.multi else lead)
    hint, touch_hint = (said, said) if isinstance(said, str) else (said.keys, said.touch)
    order = list(range(n)) if viewer is None else [(viewer + i) % n for i in range(1, n)]

    def view(seat: int) -> SeatView:
        return _seat_view(presenter, board, seats, seat, viewer, acting, names, you)

    opponents = [view(s) for s in order if s != viewer]
    own = view(viewer) if viewer is not None else None
    key_help = (
        presenter.key_help()
        if acting.keys and not acting.multi and (acting.keys.get(lead) is DEMO_KEYS)
        else []
    )
    return Table(
        variant=game.variant.slug,
        family=game.variant.family,
        players=n,
        phase=board["phase"],
        interactive=bool(acting.keys),
        centre=centre,
        opponents=opponents,
        own=own,
        commands=commands,
        hint=hint if not game.over else "",
        touch_hint=touch_hint if not game.over else "",
        key_help=key_help,
    )


def _seat_view(
    presenter: TablePresenter,
    board: dict,
    seats: list[str],
    seat: int,
    viewer: int | None,
    acting: Hands,
    names: Sequence[str] | None,
    you: int | None,
) -> SeatView:
    keys = acting.keys.get(seat)
    prefix = "o" if seat == viewer else f"p{seat}"
    zones = presenter.seat_zones(board, board["seats"][seat], keys, acting.owner(seat), prefix)
    name = names[seat] if names is not None else seat_name(seat, seats, you)
    return SeatView(
        seat=seat,
        name=name,
        you=seat == you,
        zones=zones,
        notes=presenter.notes(board, seat),
        acting=keys is not None,
    )


def teaching_hands(family: str, acting: list[int]) -> dict[int, Keys]:
    """The keys of the seats a teacher's page acts for: the first seat's on the left."""
    sides = presenter_class(family).teach_keys
    return {seat: sides[i] for i, seat in enumerate(acting[:2])}


def key_legend(game: Game, keys: Keys, commands: dict[str, str]) -> list[tuple[str, str]]:
    """What each of a teacher-mode player's keys does (TablePresenter.legend)."""
    return presenter_for(game).legend(keys, commands)


def second_language(table: Table, lang: str, names: Sequence[str]) -> None:
    """The captions and seat names in a second language beside the first (teacher mode's
    bilingual table); `names`: the seats' names in that language."""
    with translation.override(lang):
        for view in table.seats:
            view.name_alt, view.lang_alt = names[view.seat], lang
            for zone in view.zones:
                zone.label_alt, zone.lang_alt = zone_label(zone.id, zone.kind, table.variant), lang
        for zone in table.centre:
            zone.label_alt, zone.lang_alt = zone_label(zone.id, zone.kind, table.variant), lang
