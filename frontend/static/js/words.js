// How pages word things, shared by the table, its boards and panels (the server's twin is
// frontend/wording.py and games/application/identities.seat_label).

/** A seat's player name, said once: a bot's own name ("Bot 2") already says it is a bot, so " (bot)"
 * is added only to a bot whose name does not. */
export function seatLabel(s) {
  if (!s) return null;
  const name = String(s.username || "");
  return s.bot && !/bot/i.test(name) ? `${name} (bot)` : name;
}

/** What the table says before the match starts (or when there is nothing to show): who or what an
 * open match waits for, worded for the one reading it (``doc``: the view document). */
export function waitingWords(doc) {
  const match = (doc && doc.match) || {};
  if (match.status === "active" && behindWords(doc.spectator_delay)) return startedBehindWords(doc.spectator_delay);
  if (match.status !== "open") return "Nothing to show yet.";
  const seats = match.seats || [];
  const taken = seats.filter(Boolean).length;
  const mine = Number.isInteger(doc.seat) ? seats[doc.seat] : null;
  const startsIt = Boolean(mine && mine.user_id != null && mine.user_id === match.creator_id);
  if (taken < seats.length) {
    const waiting = `Waiting for players: ${taken} of ${seats.length} seats taken.`;
    return startsIt ? `${waiting} Invite players or add bots, then start the match.` : waiting;
  }
  if (startsIt) return "Every seat is taken: start the match when you are ready.";
  const starter = seats.find((s) => s && s.user_id != null && s.user_id === match.creator_id);
  return starter ? `Every seat is taken: waiting for ${seatLabel(starter)} to start the match.` : "Every seat is taken: waiting for the match to start.";
}

/** A message as a sentence ("wait for your turn" -> "Wait for your turn."). */
export function sentence(message, fallback = "That did not work.") {
  const text = String(message || "").trim();
  if (!text) return fallback;
  return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
}

// Refusals whose API message is written for programs (a seq, a rate): what a player reads instead
// (as WORDS in frontend/wording.py).
export const WORDS = {
  throttled: "You are doing that too quickly: wait a moment and try again.",
  conflict: "Someone did this at the same moment: the page now shows where things stand.",
  version_conflict: "The match moved on meanwhile: look at the table again and retry.",
  unavailable: "The service is busy for a moment: try again shortly.",
  offline: "Not connected: reconnecting…",
  disconnected: "The connection was lost: reconnecting…",
  frame_too_large: "That was too large for the server to read: nothing was done.",
};
const CODE = /^[a-z]+(_[a-z]+)+$/;

/** What a player reads for an API or socket error ({code, message}): the caller's words for its code,
 * then ours, then its message as a sentence; never the code itself. */
export function errorText(body, words = {}, fallback = "That did not work.") {
  const code = (body && body.code) || "";
  if (words[code]) return words[code];
  if (WORDS[code]) return WORDS[code];
  const message = String((body && body.message) || "").trim();
  if (!message || message === code || CODE.test(message)) return fallback;
  return sentence(message);
}

/** Names as a sentence says them: "a", "a and b", "a, b and c". */
export function nameList(names) {
  const all = (names || []).map(String);
  return all.length < 2 ? all.join("") : `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}`;
}

/** The end result after "Game over.": ``winners``, their names; ``resigned``, [{name, forTeam}] in the
 * order they resigned (``forTeam``: that resignation lost the game for the player's team-mates too). */
export function resultWords(winners, resigned = []) {
  const won = winners && winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${nameList(winners)}` : "No winner.";
  if (!resigned.length) return won;
  const team = resigned.length === 1 && resigned[0].forTeam ? " for the team" : "";
  return `${won} (${nameList(resigned.map((r) => r.name))} resigned${team})`;
}

/** Whether the tournament's organizer holds this running match (its clock stopped, moves refused). */
export function isPaused(doc) {
  return Boolean(doc && doc.match && doc.match.clock_held && doc.match.status === "active");
}

/** The one wording of a paused round (a tournament organizer's pause), the same wherever it shows: the
 * tournament page (frontend/templates/frontend/_tournament_live.html), the match page's banner, Clock
 * and Seats, the boards' header and badges. The server's twins are frontend/views.PAUSED and
 * paused_words. */
export const PAUSED = Object.freeze({
  sentence: "The round is paused", // every longer sentence starts with it
  header: "Round paused", // a board's header, where "Your turn" would be
  clock: "stopped: the round is paused", // the match page's Clock (it resumes with the time it had left)
  badge: "to play when resumed", // the awaited seat's badge, instead of "to play"
  moves: "The round is paused: your moves wait until it resumes.", // the player's actions box
});

/** The badge beside the awaited seat's name: "to play", or while paused that it waits for the resume. */
export function toPlayBadge(doc) {
  return isPaused(doc) ? PAUSED.badge : "to play";
}

/** The match page's banner while the organizer holds the match (a tournament's pause; the server's
 * twin is frontend/views.paused_words). */
export function pausedWords(reason) {
  const why = String(reason || "").trim();
  return `${PAUSED.sentence} by the organizer${why ? `: ${why}` : ""}. Moves wait until it resumes; clocks are stopped.`;
}

/** A board's line under its "Paused" header (the page's banner above it says why and that clocks are
 * stopped, so this one only says who plays next): ``mine`` when the reader is the awaited seat, else
 * the awaited seats' ``names``. */
export function pausedWaitWords(mine, names) {
  if (mine) return "Your move waits until the round resumes.";
  const who = (names || []).filter(Boolean);
  return who.length ? `${who.join(", ")} will play when the round resumes.` : "Moves wait until the round resumes.";
}

/** The end screen's rematch offer: ``iResigned``, the reader resigned this match (a rematch is then
 * plainly a new match they may still offer). */
export function rematchIntro(iResigned) {
  const offer = "A new match: the same game with the same players and options, as soon as every player accepts.";
  return iResigned ? `${offer} You resigned this one; you can still offer a new one.` : offer;
}

/** A seat's line in the rematch offer (its name is said before it). */
export function rematchSeatState({ bot = false, accepted = false, mine = false } = {}) {
  if (bot) return "accepts by itself";
  if (accepted) return "accepted";
  return mine ? "not accepted yet" : "has not answered yet";
}

/** The match page's connection badge once the socket is open: "Live", or for a spectator of a
 * tournament match watched behind the players (``delay``: {seconds, turns, words}, views.match_page) how
 * far behind, "Delayed 1 minute and 1 turn": a delayed view is not live. */
export function liveWords(delay) {
  const behind = behindWords(delay);
  return behind ? `Delayed ${behind}` : "Live";
}

/** How far behind the players a delayed spectator is, "1 minute and 1 turn" ("" when not behind): the
 * server's words (``delay.words``, frontend/wording.delay_words, as the tournament page says it), so that
 * one formatter words the delay everywhere. */
export function behindWords(delay) {
  return delay && typeof delay.words === "string" ? delay.words : "";
}

/** What a delayed spectator's table says while the deal has not reached them yet (the match runs;
 * their view is still the lobby's): not "Nothing to show yet", which reads as if nothing happened. */
export function startedBehindWords(delay) {
  return `The match has started; as a spectator you see it ${behindWords(delay)} behind: the first moves appear soon.`;
}
