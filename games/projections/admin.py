"""Read models in the admin: read-only. They are derived from the event stream; to repair one,
run ``manage.py rebuild_projections --fix`` rather than editing rows by hand."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from games.eventstore.admin import ReadOnlyStaffAdmin

from .models import MatchDeadline, MatchSummary, PlayerRecord


@admin.register(MatchSummary)
class MatchSummaryAdmin(ReadOnlyStaffAdmin):
    list_display = ("match_id", "status", "phase", "seq", "awaiting", "winners", "updated_at", "staff_page")
    list_filter = ("status", "match__game", "updated_at")
    search_fields = ("players__username",)
    fields = ("match", "status", "phase", "seq", "seats", "awaiting", "winners", "players", "updated_at")
    readonly_fields = fields

    @admin.display(description="staff page")
    def staff_page(self, obj):
        return format_html('<a href="{}">review log</a>', reverse("staff:match", args=[obj.match_id]))

    def get_search_results(self, request, queryset, search_term):
        queryset, dup = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), dup


@admin.register(PlayerRecord)
class PlayerRecordAdmin(ReadOnlyStaffAdmin):
    list_display = ("user", "game", "played", "won")
    list_filter = ("game",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    fields = ("user", "game", "played", "won")
    readonly_fields = fields


@admin.register(MatchDeadline)
class MatchDeadlineAdmin(ReadOnlyStaffAdmin):
    list_display = ("match_id", "seq", "seats", "due_at")
    fields = ("match", "seq", "seats", "due_at")
    readonly_fields = fields
