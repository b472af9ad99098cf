"""The chat and rematch tables beside the log are append-only like it: on PostgreSQL the database
refuses UPDATE and DELETE of their rows (games/eventstore/append_only.py)."""

import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from games.application import chat, rematch
from games.eventstore.models import ChatHide, ChatMessage, Rematch, RematchVote

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the append-only trigger is PostgreSQL's"),
]

TABLES = {"eventstore_chatmessage": ChatMessage, "eventstore_chathide": ChatHide,
          "eventstore_rematchvote": RematchVote, "eventstore_rematch": Rematch}


def test_postgresql_refuses_changes_to_chat_and_rematch_rows(finished_pebbles, make_user):
    match, (p0, p1) = finished_pebbles()
    said = chat.chat_post(match_id=match.pk, user=p0, channel="players", text="gg")
    chat.chat_hide(message_id=said["id"], user=make_user(is_staff=True), reason="test")
    rematch.rematch_accept(match_id=match.pk, user=p0)
    rematch.rematch_accept(match_id=match.pk, user=p1)
    for table, model in TABLES.items():
        for statement in (f"UPDATE {table} SET id = id", f"DELETE FROM {table}"):
            with pytest.raises(DatabaseError, match="append-only"):
                with transaction.atomic(), connection.cursor() as cursor:
                    cursor.execute(statement)
        assert model.objects.exists()
