// The "Last move" box's choice of events that the usual rule (the last run of another seat's
// events) would miss: a player's own resignation (match.js computeLastMove); which of the move's
// lines the box shows (``boxLines``); and its title, naming whoever those lines are about (``boxTitle``).

import { nameList } from "./words.js";

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

/** Consecutive lines with the same words, folded into one: ``[{ev, count}]`` (``ev``: the first of the run). */
export function foldRepeats(lines) {
  const out = [];
  for (const ev of lines || []) {
    const prev = out[out.length - 1];
    if (prev && prev.ev.text === ev.text) prev.count += 1;
    else out.push({ ev, count: 1 });
  }
  return out;
}

/** The words of a folded line: "erin9 draws a card (×4)" for four identical lines in a row. */
export function foldedText({ ev, count }) {
  return count > 1 ? `${ev.text} (×${count})` : ev.text;
}

/** Which of a move's lines (oldest first) the box shows: repeats folded, then the move's first line
 * and its newest ones (the turn change, who won the initiative) in ``head`` and ``tail``, with what
 * lies between folded into ``middle`` (one click away). At most ``max`` lines shown. */
export function boxLines(lines, max) {
  const folded = foldRepeats(lines);
  if (folded.length <= max) return { head: folded, middle: [], tail: [] };
  const keep = Math.max(1, max - 1);
  return { head: folded.slice(0, 1), middle: folded.slice(1, folded.length - keep), tail: folded.slice(folded.length - keep) };
}

/** The seats the box's title names: those whose lines it lists (``keys``: each line's seat or "system",
 * oldest first), or, when it lists only the game's steps that answered the viewer's own command
 * (``after``: the viewer's seat, else null), the viewer: in a solo Harakiri game those steps are the
 * player's own hero acting (a counter attack the player chose), never "the game" alone. */
export function titleSeats(keys, after) {
  const seats = [...new Set((keys || []).filter((k) => k !== "system"))];
  return seats.length || after === null || after === undefined ? seats : [after];
}

/** The box's title, true to its lines: ``seats``, the names of the players whose lines it lists (in
 * order); ``game``, whether the game's own steps are among them (enemies acting, the turn passing), so
 * that a box mostly about the red enemies' activation is not titled with the player alone. */
export function boxTitle(seats, game) {
  const who = (seats || []).filter(Boolean);
  if (!who.length) return "Last moves by the game";
  return `Last move: ${nameList(who)}${game ? ", with the game's steps" : ""}`;
}
