"""Class questions: while the game is paused the teacher asks “what would you play here?”
for one seat; pupils answer on their own copy of that position; the projector shows the tally
and then the engine's verdict on each answer.

The position is the driver's snapshot at the moment of asking, stored with the question, so
an answer is judged in exactly that position whatever the game does later. The verdict is
the engine's: the answer applied to the position as “explain this” judges a move
(teach.explain.judging_time).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max
from play.models import Game

from presentation.reasons import reason_text
from rules_engine.actions import Action
from rules_engine.driver import Driver
from rules_engine.game import Game as EngineGame
from rules_engine.registry import VARIANTS

from .explain import judging_time
from .models import Answer, Lesson, Pupil, Question
from .narration import move_words, tried_words
from .nicknames import nickname_key
from .signals import ALL, TEACHER, announce

MAX_NICKNAME = 24


class QuestionError(ValueError):
    """A question command that does not fit the lesson's state (the message says why)."""


def position(question: Question) -> EngineGame:
    return Driver.from_json(question.position).game


def ask(lesson: Lesson, row: Game, seat: int) -> Question:
    """A new open question for `seat` in the current (paused) position of `row`: the
    lesson's own game, or a class table's game (#23: the table shown large)."""
    if not row.paused or row.over:
        raise QuestionError("not-paused")
    if not 0 <= seat < row.players:
        raise QuestionError("seat")
    with transaction.atomic():
        if lesson.questions.exclude(state=Question.CLOSED).exists():
            raise QuestionError("open")
        number = (lesson.questions.aggregate(n=Max("number"))["n"] or 0) + 1
        asked = Question.objects.create(lesson=lesson, number=number, seat=seat,
                                        position=row.snapshot, log_length=row.log_length,
                                        game=None if row.pk == lesson.pk else row)
    announce(lesson.pk, ALL)
    return asked


def game_of(question: Question) -> Game:
    """The game the question is about (its seats, its players' names)."""
    return question.game if question.game_id else question.lesson.game


def reveal(question: Question) -> None:
    if question.state == Question.OPEN:
        question.state = Question.REVEALED
        question.save(update_fields=["state"])
        announce(question.lesson_id, ALL)


def close_all(lesson: Lesson) -> None:
    if lesson.questions.exclude(state=Question.CLOSED).update(state=Question.CLOSED):
        announce(lesson.pk, ALL)


def close_tables(lesson: Lesson) -> None:
    """Close a question about a class table (#23): its table plays on or its round ended."""
    open_ = lesson.questions.exclude(state=Question.CLOSED).filter(game__isnull=False)
    if open_.update(state=Question.CLOSED):
        announce(lesson.pk, ALL)


def answer_key(action: dict) -> str:
    """The move as answers are compared: its type and arguments, without the aimed-at top
    (a tap on a pile names it; the same move without it is the same answer)."""
    data = {k: v for k, v in action.items()
            if k not in ("t", "player", "onto") and v is not False}
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def judge(question: Question, action: dict) -> tuple[bool, str]:
    """The engine's verdict on the answer in the question's position: (accepted, reason)."""
    game = position(question)
    try:
        move = Action.from_json({**action, "t": judging_time(game), "player": question.seat})
    except (TypeError, ValueError):
        return False, "bad-action"
    result = game.apply(move)
    return result.accepted, result.reason or ""


#: engine reasons that mean the answer is not a move of this game at all
UNREADABLE = frozenset({"bad-action", "unknown-action", "bad-player"})


def move_text(action: dict, variant: str) -> str:
    """An answer in words, as a button names it (an answer the engine refused may name
    anything): the tally's rows."""
    return move_words(action, VARIANTS[variant].family, variant)


def answered_text(action: dict, variant: str) -> str:
    """An answer as what the pupil did ("play the … onto …"), for "You answered: …"."""
    return tried_words(action, VARIANTS[variant].family, variant)


def answer(question: Question, pupil: Pupil, action: dict) -> Answer:
    """Store the pupil's answer, replacing an earlier one (the question must be open)."""
    if question.state != Question.OPEN:
        raise QuestionError("closed")
    accepted, reason = judge(question, action)
    key = answer_key(action)
    if reason in UNREADABLE or len(key) > Answer._meta.get_field("key").max_length:
        raise QuestionError("shape")
    found, _created = Answer.objects.update_or_create(
        question=question, pupil=pupil,
        defaults={"action": action, "key": key, "accepted": accepted, "reason": reason})
    # Only the projector's tally changes: the pupil's own page has its answer's response.
    announce(question.lesson_id, TEACHER)
    return found


def clean_nickname(raw: str) -> str:
    """A nickname as shown: printable, single spaces, at most MAX_NICKNAME characters, with
    at least one letter or digit that counts (not only marks or dashes)."""
    text = "".join(ch for ch in raw if ch.isprintable())
    text = " ".join(text.split())[:MAX_NICKNAME]
    return text if nickname_key(text) else ""


def join(lesson: Lesson, nickname: str, pupil: Pupil | None = None) -> Pupil | None:
    """The browser's pupil in the lesson under `nickname`: a new one, or `pupil` (the one
    this browser joined as already: one pupil per browser per lesson) renamed; None when
    another pupil's nickname reads the same (teach.nicknames)."""
    key = nickname_key(nickname)
    try:
        with transaction.atomic():
            if pupil is None:
                pupil = Pupil.objects.create(lesson=lesson, nickname=nickname, key=key)
                announce(lesson.pk, TEACHER)  # the tally counts the class's pupils
            elif (pupil.nickname, pupil.key) != (nickname, key):
                pupil.nickname, pupil.key = nickname, key
                pupil.save(update_fields=["nickname", "key"])
            return pupil
    except IntegrityError:
        return None


@dataclass(frozen=True)
class TallyRow:
    move: str
    count: int
    accepted: bool
    reason: str


@dataclass(frozen=True)
class Tally:
    question: Question
    seat: int
    answers: int
    pupils: int
    rows: list[TallyRow]

    @property
    def revealed(self) -> bool:
        return self.question.state == Question.REVEALED


def tally(question: Question) -> Tally:
    """The answers grouped by move, most chosen first, each with the engine's verdict."""
    answers = list(question.answers.all())
    counts = Counter(a.key for a in answers)
    first = {}
    for a in answers:
        first.setdefault(a.key, a)
    variant = question.lesson.game.variant
    rows = [TallyRow(move_text({**first[key].action, "player": question.seat}, variant), count,
                     first[key].accepted, reason_text(first[key].reason) if first[key].reason
                     else "")
            for key, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    return Tally(question, question.seat, len(answers), question.lesson.pupils.count(), rows)
