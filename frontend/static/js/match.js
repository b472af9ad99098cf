// The live match page: one socket, the seat's log and view, the history in words, and the legal
// commands as buttons (or the game's board, which offers them itself).
//
// Protocol (server -> client): hello {seq, seat, state}; events {events:[{seq,type,payload,actor,at,text,hidden?}], seq};
// state {seq, state}; command_result {...}; error {code, message, ...}; watchers {spectators} (hello has it too).
// Client -> server: sync {after}; command {command_id, expected_seq, command:{type, args}}.
// Every message carries the match seq; a gap (first new seq != lastSeq + 1) triggers a sync.
// Only what the server sent for this seat is rendered: the client never has hidden data to leak.
//
// The history shows each event's `text` (one sentence for this seat, from the engine's describe());
// bookkeeping events (empty text) stay in the list, hidden. The last move by someone else (the
// latest run of events by another seat, with the game's own steps around it; or the game's own
// steps alone, e.g. enemies) is summed up above the board, marked in the history and handed to the
// board as doc.last_move so it can highlight it; doc.events is the tail of the log up to the view's seq.

import { boardFor } from "./boards/registry.js";
import { entriesOf, help, helpText, loadGlossary } from "./boards/help.js";
import { ReconnectingSocket } from "./socket.js";
import { outlineWhilePointed, squareMatches } from "./squares.js";
import { PAUSED, WORDS, errorText, isPaused, liveWords, pausedWords, resultWords, seatLabel, toPlayBadge, waitingWords } from "./words.js";
import { retireFlash } from "./flash.js";
import { boxLines, boxTitle, foldedText, resignationMove, titleSeats } from "./last_move.js";

const boot = JSON.parse(document.getElementById("match-boot").textContent);
// The channel layer is at-most-once: if the last push of a quiet spell was lost, nothing else
// would tell us. After this long without any server message, ask for a sync (cheap when current).
const IDLE_SYNC_MS = window.KamizaSyncIntervalMs || 20000;
const $ = (id) => document.getElementById(id);

const PLATFORM_EVENTS = new Set(["MatchCreated", "SeatTaken", "SeatLeft", "MatchStarted", "MatchFinished", "MatchAbandoned",
  "ClockHeld", "ClockReleased"]);
const CLOSE_MESSAGE_TOO_BIG = 1009; // a frame larger than the server takes at all (over 16 MiB)
const BOARD_EVENTS = 200; // the tail of the log a board gets as doc.events
const LAST_MOVE_LINES = 4; // sentences shown above the board

const app = {
  doc: boot.doc, // the latest view document rendered
  lastSeq: boot.doc.seq, // last contiguous event seq in the log
  seenSeqs: new Set(),
  events: new Map(), // seq -> event, every event this page holds (text included)
  sorted: null, // their seqs ascending, rebuilt after an event arrives
  lastMove: [], // the events of the last move by someone else, oldest first
  lastMoveAfterMine: false, // whether those are only the game's steps after this seat's own command
  terms: null, // a RegExp of the glossary's capitalised terms (KINDLE, IMPRINT...), once loaded
  pending: new Map(), // command_id -> {resolve, reject}
  socket: null,
  staleTimer: null,
  lastServerMessageAt: Date.now(),
  renderedReady: null, // whether the command buttons were last rendered enabled
  errorSeq: null, // the newest seq known when the shown refusal came (null: none shown)
  logPinned: true, // the history shows its newest line (false once the reader scrolls up in it)
  connection: { state: "connecting", text: "Connecting…" }, // the socket's state and its words
};

// -- small helpers ---------------------------------------------------------------------------

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
}

function compact(value) {
  return JSON.stringify(value);
}

