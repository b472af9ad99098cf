"""Who may open the staff pages: active staff only, as Django's ``staff_member_required`` decided, but
the others get Kamiza's pages instead of the admin's sign-in form ("not authorized"): signed out, the
site's own sign-in page (``settings.LOGIN_URL``) with ``?next=`` back here; signed in without staff
rights, a 403 page that says these pages are for staff and links back to the site
(frontend/templates/403.html, Django's ``handler403``). The views' audit (StaffAccess) is unchanged:
a refused request never reaches a view, so it records nothing."""

from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

STAFF_ONLY = "These pages are for Kamiza's staff only, and your account is not a staff account"


def staff_required(view):
    @wraps(view)
    def guarded(request, *args, **kwargs):
        user = request.user
        if not user.is_authenticated:
            return redirect_to_login(request.get_full_path(), settings.LOGIN_URL)
        if not (user.is_active and user.is_staff):
            raise PermissionDenied(STAFF_ONLY)
        return view(request, *args, **kwargs)
    return guarded
