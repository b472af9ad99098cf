"""What a seat shows of its player: the deleted-account look-up, and when its answer may be kept."""

from games.application import identities, selectors


def _counting_lookup(monkeypatch, deleted):
    calls = []

    def lookup(ids):
        calls.append(set(ids))
        return set(ids) & deleted

    monkeypatch.setattr(identities, "_deleted_lookup", lookup)
    identities.running_clear()
    return calls


def test_a_running_matchs_answer_is_kept_per_match_and_players(monkeypatch):
    calls = _counting_lookup(monkeypatch, deleted={2})
    assert identities.deleted_in_running("m1", [1, 2], running=True) == {2}
    assert identities.deleted_in_running("m1", [2, 1, None], running=True) == {2}
    assert len(calls) == 1
    # another match, or other players (a seat taken since), ask again
    identities.deleted_in_running("m2", [1, 2], running=True)
    identities.deleted_in_running("m1", [1, 2, 3], running=True)
    assert len(calls) == 3


def test_a_match_that_is_not_running_asks_every_time(monkeypatch):
    # an open or finished match's players may delete their accounts meanwhile
    calls = _counting_lookup(monkeypatch, deleted=set())
    assert identities.deleted_in_running("m1", [1], running=False) == frozenset()
    assert identities.deleted_in_running("m1", [1], running=False) == frozenset()
    assert len(calls) == 2


def test_clearing_the_fold_cache_clears_the_kept_answers(monkeypatch):
    calls = _counting_lookup(monkeypatch, deleted=set())
    identities.deleted_in_running("m1", [1], running=True)
    selectors.cache_clear()
    identities.deleted_in_running("m1", [1], running=True)
    assert len(calls) == 2


def test_the_write_paths_seat_names_show_a_deleted_account(monkeypatch):
    _counting_lookup(monkeypatch, deleted={7})
    lobby = {"status": "active", "seats": [{"user_id": 7, "username": "kenji", "bot": False},
                                           {"user_id": 8, "username": "bot", "bot": True}]}
    assert selectors.seat_names_running("m1", lobby) == [identities.DELETED_PLAYER, "bot"]
