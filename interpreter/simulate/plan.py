"""What to play: variants of a ruleset, and the seed, players and agents of every game."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from hashlib import sha256


@dataclass(frozen=True)
class Variant:
    """A ruleset with expansions and mods, as `rules play` would load it."""

    ruleset: str  # an id on the rules path or a folder
    expansions: tuple[str, ...] = ()
    mods: tuple[str, ...] = ()  # mod files (paths the workers can read)

    @property
    def label(self) -> str:
        parts = [self.ruleset]
        parts += [f"with {e}" for e in sorted(self.expansions)]
        parts += [f"mod {m}" for m in sorted(self.mods)]
        return ", ".join(parts)

    def options(self) -> str:
        """Its `--with`/`--mod` options for a command line."""
        parts = [f"--with {e}" for e in sorted(self.expansions)]
        parts += [f"--mod {m}" for m in sorted(self.mods)]
        return " ".join(parts)


def game_seed(seed: str | int, index: int) -> int:
    """The seed of game ``index`` of a run with seed ``seed``: a 32-bit number taken from
    a hash of both, so nearby runs share no game; `rules play --seed` takes it as is."""
    digest = sha256(f"{seed}/{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True)
class GameSpec:
    index: int  # the game's number in its variant's run
    variant: int  # index into Plan.variants
    players: int
    seed: int
    agents: tuple[str, ...]  # one spec per player, in seat order


@dataclass
class Plan:
    """``games`` games of each variant, on the same seeds.

    Game ``i`` has ``counts[i % len(counts)]`` players and seed ``game_seed(seed, i)``;
    its seat ``s`` is played by ``agents[(s + i // len(counts)) % len(agents)]``, so with
    several agents each sits in every seat in turn. A game still under way after
    ``max_decisions`` decisions or ``game_timeout`` seconds is an error.
    """

    variants: list[Variant]
    games: int
    counts: list[int]
    agents: list[str] = field(default_factory=lambda: ["random"])
    seed: str = "0"
    max_decisions: int = 20000
    game_timeout: float = 3600.0

    @property
    def total(self) -> int:
        """The games of the whole run: ``games`` of each variant."""
        return self.games * len(self.variants)

    def spec(self, index: int, variant: int = 0) -> GameSpec:
        """Game ``index`` of variant ``variant``."""
        players = self.counts[index % len(self.counts)]
        turn = index // len(self.counts)
        agents = tuple(self.agents[(s + turn) % len(self.agents)] for s in range(players))
        return GameSpec(index, variant, players, game_seed(self.seed, index), agents)

    def specs(self) -> Iterator[GameSpec]:
        """Every game, made as it is asked for (a run of any length holds none ahead):
        game 0 of each variant, then game 1 of each, … so that a run cut short has
        played the variants on the same seeds."""
        for index in range(self.games):
            for variant in range(len(self.variants)):
                yield self.spec(index, variant)

    def replay_command(self, spec: GameSpec) -> str:
        variant = self.variants[spec.variant]
        options = variant.options()
        agents = ",".join(spec.agents) if len(set(spec.agents)) > 1 else spec.agents[0]
        return (
            f"rules play {variant.ruleset} --players {spec.players} --seed {spec.seed} "
            f"--agents {agents}{' ' + options if options else ''}"
        )

    def describe(self) -> dict:
        return {
            "variants": [
                {"ruleset": v.ruleset, "expansions": list(v.expansions), "mods": list(v.mods)}
                for v in self.variants
            ],
            "games": self.games,
            "players": self.counts,
            "agents": self.agents,
            "seed": self.seed,
            "max_decisions": self.max_decisions,
            "game_timeout": self.game_timeout,
            "seeds": "game i: first 4 bytes (big-endian) of sha256(f'{seed}/{i}')",
        }
