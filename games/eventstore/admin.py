"""Admin for the event store: a place to *look*, never to write.

Events and command records are append-only (PostgreSQL refuses UPDATE/DELETE on them; see
migration 0002): every admin here refuses add, change and delete for them, and matches are
created only through the write path (``games.application.services``), never by the admin.
Reading unredacted payloads is recorded as a ``StaffAccess`` row, like the staff pages do.
Any active staff member may review (view permission follows ``is_staff``), so log review does not
depend on hand-assigned model permissions.
"""

import uuid

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.urls import reverse
from django.utils.html import format_html

from games.kernel.digits import ascii_int

from .models import EventAnnotation, Match, MatchCommand, MatchEvent, StaffAccess


def _is_staff(request) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff)


# Who may not read a match here is decided above this layer (``selectors.staff_read_check``: a staff
# member seated in it, or barred from watching it as a player of its tournament, while it runs); the
# games app registers it at start-up. Each guard returns why ``user`` may not read ``match``, or None.
_read_guards: list = []


def read_guard_register(guard) -> None:
    if guard not in _read_guards:
        _read_guards.append(guard)


def _refused_to_a_player(request, match) -> None:
    """A staff member who plays in ``match`` (or in its tournament) reads none of its events or
    commands here while it runs (403), as the staff pages and API refuse them."""
    for guard in _read_guards:
        why = guard(match, request.user)
        if why:
            raise PermissionDenied(why)


def record_access(request, what: str, match=None) -> None:
    StaffAccess.objects.create(user=request.user, match=match, what=what[:200])


class ReadOnlyStaffAdmin(admin.ModelAdmin):
    """Viewable by every active staff member; nobody can add, change or delete through the admin."""

    def has_module_permission(self, request):
        return _is_staff(request)

    def has_view_permission(self, request, obj=None):
        return _is_staff(request)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


def _uuid_or_none(term: str):
    try:
        return uuid.UUID(term.strip())
    except (ValueError, AttributeError):
        return None


class PlayerFilter(admin.SimpleListFilter):
    """Matches a user sat in (MatchSummary.players); lists the 100 most recently active players."""

    title = "player"
    parameter_name = "player"

    def lookups(self, request, model_admin):
        users = (
            get_user_model().objects.filter(match_summaries__isnull=False)
            .distinct().order_by("username")[:100]
        )
        return [(str(u.pk), u.get_username()) for u in users]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        user_id = ascii_int(str(value))
        if user_id is None:
            return queryset.none()
        return queryset.filter(summary__players__id=user_id).distinct()


class StatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request, model_admin):
        return [(s, s) for s in ("open", "active", "finished", "abandoned")]

    def queryset(self, request, queryset):
        value = self.value()
        return queryset.filter(summary__status=value) if value else queryset


