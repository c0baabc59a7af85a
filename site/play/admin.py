"""Stored games in the admin: read-only (a game changes only through its own requests)."""

from django.contrib import admin

from .models import Game, LogEntry


class LogEntryInline(admin.TabularInline):
    model = LogEntry
    fields = ("seq", "t", "kind", "action", "reason")
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = False
    max_num = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "variant", "players", "seats", "over", "winner", "created", "updated")
    list_filter = ("variant", "over")
    search_fields = ("id",)
    date_hierarchy = "created"
    readonly_fields = [f.name for f in Game._meta.fields]
    inlines = [LogEntryInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
