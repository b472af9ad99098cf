"""Live campaign pages: after a campaign write commits, tell the sockets watching that campaign.

Only ``{"type": "campaign.changed"}`` crosses the channel layer (``campaigns.consumers``); each page
then fetches its own server-rendered fragment, as it does after a push of its current phase match.
The layer is at-most-once: a page that misses a push catches up at its next self-refresh.
"""

from django.db import transaction

from games.application.hooks import send_to_group


def campaign_group(campaign_id) -> str:
    return f"campaign.{campaign_id}"


def publish_changed(campaign_id) -> None:
    send_to_group(campaign_group(campaign_id), {"type": "campaign.changed"})


def publish_on_commit(campaign_id) -> None:
    """Publish once the surrounding transaction commits (never for a rolled-back write)."""
    transaction.on_commit(lambda: publish_changed(campaign_id))
