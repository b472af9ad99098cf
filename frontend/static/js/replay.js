// The replay page: a finished match step by step, drawn with the game's own board renderer (read-only).
//
// Each step is GET /api/matches/{id}/replay/?seat=N&at=K: the /view/ document of that seat folded up to
// step K. The moves in words come once per followed seat (the same request at the end, every event),
// since each seat's redaction words them differently. Steps are cached, so scrubbing back is instant.
// Controls: the slider (every step), the step buttons and the arrow keys (previous / next move, skipping
// bookkeeping steps: the position line counts moves, "Move 3 of 41 · step 12 of 113"), Home / End, and
// the seat whose view to follow. Without ?at= it opens where the game has begun, before the first move.
//
// The viewer is not the seat followed: the board gets that seat's view as an onlooker's document
// (seat: null, so every board names each seat in the third person, "Bot 2's hand", never "Your hand"
// or "Bot 2 (you)"), with `open` so the boards that draw open hands (Yashima, Yokai Battle) draw the
// ones this view holds; the empty boxes of the other seats' hidden hands are taken out (onlyFollowedHand).

import { drawBoard } from "./board_view.js";
import { outlineWhilePointed, squaresNamed } from "./squares.js";

const boot = JSON.parse(document.getElementById("replay-boot").textContent);
const $ = (id) => document.getElementById(id);
const slider = $("replay-slider");
const seatSelect = $("replay-seat");
const reportSeq = $("replay-report-seq");

const app = {
  seat: null, // null: a spectator
  at: boot.start,
  begun: boot.start, // where the game has begun: the step before the first move by a seat
  events: [], // the followed seat's events, in words
  docs: new Map(), // "seat:at" -> Promise of the document
};

function seatParam(seat) {
  return seat === null ? "" : `seat=${seat}&`;
}

function fetchJson(url) {
  return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then((r) =>
    r.ok ? r.json() : r.json().then((body) => Promise.reject(body)),
  );
}

function docAt(seat, at) {
  const key = `${seat}:${at}`;
  if (!app.docs.has(key)) {
    const promise = fetchJson(`${boot.api}?${seatParam(seat)}at=${at}&after=${at}`);
    promise.catch(() => app.docs.delete(key)); // try again next time
    app.docs.set(key, promise);
  }
  return app.docs.get(key);
}

async function follow(seat) {
  app.seat = seat;
  const whole = await fetchJson(`${boot.api}?${seatParam(seat)}at=${boot.head}`);
  if (app.seat !== seat) return;
  app.events = whole.events.filter((ev) => ev.text);
  app.begun = begunAt(whole.events);
  const { events, ...doc } = whole;
  app.docs.set(`${seat}:${boot.head}`, Promise.resolve({ ...doc, events: [] }));
  renderLog();
}

/** The step where the game has begun: its start has been dealt (the first round, the first turn) and
 * nobody has moved yet, i.e. the step just before the first event caused by a seat. */
function begunAt(events) {
  const first = events.find((ev) => ev.seq > boot.start && ev.actor && Number.isInteger(ev.actor.seat));
  return first ? Math.max(boot.start, first.seq - 1) : boot.start;
}

/** The document handed to the board: the followed seat's view, worded for an onlooker. */
function boardDoc(doc) {
  return { ...doc, seat: null, open: doc.seat !== null && doc.seat !== undefined, replay_seat: doc.seat ?? null };
}

/** Keep only the followed seat's hand box (the others' hands are hidden in its view, so the boards'
 * open-hands drawing would show them empty). Boards redraw by themselves (content loaded), so this
 * runs on every redraw. */
function onlyFollowedHand(board) {
  const seat = board.dataset.follow;
  for (const box of board.querySelectorAll("[data-hand-seat]")) {
    if (seat === undefined || seat === "" || box.dataset.handSeat !== seat) box.remove();
  }
}

// -- moves -------------------------------------------------------------------------------------

function moveBefore(at) {
  const earlier = app.events.filter((ev) => ev.seq < at);
  return earlier.length ? earlier[earlier.length - 1].seq : Math.max(1, at - 1);
}

function moveAfter(at) {
  const later = app.events.find((ev) => ev.seq > at);
  return later ? later.seq : Math.min(boot.head, at + 1);
}

function lastMoveAt(at) {
  const done = app.events.filter((ev) => ev.seq <= at);
  return done.length ? done[done.length - 1] : null;
}

// -- rendering ---------------------------------------------------------------------------------