function uuid4() {
  if (window.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function seatName(seat, doc = app.doc) {
  if (seat === "system") return "the game";
  const s = (doc.match && doc.match.seats && doc.match.seats[seat]) || null;
  const name = s ? seatLabel(s) : `seat ${Number(seat) + 1}`; // seats count from 1 for people
  return seat === doc.seat ? `${name} (you)` : name;
}

function commandLabel(cmd) {
  const args = cmd.args || {};
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === "object" ? compact(v) : v}`);
  return [cmd.type, ...parts].join(" ");
}

function setConnection(state, text) {
  app.connection = { state, text };
  showConnection();
}

/** "Live" is for a match in play; once it is over the socket brings only chat and rematch news, and
 * "Live" beside "Game over" would read as if the match went on. A spectator kept behind the players
 * (a tournament's delay) reads "Delayed 1 minute" instead: what they see is not live. */
function showConnection() {
  const node = $("connection");
  const { state, text } = app.connection;
  const over = matchOver(app.doc);
  const delayed = state === "open" && !over && liveWords(boot.spectator_delay) !== "Live";
  node.dataset.state = state;
  node.toggleAttribute("data-delayed", delayed);
  const words = state === "open" && over ? "Connected" : delayed ? liveWords(boot.spectator_delay) : text;
  if (node.textContent !== words) node.textContent = words; // a live region: the same words written again are said again
  node.title = state !== "open" ? "" : over ? "Chat and rematch offers arrive as they are sent."
    : delayed ? "You watch this tournament match behind the players, so that nobody can coach them live." : "Every move arrives as it is made.";
}

/** The seat that resigned the match, or null. */
function resignedSeat(doc) {
  const seat = doc.match ? doc.match.resigned : null;
  return Number.isInteger(seat) ? seat : null;
}

/** The seats whose players resigned while the others played on (a game of three sides or more). */
function concededSeats(doc) {
  const seats = doc.match ? doc.match.conceded : null;
  return Array.isArray(seats) ? seats : [];
}

/** Whether ``seat`` left because another player took its characters over (an absent player,
 * SeatConceded with ``taken_over_by``), as far as the events this page holds tell. */
function takenOver(seat) {
  for (const ev of app.events.values()) {
    if (ev.type === "SeatConceded" && ev.payload && ev.payload.seat === seat && Number.isInteger(ev.payload.taken_over_by)) return true;
  }
  return false;
}

/** A cooperative game's Resign question (views.py ``cooperative_resign_confirm`` says the same on
 * load): the characters pass to the first player left, the lowest seat still in play. */
function cooperativeResignWords(doc) {
  const seats = (doc.match && doc.match.seats) || [];
  const gone = new Set(concededSeats(doc));
  const heir = seats.findIndex((s, i) => i !== doc.seat && !gone.has(i));
  if (heir < 0) return "Resign this match? You are the last player at the table: the party fails and the match ends; this cannot be undone.";
  return `Resign this match? Your characters pass to ${seatLabel(seats[heir])}; the party plays on without you. This cannot be undone.`;
}

/** Everyone who resigned, in the order they did: those who left a game that went on, then the one
 * whose resignation ended it. */
function resignedSeats(doc) {
  const seats = [...concededSeats(doc)];
  if (resignedSeat(doc) !== null) seats.push(resignedSeat(doc));
  return seats;
}

/** Whether ``seat``'s resignation ended the match for team-mates too: the seat whose resignation
 * finished it lost with more than itself. */
function resignedForTeam(doc, seat) {
  const seats = (doc.match && doc.match.seats) || [];
  const winners = (doc.status && doc.status.winners) || [];
  return seat === resignedSeat(doc) && seats.length - winners.length > 1;
}

/** How many spectators watch now (the server's count over every server: a number, never names). */
function renderWatchers(count) {
  if (!Number.isInteger(count) || count < 0) return;
  const spectator = app.doc.seat === null || app.doc.seat === undefined;
  const shown = spectator ? Math.max(count, 1) : count; // a spectator's own socket may not be counted yet
  const box = $("status-watchers");
  box.dataset.count = String(shown);
  box.textContent = shown ? `${shown} watching${spectator ? " (you included)" : ""}` : "nobody watching";
}

function matchOver(doc) {
  return Boolean((doc.status && doc.status.finished) || (doc.match && ["finished", "abandoned"].includes(doc.match.status)));
}

// -- the history -------------------------------------------------------------------------------

/** The glossary's capitalised terms (keywords, statuses, tags), longest first, as one RegExp. */
function buildTerms() {
  const keys = [];
  for (const group of ["keyword", "defense", "status", "tome", "marker"]) {
    for (const [key, e] of Object.entries(entriesOf(group))) {
      if (/^[A-Z][A-Z _-]{2,}$/.test(e.term)) keys.push([e.term, `${group}:${key}`]);
    }
  }
  if (!keys.length) return null;
  keys.sort((a, b) => b[0].length - a[0].length);
  const byTerm = new Map(keys);
  const re = new RegExp(`\\b(${keys.map(([t]) => t.replace(/[^A-Z _-]/g, "")).join("|")})\\b`, "g");
  return { re, byTerm };
}

/** A sentence as nodes: glossary terms inside it carry their rules text, and the squares it names
 * ("(2,3)", as the engines narrate a board position, or "the road space E4" by the label the
 * Yashima map draws) light up on the board while pointed at. */
function sentenceNodes(text) {
  if (!text) return [text];
  const out = [];
  let last = 0;
  for (const m of squareMatches(text)) {
    if (m.index > last) out.push(...termNodes(text.slice(last, m.index)));
    out.push(squareName(m.text, m.key));
    last = m.index + m.text.length;
  }
  if (last < text.length) out.push(...termNodes(text.slice(last)));
  return out;
}

function termNodes(text) {
  if (!app.terms) return [text];
  const out = [];
  let last = 0;
  for (const m of text.matchAll(app.terms.re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const span = el("span", { class: "kz-term" }, m[0]);
    help(span, helpText(app.terms.byTerm.get(m[0])));
    out.push(span);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function squareName(label, key) {
  const span = el("span", { class: "kz-square", dataset: { sq: key } }, label);
  outlineWhilePointed(span, () => $("board"), [key]);
  const noun = /\bspace\b/.test(label) ? "space" : "square"; // Yashima names its hexes spaces
  return help(span, `Point at or tap this ${noun}'s name to outline it on the board; a tap also brings it into view.`);
}

function logEntry(ev) {
  const text = ev.text || "";
  const li = el("li", {
    class: `event${ev.hidden ? " is-hidden" : ""}${text ? "" : " is-bookkeeping"}${Number.isInteger((ev.actor || {}).seat) ? ` by-seat-${ev.actor.seat}` : ""}`,
    dataset: { seq: String(ev.seq), type: ev.type },
  }, ...sentenceNodes(text));
  li.hidden = !text; // bookkeeping (a pending list, a work queue) and hidden payloads: folded away
  return li;
}

function rememberEvent(ev) {
  app.events.set(ev.seq, ev);
  app.sorted = null;
}

/** Every seq the page holds, ascending (cached until an event arrives). */
function sortedSeqs() {
  if (!app.sorted) app.sorted = [...app.events.keys()].sort((a, b) => a - b);
  return app.sorted;
}

/** The seqs up to ``upto``, ascending. */
function seqsUpTo(upto) {
  const all = sortedSeqs();
  let n = all.length;
  while (n > 0 && all[n - 1] > upto) n -= 1;
  return all.slice(0, n);
}

function appendToLog(ev) {
  if (app.seenSeqs.has(ev.seq)) return;
  app.seenSeqs.add(ev.seq);
  rememberEvent(ev);
  const li = logEntry(ev);
  $("log").append(li);
  followLog(li);
}

// The history follows its newest line while the reader has not scrolled up (``app.logPinned``),
// whatever changes its lines' heights after they were added: on a reload the whole list is drawn
// before the board's stylesheet, the fonts and the rules help (bold terms) arrive, and each of those
// can wrap lines anew; a list scrolled to its end then would stop lines short of the newest (and a
// new line would not bring it back, being more than a line away from the end).
const LOG_END_SLACK = 40; // px from the end that still count as reading the newest line
const logSizes = typeof ResizeObserver === "function" ? new ResizeObserver(() => stickLog()) : null;

function followLog(node) {
  if (logSizes && node) logSizes.observe(node);
  stickLog();
}

function stickLog() {
  const log = $("log");
  if (app.logPinned) log.scrollTop = log.scrollHeight;
}

/** Redraw every entry (the glossary arrived: its terms get their help). */
function redrawLog() {
  for (const li of $("log").querySelectorAll("li.event[data-seq]")) {
    const ev = app.events.get(Number(li.dataset.seq));
    if (!ev) continue;
    const fresh = logEntry(ev);
    if (logSizes) logSizes.unobserve(li);
    li.replaceWith(fresh);
    if (logSizes) logSizes.observe(fresh);
  }
  markLastMove();
  stickLog();
}

function isMine(ev) {
  const seat = app.doc.seat;
  if (seat === null || seat === undefined) return false;
  const a = ev.actor || {};
  if (Number.isInteger(a.seat)) return a.seat === seat;
  return a.kind === "user" && boot.user_id !== null && a.user_id === boot.user_id;
}

function actorKey(ev) {
  const a = ev.actor || {};
  if (ev.type === "SeatConceded" && ev.payload && Number.isInteger(ev.payload.taken_over_by)) return ev.payload.taken_over_by; // an absent player's seat taken over: the taker's move
  if (ev.type === "SeatConceded" && ev.payload && Number.isInteger(ev.payload.seat)) return ev.payload.seat; // a resignation is that seat's move
  if (ev.type === "MatchFinished" && ev.payload && Number.isInteger(ev.payload.resigned)) return ev.payload.resigned;
  return Number.isInteger(a.seat) ? a.seat : "system"; // workers, the system, lobby actions
}

/** The last move by someone else, up to ``upto`` (oldest first): the latest run of events by one
 * other seat, with the game's own steps around it (a bot's turn and the proceed steps after it), or
 * the game's own steps alone (enemies, the oracle); it stops at this seat's own events. */
function computeLastMove(upto) {
  const seqs = seqsUpTo(upto).slice(-200).reverse();
  app.lastMoveAfterMine = false;
  // a resignation is news even to the one who resigned (whose own moves the box otherwise leaves out)
  const resigned = resignationMove(seqs.map((q) => app.events.get(q)), actorKey);
  if (resigned && resigned.length) return resigned;
  const out = [];
  let who = null;
  for (const q of seqs) {
    const ev = app.events.get(q);
    if (PLATFORM_EVENTS.has(ev.type) && ev.type !== "MatchFinished") continue;
    const mine = isMine(ev);
    if (who === null) {
      if (mine || !ev.text) continue;
      who = actorKey(ev);
      out.unshift(ev);
      continue;
    }
    if (mine) {
      // the game's steps that answered this seat's own command (a solo hero's counter attack, the
      // enemies after its end of turn): the box's title names this player, as it names another seat
      app.lastMoveAfterMine = who === "system" && actorKey(ev) === app.doc.seat;
      break;
    }
    const k = actorKey(ev);
    if (who === "system" && k !== "system") who = k; // the seat whose move the game's steps followed
    else if (k !== who && k !== "system" && ev.text) break;
    out.unshift(ev);
  }
  // the move starts with that seat's own first event (the game's steps before it belong to what came before)
  while (out.length && (!out[0].text || (who !== "system" && actorKey(out[0]) !== who))) out.shift();
  return out;
}

function lastMover(events) {
  const seats = events.map(actorKey).filter((k) => k !== "system");
  return seats.length ? seats[0] : "system";
}

function markLastMove() {
  const seqs = new Set(app.lastMove.map((ev) => ev.seq));
  for (const li of $("log").querySelectorAll("li.is-last-move")) if (!seqs.has(Number(li.dataset.seq))) li.classList.remove("is-last-move");
  for (const q of seqs) {
    const li = $("log").querySelector(`li.event[data-seq="${q}"]`);
    if (li) li.classList.add("is-last-move");
  }
}

function renderLastMove() {
  app.lastMove = computeLastMove(app.doc.seq);
  markLastMove();
  const box = $("last-move");
  const lines = app.lastMove.filter((ev) => ev.text);
  if (!lines.length || (app.doc.match && app.doc.match.status === "open")) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.shown;
    return;
  }
  // repeats fold into one line; the move's first line and its newest ones show, the rest folds
  const { head, middle, tail } = boxLines(lines, LAST_MOVE_LINES);
  const title = boxTitle(titleSeats(lines.map(actorKey), app.lastMoveAfterMine ? app.doc.seat : null).map((k) => seatName(k)),
    lines.some((ev) => actorKey(ev) === "system"));
  // the box is a live region: redrawn with the same words (every render calls this), a screen reader would say them again
  const shown = JSON.stringify([title, Boolean(app.terms), ...[head, middle, tail].map((part) => part.map(foldedText))]);
  if (box.dataset.shown === shown && !box.hidden) return;
  box.dataset.shown = shown;
  box.hidden = false;
  const who = lastMover(app.lastMove);
  box.dataset.by = String(who);
  const item = (line) => el("li", { dataset: { seq: String(line.ev.seq) } }, ...sentenceNodes(foldedText(line)));
  box.replaceChildren(...[
    el("strong", { class: "last-move-title" }, title),
    el("ul", {}, ...head.map(item)),
    middle.length ? el("details", { class: "last-move-more" },
      el("summary", { class: "muted small" }, `…and ${middle.length} more`), el("ul", {}, ...middle.map(item))) : null,
    tail.length ? el("ul", {}, ...tail.map(item)) : null,
  ].filter(Boolean));
}

