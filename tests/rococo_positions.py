"""Rococo position helpers shared by the rule tests (small board side)."""

from __future__ import annotations

SMALL_WINDOWS = tuple(f"s_window{i}" for i in range(1, 7))
SMALL_STORAGE = ("s_storage1", "s_storage2", "s_storage3")
MASTER_SPACES = (
    "s_hall1_guest3",
    "s_hall2_guest2",
    "s_hall3_guest2",
    "s_hall4_guest2",
    "s_hall5_guest2",
)


def start_phase(t, phase_id: str, round_no: int):
    """Let the engine run phase ``phase_id`` of round ``round_no`` from the current state."""
    t.game.goto_phase(phase_id, round_no)
    return t


def windows(t, **placed):
    for w in SMALL_WINDOWS:
        t.clear(w)
    for window, dress in placed.items():
        t.put(dress, window)
    return t


def storage(t, *sections):
    for s in SMALL_STORAGE:
        t.clear(s)
    for s, tiles in zip(SMALL_STORAGE, sections, strict=False):
        for tile in tiles:
            t.put(tile, s)
    return t


def guest_ids(t):
    return list(t.game.tables.group_members["guest"])


def final_scoring(t, *answers: str):
    """Run the whole scoring stage from its first step, answering decisions in order."""
    game = t.game
    game.goto_scoring()
    t.answer(*answers)
    assert game.pending() == [], f"unanswered decision: {game.pending()}"
    assert game.is_over()
    return game.result()
