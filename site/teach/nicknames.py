"""When two nicknames are the same pupil's name (#25).

Nicknames are compared by a key: Unicode NFKC (full-width and compatibility forms), case
folded, accents and other combining marks dropped, letters that look like Latin ones
(Cyrillic, Greek) read as those, and every dash, space and underscore read as one space. So
"Ada", "АDA" (Cyrillic А), "Ádá" and "A\u0308da" are one nickname in a class, and
"Jo-Ann", "Jo\u2011Ann" and "Jo Ann" another. The table holds the look-alikes a phone's
keyboards offer for the Latin alphabet; it is no full Unicode confusables list (UTS #39).
Of the PyPI packages, confusable-homoglyphs (3.3.1) detects mixed scripts but gives no key
to compare by, and confusables (1.2.0) was last released in 2021; neither was taken.
"""

from __future__ import annotations

import re
import unicodedata

#: lower-case letters (after case folding) that look like a Latin letter
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "г": "r",
        "д": "d",
        "е": "e",
        "ё": "e",
        "з": "3",
        "и": "u",
        "й": "u",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "к": "k",
        "л": "n",
        "м": "m",
        "н": "h",
        "о": "o",
        "п": "n",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "ф": "f",
        "х": "x",
        "ц": "u",
        "ч": "4",
        "ш": "w",
        "щ": "w",
        "ъ": "b",
        "ы": "bi",
        "ь": "b",
        "э": "e",
        "ѕ": "s",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "һ": "h",
        "ү": "y",
        "ӏ": "l",
        "ɡ": "g",
        # Greek
        "α": "a",
        "β": "b",
        "γ": "y",
        "δ": "d",
        "ε": "e",
        "ζ": "z",
        "η": "n",
        "θ": "o",
        "ι": "i",
        "κ": "k",
        "λ": "a",
        "μ": "m",
        "ν": "v",
        "ξ": "e",
        "ο": "o",
        "π": "n",
        "ρ": "p",
        "σ": "o",
        "ς": "c",
        "τ": "t",
        "υ": "u",
        "φ": "f",
        "χ": "x",
        "ψ": "w",
        "ω": "w",
        # Latin letters that look like others
        "ı": "i",
        "ȷ": "j",
        "ł": "l",
        "ø": "o",
        "đ": "d",
        "ħ": "h",
        "ŀ": "l",
    }
)
#: dashes, hyphens, spaces and underscores of every kind
SEPARATORS = re.compile(r"[\s\-_\u2010-\u2015\u2212\u2043\ufe58\ufe63\uff0d\u00ad]+")


def nickname_key(nickname: str) -> str:
    """What two nicknames must differ in to be two pupils."""
    text = unicodedata.normalize("NFKC", nickname).casefold()
    text = "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))
    text = text.translate(LOOK_ALIKES)
    return SEPARATORS.sub(" ", text).strip()
