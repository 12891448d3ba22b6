"""A self-contained HTML page to step through a logged game (``rules replay --html``).

One file: inline CSS and script, no network. The positions come from one replay pass
(``transcript.read_game`` with ``capture=flat_position``): each is a player's view
(``engine/view.py``, or the full view), flattened to ``key -> value`` and stored as the
difference from the position before it, so a few hundred positions stay small. The
page rebuilds a position by applying the differences in order.

With ``?test=1`` in its address the page drives itself (first, next, previous, last,
the arrow keys, then the position ``&at=N`` if given) and writes what it showed into
``#test-result`` as JSON: a headless browser's ``--dump-dom`` then shows whether
stepping works, and what a position's status line and event say.

An event belongs to the round and phase of the position before it (the transcript's
heading), not to where the game stands after it: the last move of a round is followed
by the next round's preparation, so the status line names both when they differ.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from interpreter.engine.game import Game
from interpreter.engine.view import full_view, view
from interpreter.engine.words import about
from interpreter.log.transcript import Reading, headings
from interpreter.ruleset.grid import drawn_grids

DELETED = "\u0000"  # never a value of a view: marks a key gone since the last position


def flat_position(n: int, game: Game, seat: int | None) -> dict[str, Any]:
    """The view at a position as ``key -> value`` (a capture for ``read_game``)."""
    shown = full_view(game) if seat is None else view(game, seat)
    out: dict[str, Any] = {
        "round": shown["round"],
        "phase": shown["phase"],
        "stage": shown["stage"],
        "pending": shown["pending"],
    }
    for name, value in shown["counters"].items():
        out[f"c/{name}"] = value
    for name, value in shown["variables"].items():
        out[f"v/{name}"] = value
    for name, content in shown["zones"].items():
        out[f"z/{name}"] = content
    for index, player in enumerate(shown["players"]):
        out[f"p{index}/c"] = player["counters"]
        for name, content in player["zones"].items():
            out[f"p{index}/z/{name}"] = content
    for space, entry in shown["spaces"].items():
        out[f"s/{space}"] = entry
    return out


def differences(positions: list[dict[str, Any]]) -> list[list[Any]]:
    """Each position as [changed keys and their values, keys gone] from the one before."""
    out: list[list[Any]] = []
    before: dict[str, Any] = {}
    for position in positions:
        changed = {k: v for k, v in position.items() if k not in before or before[k] != v}
        gone = [k for k in before if k not in position]
        out.append([changed, gone])
        before = position
    return out


def page_data(reading: Reading) -> dict[str, Any]:
    ruleset = reading.ruleset
    data: dict[str, Any] = {
        "title": "",
        "you": reading.player,
        "players": list(reading.players),
        "labels": {"zones": {}, "counters": {}, "variables": {}, "phases": {}},
        "board": [],
        "about": {},
        "lines": [[line.event, line.kind, line.text] for line in reading.lines],
        "at": headings(reading),  # position n: where the game is; event n: at[n - 1]
        "positions": differences(reading.captured),
        "last": reading.last,
        "verdict": reading.verdict.kind,
        "failure": reading.failure(),
        "failed_at": reading.failed_at,
        "result": [line.text for line in reading.lines if line.kind == "result"],
        "ended": [line.text for line in reading.lines if line.kind == "note"],
    }
    if ruleset is None:
        return data
    data["title"] = ruleset.name
    labels = data["labels"]
    for name, zone in ruleset.zones.items():
        labels["zones"][name] = ruleset.label(name, "zones", zone.label or name)
    for name, counter in ruleset.counters.items():
        labels["counters"][name] = ruleset.label(name, "counters", counter.label or name)
    for name in ruleset.variables:
        labels["variables"][name] = ruleset.label(name, "variables")
    for phase in ruleset.phases:
        labels["phases"][phase.id] = ruleset.label(phase.id, "phases", phase.label or phase.id)
    tables = reading._tables
    groups: dict[str, list[str]] = {}
    for space_id, space in tables.spaces.items():
        groups.setdefault(space.group, []).append(space_id)
    # a group with `layout: grid` also gets its rows of ids, drawn as a board
    grids = dict(drawn_grids(ruleset, tables))
    data["board"] = [[ruleset.label(g, "spaces"), ids, grids.get(g)] for g, ids in groups.items()]
    # shown on hover (title attributes): what each card, space, action, counter and
    # zone is and does, in the rules' words
    for name in [*tables.spaces, *ruleset.pieces, *ruleset.actions, *ruleset.counters]:
        data["about"].setdefault(name, about(ruleset, tables, {"spaces": {}}, name))
    for name in ruleset.zones:
        data["about"].setdefault(name, about(ruleset, tables, {"spaces": {}}, name))
    data["about"] = {k: v for k, v in data["about"].items() if v}
    return data


def _embedded(data: dict[str, Any]) -> str:
    """JSON safe inside a <script> element (no "<", ">" or "&" left as such)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def page(reading: Reading, source: str, log: str | None = None) -> str:
    """The viewer page for ``reading`` (of the log ``source``); with ``log``, the log's
    path as given, each position shows the command that goes on from it."""
    data = page_data(reading)
    if log is not None:
        data["command"] = f"rules play --from {shlex.quote(log)} --at "
    who = f" as {reading.player}" if reading.player else ""
    title = f"{data['title'] or 'game'}: {source}{who}"
    return (
        _PAGE.replace("@TITLE@", _escape(title))
        .replace("@STYLE@", _STYLE)
        .replace("@SCRIPT@", _SCRIPT)
        .replace("@DATA@", _embedded(data))
    )


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>@STYLE@</style>
</head>
<body>
<header>
  <h1>@TITLE@</h1>
  <nav id="controls">
    <button id="first" title="first position (Home)">first</button>
    <button id="prev" title="previous position (left arrow)">&#x25C0; previous</button>
    <button id="next" title="next position (right arrow)">next &#x25B6;</button>
    <button id="last" title="last position (End)">last</button>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="position">
    <span id="where"></span>
  </nav>
