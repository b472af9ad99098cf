"""The invitation panels' data, for the templates that include them (the lobby's "Invitations for
you" and the match page's invite panel), so that the pages around them need no change of their own."""

from django import template

from games.application import invitations

register = template.Library()


@register.simple_tag
def invitations_for(user) -> list:
    """The invitations ``user`` can still accept (none for an anonymous visitor)."""
    if not getattr(user, "is_authenticated", False):  # anonymous, or a page rendered without a user
        return []
    return invitations.invitations_received(user)


@register.simple_tag
def invitations_sent_for(user, match_id) -> dict:
    """``{"link": doc | None, "users": [doc, ...]}``: ``user``'s open link and invitations of the match."""
    if user is None or not user.is_authenticated:
        return {"link": None, "users": []}
    docs = invitations.invitations_sent(user, match_id=match_id)
    return {"link": next((d for d in docs if d["kind"] == "link"), None),
            "users": [d for d in docs if d["kind"] == "user"]}
