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
    "random, greedy, human, mcts, mcts:N (N iterations a decision on average, 2 an option "
    "at least), "
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
    *budget, last = rest.split(":")
    options: dict[str, Any] = {"estimate": False} if last == "noestimate" else {}
    if not options:
        budget.append(last)
    if len(budget) > 1 or (budget and not _budget(budget[0], options)):
        raise ValueError(
            f"bad budget in {spec!r}: give iterations (mcts:400) or CPU seconds "
            "(mcts:0.5s), > 0, optionally followed by :noestimate (mcts:400:noestimate)"
        )
    return kind, options


def _budget(text: str, options: dict[str, Any]) -> bool:
    """Add the budget ``text`` names to ``options``; False if it names none."""
    try:
        if text.endswith("s") and float(text[:-1]) > 0:
            options["seconds"] = float(text[:-1])
        elif int(text) > 0:
            options["iterations"] = int(text)
        else:
            return False
    except ValueError:
        return False
    return True


def make(spec: str, seat: int, seed: int | str, own_seed: str | None = None) -> Agent:
    """The agent of ``spec`` for ``seat``, seeded from the game's seed and the seat
    (``seed_of``), or with ``own_seed`` (as a log's header recorded it)."""
    kind, options = parse(spec)
    try:
        return kind(seat, seed_of(seed, seat) if own_seed is None else own_seed, **options)
    except TypeError as exc:  # an agent class (a plugin's) that takes fewer options
        raise ValueError(f"agent {spec!r}: {exc}") from None


def seed_of(seed: int | str, seat: int) -> str:
    """The seed of the agent at ``seat`` in a game of ``seed``."""
    return f"{seed}:{seat}"