</header>
<main>
  <section id="view" data-n="-1"></section>
  <aside><h2>Events</h2><ol id="events"></ol></aside>
</main>
<pre id="test-result" hidden></pre>
<script type="application/json" id="data">@DATA@</script>
<script>@SCRIPT@</script>
</body>
</html>
"""

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:.4em 1em}
h1{font-size:1.1em;margin:.2em 0}
h2{font-size:1em;margin:.8em 0 .3em}
nav{display:flex;gap:.5em;align-items:center;flex-wrap:wrap}
#slider{flex:1;min-width:10em}
main{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1em;padding:0 1em}
aside{max-height:calc(100vh - 6em);overflow:auto;position:sticky;top:5em}
#events{padding-left:0;list-style:none;margin:0;font-size:13px}
#events li{padding:1px 4px;cursor:pointer;white-space:pre-wrap}
#events li.heading{font-weight:bold;margin-top:.6em;cursor:default}
#events li.reveal,#events li.note{color:#555;padding-left:2.5em}
#events li.result{font-family:monospace;cursor:default;white-space:pre;overflow-x:auto}
#events li.failure{color:#a00;font-weight:bold}
#events li.current{background:#ffe680}
#events li.later{color:#999}
table{border-collapse:collapse;margin:.2em 0}
td,th{border:1px solid #ddd;padding:1px 6px;text-align:left;vertical-align:top}
.slot{display:inline-block;border:1px solid #ddd;border-radius:3px;margin:1px;padding:0 3px}
.slot.empty{color:#aaa}
table.grid{border-collapse:collapse}
.grid td.square{width:1.6em;height:1.6em;text-align:center;border:1px solid #999;padding:0}
.grid td.seat0{background:#222;color:#fff}
.grid td.seat1{background:#f4f4f4}
.grid td.seat2{background:#c33;color:#fff}
.grid td.seat3{background:#36c;color:#fff}
.space{font-size:12px}
.owner{font-weight:bold;margin:0 3px}
.piece{display:inline-block;border:1px solid #bbb;border-radius:3px;padding:0 3px;margin:1px}
.hidden{color:#777;font-style:italic}
.player{border:1px solid #ccc;border-radius:4px;padding:.3em .6em;margin:.4em 0;background:#fff}
.player.you{border-color:#36c}
.banner{border:2px solid #a00;color:#a00;padding:.4em;margin:.5em 0;background:#fff0f0}
.result{font-family:monospace;white-space:pre;background:#fff;border:1px solid #ccc;padding:.4em}
.status{font-weight:bold}
.command code{background:#eee;padding:0 4px;user-select:all}
"""

