"""The staff audit trail: every unredacted read (log, state, seat views) leaves a StaffAccess row."""

from games.eventstore.models import Match, StaffAccess

WHAT_MAX = 200  # StaffAccess.what's length


def staff_access_record(*, user, match: Match | None, what: str) -> StaffAccess:
    return StaffAccess.objects.create(user=user, match=match, what=what[:WHAT_MAX])
