// The "Last move" box's choice of events that the usual rule (the last run of another seat's
// events) would miss: a player's own resignation (match.js computeLastMove).

const LOOK_BACK = 60; // events looked at for a resignation, newest first

/** Whether ``ev`` is the platform's record of a resignation: one that let the others play on
 * (SeatConceded), or one that ended the match (MatchFinished naming who resigned). */
export function isResignation(ev) {
  if (!ev) return false;
  if (ev.type === "SeatConceded") return true;
  return ev.type === "MatchFinished" && Boolean(ev.payload) && Number.isInteger(ev.payload.resigned);
}

/** The latest resignation and what the game did after it (oldest first, only events with words),
 * when nothing but that player's own command and the game's steps came after it; else null.
 * ``newestFirst``: the log's tail, newest first; ``actorKey(ev)``: its seat, or "system". */
export function resignationMove(newestFirst, actorKey) {
  const after = [];
  for (const ev of (newestFirst || []).slice(0, LOOK_BACK)) {
    if (!ev) continue;
    if (isResignation(ev)) {
      const who = actorKey(ev);
      if (after.some((e) => ![who, "system"].includes(actorKey(e)))) return null; // someone moved since
      return [ev, ...after.reverse()].filter((e) => e.text);
    }
    after.push(ev);
  }
  return null;
}