_SCRIPT = r"""
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("data").textContent);
  var view = document.getElementById("view");
  var list = document.getElementById("events");
  var slider = document.getElementById("slider");
  var where = document.getElementById("where");
  var cache = [];
  var current = 0;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent, child) { parent.appendChild(child); return child; }

  function stateAt(n) {
    for (var i = cache.length; i <= n; i++) {
      var next = Object.assign({}, i ? cache[i - 1] : {});
      var diff = DATA.positions[i];
      Object.assign(next, diff[0]);
      diff[1].forEach(function (k) { delete next[k]; });
      cache.push(next);
    }
    return cache[n];
  }

  function label(section, name) {
    var table = DATA.labels[section] || {};
    return table[name] || name;
  }
  function named(section, name) {  // a label that tells what it is on hover
    var node = el("span", null, label(section, name));
    if (DATA.about[name]) node.title = DATA.about[name];
    return node;
  }
  function text(value) {  // a value as people read it: P3, not "P3"
    if (value === null || value === undefined) return "none";
    if (Array.isArray(value)) return value.length ? value.map(text).join(", ") : "none";
    if (typeof value === "object") {
      return Object.keys(value).map(function (k) { return k + " " + text(value[k]); }).join(", ");
    }
    return String(value);
  }
  function explained(line) {  // the hover text of an event: what its words are
    var seen = {};
    return line.split(/[\s,;()\[\]]+/).filter(function (w) {
      if (!DATA.about[w] || seen[w]) return false;
      seen[w] = true;
      return true;
    }).map(function (w) { return w + ": " + DATA.about[w]; }).join("\n");
  }

  function content(value) {
    var span = el("span");
    if (Array.isArray(value)) {
      if (!value.length) { span.className = "hidden"; span.textContent = "empty"; }
      value.forEach(function (id) {
        var p = add(span, el("span", "piece", id));
        if (DATA.about[id]) p.title = DATA.about[id];
      });
    } else if (value && typeof value === "object") {
      add(span, el("span", "hidden", value.count + " hidden"));
      if (value.known && value.known.length) {
        add(span, document.createTextNode(" known: "));
        add(span, content(value.known));
      }
    } else {
      span.textContent = value === null || value === undefined ? "" : String(value);
    }
    return span;
  }
  function isEmpty(value) {
    return (Array.isArray(value) && !value.length) ||
      (value && typeof value === "object" && !Array.isArray(value) && !value.count);
  }
  function gridOf(grid, st) {
    // a board of squares: the owner's seat number (and colour), or the pieces
    var t = el("table", "grid");
    grid.forEach(function (row) {
      var tr = add(t, el("tr"));
      row.forEach(function (id) {
        var td = add(tr, el("td", id ? "square" : "off"));
        if (!id) return;
        var entry = st["s/" + id] || {};
        td.title = id + (DATA.about[id] ? ": " + DATA.about[id] : "");
        if (entry.owner) {
          var seat = DATA.players.indexOf(entry.owner);
          td.className += " seat" + seat;
          td.textContent = String(seat + 1);
        } else if (entry.pieces) {
          add(td, content(entry.pieces));
        }
      });
    });
    return t;
  }
  function table(rows) {
    var t = el("table");
    rows.forEach(function (row) {
      var tr = add(t, el("tr", row.cls));
      row.cells.forEach(function (cell) {
        var td = add(tr, el("td"));
        if (cell instanceof Node) td.appendChild(cell); else td.textContent = cell;
      });
    });
    return t;
  }

  function heading(n) {  // the event's round and phase, and where the game is now
    var now = DATA.at[n] || "";
    if (!n) return now;
    var during = DATA.at[n - 1] || "";
    return during === now ? during : during + "; now " + now;
  }

  function linesOf(n, kinds) {
    return DATA.lines.filter(function (l) { return l[0] === n && kinds.indexOf(l[1]) >= 0; });
  }

  function render(n) {
    view.textContent = "";
    view.dataset.n = String(n);
    var st = stateAt(n);
    var status = add(view, el("p", "status"));
    status.id = "status";
    status.textContent = "Position " + n + " of " + DATA.last +
      (n ? " (after event " + n + ")" : " (the start)") + " - " + heading(n) +
      (DATA.you ? " - as seen by " + DATA.you : "");
    if (DATA.command) {
      var command = add(view, el("p", "command", "go on from here: "));
      command.id = "command";
      add(command, el("code", null, DATA.command + n));
    }
    linesOf(n, ["event", "reveal"]).forEach(function (l) {
      var p = add(view, el("p", "event", (l[1] === "event" ? l[0] + ". " : "") + l[2]));
      if (l[1] === "event") p.id = "event";
      p.title = explained(l[2]);
    });
    if (n === DATA.last && DATA.failure) {
      var b = add(view, el("div", "banner", "The next event (" + DATA.failed_at +
        ") fails: " + DATA.failure));
      b.id = "failure";
    }
    if (n === DATA.last && DATA.ended.length) {
      add(view, el("div", "banner", DATA.ended.join("\n")));
    }
    if (n === DATA.last && DATA.result.length) {
      var r = add(view, el("div", "result", DATA.result.join("\n")));
      r.id = "result";
    }
    if (st.pending && st.pending.length) {
      add(view, el("h2", null, "Waiting for"));
      var ul = add(view, el("ul"));
      st.pending.forEach(function (p) {
        var text = p.player + (p.prompt && p.prompt !== "option" ? " (" + p.prompt + ")" : "");
        if (p.options) text += ": " + p.options.join(", ");
        add(ul, el("li", null, text));
      });
    }
    add(view, el("h2", null, "Board"));
    var rows = [];
    DATA.board.forEach(function (group) {
      if (group[2]) {
        rows.push({cells: [group[0], gridOf(group[2], st)]});
        return;
      }
      var cell = el("span");
      group[1].forEach(function (id) {
        var entry = st["s/" + id] || {};
        var slot = add(cell, el("span", "slot" + (entry.owner || entry.pieces ? "" : " empty")));
        var name = add(slot, el("span", "space", id));
        if (DATA.about[id]) name.title = DATA.about[id];
        if (entry.owner) add(slot, el("span", "owner", entry.owner));
        if (entry.pieces) add(slot, content(entry.pieces));
      });
      rows.push({cells: [group[0], cell]});
    });
    add(view, table(rows));
    add(view, el("h2", null, "Players"));
    DATA.players.forEach(function (name, i) {
      var box = add(view, el("div", "player" + (name === DATA.you ? " you" : "")));
      add(box, el("strong", null, name + (name === DATA.you ? " (you)" : "")));
      var counters = st["p" + i + "/c"] || {};
      var line = add(box, el("div"));
      Object.keys(counters).forEach(function (k, index) {
        if (index) add(line, document.createTextNode(", "));
        add(line, named("counters", k));
        add(line, document.createTextNode(" " + text(counters[k])));
      });
      var zrows = [];
      Object.keys(DATA.labels.zones).forEach(function (z) {
        var value = st["p" + i + "/z/" + z];
        if (value !== undefined && !isEmpty(value)) {
          zrows.push({cells: [named("zones", z), content(value)]});
        }
      });
      if (zrows.length) add(box, table(zrows));
    });
    add(view, el("h2", null, "Game"));
    var grows = [];
    Object.keys(st).forEach(function (k) {
      if (k.indexOf("c/") === 0) {
        grows.push({cells: [named("counters", k.slice(2)), text(st[k])]});
      }
      if (k.indexOf("v/") === 0 && st[k] !== null) {
        grows.push({cells: [label("variables", k.slice(2)), text(st[k])]});
      }
    });
    Object.keys(DATA.labels.zones).forEach(function (z) {
      var value = st["z/" + z];
      if (value !== undefined && !isEmpty(value)) {
        grows.push({cells: [named("zones", z), content(value)]});
      }
    });
    add(view, table(grows)).id = "game";
    Array.prototype.forEach.call(list.children, function (li) {
      var at = Number(li.dataset.n);
      li.classList.toggle("current", li.dataset.kind === "event" && at === n);
      li.classList.toggle("later", at > n && li.dataset.kind !== "failure");
    });
    var mark = list.querySelector("li.current");
    if (mark && mark.scrollIntoView) mark.scrollIntoView({block: "nearest"});
    where.textContent = n + " / " + DATA.last;
    slider.value = String(n);
  }

  function go(n) {
    if (DATA.last < 0) return;
    current = Math.max(0, Math.min(DATA.last, n));
    render(current);
  }

  DATA.lines.forEach(function (l) {
    var said = l[1] === "event" ? l[0] + ". " + l[2] : l[1] === "failure" ? "error: " + l[2] : l[2];
    var li = add(list, el("li", l[1], said));
    if (l[1] === "event" || l[1] === "reveal") li.title = explained(l[2]);
    li.dataset.n = String(l[0]);
    li.dataset.kind = l[1];
    if (l[1] === "event") li.addEventListener("click", function () { go(l[0]); });
  });
  slider.max = String(Math.max(0, DATA.last));
  slider.addEventListener("input", function () { go(Number(slider.value)); });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(current - 1); });
  document.getElementById("next").addEventListener("click", function () { go(current + 1); });
  document.getElementById("last").addEventListener("click", function () { go(DATA.last); });
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) return;
    if (e.key === "ArrowRight") go(current + 1);
    else if (e.key === "ArrowLeft") go(current - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(DATA.last);
    else return;
    e.preventDefault();
  });

  if (DATA.last < 0) {
    view.appendChild(el("div", "banner", DATA.failure || "no position to show"));
  } else {
    go(0);
  }

  var query = new URLSearchParams(location.search);
  if (query.get("test") === "1") {
    var seen = [];
    var shown = function () {
      var cur = list.querySelector("li.current");
      var shownEvent = document.getElementById("event");
      return {
        n: Number(view.dataset.n),
        status: (document.getElementById("status") || {}).textContent || "",
        event: cur ? cur.textContent : null,
        shown: shownEvent ? shownEvent.textContent : null,
        about: shownEvent ? shownEvent.title : null,
        game: (document.getElementById("game") || {}).textContent || "",
        result: !!document.getElementById("result"),
        failure: !!document.getElementById("failure")
      };
    };
    var press = function (key) {
      document.dispatchEvent(new KeyboardEvent("keydown", {key: key, bubbles: true}));
    };
    var click = function (id) { document.getElementById(id).click(); };
    seen.push(shown());
    click("next"); seen.push(shown());
    click("next"); seen.push(shown());
    click("prev"); seen.push(shown());
    click("last"); seen.push(shown());
    click("next"); seen.push(shown());
    press("ArrowLeft"); seen.push(shown());
    press("ArrowRight"); seen.push(shown());
    press("Home"); seen.push(shown());
    if (query.get("at")) { go(Number(query.get("at"))); seen.push(shown()); }
    var out = document.getElementById("test-result");
    out.textContent = JSON.stringify({last: DATA.last, steps: seen});
    out.hidden = false;
  }
})();
"""