/** What a board gets: the view document plus the log tail and the last move, up to the view's seq. */
function boardDoc() {
  const upto = app.doc.seq;
  const seqs = seqsUpTo(upto).slice(-BOARD_EVENTS);
  const doc = { ...app.doc, events: seqs.map((q) => app.events.get(q)), last_move: { events: app.lastMove },
    spectator_delay: boot.spectator_delay }; // a delayed spectator's waiting words say how far behind
  return isPaused(app.doc) ? { ...doc, legal_commands: [] } : doc;
}


/** Apply a batch of events (sorted by seq). Returns false when a gap was detected. */
function applyEvents(events) {
  const fresh = (events || []).filter((ev) => ev.seq > app.lastSeq).sort((a, b) => a.seq - b.seq);
  if (!fresh.length) return true;
  if (fresh[0].seq !== app.lastSeq + 1) {
    requestSync("gap");
    return false;
  }
  for (const ev of fresh) {
    if (ev.seq !== app.lastSeq + 1) {
      requestSync("gap");
      return false;
    }
    appendToLog(ev);
    app.lastSeq = ev.seq;
  }
  afterProgress();
  return true;
}

function requestSync(reason) {
  if (app.socket && app.socket.send({ type: "sync", after: app.lastSeq })) return;
  // The socket is down: it syncs on reconnect anyway.
  void reason;
}

