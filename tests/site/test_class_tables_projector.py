"""What the projector of class tables is sent after a change at a table (#23, live.tables and
teach.overview.changes): the changed table's small board only, the leaderboard once a table
has finished, the whole overview for the table shown large; and a class table's second
language, read as stored on every page."""

from __future__ import annotations

import pytest
from django.utils import timezone
from live.tables import changes_frame, whole
from play import service
from play.models import Game
from play.page import second_language_of
from teach import questions, seating
from teach.models import ClassRound, ClassTable, Lesson
from teach.tables_board import table_language

from tests.site.class_tables_support import play_table_to_the_end
from tests.site.test_live_lessons import new_lesson
from tests.site.test_live_tables import a_move

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def phones_never_away(settings):
    settings.PLAY_AWAY_GRACE_MS = 10**9  # no pupil's phone holds a socket here


def seated(names: tuple[str, ...] = ("Ada", "Bo", "Cy", "Di"), lang2: str = "") -> Lesson:
    lesson = new_lesson("stress-se", ("club", "club"))
    if lang2:
        Lesson.objects.filter(pk=lesson.pk).update(lang2=lang2)
    for name in names:
        questions.join(lesson, name)
    seating.start_round(
        lesson, size=2, level="club", pairing="shuffle", wall=timezone.now(), away_ms=60_000
    )
    return lesson


def game_at(lesson: Lesson, number: int) -> str:
    return seating.current_round(lesson).tables.get(number=number).game_id


def test_a_move_sends_only_its_tables_board():
    lesson = seated()
    frame, seats, urls = whole(lesson.pk, "en")
    assert 'id="table-1"' in frame and 'id="table-2"' in frame
    version = a_move(lesson)
    one, two = game_at(lesson, 1), game_at(lesson, 2)
    sent = changes_frame(seats, urls, "en", frozenset({one}), seats.over)
    assert sent is not None and list(sent.boards) == [one] and sent.rest == ""
    board = sent.boards[one]
    assert board.startswith('<li class="tableau" id="table-1" ')
    assert f'data-game="{one}" data-version="{version}" hx-swap-oob="outerHTML">' in board
    assert "Ada" in board or "Bo" in board or "Cy" in board or "Di" in board
    assert two not in board and "Leaderboard" not in board
    # A game of no table of the round (an old round's, or not a class table) sends nothing.
    other = service.start_game("stress-se", ["club", "club"], wall=timezone.now()).pk
    assert changes_frame(seats, urls, "en", frozenset({other}), seats.over).boards == {}


def test_a_finished_table_sends_the_round_line_and_the_leaderboard_once():
    lesson = seated()
    _frame, seats, urls = whole(lesson.pk, "en")
    one = game_at(lesson, 1)
    row = play_table_to_the_end(Game.objects.get(pk=one))
    assert row.over
    sent = changes_frame(seats, urls, "en", frozenset({one}), seats.over)
    assert sent is not None and sent.over == {one}
    assert "Winner:" in sent.boards[one]
    assert '<p class="tables__round" id="tables-round" hx-swap-oob="outerHTML">' in sent.rest
    assert "1 table playing" in sent.rest
    assert '<aside class="tables__side" id="tables-side" hx-swap-oob="outerHTML">' in sent.rest
    winner = ClassTable.objects.get(game_id=one).seats.get(seat=row.winner).pupil.nickname
    assert f'<th scope="row">{winner}</th><td>1</td>' in sent.rest
    # Known finished: the next change of the table sends its board alone again.
    again = changes_frame(seats, urls, "en", frozenset({one}), sent.over)
    assert again is not None and again.rest == "" and list(again.boards) == [one]


def test_a_change_at_the_table_shown_large_sends_the_whole_overview():
    lesson = seated()
    ClassRound.objects.filter(lesson=lesson).update(large=1)
    _frame, seats, urls = whole(lesson.pk, "en")
    one, two = game_at(lesson, 1), game_at(lesson, 2)
    assert changes_frame(seats, urls, "en", frozenset({one}), seats.over) is None
    assert changes_frame(seats, urls, "en", frozenset({two}), seats.over) is not None


def test_the_second_language_is_read_as_stored_never_kept():
    lesson = seated(("Ada", "Bo"), lang2="sv")
    row = Game.objects.get(pk=game_at(lesson, 1))
    assert table_language(row) == "sv" and second_language_of(row) == "sv"
    Lesson.objects.filter(pk=lesson.pk).update(lang2="de")
    assert table_language(row) == "de"
    Lesson.objects.filter(pk=lesson.pk).update(lang2="")
    assert table_language(row) == "" and second_language_of(row) == ""
    # A game whose table row comes after its first page (drawn while the class is seated).
    late = service.start_game("stress-se", ["human", "human"], wall=timezone.now())
    assert table_language(late) == ""
    Lesson.objects.filter(pk=lesson.pk).update(lang2="fi")
    ClassTable.objects.create(round=seating.current_round(lesson), number=9, game=late)
    assert table_language(late) == "fi" and table_language(row) == "fi"