@admin.register(Match)
class MatchAdmin(ReadOnlyStaffAdmin):
    list_display = ("id", "game", "status", "players", "created_at", "head_seq", "staff_page")
    list_filter = ("game", StatusFilter, PlayerFilter, "created_at")
    date_hierarchy = "created_at"
    search_fields = ("id", "created_by__username")
    list_select_related = ("summary", "created_by")
    fields = (
        "id", "game", "engine_version", "seat_count", "options", "created_by", "created_at",
        "seed_hash", "head_seq", "status", "players", "staff_page", "events_link",
    )
    readonly_fields = fields  # ``seed`` stays out: it is secret until the match ends

    @admin.display(description="status", ordering="summary__status")
    def status(self, obj):
        summary = getattr(obj, "summary", None)
        return summary.status if summary else "-"

    @admin.display(description="players")
    def players(self, obj):
        summary = getattr(obj, "summary", None)
        if summary is None:
            return "-"
        names = [
            f"{s['username']} (bot)" if s.get("bot") else s["username"]
            for s in summary.seats if s
        ]
        return ", ".join(names) or "-"

    @admin.display(description="staff page")
    def staff_page(self, obj):
        return format_html('<a href="{}">review log</a>', reverse("staff:match", args=[obj.pk]))

    @admin.display(description="events")
    def events_link(self, obj):
        url = reverse("admin:eventstore_matchevent_changelist") + f"?match__id__exact={obj.pk}"
        return format_html('<a href="{}">{} events</a>', url, obj.head_seq)

    def get_search_results(self, request, queryset, search_term):
        """A full uuid finds that match (UUID text search is backend dependent); otherwise match
        any player's username, the creator's username, or a uuid prefix."""
        term = search_term.strip()
        if not term:
            return queryset, False
        as_uuid = _uuid_or_none(term)
        if as_uuid is not None:
            return queryset.filter(pk=as_uuid), False
        q = Q(summary__players__username__icontains=term) | Q(created_by__username__icontains=term)
        q |= Q(summary__seats__icontains=term)  # bot names and usernames recorded in the seats
        hexpart = term.replace("-", "").lower()
        if hexpart and all(c in "0123456789abcdef" for c in hexpart) and len(hexpart) <= 32:
            low = uuid.UUID(hexpart.ljust(32, "0"))
            high = uuid.UUID(hexpart.ljust(32, "f"))
            q |= Q(pk__gte=low, pk__lte=high)
        return queryset.filter(q).distinct(), True


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyStaffAdmin):
    list_display = ("match_id", "seq", "type", "version", "actor_kind", "at")
    list_filter = ("type",)
    search_fields = ("type",)
    list_select_related = ("match",)
    fields = ("match", "seq", "type", "version", "payload", "actor", "command_id", "at", "staff_page")
    readonly_fields = fields
    list_per_page = 100

    @admin.display(description="actor")
    def actor_kind(self, obj):
        actor = obj.actor or {}
        return f"{actor.get('kind', '?')} seat={actor.get('seat')}"

    @admin.display(description="staff page")
    def staff_page(self, obj):
        url = reverse("staff:match", args=[obj.match_id]) + f"?at={obj.seq}"
        return format_html('<a href="{}">state at this event</a>', url)

    def changelist_view(self, request, extra_context=None):
        match = None
        match_id = _uuid_or_none(request.GET.get("match__id__exact", ""))
        if match_id is not None:
            match = Match.objects.filter(pk=match_id).first()
        record_access(request, "admin event list", match)
        return super().changelist_view(request, extra_context)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "GET":
            pk = ascii_int(str(object_id))
            event = None if pk is None else MatchEvent.objects.filter(pk=pk).select_related("match").first()
            if event is not None:
                _refused_to_a_player(request, event.match)
                record_access(request, f"admin event seq={event.seq}", event.match)
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(MatchCommand)
class MatchCommandAdmin(ReadOnlyStaffAdmin):
    """A command's args may hold a seat's secret choice: reading one is recorded like an event's."""

    list_display = ("match_id", "command_id", "seat", "kind", "type", "first_seq", "last_seq", "at")
    fields = ("match", "command_id", "seat", "kind", "type", "args", "actor", "expected_seq", "fingerprint",
              "first_seq", "last_seq", "at")
    readonly_fields = fields
    list_select_related = ("match",)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if request.method == "GET":
            pk = ascii_int(str(object_id))
            command = None if pk is None else MatchCommand.objects.filter(pk=pk).select_related("match").first()
            if command is not None:
                _refused_to_a_player(request, command.match)
                record_access(request, f"admin command seq={command.first_seq}", command.match)
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(StaffAccess)
class StaffAccessAdmin(ReadOnlyStaffAdmin):
    list_display = ("at", "user", "what", "match_id")
    list_filter = ("at",)
    search_fields = ("what", "user__username")
    list_select_related = ("user",)
    fields = ("at", "user", "match", "what")
    readonly_fields = fields


@admin.register(EventAnnotation)
class EventAnnotationAdmin(admin.ModelAdmin):
    """Staff notes sit beside events; they may be written and corrected, the events never."""

    list_display = ("match_id", "seq", "author", "at", "short_note")
    search_fields = ("note", "author__username")
    list_select_related = ("author",)
    raw_id_fields = ("match",)
    readonly_fields = ("author", "at")
    fields = ("match", "seq", "note", "author", "at")

    @admin.display(description="note")
    def short_note(self, obj):
        return obj.note if len(obj.note) <= 80 else obj.note[:77] + "..."

    def save_model(self, request, obj, form, change):
        if not change:
            obj.author = request.user
        super().save_model(request, obj, form, change)

