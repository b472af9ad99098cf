from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from . import selfservice
from .forms import EmailCheckMixin, UsernameCheckMixin
from .models import LoginSession, Profile, RetiredUsername


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "deleted_at")
    search_fields = ("user__username", "display_name")
    raw_id_fields = ("user",)
    list_select_related = ("user",)
    readonly_fields = ("username_key", "username_skeleton", "username_cased_skeleton", "deleted_at")


@admin.register(RetiredUsername)
class RetiredUsernameAdmin(admin.ModelAdmin):
    """Names given up by a rename (only their account can take them, or a lookalike, again)."""

    list_display = ("username_key", "user", "retired_at")
    search_fields = ("username_key", "username_skeleton", "username_cased_skeleton", "user__username")
    raw_id_fields = ("user",)
    list_select_related = ("user",)
    readonly_fields = ("user", "username_key", "username_skeleton", "username_cased_skeleton", "retired_at")

    def has_add_permission(self, request):
        return False


@admin.register(LoginSession)
class LoginSessionAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "ip", "user_agent")
    search_fields = ("user__username", "ip")
    raw_id_fields = ("user",)
    exclude = ("session_key",)


class CheckedUserCreationForm(UsernameCheckMixin, EmailCheckMixin, AdminUserCreationForm):
    pass


class CheckedUserChangeForm(UsernameCheckMixin, EmailCheckMixin, UserChangeForm):
    pass


class CheckedUserAdmin(UserAdmin):
    """Django's user admin with the lookalike-username check on adding and renaming. A hard delete
    is switched off (match logs refer to users by id); "Delete accounts (anonymize)" does what an
    account holder's own deletion does."""

    add_form = CheckedUserCreationForm
    form = CheckedUserChangeForm
    actions = ["anonymize_accounts"]

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description="Delete accounts (anonymize; their seats show \"deleted player\")",
                  permissions=["change"])
    def anonymize_accounts(self, request, queryset):
        done = 0
        for user in queryset:
            try:
                selfservice.account_anonymize(user)
            except selfservice.InActiveMatch as err:
                self.message_user(request, f"{user.get_username()}: {err.message}", messages.ERROR)
            else:
                done += 1
        if done:
            self.message_user(request, f"{done} account(s) deleted.", messages.SUCCESS)


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, CheckedUserAdmin)
