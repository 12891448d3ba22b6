"""Print diagnostics the way compilers do: headline, source line, caret, hint."""

from __future__ import annotations

from pathlib import Path

from interpreter.errors import Diagnostic

_source_cache: dict[tuple, list[str]] = {}


def source_line(path: str, line: int) -> str | None:
    """Line ``line`` of the file as it is now (cached while the file is unchanged)."""
    if line <= 0:
        return None
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    key = (path, stat.st_mtime_ns, stat.st_size)
    lines = _source_cache.get(key)
    if lines is None:
        try:
            raw = Path(path).read_bytes()
            if len(raw) > 5_000_000 or b"\x00" in raw:
                lines = []
            else:
                lines = raw.decode("utf-8", errors="replace").splitlines()
        except OSError:
            lines = []
        _source_cache[key] = lines
    return lines[line - 1] if line <= len(lines) else None


def render(diagnostic: Diagnostic) -> str:
    out = [diagnostic.headline()]
    text = source_line(diagnostic.location.path, diagnostic.location.line)
    if text is not None and len(text) <= 400:
        gutter = f"{diagnostic.location.line:>4} | "
        out.append(gutter + text.expandtabs(1))
        column = max(diagnostic.location.column, 1)
        out.append(" " * (len(gutter) + column - 1) + "^")
    if diagnostic.json_path:
        out.append(f"     = at: {diagnostic.json_path}")
    if diagnostic.combination:
        out.append(f"     = {diagnostic.combination_note()}")
    if diagnostic.hint:
        out.append(f"     = hint: {diagnostic.hint}")
    return "\n".join(out)
