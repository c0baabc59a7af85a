"""How a game ends, in words: one table per way of winning or of ending without a winner,
with every sentence the site tells it in (as it happens, to the winner, about the winner,
in the class summary's result line). The engine's end reasons are its `end_reason` codes."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from .wording import PlayerWord, Words, WordsSentences, sentence


@dataclass(frozen=True)
class WinWords:
    #: as the story tells it when it happens ("%(player)s has no cards left and wins.")
    event: Promise
    #: to the winner, who reads the page ("You played out every card.")
    you: Promise
    #: about the winner ("%(player)s played out every card.")
    player: Promise
    #: the class summary's result line, with the game's length ("%(time)s")
    result: Promise


@dataclass(frozen=True)
class NoWinnerWords:
    event: Promise
    why: Promise


#: The ways to win by the engine's end reason; a reason not listed is playing out every card.
WINS: WordsSentences[str, WinWords] = {
    "fewer-cards": WinWords(
        gettext_lazy("%(player)s has fewer cards left and wins."),
        gettext_lazy("You had fewer cards left when nobody could play on."),
        gettext_lazy("%(player)s had fewer cards left when nobody could play on."),
        gettext_lazy(
            "%(player)s won after %(time)s, with fewer cards left when nobody could play on."
        ),
    ),
    "call": WinWords(
        gettext_lazy("%(player)s calls with every pile complete and wins."),
        gettext_lazy("You called with every pile complete."),
        gettext_lazy("%(player)s called with every pile complete."),
        gettext_lazy("%(player)s won after %(time)s, calling with every pile complete."),
    ),
    "best-of-five": WinWords(
        gettext_lazy("%(player)s has won three deals and with them the match."),
        gettext_lazy("You won three deals of the best of five."),
        gettext_lazy("%(player)s won three deals of the best of five."),
        gettext_lazy("%(player)s won three deals of the best of five, after %(time)s."),
    ),
    "out": WinWords(
        gettext_lazy("%(player)s has no cards left and wins."),
        gettext_lazy("You played out every card."),
        gettext_lazy("%(player)s played out every card."),
        gettext_lazy("%(player)s won after %(time)s by playing out every card."),
    ),
}

#: The ways to end without a winner; a reason not listed is the game's length cap.
NO_WINNER: dict[str, NoWinnerWords] = {
    "equal-cards": NoWinnerWords(
        gettext_lazy("Both have the same number of cards left: the game is a draw."),
        gettext_lazy("Both had the same number of cards left when nobody could play on."),
    ),
    "no-moves": NoWinnerWords(
        gettext_lazy("Nobody can move any more: the game ends without a winner."),
        gettext_lazy("Nobody could move any more."),
    ),
    "cap": NoWinnerWords(
        gettext_lazy("The game went on too long and ends without a winner."),
        gettext_lazy("The game went on too long."),
    ),
}


def win_words(reason: str | None) -> WinWords:
    return WINS.get(reason or "", WINS["out"])


def no_winner_words(reason: str | None) -> NoWinnerWords:
    return NO_WINNER.get(reason or "", NO_WINNER["cap"])


def won_event(reason: str | None, winner: int | None) -> str:
    """The story's line when a player wins."""
    return str(win_words(reason).event) % Words({"player": PlayerWord(winner)})


def why_won(reason: str | None, winner: int, you: int | None) -> str:
    """Why the game was won, told to `you` (the reader's seat, None for a watcher)."""
    words = win_words(reason)
    if winner == you:
        return str(words.you)
    return sentence(str(words.player) % Words({"player": PlayerWord(winner)}))


def result_of(reason: str | None, winner: int, time: str) -> str:
    """The class summary's result line for a game with a winner; `time` its length in words."""
    text = str(win_words(reason).result)
    return sentence(text % Words({"player": PlayerWord(winner), "time": time}))


def no_winner_why(reason: str | None) -> str:
    """Why a game ended without a winner."""
    return str(no_winner_words(reason).why)


def draw_event(reason: str | None) -> str:
    """The story's line when a game ends without a winner."""
    return str(no_winner_words(reason).event)
