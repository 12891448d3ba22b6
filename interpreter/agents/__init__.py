"""Agents choose among the legal options the engine offers; the engine never does."""

from __future__ import annotations

from typing import Any

from interpreter.agents.base import Agent
from interpreter.agents.greedy import GreedyAgent
from interpreter.agents.human import HumanAgent
from interpreter.agents.mcts import MctsAgent
from interpreter.agents.random_agent import RandomAgent

KINDS: dict[str, type[Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "human": HumanAgent,
    "mcts": MctsAgent,
}
SPECS = (
    "random, greedy, human, mcts, mcts:N (N iterations a decision on average), "
    "mcts:Xs (X CPU seconds)"
)

__all__ = [
    "KINDS",
    "SPECS",
    "Agent",
    "GreedyAgent",
    "HumanAgent",
    "MctsAgent",
    "RandomAgent",
    "make",
    "parse",
    "seed_of",
]


def parse(spec: str) -> tuple[type[Agent], dict[str, Any]]:
    """An agent spec (``greedy``, ``mcts:400``, ``mcts:0.5s``): its class and options.

    Raises ``ValueError`` with a message naming what is accepted.
    """
    name, colon, budget = spec.strip().partition(":")
    kind = KINDS.get(name)
    if kind is None:
        raise ValueError(f"unknown agent {spec!r}; agents: {SPECS}")
    if not colon:
        return kind, {}
    if kind is not MctsAgent:
        raise ValueError(f"agent {name!r} takes no budget (only mcts does: mcts:400)")
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if seconds > 0:
                return kind, {"seconds": seconds}
        elif int(budget) > 0:
            return kind, {"iterations": int(budget)}
    except ValueError:
        pass
    raise ValueError(
        f"bad budget in {spec!r}: give iterations (mcts:400) or CPU seconds (mcts:0.5s), > 0"
    )


def make(spec: str, seat: int, seed: int | str, own_seed: str | None = None) -> Agent:
    """The agent of ``spec`` for ``seat``, seeded from the game's seed and the seat
    (``seed_of``), or with ``own_seed`` (as a log's header recorded it)."""
    kind, options = parse(spec)
    return kind(seat, seed_of(seed, seat) if own_seed is None else own_seed, **options)


def seed_of(seed: int | str, seat: int) -> str:
    """The seed of the agent at ``seat`` in a game of ``seed``."""
    return f"{seed}:{seat}"
