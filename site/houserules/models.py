"""A saved house-rules agreement: one immutable row per configuration, found by a short code.

A row is written once and never changed: editing a sheet on the site saves a new row with a
new code, so a printed short link always opens the rules the players signed.
"""

import secrets

from django.db import IntegrityError, models, transaction

#: lower-case letters and digits without the look-alikes 0/o, 1/l/i: easy to type from paper.
CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
CODE_LENGTH = 10  # 31**10 ≈ 8e14 codes: not guessable by walking the space
CODE_PATTERN = f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}"
PAPER_CHOICES = [("a4", "A4"), ("letter", "US Letter")]


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class RowIsImmutable(Exception):
    """A saved agreement was about to be changed in place."""


class HouseRules(models.Model):
    code = models.CharField(max_length=CODE_LENGTH, unique=True, editable=False)
    variant = models.CharField(max_length=32)
    #: every option of the variant with its value, defaults included, as the engine filled
    #: them in when the row was saved (a later change of an engine default does not alter it).
    options = models.JSONField(default=dict)
    names = models.JSONField(default=list)
    place = models.CharField(max_length=80, blank=True)
    date = models.DateField(null=True, blank=True)
    own_rules = models.JSONField(default=list)
    #: one language code, or two for a bilingual sheet (left column first).
    languages = models.JSONField(default=list)
    paper = models.CharField(max_length=8, choices=PAPER_CHOICES, default="a4")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = "house-rules agreement"

    def __str__(self) -> str:
        return f"{self.code} ({self.variant}, {'|'.join(self.languages)})"

    def save(self, *args, **kwargs) -> None:
        if not self._state.adding:
            raise RowIsImmutable(f"house rules {self.code} are never edited; save a new row")
        if self.code:
            super().save(*args, **kwargs)
            return
        for _attempt in range(5):
            self.code = new_code()
            try:
                with transaction.atomic():
                    super().save(*args, **kwargs)
                return
            except IntegrityError:
                continue
        raise IntegrityError("no free short code after 5 attempts")
