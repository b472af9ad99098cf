"""Staff review of tournaments and their record logs: read-only, like the match log review."""

from django.contrib import admin

from games.eventstore.admin import ReadOnlyStaffAdmin

from .models import (Entrant, MatchReport, ReportResolution, RoundDeadline, TeamInvitation, Tournament, TournamentRecord,
                     TournamentTable)


class RecordInline(admin.TabularInline):
    model = TournamentRecord
    fields = ("seq", "kind", "round", "table", "entrant", "payload", "actor", "at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("seq",)

    def has_view_permission(self, request, obj=None):
        return bool(request.user.is_active and request.user.is_staff)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyStaffAdmin):
    list_display = ("name", "game", "format", "table_size", "teams", "status", "round", "created_at")
    list_filter = ("status", "game", "format")
    search_fields = ("name",)
    inlines = [RecordInline]


@admin.register(Entrant)
class EntrantAdmin(ReadOnlyStaffAdmin):
    list_display = ("name", "tournament", "status", "rating")
    list_filter = ("status",)


@admin.register(TeamInvitation)
class TeamInvitationAdmin(ReadOnlyStaffAdmin):
    list_display = ("tournament", "inviter", "partner", "status", "entrant", "created_at", "decided_at")
    list_filter = ("status",)
    search_fields = ("tournament__name", "inviter__username", "partner__username")


@admin.register(TournamentTable)
class TournamentTableAdmin(ReadOnlyStaffAdmin):
    list_display = ("tournament", "round", "table", "entrant_ids", "match")


@admin.register(RoundDeadline)
class RoundDeadlineAdmin(ReadOnlyStaffAdmin):
    list_display = ("tournament", "round", "due_at")


@admin.register(MatchReport)
class MatchReportAdmin(ReadOnlyStaffAdmin):
    list_display = ("tournament", "round", "table", "seq", "reporter", "created_at")
    search_fields = ("text",)


@admin.register(ReportResolution)
class ReportResolutionAdmin(ReadOnlyStaffAdmin):
    list_display = ("report", "decision", "judge", "record_seq", "at")
