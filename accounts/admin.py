from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from .forms import UsernameCheckMixin
from .models import LoginSession, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("user", "display_name", "deleted_at")
    search_fields = ("user__username", "display_name")
    raw_id_fields = ("user",)
    list_select_related = ("user",)
    readonly_fields = ("username_key", "deleted_at")


@admin.register(LoginSession)
class LoginSessionAdmin(admin.ModelAdmin):
    list_display = ("user", "created_at", "ip", "user_agent")
    search_fields = ("user__username", "ip")
    raw_id_fields = ("user",)
    exclude = ("session_key",)


class CheckedUserCreationForm(UsernameCheckMixin, AdminUserCreationForm):
    pass


class CheckedUserChangeForm(UsernameCheckMixin, UserChangeForm):
    pass


class CheckedUserAdmin(UserAdmin):
    """Django's user admin with the lookalike-username check on adding and renaming."""

    add_form = CheckedUserCreationForm
    form = CheckedUserChangeForm


User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, CheckedUserAdmin)