// -- state -----------------------------------------------------------------------------------

function isViewDoc(obj) {
  return obj && typeof obj === "object" && "status" in obj && "legal_commands" in obj;
}

function applyState(doc, seq) {
  if (!isViewDoc(doc)) {
    refreshFromApi();
    return;
  }
  if (typeof doc.seq !== "number") doc.seq = seq;
  if (doc.seq < app.doc.seq) return; // an older state arrived late
  const unchanged = JSON.stringify(doc) === JSON.stringify(app.doc);
  app.doc = doc;
  // e.g. an idle sync that changed nothing: keep the DOM (and the keyboard focus)
  if (unchanged && doc.seq === app.lastSeq && canAct() === app.renderedReady) return;
  if (doc.seq > app.lastSeq) requestSync("state ahead of log");
  render();
}

/** Fallback when the state trails the log for a while (a lost push): ask the REST view. */
function afterProgress() {
  clearTimeout(app.staleTimer);
  if (app.doc.seq >= app.lastSeq) {
    render();
    return;
  }
  render();
  app.staleTimer = setTimeout(() => {
    if (app.doc.seq < app.lastSeq) refreshFromApi();
  }, 1500);
}

async function refreshFromApi() {
  try {
    const resp = await fetch(`${boot.api_base}view/`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!resp.ok) return;
    const doc = await resp.json();
    if (isViewDoc(doc) && doc.seq >= app.doc.seq) {
      app.doc = doc;
      if (doc.seq > app.lastSeq) requestSync("api ahead of log");
      render();
    }
  } catch {
    /* offline: the socket will catch up */
  }
}

