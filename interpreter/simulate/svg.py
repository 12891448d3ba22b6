"""Inline SVG plots, drawn in Python: no library, no script, no external file."""

from __future__ import annotations

import math
from html import escape

BAR = "#4a78b5"
WHISKER = "#222"
GUIDE = "#c0392b"


def histogram(counts: dict[str, int], title: str, width: int = 520, height: int = 200) -> str:
    """Bars of how many values fell in each bin (at most 30 bins)."""
    values = {int(k): v for k, v in counts.items()}
    if not values:
        return ""
    low, high = min(values), max(values)
    bins = min(30, high - low + 1)
    size = math.ceil((high - low + 1) / bins)
    tallies = [0] * math.ceil((high - low + 1) / size)
    for value, count in values.items():
        tallies[(value - low) // size] += count
    left, bottom, top = 40, 30, 24
    plot_w, plot_h = width - left - 10, height - bottom - top
    most = max(tallies)
    bar_w = plot_w / len(tallies)
    parts = [_open(width, height, title), _text(width / 2, 16, title, "middle", bold=True)]
    for i, tally in enumerate(tallies):
        h = plot_h * tally / most
        x = left + i * bar_w
        first = low + i * size
        name = f"{first}" if size == 1 else f"{first}–{first + size - 1}"
        parts.append(
            f'<rect x="{x + 1:.1f}" y="{top + plot_h - h:.1f}" width="{max(bar_w - 2, 1):.1f}" '
            f'height="{h:.1f}" fill="{BAR}"><title>{escape(name)}: {tally}</title></rect>'
        )
    for i in range(0, len(tallies), max(1, len(tallies) // 8)):
        parts.append(_text(left + (i + 0.5) * bar_w, height - 12, str(low + i * size), "middle"))
    parts.append(_text(left - 4, top + 8, str(most), "end"))
    parts.append(_text(left - 4, top + plot_h, "0", "end"))
    parts.append(_line(left, top + plot_h, left + plot_w, top + plot_h, WHISKER))
    parts.append("</svg>")
    return "".join(parts)


def intervals(
    rows: list[tuple[str, float, float, float]],
    title: str,
    reference: float | None = None,
    width: int = 520,
) -> str:
    """Horizontal bars (rates, 0–100 %) with their intervals as whiskers; a dashed
    line at ``reference`` (even chance)."""
    if not rows:
        return ""
    label_w, row_h, top = 150, 18, 24
    plot_w = width - label_w - 50
    height = top + row_h * len(rows) + 24
    parts = [_open(width, height, title), _text(width / 2, 16, title, "middle", bold=True)]
    for i, (name, rate, low, high) in enumerate(rows):
        y = top + i * row_h
        parts.append(_text(label_w - 6, y + 13, name, "end"))
        parts.append(
            f'<rect x="{label_w}" y="{y + 3}" width="{plot_w * rate:.1f}" height="{row_h - 6}" '
            f'fill="{BAR}"><title>{escape(name)}: {100 * rate:.1f} % '
            f"[{100 * low:.1f} – {100 * high:.1f}]</title></rect>"
        )
        mid = y + row_h / 2
        x1, x2 = label_w + plot_w * low, label_w + plot_w * high
        parts.append(_line(x1, mid, x2, mid, WHISKER))
        parts.append(_line(x1, mid - 4, x1, mid + 4, WHISKER))
        parts.append(_line(x2, mid - 4, x2, mid + 4, WHISKER))
        parts.append(_text(label_w + plot_w + 4, y + 13, f"{100 * rate:.0f} %", "start"))
    axis = top + row_h * len(rows)
    for tick in (0, 0.25, 0.5, 0.75, 1):
        parts.append(_text(label_w + plot_w * tick, axis + 14, f"{tick * 100:.0f}", "middle"))
    if reference is not None:
        x = label_w + plot_w * reference
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{axis}" stroke="{GUIDE}" '
            'stroke-dasharray="4 3"/>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _open(width: int, height: int, title: str) -> str:
    return (
        f'<svg class="plot" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(title)}">'
    )


def _text(x: float, y: float, text: str, anchor: str, bold: bool = False) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="11"{weight}>'
        f"{escape(text)}</text>"
    )


def _line(x1: float, y1: float, x2: float, y2: float, colour: str) -> str:
    return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}"/>'


def differences(
    rows: list[tuple[str, float, float, float]], title: str, unit: str = "", width: int = 560
) -> str:
    """Each difference as a dot with its interval as a whisker, around a line at 0: a
    whisker that crosses the line is a difference chance alone could make."""
    rows = [row for row in rows if math.isfinite(row[2]) and math.isfinite(row[3])]
    if not rows:
        return ""
    label_w, row_h, top = 170, 18, 24
    plot_w = width - label_w - 60
    height = top + row_h * len(rows) + 24
    reach = max(max(abs(low), abs(high)) for _, _, low, high in rows) or 1.0

    def x(value: float) -> float:
        return label_w + plot_w * (0.5 + value / (2 * reach))

    parts = [_open(width, height, title), _text(width / 2, 16, title, "middle", bold=True)]
    for i, (name, value, low, high) in enumerate(rows):
        y = top + i * row_h
        mid = y + row_h / 2
        parts.append(_text(label_w - 6, y + 13, name, "end"))
        parts.append(_line(x(low), mid, x(high), mid, WHISKER))
        parts.append(_line(x(low), mid - 4, x(low), mid + 4, WHISKER))
        parts.append(_line(x(high), mid - 4, x(high), mid + 4, WHISKER))
        parts.append(
            f'<circle cx="{x(value):.1f}" cy="{mid:.1f}" r="4" fill="{BAR}">'
            f"<title>{escape(name)}: {value:+.1f}{unit} [{low:+.1f}, {high:+.1f}]</title></circle>"
        )
        parts.append(_text(label_w + plot_w + 6, y + 13, f"{value:+.1f}{unit}", "start"))
    axis = top + row_h * len(rows)
    for tick in (-reach, -reach / 2, 0.0, reach / 2, reach):
        label = f"{tick:+.0f}" if reach >= 4 else f"{tick:+.1f}"
        parts.append(_text(x(tick), axis + 14, label if tick else "0", "middle"))
    parts.append(
        f'<line x1="{x(0):.1f}" y1="{top}" x2="{x(0):.1f}" y2="{axis}" stroke="{GUIDE}" '
        'stroke-dasharray="4 3"/>'
    )
    parts.append("</svg>")
    return "".join(parts)
