"""Live campaign pages: after a campaign write commits, tell the sockets watching that campaign.

Only ``{"type": "campaign.changed"}`` crosses the channel layer (``campaigns.consumers``); each page
then fetches its own server-rendered fragment, as it does after a push of its current phase match.
The layer is at-most-once: a page that misses a push catches up at its next self-refresh.
"""

from games.application.hooks import send_to_group_on_commit


def campaign_group(campaign_id) -> str:
    return f"campaign.{campaign_id}"


def publish_on_commit(campaign_id) -> None:
    """Publish ``campaign.changed`` once the surrounding transaction commits (never for a rolled-back write)."""
    send_to_group_on_commit(campaign_group(campaign_id), {"type": "campaign.changed"})
