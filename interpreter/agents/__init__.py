"""Agents choose among the legal options the engine offers; the engine never does."""

from __future__ import annotations

from interpreter.agents.base import Agent
from interpreter.agents.greedy import GreedyAgent
from interpreter.agents.human import HumanAgent
from interpreter.agents.random_agent import RandomAgent

KINDS = {"random": RandomAgent, "greedy": GreedyAgent, "human": HumanAgent}

__all__ = ["KINDS", "Agent", "GreedyAgent", "HumanAgent", "RandomAgent", "make"]


def make(kind: str, seat: int, seed: int | str) -> Agent:
    return KINDS[kind](seat, f"{seed}:{seat}")
