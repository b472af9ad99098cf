from django.contrib import admin

from .models import DeadLetter


@admin.register(DeadLetter)
class DeadLetterAdmin(admin.ModelAdmin):
    """Tasks that exhausted their retries. Read-only; a superuser may delete one once handled."""

    list_display = ("at", "task", "args", "short_error")
    list_filter = ("task", "at")
    search_fields = ("task", "error")
    fields = ("at", "task", "args", "error")
    readonly_fields = fields

    @admin.display(description="error")
    def short_error(self, obj):
        return obj.error if len(obj.error) <= 100 else obj.error[:97] + "..."

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