async function loadEarlier(note) {
  try {
    // /events/ is paged: follow `next` until the page reaches the first event the page rendered.
    const limit = Math.min(500, Math.max(1, boot.log_from));
    let url = `${boot.api_base}events/?after=0&limit=${limit}`;
    const all = [];
    while (url) {
      const resp = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!resp.ok) throw new Error(String(resp.status));
      const body = await resp.json();
      all.push(...(body.events || []));
      const last = all.length ? all[all.length - 1].seq : 0;
      url = body.next && last < boot.log_from ? body.next : null;
    }
    const earlier = all.filter((ev) => ev.seq <= boot.log_from && !app.seenSeqs.has(ev.seq));
    earlier.forEach((ev) => {
      app.seenSeqs.add(ev.seq);
      rememberEvent(ev);
    });
    note.replaceWith(...earlier.map(logEntry));
    render();
  } catch (err) {
    note.append(el("span", { class: "error" }, ` (could not load: ${err.message})`));
  }
}

// -- rendering -------------------------------------------------------------------------------

/** Whether the match counts for ratings: the flag, and no bot at the table (docs/ratings.md). */
function ratedWords(match) {
  if (!match.rated) return "no";
  if ((match.seats || []).some((s) => s && s.bot)) return "no: a bot has a seat";
  return match.status === "open" ? "yes (unless a bot takes a seat)" : "yes";
}

/** A spectator kept behind the players (a tournament's delay) of a running match whose deal has not
 * reached them yet: their view is still the lobby's, though the players are playing. */
function dealNotShownYet(doc) {
  const noGame = doc.view === null || doc.view === undefined || (doc.status && doc.status.phase) === "lobby";
  return Boolean(boot.spectator_delay) && doc.match && doc.match.status === "active" && noGame;
}

/** The phase in the board's words when it has them, else the engine's name made readable. */
function phaseWords(doc) {
  if (resignedSeat(doc) !== null) return "Over: a player resigned"; // the game itself never reached its end
  if (dealNotShownYet(doc)) return "Started (spectators see it soon)"; // not "Lobby": the players are playing
  const raw = (doc.status && doc.status.phase) || "";
  const board = boardFor(boot.game);
  let words = null;
  try {
    words = board && board.phaseLabel ? board.phaseLabel(doc) : null;
  } catch {
    words = null; // a board's wording never stops the status panel
  }
  if (words) return words;
  const plain = raw.replace(/_/g, " ");
  return plain.charAt(0).toUpperCase() + plain.slice(1);
}

function renderStatus() {
  const { doc } = app;
  const st = doc.status || {};
  $("status-match").textContent = doc.match ? doc.match.status : "";
  $("status-phase").textContent = phaseWords(doc);
  const awaiting = st.awaiting || [];
  $("status-awaiting").textContent = awaiting.length ? awaiting.map((s) => seatName(s)).join(", ") : "–";
  const mySeat = doc.seat === null || doc.seat === undefined ? null : doc.match && doc.match.seats && doc.match.seats[doc.seat];
  // players count seats from 1 (as the sentences do): never "seat 0", never a seq number
  const left = !concededSeats(doc).includes(doc.seat) ? ""
    : takenOver(doc.seat) ? ": another player took over your characters" : ": you resigned and left the game";
  $("status-seat").textContent = doc.seat === null || doc.seat === undefined ? "spectator" : `${mySeat ? mySeat.username : "you"} (seat ${doc.seat + 1})${left}`;
  $("match-app").dataset.seq = String(doc.seq);
  if (doc.match) $("status-rated").textContent = ratedWords(doc.match);
  renderClock();

  const paused = $("paused-banner"); // the tournament's organizer holds the match: no move is offered
  const held = isPaused(doc);
  paused.hidden = !held;
  if (held) paused.textContent = pausedWords(doc.match.clock_reason);
  const result = $("result");
  const resign = $("resign-form"); // a seated player still in a running game may concede
  if (resign) resign.hidden = !doc.resignable;
  if (resign && resign.dataset.cooperative) resign.dataset.confirm = cooperativeResignWords(doc);
  const takeOver = $("take-over"); // an absent player's characters, offered at page load (views.py); gone once they move
  if (takeOver) takeOver.hidden = !(doc.take_over || []).length;
  const replay = $("replay-link"); // a finished match has a replay
  if (replay) replay.hidden = !(doc.match && doc.match.status === "finished");
  if (st.finished) {
    const winners = st.winners || [];
    result.hidden = false;
    result.replaceChildren(
      el("strong", {}, "Game over. "),
      resultWords(winners.map((s) => seatName(s)), resignedSeats(doc).map((s) => ({ name: s === doc.seat ? "you" : seatName(s), forTeam: resignedForTeam(doc, s) }))),
    );
  } else {
    result.hidden = true;
    result.replaceChildren();
  }
}

