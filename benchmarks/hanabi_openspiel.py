"""Differential test of Hanabi (rulesets/hanabi) against OpenSpiel's `hanabi` (the
Hanabi Learning Environment).

Each seeded game is played in both engines from the same deal: every card this
engine deals (the opening hands, seat by seat, and each card drawn after a play or a
discard) is given to OpenSpiel as its chance outcome. At every turn the whole set of
legal moves is compared: here a move is a path of decisions ("play", "card 2";
"tell P3", "name red"), each path is worked out on copies of the game and written as
OpenSpiel writes its actions ("(Play 2)", "(Reveal player +2 color R)"). The same move,
picked at random (seeded) among the legal ones (in odd seeds among those that burn no
fuse, so that games also reach the end of the deck and complete fireworks), is fed to
both. At the end both games
must be over at the same turn with the same shared score. OpenSpiel is configured as
docs/rules/hanabi.md: 5 colours, 5 ranks, hands of 5 (2-3 players) or 4, 8
information tokens, 3 fuses.

    .venv/bin/python benchmarks/hanabi_openspiel.py --games 200
    (pip install open_spiel first; it is not a dependency of the project)

Prints one line per difference and a summary; exits 1 if any difference was found.
"""

from __future__ import annotations

import argparse
import random
import sys

import pyspiel

from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

COLOURS = ["red", "yellow", "green", "white", "blue"]  # OpenSpiel's order: R Y G W B
MAX_TURNS = 500  # a game has at most 40-odd draws, each token given back allows a hint
MAX_PATH = 3  # decisions in one move (play or discard, card; tell, name)


def spiel_game(players: int):
    return pyspiel.load_game(
        "hanabi",
        {
            "players": players,
            "colors": 5,
            "ranks": 5,
            "hand_size": 5 if players <= 3 else 4,
            "max_information_tokens": 8,
            "max_life_tokens": 3,
        },
    )


def card_outcome(ruleset, piece: str) -> int:
    """OpenSpiel's chance outcome for a card: colour times 5 plus rank - 1."""
    props = ruleset.pieces[piece].properties
    return COLOURS.index(props["colour"]) * 5 + props["rank"] - 1


def moves(game: Game, seat: int) -> dict[str, tuple[str, ...]]:
    """Every legal move of ``seat`` now, as OpenSpiel's text -> our path of options."""
    found: dict[str, tuple[str, ...]] = {}

    def walk(g: Game, path: tuple[str, ...]) -> None:
        decision = next((d for d in g.pending() if d.player == seat), None)
        if decision is None or len(path) >= MAX_PATH:
            found[spiel_text(game, seat, path)] = path
            return
        for option in decision.options:
            twin = g.copy()
            twin.apply(seat, option)
            walk(twin, (*path, option))

    walk(game, ())
    return found


def spiel_text(game: Game, seat: int, path: tuple[str, ...]) -> str:
    kind = path[0] if path else "?"
    if kind in ("play", "discard") and len(path) == 2:
        return f"({kind.capitalize()} {path[1].split(' ')[1]})"
    if kind.startswith("tell ") and len(path) == 2:
        players = list(game.state.players)
        offset = (players.index(kind.split(" ", 1)[1]) - seat) % len(players)
        named = path[1].split(" ", 1)[1]
        if named in COLOURS:
            return f"(Reveal player +{offset} color {named[0].upper()})"
        return f"(Reveal player +{offset} rank {named})"
    return f"(unknown {' / '.join(path)})"


def hands(game: Game) -> list[list[str]]:
    return [list(game.state.zones.get(f"hand#{s}", ())) for s in range(len(game.state.players))]


def play(seed: int, players: int, ruleset) -> tuple[list[str], int]:
    """One seeded game in both engines: its differences and the turns compared."""
    game = Game(ruleset, [f"P{i + 1}" for i in range(players)], seed=seed)
    spiel = spiel_game(players).new_initial_state()
    luck = random.Random(seed)
    to_deal = [card for hand in hands(game) for card in hand]  # seat by seat, as OpenSpiel
    where = f"seed {seed}, {players} players"
    for turn in range(MAX_TURNS):
        while spiel.is_chance_node():
            if not to_deal:
                return [f"{where}, turn {turn}: OpenSpiel deals a card not dealt here"], turn
            spiel.apply_action(card_outcome(ruleset, to_deal.pop(0)))
        if to_deal:
            return [f"{where}, turn {turn}: {to_deal} dealt here, not in OpenSpiel"], turn
        if game.is_over() or spiel.is_terminal():
            return finish(where, turn, game, spiel), turn
        seat = spiel.current_player()
        ours = moves(game, seat)
        theirs = {spiel.action_to_string(a): a for a in spiel.legal_actions()}
        if set(ours) != set(theirs):
            return [
                f"{where}, turn {turn}, seat {seat}: only here {sorted(set(ours) - set(theirs))}, "
                f"only in OpenSpiel {sorted(set(theirs) - set(ours))}"
            ], turn
        choices = sorted(ours)
        if seed % 2:  # careful: no card that burns a fuse, so the deck runs out too
            choices = [t for t in choices if not burns(game, seat, ours[t])] or choices
        text = choices[int(luck.random() * len(choices))]
        before = hands(game)[seat]
        for option in ours[text]:
            game.apply(seat, option)
        spiel.apply_action(theirs[text])
        after = hands(game)[seat]
        to_deal += [card for card in after if card not in before]
    return [f"{where}: not over after {MAX_TURNS} turns"], MAX_TURNS


def burns(game: Game, seat: int, path: tuple[str, ...]) -> bool:
    """Whether the move plays a card that is not the next of its firework."""
    if path[0] != "play":
        return False
    card = hands(game)[seat][int(path[1].split(" ")[1])]
    props = game.ruleset.pieces[card].properties
    return len(game.state.zones.get(f"firework[{props['colour']}]", ())) != props["rank"] - 1


def finish(where: str, turn: int, game: Game, spiel) -> list[str]:
    if not (game.is_over() and spiel.is_terminal()):
        over = "here" if game.is_over() else "in OpenSpiel"
        return [f"{where}, turn {turn}: the game is over only {over}"]
    ours = sum(game.state.counters.get(f"points#{s}", 0) for s in range(len(game.state.players)))
    theirs = round(spiel.returns()[0])
    if ours != theirs:
        return [f"{where}: score {ours} here, {theirs} in OpenSpiel"]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    args = parser.parse_args(argv)
    ruleset = load_or_raise("hanabi")
    differences: list[str] = []
    games = turns = 0
    for players in args.players:
        for seed in range(args.first_seed, args.first_seed + args.games):
            found, compared = play(seed, players, ruleset)
            differences += found
            for line in found:
                print(line)
            games += 1
            turns += compared
    print(f"{games} games, {turns} turns compared: {len(differences)} differences")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
