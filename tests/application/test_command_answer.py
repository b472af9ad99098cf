"""A command's answer (its events, named and redacted for the seat that sent it) is made when it is
first read: a worker's step never reads it, a REST or socket command reads it once, and what it
reads is what a replay of the same command id answers."""

import uuid

import pytest

from games.application import services

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def counter_match(make_user):
    user = make_user()
    match = services.match_create(game="counter", seats=1, options={}, creator=user)
    services.match_start(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, services.Actor.user(user)


def _add(match, actor, seq, command_id, n=1):
    return services.match_submit_command(match_id=match.pk, seat=0, actor=actor, command_id=command_id,
                                         expected_seq=seq, type_="add", args={"n": n})


def test_the_answer_is_made_once_and_only_when_read(counter_match, monkeypatch):
    match, actor = counter_match
    redacted = []
    redact = services.redact_for_seat

    def counting(*args, **kwargs):
        redacted.append(args[1]["seq"])
        return redact(*args, **kwargs)

    monkeypatch.setattr(services, "redact_for_seat", counting)
    seq = match.head_seq
    for _ in range(2):  # the first may take the locked path, the second the cached fold's
        result = _add(match, actor, seq, uuid.uuid4())
        assert result.seq == seq + 1
        assert redacted == [], "a caller that does not read the events pays nothing for them"
        events = result.events
        assert [ev["seq"] for ev in events] == [seq + 1] and redacted == [seq + 1]
        assert result.events is events and result.as_dict() == {"seq": seq + 1, "events": events}
        assert redacted == [seq + 1], "read twice, made once"
        redacted.clear()
        seq = result.seq


def test_the_answer_read_later_is_the_replay_of_its_command_id(counter_match):
    """Byte for byte: the answer made after the write equals what the same command id answers again."""
    match, actor = counter_match
    command_id = uuid.uuid4()
    first = _add(match, actor, match.head_seq, command_id, n=3)
    _add(match, actor, first.seq, uuid.uuid4())  # the match moves on before the answer is read
    again = _add(match, actor, match.head_seq, command_id, n=3)
    assert again.replayed and not first.replayed
    assert first.as_dict() == again.as_dict()
    assert first.events[0]["text"] and first.events[0]["actor"]["user_id"] == actor.user_id


def test_a_result_has_its_events_or_an_answer():
    assert services.CommandResult(seq=3, events=[]).events == []
    assert services.CommandResult(seq=3, answer=lambda: [{"seq": 3}]).events == [{"seq": 3}]
    with pytest.raises(TypeError):
        services.CommandResult(seq=3)
    with pytest.raises(TypeError):
        services.CommandResult(seq=3, events=[], answer=list)
