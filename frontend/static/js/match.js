// The live match page: one socket, the seat's log and view, and the legal commands as buttons.
//
// Protocol (server -> client): hello {seq, seat, state}; events {events:[{seq,type,payload,actor,at,hidden?}], seq};
// state {seq, state}; command_result {...}; error {code, message, ...}.
// Client -> server: sync {after}; command {command_id, expected_seq, command:{type, args}}.
// Every message carries the match seq; a gap (first new seq != lastSeq + 1) triggers a sync.
// Only what the server sent for this seat is rendered: the client never has hidden data to leak.

import { boardFor } from "./boards/registry.js";
import { ReconnectingSocket } from "./socket.js";

const boot = JSON.parse(document.getElementById("match-boot").textContent);
// The channel layer is at-most-once: if the last push of a quiet spell was lost, nothing else
// would tell us. After this long without any server message, ask for a sync (cheap when current).
const IDLE_SYNC_MS = window.KamizaSyncIntervalMs || 20000;
const $ = (id) => document.getElementById(id);

const app = {
  doc: boot.doc, // the latest view document rendered
  lastSeq: boot.doc.seq, // last contiguous event seq in the log
  seenSeqs: new Set(),
  pending: new Map(), // command_id -> {resolve, reject}
  socket: null,
  staleTimer: null,
  lastServerMessageAt: Date.now(),
  renderedReady: null, // whether the command buttons were last rendered enabled
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
  if (seat === "system") return "system";
  const s = (doc.match && doc.match.seats && doc.match.seats[seat]) || null;
  const name = s ? s.username + (s.bot ? " (bot)" : "") : `seat ${seat}`;
  return seat === doc.seat ? `${name} (you)` : name;
}

function commandLabel(cmd) {
  const args = cmd.args || {};
  const parts = Object.entries(args).map(([k, v]) => `${k}=${typeof v === "object" ? compact(v) : v}`);
  return [cmd.type, ...parts].join(" ");
}

function setConnection(state, text) {
  const node = $("connection");
  node.dataset.state = state;
  node.textContent = text;
}

// -- the log ---------------------------------------------------------------------------------

function actorLabel(actor) {
  if (!actor) return "";
  if (Number.isInteger(actor.seat)) return seatName(actor.seat);
  if (actor.seat === "system") return "system";
  const seats = (app.doc.match && app.doc.match.seats) || [];
  if (actor.kind === "user" && actor.user_id !== null && actor.user_id !== undefined) {
    const i = seats.findIndex((s) => s && !s.bot && s.user_id === actor.user_id);
    if (i >= 0) return seatName(i);
    return actor.user_id === boot.user_id ? `${boot.username} (you)` : "player";
  }
  return actor.kind || "";
}

function logEntry(ev) {
  const payload = ev.hidden ? el("span", { class: "hidden-payload" }, "hidden") : el("code", { class: "payload" }, compact(ev.payload));
  return el(
    "li",
    { class: ev.hidden ? "event is-hidden" : "event", dataset: { seq: String(ev.seq), type: ev.type } },
    el("span", { class: "seq" }, `#${ev.seq}`),
    " ",
    el("strong", { class: "type" }, ev.type),
    " ",
    el("span", { class: "actor muted" }, actorLabel(ev.actor)),
    " ",
    payload,
  );
}

function appendToLog(ev) {
  if (app.seenSeqs.has(ev.seq)) return;
  app.seenSeqs.add(ev.seq);
  const log = $("log");
  log.append(logEntry(ev));
  log.scrollTop = log.scrollHeight;
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
    earlier.forEach((ev) => app.seenSeqs.add(ev.seq));
    note.replaceWith(...earlier.map(logEntry));
  } catch (err) {
    note.append(el("span", { class: "error" }, ` (could not load: ${err.message})`));
  }
}

// -- rendering -------------------------------------------------------------------------------

