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
    #: the class plays at tables on their phones (#23); the lesson's own game is the demo
    TABLES = "tables"
    MODES = [(WATCH, "the class watches bots"), (TEACHER, "the teacher against bots"),
             (HOT_SEAT, "two players at one keyboard"), (TABLES, "the class plays at tables")]

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
    #: the teacher took the pupil out of the class tables (#23): seated no more
    removed = models.BooleanField(default=False)

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
    #: a class table's game shown large when asked (#23); None: the lesson's own game
    game = models.ForeignKey(Game, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="class_questions")
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


class ClassRound(models.Model):
    """One round of class tables (#23): every pupil of the lesson seated at a table of the
    lesson's variant and options, all tables playing at once on the pupils' phones."""

    SHUFFLE = "shuffle"
    WINNERS = "winners"  # the last round's winners sit together, then the others
    PAIRINGS = [(SHUFFLE, "shuffle"), (WINNERS, "winners with winners")]

    lesson = models.ForeignKey(Lesson, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    #: pupils per table (2; James Bond 2 to 4); a pupil alone at a table plays bot_level
    size = models.PositiveSmallIntegerField(default=2)
    bot_level = models.CharField(max_length=16)
    pairing = models.CharField(max_length=8, choices=PAIRINGS, default=SHUFFLE)
    #: how long a pupil's seat waits for a dropped phone before its bot plays it (play.presence)
    away_ms = models.PositiveIntegerField(default=60_000)
    #: every table paused by the teacher (a pupil's own resume is held meanwhile)
    paused = models.BooleanField(default=False)
    #: the table the projector shows large (0: none)
    large = models.PositiveSmallIntegerField(default=0)
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["lesson", "number"]
        constraints = [models.UniqueConstraint(fields=["lesson", "number"],
                                               name="teach_round_unique_number")]

    def __str__(self) -> str:
        return f"{self.lesson_id} round {self.number}"


class ClassTable(models.Model):
    """A table of a round: one demo game (play.Game), deleted with it."""

    round = models.ForeignKey(ClassRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="class_table")

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"],
                                               name="teach_table_unique_number")]

    def __str__(self) -> str:
        return f"{self.round} table {self.number}"


class ClassSeat(models.Model):
    """A pupil's seat at a table; a pupil holds one seat per round."""

    round = models.ForeignKey(ClassRound, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(ClassTable, on_delete=models.CASCADE, related_name="seats")
    pupil = models.ForeignKey(Pupil, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "pupil"], name="teach_seat_one_per_round"),
            models.UniqueConstraint(fields=["table", "seat"], name="teach_seat_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.pupil} at {self.table} seat {self.seat}"
