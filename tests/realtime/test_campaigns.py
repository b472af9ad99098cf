"""``ws /ws/campaigns/{id}/`` (``campaigns.consumers``): a campaign's page learns at once that the
campaign changed (a player joined or left, it was cancelled), anonymous welcome; nothing for a
refused write; an unknown campaign is refused with 4404. (docs/campaigns.md, "Pages")"""

import uuid

import pytest

from campaigns import services
from campaigns.domain import CampaignRefused

from .conftest import assert_quiet, close_all, db, open_socket, recv, send

pytestmark = pytest.mark.django_db(transaction=True)


def _open_campaign(make_user):
    creator, joiner = make_user(), make_user()
    return services.campaign_create(user=creator, game="harakiri", act=1, seats=2), creator, joiner


async def test_each_committed_campaign_write_reaches_its_watchers_and_a_refused_one_does_not(make_user):
    campaign, creator, joiner = await db(_open_campaign)(make_user)
    path = f"/ws/campaigns/{campaign.pk}/"
    anon, _ = await open_socket(None, path=path)
    player, _ = await open_socket(None, user=creator, path=path)
    for comm in (anon, player):
        assert await recv(comm) == {"type": "hello"}
    # a player joins: both pages are told
    await db(services.campaign_join)(campaign_id=campaign.pk, user=joiner)
    for comm in (anon, player):
        assert await recv(comm) == {"type": "changed"}
    # a refused write (joining twice) tells nobody
    with pytest.raises(CampaignRefused):
        await db(services.campaign_join)(campaign_id=campaign.pk, user=joiner)
    await assert_quiet(anon)
    # the player leaves, then the creator cancels: one push each
    await db(services.campaign_leave)(campaign_id=campaign.pk, user=joiner)
    assert await recv(anon) == {"type": "changed"}
    await db(services.campaign_cancel)(campaign_id=campaign.pk, user=creator)
    assert await recv(anon) == {"type": "changed"}
    await send(anon, {"type": "ping"})
    assert await recv(anon) == {"type": "pong"}
    await send(anon, "not json")
    assert (await recv(anon))["code"] == "malformed"
    await close_all(anon, player)


async def test_an_unknown_campaign_is_refused_with_4404(make_user):
    for raw in (uuid.uuid4(), "not-a-uuid"):
        comm, _ = await open_socket(None, path=f"/ws/campaigns/{raw}/")
        msg = await recv(comm)
        assert msg["type"] == "error" and msg["code"] == "not_found"
        assert (await recv(comm)) == {"type": "__close__", "code": 4404}
        await close_all(comm)
