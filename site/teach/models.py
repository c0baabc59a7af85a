"""Teacher mode's rows: a lesson (a demo game shown to a class), its pupils, the questions
asked while it was paused and the pupils' answers.

A lesson is one play.Game (its primary key is the game's), so everything here is deleted
with the game (prune_games, the admin): the lesson, its pupils, its questions, their answers.
A pupil has no account: a nickname in one lesson, remembered by the browser's signed session.
"""

from __future__ import annotations

import secrets

from django.db import models
from play.models import Game

#: long enough that guessing one at the join limit is hopeless (docs/hardening.md)
CLASS_CODE_DIGITS = 12


def new_class_code() -> str:
    """Twelve digits: typed on a phone's number pad from the projector (groups of four)."""
    return f"{secrets.randbelow(10**CLASS_CODE_DIGITS):0{CLASS_CODE_DIGITS}d}"


class Lesson(models.Model):
    WATCH = "watch"
    TEACHER = "teacher"
    HOT_SEAT = "hotseat"
    MODES = [(WATCH, "the class watches bots"), (TEACHER, "the teacher against bots"),
             (HOT_SEAT, "two players at one keyboard")]

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True,
                                related_name="lesson")
    mode = models.CharField(max_length=8, choices=MODES)
    #: narration and table captions in a second language beside the page's ("": none)
    lang2 = models.CharField(max_length=5, blank=True)
    class_code = models.CharField(max_length=CLASS_CODE_DIGITS, unique=True,
                                  default=new_class_code)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.game} ({self.mode}, class {self.class_code})"

    @property
    def open_question(self) -> Question | None:
        return self.questions.exclude(state=Question.CLOSED).order_by("-number").first()


class Pupil(models.Model):
    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="pupils")
    nickname = models.CharField(max_length=24)
    #: the nickname as compared (teach.nicknames.nickname_key): one pupil per key per lesson
    key = models.CharField(max_length=96)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["lesson", "key"],
                                               name="teach_pupil_unique_key")]

    def __str__(self) -> str:
        return self.nickname


class Question(models.Model):
    """"What would you play here?", asked for one seat in a paused position."""

    OPEN = "open"  # pupils answer; the projector shows the tally
    REVEALED = "revealed"  # the engine's verdict on each answer is shown; answers are final
    CLOSED = "closed"  # the game went on
    STATES = [(OPEN, "open"), (REVEALED, "revealed"), (CLOSED, "closed")]

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="questions")
    number = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    #: the driver's snapshot when it was asked: the answers are judged in exactly this position
    position = models.JSONField()
    #: the game's log length when it was asked (where in the game it belongs)
    log_length = models.PositiveIntegerField()
    state = models.CharField(max_length=8, choices=STATES, default=OPEN)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["lesson", "number"]
        constraints = [models.UniqueConstraint(fields=["lesson", "number"],
                                               name="teach_question_unique_number")]

    def __str__(self) -> str:
        return f"{self.lesson_id} question {self.number}"


class Answer(models.Model):
    """One pupil's answer to one question; answering again replaces it."""

    question = models.ForeignKey(Question, on_delete=models.CASCADE, related_name="answers")
    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="answers")
    #: the move as tapped: type and arguments (the seat and the time are the question's)
    action = models.JSONField()
    #: the move in a canonical form: answers with the same key are the same move
    key = models.CharField(max_length=600)
    #: the engine's verdict in the question's position
    accepted = models.BooleanField()
    reason = models.CharField(max_length=32, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["question", "pupil"],
                                               name="teach_answer_one_per_pupil")]

    def __str__(self) -> str:
        return f"{self.pupil} → {self.key}"