function renderLog() {
  const log = $("replay-log");
  const current = lastMoveAt(app.at);
  log.replaceChildren(
    ...app.events.map((ev) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "link-button";
      button.textContent = ev.text;
      button.addEventListener("click", () => go(ev.seq));
      const named = squaresNamed(ev.text);
      if (named.length) outlineWhilePointed(button, () => $("replay-board"), named);
      const li = document.createElement("li");
      li.className = `event${ev.seq > app.at ? " future" : ""}${current && ev.seq === current.seq ? " current" : ""}`;
      li.dataset.seq = String(ev.seq);
      if (current && ev.seq === current.seq) li.setAttribute("aria-current", "step");
      li.append(button);
      return li;
    }),
  );
  const shown = log.querySelector("li.current");
  if (shown) {
    const top = shown.offsetTop - log.offsetTop;
    if (top < log.scrollTop || top + shown.offsetHeight > log.scrollTop + log.clientHeight) {
      log.scrollTop = Math.max(0, top - log.clientHeight / 2);
    }
  }
}

/** "Move 3 of 41 · step 12 of 113": ◀ ▶ go from move to move (the Moves list), skipping the
 * bookkeeping steps in between, which only the slider shows. */
function positionText(at) {
  const moves = app.events.length;
  const done = app.events.filter((ev) => ev.seq <= at).length;
  const steps = `step ${at} of ${boot.head}${at === boot.head ? ": the end" : ""}`;
  return moves ? `Move ${done} of ${moves} · ${steps}` : steps.charAt(0).toUpperCase() + steps.slice(1);
}

function renderPosition() {
  slider.value = String(app.at);
  $("replay-position").textContent = positionText(app.at);
  const now = lastMoveAt(app.at);
  $("replay-now").textContent = now ? now.text : "The match is about to start.";
  $("replay-prev").disabled = app.at <= 1;
  $("replay-first").disabled = app.at <= 1;
  $("replay-next").disabled = app.at >= boot.head;
  $("replay-last").disabled = app.at >= boot.head;
  if (reportSeq) reportSeq.value = String(app.at);
  const params = new URLSearchParams(location.search);
  params.set("at", String(app.at));
  if (app.seat === null) params.delete("seat");
  else params.set("seat", String(app.seat));
  history.replaceState(null, "", `${location.pathname}?${params}`);
}

async function go(at) {
  app.at = Math.min(boot.head, Math.max(1, Number(at) || 1));
  renderPosition();
  renderLog();
  const seat = app.seat;
  const wanted = app.at;
  try {
    const doc = await docAt(seat, wanted);
    if (app.at !== wanted || app.seat !== seat) return; // the viewer moved on meanwhile
    const board = $("replay-board");
    board.dataset.follow = seat === null ? "" : String(seat);
    drawBoard(board, boot.game, boardDoc(doc));
    onlyFollowedHand(board);
    board.dataset.seq = String(wanted);
  } catch {
    $("replay-board").textContent = "This step could not be loaded: check your connection and try again.";
  }
}

// -- controls ----------------------------------------------------------------------------------

slider.addEventListener("input", () => go(slider.value));
$("replay-first").addEventListener("click", () => go(1));
$("replay-last").addEventListener("click", () => go(boot.head));
$("replay-prev").addEventListener("click", () => go(moveBefore(app.at)));
$("replay-next").addEventListener("click", () => go(moveAfter(app.at)));
new MutationObserver(() => onlyFollowedHand($("replay-board"))).observe($("replay-board"), { childList: true });
seatSelect.addEventListener("change", async () => {
  const seat = seatSelect.value === "" ? null : Number(seatSelect.value);
  await follow(seat);
  go(app.at);
});
document.addEventListener("keydown", (e) => {
  const tag = (e.target && e.target.tagName) || "";
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || e.altKey || e.ctrlKey || e.metaKey) return;
  const to = { ArrowLeft: () => moveBefore(app.at), ArrowRight: () => moveAfter(app.at), Home: () => 1, End: () => boot.head }[e.key];
  if (!to) return;
  e.preventDefault();
  go(to());
});

// -- start -------------------------------------------------------------------------------------

(async () => {
  const params = new URLSearchParams(location.search);
  const asked = params.get("seat");
  const seat = asked !== null && asked !== "" ? Number(asked) : boot.my_seat;
  const valid = Number.isInteger(seat) && boot.seats.some((s) => s.seat === seat) ? seat : null;
  seatSelect.value = valid === null ? "" : String(valid);
  await follow(valid);
  app.at = Number(params.get("at")) || app.begun;
  go(app.at);
})();

window.KamizaReplay = app; // read-only, for debugging and the browser test