// The decision clock: when it runs out the server submits the game's timeout choice for the
// seats still listed (a passive one, e.g. "no defense").
function renderClock() {
  const box = $("status-clock");
  const deadline = app.doc.deadline;
  if (app.doc.match && app.doc.match.clock_held && !matchOver(app.doc)) {
    box.textContent = PAUSED.clock; // it resumes with the time it had left
    box.removeAttribute("data-urgent");
    return;
  }
  if (!deadline || !deadline.due_at) {
    box.textContent = "–";
    box.removeAttribute("data-urgent");
    return;
  }
  const left = Math.max(0, Math.round((Date.parse(deadline.due_at) - Date.now()) / 1000));
  const mine = app.doc.seat !== null && app.doc.seat !== undefined && deadline.seats.includes(app.doc.seat);
  const who = deadline.seats.map((s) => seatName(s)).join(", ");
  box.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")} ${mine ? "(your decision)" : `(${who})`}`;
  box.toggleAttribute("data-urgent", mine && left <= 10);
}

function renderSeats() {
  const { doc } = app;
  const seats = (doc.match && doc.match.seats) || [];
  const awaiting = new Set((doc.status && doc.status.awaiting) || []);
  const winners = new Set((doc.status && doc.status.winners) || []);
  const conceded = new Set(concededSeats(doc));
  const teamOf = boot.team_of || []; // a team table: each seat's letter, as the lobby and the sentence below name it
  $("seats").replaceChildren(
    ...seats.map((s, i) =>
      el(
        "li",
        { class: [awaiting.has(i) ? "awaiting" : "", i === doc.seat ? "me" : ""].join(" ").trim(), dataset: { seat: String(i) } },
        // the name and its badges stay on one line (a very long name is shortened, whole in its title);
        // the quiet team tag comes after them and is what wraps when the column is narrow
        el("span", { class: "seat-who" },
          s ? el("span", { class: "seat-name", title: seatName(i) }, seatName(i)) : el("em", { class: "free" }, "free"),
          awaiting.has(i) ? el("span", { class: "badge" }, toPlayBadge(doc)) : null,
          conceded.has(i) ? (takenOver(i)
            ? el("span", { class: "badge resigned", title: "Away for over a day: another player took over their characters." }, "taken over")
            : el("span", { class: "badge resigned", title: "Resigned and left the game; the others played on." }, "resigned")) : null,
          doc.status && doc.status.finished && winners.has(i) ? el("span", { class: "badge win" }, "winner") : null),
        teamOf[i] ? el("span", { class: "muted small nowrap team-of", dataset: { team: teamOf[i] } }, ` · team ${teamOf[i]}`) : null,
      ),
    ),
  );
  const lobby = $("lobby-actions");
  if (lobby) {
    lobby.hidden = !doc.match || doc.match.status !== "open";
    const full = seats.length > 0 && seats.every(Boolean);
    lobby.querySelectorAll("[data-needs-full]").forEach((b) => (b.disabled = !full));
    lobby.querySelectorAll("[data-needs-free-seat]").forEach((b) => (b.disabled = full));
    lobby.querySelectorAll("[data-when-full]").forEach((p) => (p.hidden = !full));
  }
}

function genericBoard(container, doc) {
  if (doc.view === null || doc.view === undefined) {
    container.replaceChildren(el("p", { class: "muted", dataset: { testid: "waiting" } }, waitingWords({ ...doc, spectator_delay: boot.spectator_delay })));
    return;
  }
  container.replaceChildren(el("pre", { class: "json-view", tabindex: "0", "aria-label": "Game state (your view)" }, JSON.stringify(doc.view, null, 2)));
}

function renderBoard() {
  const container = $("board");
  const board = boardFor(boot.game);
  if (board) {
    try {
      board.render(container, boardDoc(), sendCommand);
      return board;
    } catch (err) {
      console.error("board renderer failed, showing the generic view", err);
    }
  }
  genericBoard(container, app.doc);
  return null;
}

function canAct() {
  return app.socket && app.socket.isOpen && app.pending.size === 0 && app.doc.seq === app.lastSeq;
}

