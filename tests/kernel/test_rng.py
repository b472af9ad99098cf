"""The per-match RNG: deterministic per (seed, context), uniform, and verifiable from the seed."""

import hashlib
from collections import Counter

import pytest

from games.kernel import Rng, seed_commitment


def test_same_seed_and_context_draw_the_same_outcomes():
    a, b = Rng(b"seed", "m:3"), Rng(b"seed", "m:3")
    assert [a.randint(1, 6) for _ in range(50)] == [b.randint(1, 6) for _ in range(50)]


def test_another_context_or_seed_draws_differently():
    base = [Rng(b"seed", "m:3").below(1000) for _ in range(1)] + [Rng(b"seed", "m:3").token()]
    assert Rng(b"seed", "m:4").token() != base[1]
    assert Rng(b"other", "m:3").token() != base[1]


def test_draws_are_roughly_uniform():
    rng = Rng(b"uniform", "test")
    counts = Counter(rng.randint(1, 6) for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < c < 1150 for c in counts.values()), counts


def test_shuffled_is_a_permutation_and_leaves_the_input_alone():
    items = list(range(30))
    out = Rng(b"s", "c").shuffled(items)
    assert sorted(out) == items and out != items and items == list(range(30))


def test_choice_and_below_refuse_empty_ranges():
    rng = Rng(b"s", "c")
    with pytest.raises(ValueError):
        rng.choice([])
    with pytest.raises(ValueError):
        rng.below(0)


def test_the_commitment_is_the_sha256_of_the_seed():
    assert seed_commitment(b"abc") == hashlib.sha256(b"abc").hexdigest()
