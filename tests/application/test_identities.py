"""What a seat shows of its player: the names look-up (current username, or "deleted player"), and
when its answer may be kept."""

import pytest

from games.application import identities, selectors


def _counting_lookup(monkeypatch, deleted, renamed=None):
    calls = []

    def lookup(ids):
        calls.append(set(ids))
        return {i: None if i in deleted else (renamed or {}).get(i, f"user{i}") for i in ids}

    monkeypatch.setattr(identities, "_names_lookup", lookup)
    identities.running_clear()
    return calls


def test_a_running_matchs_answer_is_kept_per_match_and_players(monkeypatch):
    calls = _counting_lookup(monkeypatch, deleted={2})
    assert identities.names_in_running("m1", [1, 2], running=True) == {1: "user1", 2: identities.DELETED_PLAYER}
    assert identities.names_in_running("m1", [2, 1, None], running=True) == {1: "user1", 2: identities.DELETED_PLAYER}
    assert len(calls) == 1
    # another match, or other players (a seat taken since), ask again
    identities.names_in_running("m2", [1, 2], running=True)
    identities.names_in_running("m1", [1, 2, 3], running=True)
    assert len(calls) == 3


def test_a_match_that_is_not_running_asks_every_time(monkeypatch):
    # an open or finished match's players may delete or rename their accounts meanwhile
    calls = _counting_lookup(monkeypatch, deleted=set())
    assert identities.names_in_running("m1", [1], running=False) == {1: "user1"}
    assert identities.names_in_running("m1", [1], running=False) == {1: "user1"}
    assert len(calls) == 2


def test_clearing_the_fold_cache_clears_the_kept_answers(monkeypatch):
    calls = _counting_lookup(monkeypatch, deleted=set())
    identities.names_in_running("m1", [1], running=True)
    selectors.cache_clear()
    identities.names_in_running("m1", [1], running=True)
    assert len(calls) == 2


def test_the_write_paths_seat_names_show_a_deleted_account(monkeypatch):
    _counting_lookup(monkeypatch, deleted={7})
    lobby = {"status": "active", "seats": [{"user_id": 7, "username": "kenji", "bot": False},
                                           {"user_id": 8, "username": "bot", "bot": True}]}
    assert selectors.seat_names_running("m1", lobby) == [identities.DELETED_PLAYER, "bot"]


def test_the_write_paths_seat_names_show_a_renamed_account(monkeypatch):
    _counting_lookup(monkeypatch, deleted=set(), renamed={7: "hanako"})
    lobby = {"status": "active", "seats": [{"user_id": 7, "username": "newbie2", "bot": False},
                                           {"user_id": None, "username": "Bot 2", "bot": True}]}
    assert selectors.seat_names_running("m1", lobby) == ["hanako", "Bot 2"]


@pytest.mark.django_db
def test_a_rename_clears_the_names_kept_for_running_matches(monkeypatch, django_user_model):
    # a running match keeps its names look-up (names_in_running); a rename must not leave the old name there
    user = django_user_model.objects.create_user(username="newbie2", password="pw-12345678")
    identities.running_clear()
    lobby = {"status": "active", "seats": [{"user_id": user.pk, "username": "newbie2", "bot": False}]}
    assert selectors.seat_names_running("m-rename", lobby) == ["newbie2"]
    user.username = "hanako"
    user.save()
    assert selectors.seat_names_running("m-rename", lobby) == ["hanako"]
