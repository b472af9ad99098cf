"""What an entrant shows of its players.

An entrant records the name it entered with (the ``registered`` record: the log is never rewritten),
its players' usernames joined by `` & `` for a team. Every read (the detail, the standings and the
winners, the judges' queue, the reports, the pages and the live socket) shows instead each player's
name as it is now, from the entrant's user ids, as a match's seats do (``games.application.identities``):
the current username after a rename, ``deleted player`` once the account is deleted; a team keeps
its other player's name.
"""

from __future__ import annotations

from games.application.identities import DELETED_PLAYER, names_among
from games.tournaments.models import EntrantMember

TEAM_JOIN = " & "


def name_shown(name: str, user_ids, names: dict) -> str:
    """``name`` as entered by the players ``user_ids`` (in order), each shown as ``names`` (``names_among``) says."""
    user_ids = list(user_ids)
    if not any(uid in names for uid in user_ids):
        return name
    parts = name.split(TEAM_JOIN) if len(user_ids) > 1 else [name]
    if len(parts) != len(user_ids):  # not a name this module can take apart: name each player afresh
        return TEAM_JOIN.join(names.get(uid, DELETED_PLAYER) for uid in user_ids)
    return TEAM_JOIN.join(names.get(uid, part) for uid, part in zip(user_ids, parts))


def members_of(tournament_ids) -> dict[str, list[int]]:
    """{entrant id: its players' user ids, in entry order} of every entrant of the tournaments."""
    members: dict[str, list[int]] = {}
    for entrant_id, user_id in (EntrantMember.objects.filter(tournament_id__in=list(tournament_ids))
                                .order_by("entrant", "id").values_list("entrant_id", "user_id")):
        members.setdefault(str(entrant_id), []).append(user_id)
    return members


def names_shown(rows: list[dict], members: dict[str, list[int]]) -> list[dict]:
    """``rows`` (dicts with ``entrant_id`` and ``name``) with each name as shown: copies of the rows
    whose name changes, the rows themselves otherwise."""
    names = names_among({uid for row in rows for uid in members.get(row["entrant_id"], ())})
    out = []
    for row in rows:
        shown = name_shown(row["name"], members.get(row["entrant_id"], ()), names) if names else row["name"]
        out.append(row if shown == row["name"] else {**row, "name": shown})
    return out
