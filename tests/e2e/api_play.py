"""Driving the live server's REST API from a browser test: JSON requests with a token, and a match
played to its end by fast bot-like moves (the awaited seat takes a random legal move, ending its turn
only when nothing else is offered)."""

import json
import urllib.request
import uuid

MAX_MOVES = 400


def api(base, path, token=None, body=None):
    """One JSON request to the live server (a token caller needs no CSRF token)."""
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    data = json.dumps(body).encode() if body is not None else None
    with urllib.request.urlopen(urllib.request.Request(base + path, data=data, headers=headers), timeout=30) as r:
        return json.loads(r.read())


def play_to_the_end(base, match_id, tokens, rng):
    """Play every seat of ``tokens`` (seat -> token) until the match ends; returns its final detail."""
    seated = next(iter(tokens.values()))  # a seat sees the match live (a spectator may see it delayed)
    for _ in range(MAX_MOVES):
        detail = api(base, f"/api/matches/{match_id}/", seated)
        if detail["status"] != "active":
            return detail
        seat = detail["awaiting"][0]
        view = api(base, f"/api/matches/{match_id}/view/", tokens[seat])
        legal = view["legal_commands"]
        moves = [c for c in legal if c["type"] != "end_turn"] or legal
        move = rng.choice(moves)
        api(base, f"/api/matches/{match_id}/commands/", tokens[seat],
            {"command_id": str(uuid.uuid4()), "expected_seq": view["seq"], "type": move["type"], "args": move["args"]})
    raise AssertionError(f"the match did not end within {MAX_MOVES} moves")
