"""Saved agreements in the admin: to look up and delete (they hold names), never to edit."""

from django.contrib import admin

from .models import HouseRules


@admin.register(HouseRules)
class HouseRulesAdmin(admin.ModelAdmin):
    list_display = ("code", "variant", "languages", "paper", "created")
    list_filter = ("variant", "paper")
    search_fields = ("code",)
    date_hierarchy = "created"
    readonly_fields = (
        "code", "variant", "options", "names", "place", "date", "own_rules", "languages",
        "paper", "created",
    )

    def has_add_permission(self, request) -> bool:
        return False  # rows come from the site's save button only

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # a row is never edited: a change is a new row with a new code
