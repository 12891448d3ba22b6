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
    "mcts:Xs (X CPU seconds), any mcts with :noestimate (leaves judged without the "
    "ruleset's estimate)"
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
    """An agent spec (``greedy``, ``mcts:400``, ``mcts:0.5s``, ``mcts:400:noestimate``):
    its class and options.

    Raises ``ValueError`` with a message naming what is accepted.
    """
    name, colon, rest = spec.strip().partition(":")
    kind = KINDS.get(name)
    if kind is None:
        raise ValueError(f"unknown agent {spec!r}; agents: {SPECS}")
    if not colon:
        return kind, {}
    if kind is not MctsAgent:
        raise ValueError(f"agent {name!r} takes no budget (only mcts does: mcts:400)")
    options: dict[str, Any] = {}
    for part in rest.split(":"):
        if part == "noestimate" and "hint" not in options:
            options["hint"] = False
        elif "iterations" in options or "seconds" in options:
            break
        elif part.endswith("s") and _positive(part[:-1], float):
            options["seconds"] = float(part[:-1])
        elif _positive(part, int):
            options["iterations"] = int(part)
        else:
            break
    else:
        return kind, options
    raise ValueError(
        f"bad budget in {spec!r}: give iterations (mcts:400) or CPU seconds (mcts:0.5s), "
        "> 0, and optionally :noestimate (mcts:400:noestimate)"
    )


def _positive(text: str, kind: type) -> bool:
    try:
        return kind(text) > 0
    except ValueError:
        return False


def make(spec: str, seat: int, seed: int | str, own_seed: str | None = None) -> Agent:
    """The agent of ``spec`` for ``seat``, seeded from the game's seed and the seat
    (``seed_of``), or with ``own_seed`` (as a log's header recorded it)."""
    kind, options = parse(spec)
    return kind(seat, seed_of(seed, seat) if own_seed is None else own_seed, **options)


def seed_of(seed: int | str, seat: int) -> str:
    """The seed of the agent at ``seat`` in a game of ``seed``."""
    return f"{seed}:{seat}"
