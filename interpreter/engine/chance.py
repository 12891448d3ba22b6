"""Deterministic chance: the k-th random outcome of a game depends only on (seed, k).

Outcomes are drawn with our own Fisher-Yates over ``random.Random(f"{seed}:{k}")``
(seeded through SHA-512, and ``random()`` is the same Mersenne Twister everywhere),
so the same seed gives the same game on any machine and any Python 3, and a copied
state never disturbs the original's future outcomes.
"""

from __future__ import annotations

import random


def _rng(seed: int | str, index: int) -> random.Random:
    return random.Random(f"{seed}:{index}")


def shuffled(seed: int | str, index: int, items: tuple[str, ...]) -> tuple[str, ...]:
    rng = _rng(seed, index)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def picked(seed: int | str, index: int, items: tuple[str, ...], count: int) -> tuple[str, ...]:
    """``count`` distinct items drawn at random, in draw order."""
    rng = _rng(seed, index)
    pool = list(items)
    out = []
    for _ in range(min(count, len(pool))):
        j = int(rng.random() * len(pool))
        out.append(pool.pop(j))
    return tuple(out)


def rolled(seed: int | str, index: int, faces: tuple[tuple[int, ...], ...]) -> tuple[str, ...]:
    """A face for each die (``faces``: each die's faces), as texts, in the dice's order."""
    rng = _rng(seed, index)
    return tuple(str(options[int(rng.random() * len(options))]) for options in faces)