function renderCommands(board) {
  const box = $("commands");
  const legal = app.doc.legal_commands || [];
  $("commands-heading").hidden = Boolean(board && board.hidesCommands);
  if (board && board.hidesCommands) {
    box.replaceChildren();
    return;
  }
  if (!legal.length) {
    const st = app.doc.status || {};
    box.replaceChildren(el("p", { class: "muted" }, st.finished ? "The match is over." : app.doc.match && app.doc.match.status === "open" ? "The match has not started." : isPaused(app.doc) ? PAUSED.moves : "Nothing to do right now."));
    return;
  }
  const ready = canAct();
  app.renderedReady = ready;
  const focused = box.contains(document.activeElement) ? document.activeElement.textContent : null;
  box.replaceChildren(
    ...legal.map((cmd) => {
      const b = el("button", { type: "button", class: "command", disabled: !ready, dataset: { type: cmd.type } }, commandLabel(cmd));
      b.addEventListener("click", () => {
        sendCommand(cmd.type, cmd.args || {}).catch(() => {});
      });
      return b;
    }),
  );
  if (focused !== null) {
    // keep keyboard users where they were (or on the first option) across re-renders
    const same = [...box.querySelectorAll("button")].find((b) => b.textContent === focused) || box.querySelector("button");
    if (same) same.focus();
  }
}

function render() {
  if (app.doc.seq > boot.doc.seq) retireFlash(); // "You took a seat…" is old news once the table moves
  clearStaleError();
  renderStatus();
  showConnection();
  renderSeats();
  renderLastMove();
  const board = renderBoard();
  renderCommands(board);
  document.dispatchEvent(new CustomEvent("kamiza:render", { detail: app.doc })); // chat.js, endscreen.js, notify.js
}

// A refusal shows in a toast pinned to the foot of the screen (the page's buttons may be far above
// #command-error on a phone): it stays until the table moves past what the page knew when it was
// refused (``app.errorSeq``), the next command succeeds, or the player dismisses it. It never hides a
// control: while it shows, the page reserves its height at the bottom (the end of the page scrolls
// clear of it), and a control under it when it appears (a card of the hand at the foot of the
// screen) is scrolled up just above it.

// what a player clicks or types in (not a box that is only focusable to scroll it, like the history)
const INTERACTIVE = "button, a[href], input, select, textarea, summary, [role='button']";
const TOAST_GAP = 8; // px between the toast and what it keeps clear

/** Show or hide the toast, once its message is in place (its height decides what it covers);
 * ``changed``: the message is new, so a toast already showing may have grown. */
function showToast(on, changed = false) {
  const toast = $("command-toast");
  const was = !toast.hidden;
  toast.hidden = !on;
  $("command-error").hidden = !on;
  keepClearOfToast(on, on && (!was || changed));
}

/** Reserve the toast's height at the foot of the page while it shows, so that the page's end scrolls
 * clear of it; when it has just appeared over the control the player used, scroll that control up
 * above it. Nothing else moves: the page never jumps away from where the player is looking (the
 * toast is dismissed with a tap, and goes by itself when the match moves on). */
function keepClearOfToast(on, appeared) {
  const toast = $("command-toast");
  if (!on) {
    document.body.style.removeProperty("padding-bottom");
    return;
  }
  const box = toast.getBoundingClientRect();
  document.body.style.paddingBottom = `${Math.ceil(window.innerHeight - box.top + TOAST_GAP)}px`;
  const used = document.activeElement;
  if (!appeared || !used || used === document.body || toast.contains(used) || !used.matches(INTERACTIVE)) return;
  const r = used.getBoundingClientRect();
  const under = r.width > 0 && r.height > 0 && r.height < box.top - TOAST_GAP && r.bottom > box.top - TOAST_GAP
    && r.top < box.bottom && r.right > box.left && r.left < box.right;
  if (under) window.scrollBy({ top: Math.ceil(r.bottom - box.top + TOAST_GAP), behavior: "instant" });
}

function showSignedOut() {
  const next = encodeURIComponent(location.pathname);
  $("command-error").replaceChildren("Your login has ended. ", el("a", { href: `/login/?next=${next}` }, "Sign in again"), " to keep playing.");
  showToast(true, true);
}

/** Show ``text`` (or clear the message with ""). ``seenSeq``: the newest seq the refusal knew of (a
 * version conflict's current_seq), so that the catch-up it asks for does not clear it. */
function showError(text, seenSeq = 0) {
  if (app.sessionEnded) return; // "Sign in again" stays
  const changed = $("command-error").textContent !== (text || "");
  $("command-error").textContent = text || "";
  showToast(Boolean(text), changed);
  app.errorSeq = text ? Math.max(app.lastSeq, app.doc.seq, Number.isInteger(seenSeq) ? seenSeq : 0) : null;
}

/** A view newer than the table the refusal was about: the message is old news. */
function clearStaleError() {
  if (app.errorSeq !== null && app.errorSeq !== undefined && app.doc.seq > app.errorSeq) showError("");
}

// -- commands --------------------------------------------------------------------------------

function sendCommand(type, args) {
  return new Promise((resolve, reject) => {
    if (!app.socket || !app.socket.isOpen) {
      const err = { code: "offline", message: "not connected: reconnecting…" };
      showError(errorText(err));
      reject(err);
      return;
    }
    const command_id = uuid4();
    app.pending.set(command_id, { resolve, reject });
    showError("");
    app.socket.send({ type: "command", command_id, expected_seq: app.lastSeq, command: { type, args } });
    renderCommands(boardFor(boot.game));
  });
}

