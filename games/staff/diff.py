"""What one event changed: a readable diff of two folded states (PURE).

``changes(before, after)`` lists every leaf that differs as ``{path, kind, before, after}`` lines in the
order ``dictdiffer`` finds them: ``kind`` is ``changed``, ``added`` or ``removed``; ``path`` reads like
``game.players[1].hand[2]`` or ``game.monsters["0,1"].lp``; values are compact JSON, cut at ``MAX_VALUE`` characters.
A value that is an object or a list also comes indented (``before_full``, ``after_full``; None otherwise), cut
at ``MAX_FULL`` characters, for the page to unfold under its one-line form.
"""

from __future__ import annotations

import json

import dictdiffer

MAX_VALUE = 240
MAX_CHANGES = 400
MAX_FULL = 20_000


def path_text(parts) -> str:
    """``["game", "players", 1, "hand"]`` -> ``game.players[1].hand``; a key that is not a plain name
    is quoted: ``game.terrain["0,1"]``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part).isidentifier():
            out += f".{part}" if out else str(part)
        else:
            out += f"[{json.dumps(str(part))}]"
    return out or "(the whole state)"


def show(value) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return text if len(text) <= MAX_VALUE else text[:MAX_VALUE - 1] + "…"


def show_full(value) -> str | None:
    """An object or a list as indented JSON (None for a plain value, which its one line already shows)."""
    if not isinstance(value, (dict, list)) or not value:
        return None
    text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_FULL else text[:MAX_FULL - 1] + "…"


def changes(before, after) -> tuple[list[dict], bool]:
    """(the changes, whether the list was cut at ``MAX_CHANGES``)."""
    out = []
    for kind, where, detail in dictdiffer.diff(before, after, dot_notation=False):
        parent = list(where)
        if kind == "change":
            out.append({"path": path_text(parent), "kind": "changed", "before": show(detail[0]), "after": show(detail[1]),
                        "before_full": show_full(detail[0]), "after_full": show_full(detail[1])})
        else:
            for key, value in detail:
                line = {"path": path_text(parent + [key]), "kind": "added" if kind == "add" else "removed",
                        "before": None, "after": None, "before_full": None, "after_full": None}
                side = "after" if kind == "add" else "before"
                line[side], line[f"{side}_full"] = show(value), show_full(value)
                out.append(line)
        if len(out) >= MAX_CHANGES:
            return out[:MAX_CHANGES], True
    return out, False
