"""The staff match page shows both chat channels and hides a message with a recorded reason."""

import pytest
from django.urls import reverse

from games.application import chat
from games.eventstore.models import ChatHide, StaffAccess

pytestmark = pytest.mark.django_db


def test_staff_see_both_channels_and_hide_a_message_with_a_reason(client, make_user, started_pebbles, client_for):
    match, (p0, p1) = started_pebbles()
    watcher, staff = make_user(), make_user(is_staff=True)
    rude = chat.chat_post(match_id=match.pk, user=p0, channel="players", text="<i>you</i> are hopeless")
    chat.chat_post(match_id=match.pk, user=watcher, channel="spectators", text="go go go")
    client.force_login(staff)
    url = reverse("staff:match", args=[match.pk])
    html = client.get(url).content.decode()
    assert "Chat (2)" in html and "&lt;i&gt;you&lt;/i&gt; are hopeless" in html and "go go go" in html
    assert "<i>you</i>" not in html  # escaped by the template

    hide = reverse("staff:chat-hide", args=[match.pk, rude["id"]])
    assert client.post(hide, {"reason": ""}).status_code == 400  # a reason is required
    res = client.post(hide, {"reason": "insulting"})
    assert res.status_code == 302 and res["Location"].endswith(f"#chat-{rude['id']}")
    assert ChatHide.objects.get().reason == "insulting" and ChatHide.objects.get().by == staff
    html = client.get(url).content.decode()
    assert "hidden</strong> by " + staff.username in html and "insulting" in html
    assert client.post(hide, {"reason": "again"}).status_code == 409
    assert StaffAccess.objects.filter(user=staff, match=match).exists()
    # Gone for the players; a message of another match is not found here.
    assert [m["text"] for m in client_for(p1).get(f"/api/matches/{match.pk}/chat/").json()["messages"]] == []
    other, _ = started_pebbles()
    assert client.post(reverse("staff:chat-hide", args=[other.pk, rude["id"]]), {"reason": "x"}).status_code == 404
    # Players cannot use the staff form.
    client.force_login(p0)
    assert client.post(hide, {"reason": "x"}).status_code == 403  # refused: not staff
    assert ChatHide.objects.count() == 1
