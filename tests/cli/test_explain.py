"""`rules explain`: an author's own cards (--with, --mod), effects as source, near names,
and no listing cut without saying so."""

from __future__ import annotations

import pytest
from rules_test_support import ROOT, invoke

MOD = "examples/mods/new-staff.yaml"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # paths in the output are the ones given, relative to here


def test_a_mod_card_is_explained_with_its_bonus_as_source() -> None:
    result = invoke("explain", "rococo", "NS2", "--mod", MOD)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{MOD}:49:5: component NS2"
    assert lines[1].strip().startswith("49 |     NS2:")
    assert lines[-8:] == [
        f"  bonus extra_sew_sell_bonus ({MOD}:29:5):",
        "    1 extra Sew action; a dress sold from it brings 2 livres more",
        "  requires[0]: can sew(card: card)",
        "    message: no dress can be sewn",
        "  effect:",
        "    let sold_before = dress_discard.size",
        "    do sew(card: card)",
        "    if dress_discard.size > sold_before { gain(livres, 2) }",
    ]
    assert "Tree(" not in result.output and "None" not in result.output


def test_without_the_mod_its_card_is_unknown() -> None:
    result = invoke("explain", "rococo", "NS2")
    assert result.exit_code == 2
    assert "rococo defines nothing called 'NS2'" in result.output


def test_an_unknown_name_gets_near_names() -> None:
    result = invoke("explain", "rococo", "favor")
    assert result.exit_code == 2
    assert "rococo defines nothing called 'favor'; did you mean `favour`" in result.output
    result = invoke("explain", "rococo", "zzzz_qqq")
    assert result.exit_code == 2
    assert "(`rules explain rococo` lists it all)" in result.output


def test_an_action_shows_requirements_and_effect_reprinted() -> None:
    result = invoke("explain", "rococo", "favour")
    assert result.exit_code == 0
    text = result.output
    assert text.startswith("rulesets/rococo/actions.yaml:7:3: action favour\n")
    assert (
        '  requires[0]: not main or may_do_main("favour", card)\n'
        "    message: the {card.type} {card.id} may not take the Favour card "
        "(only masters and journeymen)\n"
        "  requires[1]: not favour_space.empty\n"
        "    message: the Favour card was already taken this round\n"
        "  effect:\n"
        "    move(favour_card, my.favour)\n"
        "    gain(livres, favour_money)\n"
        "    favour_taker = me\n"
    ) in text


def test_a_space_shows_its_own_line_and_a_copy_names_its_design() -> None:
    result = invoke("explain", "rococo", "s_hall1_guest3")
    assert result.output.splitlines()[0] == (
        "rulesets/rococo/board/spaces.yaml:66:7: space (group guest) s_hall1_guest3"
    )
    assert len(result.output.splitlines()) == 2
    result = invoke("explain", "rococo", "S4-2")
    assert result.output.splitlines()[0].endswith(": component S4-2, a copy of S4")
    assert "  effect: do acquire(card: card)" in result.output.splitlines()


def test_a_whole_yaml_definition_is_shown_however_long() -> None:
    result = invoke("explain", "rococo", "guest")  # the group: more than 40 lines of YAML
    shown = [line for line in result.output.splitlines() if " | " in line]
    numbers = [int(line.split("|")[0]) for line in shown]
    assert len(shown) > 40
    assert numbers == list(range(numbers[0], numbers[0] + len(shown)))
    assert shown[-1].split("|", 1)[1].strip().startswith("l_hall5_guest5:")  # the last one


def test_the_overview_says_how_many_more_and_how_to_see_them() -> None:
    result = invoke("explain", "rococo", "--mod", MOD)
    assert result.exit_code == 0
    line = next(x for x in result.output.splitlines() if x.startswith("  components ("))
    assert line.startswith("  components (126): D01, D02,")
    assert line.endswith(f", … 114 more: rules explain rococo --mod {MOD} --all components")
    assert "  kinds (4): dress, employee, resource, token" in result.output.splitlines()


def test_all_lists_a_whole_section_with_labels() -> None:
    result = invoke("explain", "rococo", "--all", "actions", "--mod", MOD)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "actions (47):"
    assert len(lines) == 48
    assert "  favour - Queen's favour" in lines
    assert (
        "  extra_sew_sell_bonus - 1 extra Sew action; a dress sold from it brings 2 livres more"
        in lines
    )
    result = invoke("explain", "queens-necklace", "--all", "components")
    assert "  ruby3 (gem, 2 copies)" in result.output.splitlines()
    result = invoke("explain", "rococo", "--all", "spaces")
    lines = result.output.splitlines()
    assert lines[0] == "spaces (11):"
    assert any(x.startswith("  guest (") for x in lines) and "    s_hall1_guest3" in lines


def test_all_and_a_name_together_is_a_usage_error() -> None:
    result = invoke("explain", "rococo", "favour", "--all", "actions")
    assert result.exit_code == 2
    assert "give NAME or --all SECTION, not both" in result.output


def test_a_function_shows_its_value_reprinted() -> None:
    result = invoke("explain", "rococo", "can_lose_employee")
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == (
        "  value: staff_size(p) - p.dismissing.size > minimum_staff"
    )


def test_a_member_of_a_keyed_zone_is_explained_at_its_family() -> None:
    # issue 49: `firework[red]` is what views and scenarios name; explain finds its zone
    result = invoke("explain", "hanabi", "firework[red]")
    assert result.exit_code == 0, result.output
    first = result.output.splitlines()[0]
    assert first.endswith(": zone firework[red], a member of firework")
    assert "keys: colours" in result.output
    assert invoke("explain", "hanabi", "firework[pink]").exit_code == 2
