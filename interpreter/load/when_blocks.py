"""The combinations of expansions that make an overlay's `when:` blocks apply.

A `when:` block applies only when every overlay it names is applied too
(``compose.py``), so building the base and each expansion with what it requires never
builds what a block brings: a name or type error inside it would wait for the one
combination a player happens to choose. ``rules validate`` builds, besides those, a
smallest combination per block: its overlay's expansions, the expansions the block
names and everything they require (``requirement_chain``), each such combination once,
however many blocks it makes apply.

Requirements only ever add expansions, never exclude one, so that combination always
exists and is one ``--all-combinations`` builds too. A block that can never apply
(it names what is neither an offered expansion nor a mod applied with it) is left out
here: its overlay's own build reports that name as an error, at its place.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from interpreter.errors import Diagnostic, LoadError, Location
from interpreter.load.ruleset_files import display_path, overlay_block_names, requirement_chain

# combinations plain `validate` builds for `when:` blocks beyond the base and each
# expansion: each is a whole build (some 20 ms for 500 items), and a ruleset of n
# expansions could ask for up to 2^n of them
MAX_BLOCK_COMBINATIONS = 32


@dataclass
class Block:
    """One `when:` block: its file, its index under `when:`, the combination it needs."""

    path: Path
    index: int
    combination: tuple[str, ...]


def block_names(path: Path) -> list[list[str]]:
    """The names under `with:` of each `when:` block of an overlay file, kept on disk
    while the file's bytes stay the same (as the expansions it requires are), so a
    validate of stored rules reads no YAML to plan its combinations."""
    from interpreter.ruleset import stored

    return stored.file_fact(path, "overlay-when", overlay_block_names)


def closure(folder: Path, names: Iterable[str], offered: dict) -> tuple[str, ...]:
    """The offered expansions among ``names`` with all they require, in the manifest's
    order (the order ``--all-combinations`` names them in, so they share stored builds)."""
    chosen: set[str] = set()
    for name in names:
        if name in offered:
            chosen.update(requirement_chain(folder, name, offered))
    return tuple(name for name in offered if name in chosen)


def blocks(
    folder: Path, offered: dict, overlays: list[tuple[Path, list[str]]], mods: set[str]
) -> list[Block]:
    """Each `when:` block of ``overlays`` (a file and the names applied whenever it is:
    an expansion's own id, a mod's `requires`) that can apply, with its combination;
    ``mods``: the ids of the mods applied alongside, which satisfy a block by being there."""
    found = []
    for path, applied in overlays:
        for index, names in enumerate(block_names(path)):
            if names and all(n in offered or n in mods for n in names):
                combination = closure(folder, [*applied, *names], offered)
                found.append(Block(path, index, combination))
    return found


def plan(found: list[Block], built: list[tuple[str, ...]]) -> tuple[list[tuple], list[Block]]:
    """The combinations to build for ``found`` beyond those ``built`` anyway, smallest
    first, each once and at most ``MAX_BLOCK_COMBINATIONS``; and the blocks left
    unchecked beyond that cap."""
    done = set(built)
    extra: list[tuple[str, ...]] = []
    for block in sorted(found, key=lambda b: len(b.combination)):
        if block.combination not in done and len(extra) < MAX_BLOCK_COMBINATIONS:
            extra.append(block.combination)
            done.add(block.combination)
    unchecked = [b for b in found if b.combination not in done]
    return extra, unchecked


def unchecked(block: Block) -> Diagnostic:
    """A warning at a block that plain validate did not build (the cap was reached)."""
    from interpreter.load.yaml_source import load_file

    shown = display_path(block.path)
    try:
        document = load_file(block.path, display=shown)
        location = document.location(("when", block.index, "with"), key=True)
    except LoadError:
        location = Location(shown)
    flags = " ".join(f"--with {name}" for name in block.combination)
    return Diagnostic(
        location,
        f"this `when:` block was not checked: its ruleset's blocks need more than "
        f"{MAX_BLOCK_COMBINATIONS} combinations of expansions",
        f"check it with `rules validate RULESET {flags}`, or every combination with "
        "`--all-combinations`",
        severity="warning",
        kind="unchecked",
    )
