from django.contrib import admin

from .models import Round, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "kind", "name", "ready", "takeover")
    readonly_fields = ("number", "kind")


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "game")
    readonly_fields = ("number", "game")


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "variant", "players", "created", "updated")
    list_filter = ("variant",)
    readonly_fields = (
        "code",
        "variant",
        "options",
        "players",
        "creator",
        "sheet",
        "created",
        "updated",
        "removed",
    )
    fields = (*readonly_fields, "presence_s")
    inlines = [SeatInline, RoundInline]
