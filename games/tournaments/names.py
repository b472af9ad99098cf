"""What an entrant shows of its players.

An entrant records the name it entered with (the ``registered`` record: the log is never rewritten),
its players' usernames joined by `` & `` for a team. When one of those accounts is deleted afterwards,
every read (the detail, the standings, the judges' queue, the pages and the live socket) shows that
player as ``deleted player``, as a match's seats do (``games.application.identities``); a team keeps
its other player's name.
"""

from __future__ import annotations

from games.application.identities import DELETED_PLAYER, deleted_among
from games.tournaments.models import EntrantMember

TEAM_JOIN = " & "


def name_shown(name: str, user_ids, gone) -> str:
    """``name`` as entered by the players ``user_ids`` (in order), each of ``gone`` shown as deleted."""
    user_ids = list(user_ids)
    if not gone.intersection(user_ids):
        return name
    parts = name.split(TEAM_JOIN) if len(user_ids) > 1 else [name]
    if len(parts) != len(user_ids):  # not a name this module can take apart: hide all of it
        return DELETED_PLAYER
    return TEAM_JOIN.join(DELETED_PLAYER if uid in gone else part for uid, part in zip(user_ids, parts))


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
    gone = deleted_among({uid for row in rows for uid in members.get(row["entrant_id"], ())})
    if not gone:
        return rows
    return [{**row, "name": name_shown(row["name"], members.get(row["entrant_id"], ()), gone)} for row in rows]
