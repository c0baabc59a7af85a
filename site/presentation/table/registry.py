"""Which presenter draws a game's table: one per engine family (VariantInfo.family). A new
variant of a known family needs nothing here; a new family adds its presenter below."""

from __future__ import annotations

from rules_engine.game import Game

from .james_bond import JamesBondPresenter
from .presenter import TablePresenter
from .speed import SpeedPresenter
from .spit import SpitPresenter

PRESENTERS: dict[str, type[TablePresenter]] = {
    presenter.family: presenter for presenter in (SpeedPresenter, SpitPresenter, JamesBondPresenter)
}


def presenter_class(family: str) -> type[TablePresenter]:
    return PRESENTERS[family]


def presenter_for(game: Game) -> TablePresenter:
    """The presenter of `game`'s table."""
    return PRESENTERS[game.variant.family](game)
