"""What one event changed: a readable diff of two folded states (PURE).

``changes(before, after)`` lists every leaf that differs as ``{path, kind, before, after}`` lines in the
order ``dictdiffer`` finds them: ``kind`` is ``changed``, ``added`` or ``removed``; ``path`` reads like
``game.players[1].hand[2]`` or ``game.monsters["0,1"].lp``; values are compact JSON, cut at ``MAX_VALUE`` characters.
"""

from __future__ import annotations

import json

import dictdiffer

MAX_VALUE = 240
MAX_CHANGES = 400


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


def changes(before, after) -> tuple[list[dict], bool]:
    """(the changes, whether the list was cut at ``MAX_CHANGES``)."""
    out = []
    for kind, where, detail in dictdiffer.diff(before, after, dot_notation=False):
        parent = list(where)
        if kind == "change":
            out.append({"path": path_text(parent), "kind": "changed", "before": show(detail[0]), "after": show(detail[1])})
        else:
            for key, value in detail:
                line = {"path": path_text(parent + [key]), "kind": "added" if kind == "add" else "removed",
                        "before": None, "after": None}
                line["after" if kind == "add" else "before"] = show(value)
                out.append(line)
        if len(out) >= MAX_CHANGES:
            return out[:MAX_CHANGES], True
    return out, False
