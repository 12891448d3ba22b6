"""`rules lsp` driven over stdio by a real client (tests/lsp/lsp_client.py) on a copy
of Rococo and a mod: diagnostics as you type, hover, completion, definition and
references."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from lsp_client import ROOT, LspClient

from interpreter.language.registry import REGISTRY
from interpreter.load.buffers import reading
from interpreter.ruleset import load


def at(text: str, needle: str, nth: int = 0, into: int = 0) -> tuple[int, int]:
    """0-based (line, character) of the ``nth`` ``needle`` in ``text``, ``into`` it."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    index += into
    return text.count("\n", 0, index), index - (text.rfind("\n", 0, index) + 1)


def definition_of(folder: Path, name: str) -> tuple[str, int]:
    """The file (relative to ``folder``) and 0-based line where ``  name:`` is a key."""
    for path in sorted(folder.rglob("*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if line.startswith(f"  {name}:"):
                return path.relative_to(folder).as_posix(), number
    raise AssertionError(name)


def opened(server: LspClient, path: Path) -> str:
    """Open ``path`` and wait until the server has checked it."""
    mark = server.mark()
    uri = server.open(path)
    server.diagnostics(uri, mark)
    return uri


def edit(server: LspClient, uri: str, text: str, version: int, clean: bool) -> list[dict]:
    """Change the open text; wait for the diagnostics (none, or some, as ``clean``)."""
    mark = server.mark()
    server.change(uri, text, version)
    return server.diagnostics(uri, mark, lambda found: not found if clean else bool(found))


def checks_since(server: LspClient, mark: int) -> list[str]:
    return [
        n["params"]["message"]
        for n in server.notifications[mark:]
        if n["method"] == "window/logMessage" and "checked" in n["params"]["message"]
    ]


# ------------------------------------------------------------------ diagnostics
@pytest.mark.parametrize(
    "file, old, new",
    [
        # a condition: a plain scalar in a list of requirements
        ("actions.yaml", "may_do_main('favour'", "may_do_mian('favour'"),
        # an effect: a `|` block text
        ("actions.yaml", "move(favour_card, my.favour)", "mvoe(favour_card, my.favour)"),
        # a single-line effect of a bonus action
        ("bonuses.yaml", "effect: gain(livres, 2)", "effect: gain(livers, 2)"),
    ],
)
def test_a_typo_in_an_expression_is_reported_at_its_place_and_cleared_when_fixed(
    server: LspClient, workspace: Path, file: str, old: str, new: str
) -> None:
    path = workspace / "rococo" / file
    text = path.read_text(encoding="utf-8")
    broken = text.replace(old, new, 1)
    uri = opened(server, path)
    # what `rules validate` says about the same text (read in this process instead
    # of the file, as the server does)
    with reading({path: broken}):
        expected = load(workspace / "rococo").diagnostics
    assert len(expected) == 1, [f"{d.location} {d.message}" for d in expected]
    try:
        found = edit(server, uri, broken, 2, clean=False)
        assert len(found) == 1
        diagnostic = found[0]
        where = expected[0].location
        start = diagnostic["range"]["start"]
        assert (start["line"] + 1, start["character"] + 1) == (where.line, where.column)
        assert (start["line"], start["character"]) >= at(broken, new)
        hint = f"\nhint: {expected[0].hint}" if expected[0].hint else ""
        assert diagnostic["message"] == expected[0].message + hint
        assert diagnostic["severity"] == 1 and diagnostic["source"] == "rules"
        assert edit(server, uri, text, 3, clean=True) == []
    finally:
        server.change(uri, text, 4)


def test_the_typo_is_underlined_as_a_word(server: LspClient, workspace: Path) -> None:
    path = workspace / "rococo" / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    broken = text.replace("may_do_main('favour'", "may_do_mian('favour'", 1)
    try:
        (diagnostic,) = edit(server, uri, broken, 2, clean=False)
        line, character = at(broken, "may_do_mian")
        assert diagnostic["range"] == {
            "start": {"line": line, "character": character},
            "end": {"line": line, "character": character + len("may_do_mian")},
        }
        assert "did you mean `may_do_main`?" in diagnostic["message"]
    finally:
        edit(server, uri, text, 3, clean=True)


def test_edits_are_debounced_into_one_check(server: LspClient, workspace: Path) -> None:
    path = workspace / "rococo" / "functions.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    mark = server.mark()
    try:
        for version, typo in enumerate(["staff_sizX", "staff_sizY", "staff_sizZ"], start=2):
            server.change(uri, text.replace("staff_size(p)", f"{typo}(p)", 1), version)
        (diagnostic,) = server.diagnostics(uri, mark, bool)
        assert "staff_sizZ" in diagnostic["message"]
        assert len(checks_since(server, mark)) == 1
    finally:
        edit(server, uri, text, 9, clean=True)


def test_an_unsaved_fix_in_another_file_clears_the_error(
    server: LspClient, workspace: Path
) -> None:
    """A condition calls a function; renaming the function breaks the call in another
    file, and undoing the rename (unsaved) clears it there."""
    functions = workspace / "rococo" / "functions.yaml"
    text = functions.read_text(encoding="utf-8")
    actions_uri = opened(server, workspace / "rococo" / "actions.yaml")
    uri = opened(server, functions)
    mark = server.mark()
    try:
        server.change(uri, text.replace("  may_do_main:", "  may_do:", 1), 2)
        found = server.diagnostics(actions_uri, mark, bool)
        assert all("may_do_main" in d["message"] for d in found) and len(found) == 6
        mark = server.mark()
        server.change(uri, text, 3)
        assert server.diagnostics(actions_uri, mark, lambda found: not found) == []
    finally:
        server.change(uri, text, 4)


def test_a_mod_is_checked_with_its_base_and_only_it(server: LspClient, workspace: Path) -> None:
    path = workspace / "mods" / "gift.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    broken = text.replace("do hire(card: card)", "do hier(card: card)")
    mark = server.mark()
    try:
        (diagnostic,) = edit(server, uri, broken, 2, clean=False)
        line, character = at(broken, "hier")
        assert diagnostic["range"]["start"] == {"line": line, "character": character}
        assert "hier" in diagnostic["message"]
        assert checks_since(server, mark) == [checks_since(server, mark)[0]]
        assert "checked rococo+gift in" in checks_since(server, mark)[0]
        assert edit(server, uri, text, 3, clean=True) == []
    finally:
        server.change(uri, text, 4)


def test_a_yaml_syntax_error_is_reported(server: LspClient, workspace: Path) -> None:
    path = workspace / "rococo" / "scoring.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    try:
        found = edit(server, uri, text + "\n  - [unclosed\n", 2, clean=False)
        assert any(d["message"].startswith("YAML syntax") for d in found)
        assert edit(server, uri, text, 3, clean=True) == []
    finally:
        server.change(uri, text, 4)


# ------------------------------------------------------------------------ hover
def test_hover_on_a_primitive_shows_its_signature_and_documentation(
    server: LspClient, workspace: Path
) -> None:
    path = workspace / "rococo" / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    hover = server.at("textDocument/hover", uri, *at(text, "move(favour_card", into=2))
    value = hover["contents"]["value"]
    move = REGISTRY.statements["move"]
    assert move.signature() in value and move.doc in value
    line, character = at(text, "move(favour")
    assert hover["range"]["start"] == {"line": line, "character": character}


def test_hover_on_a_defined_name_shows_its_kind_label_and_place(
    server: LspClient, workspace: Path
) -> None:
    path = workspace / "rococo" / "components" / "employees.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    hover = server.at("textDocument/hover", uri, *at(text, "bonus: gain_1_livre", into=9))
    value = hover["contents"]["value"]
    assert "**action** `gain_1_livre` — Gain 1 livre" in value
    assert "gain_1_livre(card: piece)" in value
    _, line = definition_of(workspace / "rococo", "gain_1_livre")
    assert f"bonuses.yaml:{line + 1}:3" in value

    actions = workspace / "rococo" / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    uri = opened(server, actions)
    hover = server.at("textDocument/hover", uri, *at(text, "my.livres", into=4))
    assert "**counter** `livres`" in hover["contents"]["value"]
    hover = server.at("textDocument/hover", uri, *at(text, "can_lose_employee(me)", into=3))
    assert "can_lose_employee(p: player) -> bool" in hover["contents"]["value"]


# ------------------------------------------------------------------- completion
def labels(result: dict) -> set[str]:
    return {item["label"] for item in result["items"]}


def test_completion_offers_the_names_that_fit(server: LspClient, workspace: Path) -> None:
    path = workspace / "rococo" / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    anchor = "      do buy_tile(tile: t, free: free)\n"
    try:
        lines = ["      do g", "      let x = my.", "      x = p", "      let y = 1 + c"]
        typed = text.replace(anchor, anchor + "\n".join(lines) + "\n", 1)
        server.change(uri, typed, 2)
        line, _ = at(typed, lines[0])
        after_do = labels(server.at("textDocument/completion", uri, line, len(lines[0])))
        assert {"gain_2_livres", "gain_1_livre"} <= after_do
        assert "gain" not in after_do  # a statement, not an action
        after_my = labels(server.at("textDocument/completion", uri, line + 1, len(lines[1])))
        assert {"livres", "hand", "seat", "name"} <= after_my
        assert "pieces" not in after_my  # a zone's attribute, not a player's
        names = labels(server.at("textDocument/completion", uri, line + 2, len(lines[2])))
        assert {"pay", "pieces", "players"} <= names
        bound = labels(server.at("textDocument/completion", uri, line + 3, len(lines[3])))
        assert {"card", "count", "choose_one"} & bound >= {"card", "count"}
    finally:
        edit(server, uri, text, 3, clean=True)


def test_completion_after_a_parameter_dot_knows_its_type(
    server: LspClient, workspace: Path
) -> None:
    path = workspace / "rococo" / "functions.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    line, character = at(text, "p.reserve.pieces", into=2)
    player = labels(server.at("textDocument/completion", uri, line, character))
    assert {"reserve", "hand", "livres", "seat"} <= player and "kind" not in player
    line, character = at(text, "p.reserve.pieces", into=10)
    zone = labels(server.at("textDocument/completion", uri, line, character))
    assert {"pieces", "size", "top"} <= zone and "livres" not in zone


# ------------------------------------------------------------ definition, references
def test_the_definition_of_a_card_bonus_is_in_another_file(
    server: LspClient, workspace: Path
) -> None:
    path = workspace / "rococo" / "components" / "employees.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    (found,) = server.at("textDocument/definition", uri, *at(text, "bonus: gain_1_livre", into=10))
    file, line = definition_of(workspace / "rococo", "gain_1_livre")
    assert found["uri"] == (workspace / "rococo" / file).resolve().as_uri()
    assert found["range"]["start"] == {"line": line, "character": 2}
    assert found["range"]["end"] == {"line": line, "character": 2 + len("gain_1_livre")}


@pytest.mark.parametrize(
    "needle, into, name",
    [
        ("may_do_main('favour'", 3, "may_do_main"),  # a function called in a condition
        ("do buy_tile(tile: t", 4, "buy_tile"),  # `do X`
        ("can buy_tile(tile: t", 5, "buy_tile"),  # `can X`
        ("claim(s)", 0, None),  # a primitive: no definition in the ruleset
    ],
)
def test_go_to_definition(
    server: LspClient, workspace: Path, needle: str, into: int, name: str | None
) -> None:
    path = workspace / "rococo" / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    found = server.at("textDocument/definition", uri, *at(text, needle, into=into))
    if name is None:
        assert found == []
        return
    file, line = definition_of(workspace / "rococo", name)
    assert [(f["uri"], f["range"]["start"]["line"]) for f in found] == [
        ((workspace / "rococo" / file).resolve().as_uri(), line)
    ]


def test_the_definition_of_a_base_action_used_in_a_mod(server: LspClient, workspace: Path) -> None:
    path = workspace / "mods" / "gift.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    (found,) = server.at("textDocument/definition", uri, *at(text, "do hire", into=4))
    assert found["uri"] == (workspace / "rococo" / "actions.yaml").resolve().as_uri()
    assert found["range"]["start"]["line"] == definition_of(workspace / "rococo", "hire")[1]


def test_references_are_found_across_files(server: LspClient, workspace: Path) -> None:
    folder = workspace / "rococo"
    path = folder / "bonuses.yaml"
    text = path.read_text(encoding="utf-8")
    uri = opened(server, path)
    where = at(text, "  gain_1_livre:", into=3)
    context = {"includeDeclaration": True}
    found = server.at("textDocument/references", uri, *where, context=context)
    places = {(Path(f["uri"][len("file://") :]).name, f["range"]["start"]["line"]) for f in found}
    employees = (folder / "components" / "employees.yaml").read_text(encoding="utf-8")
    assert places == {
        ("bonuses.yaml", where[0]),
        ("employees.yaml", at(employees, "gain_1_livre")[0]),
    }
    without = server.at(
        "textDocument/references", uri, *where, context={"includeDeclaration": False}
    )
    assert len(without) == len(found) - 1

    functions = (folder / "functions.yaml").read_text(encoding="utf-8")
    function_uri = opened(server, folder / "functions.yaml")
    found = server.at(
        "textDocument/references",
        function_uri,
        *at(functions, "  staff_size:", into=2),
        context=context,
    )
    files = {Path(f["uri"]).name for f in found}
    assert {"functions.yaml", "actions.yaml", "bonuses.yaml"} <= files
    for reference in found:  # each range covers the name itself
        lines = Path(reference["uri"][len("file://") :]).read_text(encoding="utf-8").splitlines()
        start, end = reference["range"]["start"], reference["range"]["end"]
        assert lines[start["line"]][start["character"] : end["character"]] == "staff_size"


# -------------------------------------------------------------------------- CLI
def test_rules_help_does_not_import_the_language_server() -> None:
    code = (
        "import sys\n"
        "from interpreter.cli.main import cli\n"
        "try:\n    cli.main(['--help'], standalone_mode=False)\n"
        "except SystemExit:\n    pass\n"
        "print('pygls' in sys.modules, 'interpreter.lsp' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert "lsp " in result.stdout
    assert result.stdout.strip().endswith("False False")