function renderStatus() {
  const { doc } = app;
  const st = doc.status || {};
  $("status-match").textContent = doc.match ? doc.match.status : "";
  $("status-phase").textContent = st.phase || "";
  const awaiting = st.awaiting || [];
  $("status-awaiting").textContent = awaiting.length ? awaiting.map((s) => seatName(s)).join(", ") : "–";
  const mySeat = doc.seat === null || doc.seat === undefined ? null : doc.match && doc.match.seats && doc.match.seats[doc.seat];
  $("status-seat").textContent = doc.seat === null || doc.seat === undefined ? "spectator" : `${doc.seat}${mySeat ? ` (${mySeat.username})` : ""}`;
  $("status-seq").textContent = String(doc.seq);
  renderClock();

  const result = $("result");
  const replay = $("replay-link"); // a finished match has a replay
  if (replay) replay.hidden = !(doc.match && doc.match.status === "finished");
  if (st.finished) {
    const winners = st.winners || [];
    result.hidden = false;
    result.replaceChildren(
      el("strong", {}, "Game over. "),
      winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${winners.map((s) => seatName(s)).join(", ")}` : "No winner.",
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
  $("seats").replaceChildren(
    ...seats.map((s, i) =>
      el(
        "li",
        { class: [awaiting.has(i) ? "awaiting" : "", i === doc.seat ? "me" : ""].join(" ").trim(), dataset: { seat: String(i) } },
        s ? seatName(i) : el("em", { class: "free" }, "free"),
        awaiting.has(i) ? el("span", { class: "badge" }, "to play") : null,
        doc.status && doc.status.finished && winners.has(i) ? el("span", { class: "badge win" }, "winner") : null,
      ),
    ),
  );
  const lobby = $("lobby-actions");
  if (lobby) {
    lobby.hidden = !doc.match || doc.match.status !== "open";
    const full = seats.length > 0 && seats.every(Boolean);
    lobby.querySelectorAll("[data-needs-full]").forEach((b) => (b.disabled = !full));
    lobby.querySelectorAll("[data-needs-free-seat]").forEach((b) => (b.disabled = full));
  }
}

function genericBoard(container, doc) {
  if (doc.view === null || doc.view === undefined) {
    container.replaceChildren(el("p", { class: "muted" }, doc.match && doc.match.status === "open" ? "Waiting for the match to start." : "Nothing to show."));
    return;
  }
  container.replaceChildren(el("pre", { class: "json-view", tabindex: "0", "aria-label": "Game state (your view)" }, JSON.stringify(doc.view, null, 2)));
}

function renderBoard() {
  const container = $("board");
  const board = boardFor(boot.game);
  if (board) {
    try {
      board.render(container, app.doc, sendCommand);
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
    box.replaceChildren(el("p", { class: "muted" }, st.finished ? "The match is over." : app.doc.match && app.doc.match.status === "open" ? "The match has not started." : "Nothing to do right now."));
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
  renderStatus();
  renderSeats();
  const board = renderBoard();
  renderCommands(board);
  document.dispatchEvent(new CustomEvent("kamiza:render", { detail: app.doc })); // chat.js, endscreen.js, notify.js
}

function showSignedOut() {
  const node = $("command-error");
  node.hidden = false;
  const next = encodeURIComponent(location.pathname);
  node.replaceChildren("Your login has ended. ", el("a", { href: `/login/?next=${next}` }, "Sign in again"), " to keep playing.");
}

function showError(text) {
  const node = $("command-error");
  node.hidden = !text;
  node.textContent = text || "";
}

// -- commands --------------------------------------------------------------------------------

function sendCommand(type, args) {
  return new Promise((resolve, reject) => {
    if (!app.socket || !app.socket.isOpen) {
      const err = { code: "offline", message: "not connected: reconnecting…" };
      showError(err.message);
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
      showError(`${msg.message || "refused"}${msg.code ? ` (${msg.code})` : ""}`);
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

function start() {
  const log = $("log");
  if (boot.log_from > 0) {
    const more = el("button", { type: "button", class: "link-button" }, `Show ${boot.log_from} earlier events`);
    const note = el("li", { class: "event muted", id: "log-earlier" }, more);
    more.addEventListener("click", () => loadEarlier(note));
    log.append(note);
  }
  for (const ev of boot.events) appendToLog(ev);
  render();

  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  app.socket = new ReconnectingSocket(`${scheme}//${location.host}${boot.ws_path}`, {
    onOpen: (isReconnect) => setConnection("open", isReconnect ? "Reconnected" : "Connected"),
    onMessage,
    onClose: (e, willRetry) => {
      failAllPending({ code: "disconnected", message: "connection lost" });
      if (app.sessionEnded) return;
      setConnection(willRetry ? "retrying" : "closed", willRetry ? "Disconnected, reconnecting…" : `Disconnected (${e.code}).`);
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
