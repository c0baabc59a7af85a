"""Lessons in the admin: read-only, like the games they show (a lesson changes only through
its own pages); deleting a lesson's game deletes the lesson with its pupils and answers."""

from django.contrib import admin

from .models import Answer, ClassRound, ClassTable, Lesson, Pupil, Question


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class PupilInline(admin.TabularInline):
    model = Pupil
    fields = ("nickname", "created", "removed")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


class QuestionInline(admin.TabularInline):
    model = Question
    fields = ("number", "seat", "state", "log_length", "created")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = True


@admin.register(Lesson)
class LessonAdmin(ReadOnly):
    list_display = ("game", "mode", "class_code", "lang2", "created")
    list_filter = ("mode",)
    search_fields = ("game__id", "class_code")
    readonly_fields = ("game", "mode", "lang2", "class_code", "created")
    inlines = [PupilInline, QuestionInline]


class AnswerInline(admin.TabularInline):
    model = Answer
    fields = ("pupil", "action", "accepted", "reason", "updated")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(Question)
class QuestionAdmin(ReadOnly):
    list_display = ("lesson", "number", "seat", "state", "created")
    readonly_fields = ("lesson", "number", "seat", "state", "log_length", "created")
    exclude = ("position",)
    inlines = [AnswerInline]


class ClassTableInline(admin.TabularInline):
    model = ClassTable
    fields = ("number", "game")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False


@admin.register(ClassRound)
class ClassRoundAdmin(ReadOnly):
    """Class tables' rounds (#23): each table is a demo game, listed with its number."""

    list_display = ("lesson", "number", "size", "bot_level", "pairing", "started", "ended")
    readonly_fields = (
        "lesson",
        "number",
        "size",
        "bot_level",
        "pairing",
        "paused",
        "large",
        "started",
        "ended",
    )
    inlines = [ClassTableInline]
