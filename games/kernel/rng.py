"""Per-match deterministic randomness.

Every draw is derived from the match's secret seed with HMAC-SHA256 over a context (the match id
and the sequence number the command was decided at) and a counter, so a worker retrying the same
command at the same ``expected_seq`` draws the same outcomes. Outcomes are written into events;
replay never needs the RNG. ``sha256(seed)`` is published when the match is created and the seed
itself when it ends, so anyone can re-derive every shuffle and roll.
"""

import hashlib
import hmac


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class Rng:
    def __init__(self, seed: bytes, context: str):
        if not seed:
            raise ValueError("an Rng needs a non-empty seed")
        self._seed = seed
        self._context = context
        self._counter = 0

    @property
    def draws(self) -> int:
        """How many 64-bit values this stream has produced so far (0: the command drew nothing)."""
        return self._counter

    def _next64(self) -> int:
        message = f"{self._context}|{self._counter}".encode()
        self._counter += 1
        return int.from_bytes(hmac.new(self._seed, message, hashlib.sha256).digest()[:8], "big")

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], both ends included (like a die: randint(1, 6))."""
        return low + self.below(high - low + 1)

    def choice(self, items):
        items = list(items)
        if not items:
            raise ValueError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffled(self, items) -> list:
        """A new list in uniformly random order (Fisher-Yates); the input is left alone."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def token(self, nbytes: int = 8) -> str:
        """A fresh opaque id (hex), e.g. for a card entering a hidden zone."""
        return "".join(f"{self.below(256):02x}" for _ in range(nbytes))
