"""A person at the terminal: shows the visible position and numbered options."""

from __future__ import annotations

import click

from interpreter.agents.base import Agent
from interpreter.engine.seat import Seat
from interpreter.engine.words import describe, render_view


class HumanAgent(Agent):
    def decide(self, seat: Seat) -> str:
        decision = seat.decision
        shown = seat.view()
        click.echo(render_view(shown, seat.ruleset.label))
        what = f" ({decision.prompt})" if decision.prompt != "option" else ""
        click.echo(f"\n{decision.player_name}, choose{what}:")
        for number, option in enumerate(decision.options, start=1):
            about = (
                describe(seat.ruleset, seat.tables, shown, option.split()[-1])
                if option.split()
                else ""
            )
            click.echo(f"  {number:>3}. {option}" + (f"   ({about})" if about else ""))
        while True:
            answer = click.prompt(
                "number or text (?ID describes a component or space)", default="1"
            ).strip()
            if answer.startswith("?"):
                click.echo(
                    describe(seat.ruleset, seat.tables, shown, answer[1:].strip())
                    or "nothing has that id"
                )
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(decision.options):
                return decision.options[int(answer) - 1]
            if answer in decision.options:
                return answer
            matches = [o for o in decision.options if o.startswith(answer)]
            if len(matches) == 1:
                return matches[0]
            click.echo(
                f"not an option: {seat.why_not(answer)}; type an option's number or its text"
            )
