from tests.games.conftest import _fresh_cache, fixed_match_seed  # noqa: F401