function settle(commandId, ok, value) {
  let entry = commandId ? app.pending.get(commandId) : null;
  if (!entry && app.pending.size === 1) {
    // an error without a command_id answers the only command in flight
    commandId = [...app.pending.keys()][0];
    entry = app.pending.get(commandId);
  }
  if (!entry) return;
  app.pending.delete(commandId);
  if (ok) entry.resolve(value);
  else entry.reject(value);
}

function failAllPending(reason) {
  for (const [id, entry] of app.pending) {
    entry.reject(reason);
    app.pending.delete(id);
  }
}

// -- socket ----------------------------------------------------------------------------------

function onMessage(msg) {
  app.lastServerMessageAt = Date.now();
  document.dispatchEvent(new CustomEvent("kamiza:message", { detail: msg })); // chat and rematch news
  switch (msg.type) {
    case "hello":
      app.socket.healthy();
      setConnection("open", "Live");
      if (msg.seat !== undefined && isViewDoc(msg.state)) msg.state.seat = msg.seat;
      // always catch up from the last seq we hold (first connect and every reconnect)
      app.socket.send({ type: "sync", after: app.lastSeq });
      if (msg.state) applyState(msg.state, msg.seq);
      else render();
      renderWatchers(msg.spectators);
      break;
    case "watchers":
      renderWatchers(msg.spectators);
      break;
    case "events":
      // A page: when more remain the server sends no state; ask for the next page.
      if (applyEvents(msg.events) !== false && msg.more) requestSync("next page");
      break;
    case "state":
      applyState(msg.state, msg.seq);
      break;
    case "command_result":
      if (Array.isArray(msg.events)) applyEvents(msg.events);
      settle(msg.command_id, true, msg);
      showError(""); // it went through: an earlier refusal is over
      render();
      break;
    case "error": {
      if (msg.code === "session_ended" || msg.code === "not_authenticated") {
        app.sessionEnded = true;
        app.socket.stop();
        setConnection("closed", "Signed out");
        showSignedOut();
        failAllPending(msg);
        render();
        break;
      }
      showError(errorText(msg), (msg.extra || {}).current_seq); // in words; its code is for the client, not the player
      settle(msg.command_id, false, msg);
      if (msg.resync || msg.code === "version_conflict") {
        requestSync("conflict");
        refreshFromApi();
      }
      render();
      break;
    }
    default:
      break;
  }
}

/** Resigning cannot be undone: the form asks first (without a script it submits as it is). */
function guardResign() {
  const forms = [$("resign-form"), ...document.querySelectorAll("form.take-over-form")].filter(Boolean);
  for (const form of forms) {
    form.addEventListener("submit", (e) => {
      if (!window.confirm(form.dataset.confirm)) e.preventDefault();
    });
  }
}

function start() {
  guardResign();
  $("command-error-dismiss").addEventListener("click", () => { showToast(false); app.errorSeq = null; });
  window.addEventListener("resize", () => keepClearOfToast(!$("command-toast").hidden, false));
  const log = $("log");
  log.addEventListener("scroll", () => { app.logPinned = log.scrollHeight - log.scrollTop - log.clientHeight < LOG_END_SLACK; });
  if (logSizes) logSizes.observe(log); // its width (the side column's) decides how its lines wrap
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(stickLog).catch(() => {});
  if (boot.log_from > 0) {
    const more = el("button", { type: "button", class: "link-button" }, "Show the earlier history");
    const note = el("li", { class: "event muted", id: "log-earlier" }, more);
    more.addEventListener("click", () => loadEarlier(note));
    log.append(note);
  }
  for (const ev of boot.events) appendToLog(ev);
  render();
  loadGlossary(boot.game)
    .then(() => {
      app.terms = buildTerms();
      redrawLog();
      renderLastMove();
    })
    .catch(() => { /* no rules help: the sentences still read */ });

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  app.socket = new ReconnectingSocket(`${scheme}//${location.host}${boot.ws_path}`, {
    onOpen: (isReconnect) => setConnection("open", isReconnect ? "Reconnected" : "Connected"),
    onMessage,
    onClose: (e, willRetry) => {
      failAllPending({ code: "disconnected", message: "connection lost" });
      if (app.sessionEnded) return;
      if (e.code === CLOSE_MESSAGE_TOO_BIG) showError(WORDS.frame_too_large);
      setConnection(willRetry ? "retrying" : "closed", willRetry ? "Disconnected, reconnecting…" : "Disconnected. Reload the page to reconnect.");
      render();
    },
  });
  app.socket.connect();
  setInterval(renderClock, 1000);
  setInterval(() => {
    if (app.socket.isOpen && Date.now() - app.lastServerMessageAt >= IDLE_SYNC_MS) {
      app.lastServerMessageAt = Date.now();
      requestSync("idle");
    }
  }, Math.max(250, IDLE_SYNC_MS / 4));
}

// Exposed for debugging and for the browser test (read-only use).
window.KamizaMatch = app;
start();
