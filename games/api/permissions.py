from rest_framework.permissions import BasePermission


class IsStaff(BasePermission):
    """Staff only: anonymous callers get 401, authenticated non-staff 403."""

    message = "staff only"

    def has_permission(self, request, view):
        user = request.user
        return bool(user and user.is_authenticated and user.is_active and user.is_staff)
