// Keeps a tournament page live: the socket /ws/tournaments/{id}/ pushes a snapshot whenever the
// pairings, results or standings change; the page then fetches its own server-rendered fragments
// (one rendering path, escaped by the templates) and swaps them in: the shared live part, and the
// viewer's entry box (register / withdraw / team invitations / organizer actions / report form), so
// closing registration or starting a round changes what it offers without a reload.

import "./confirm.js";
import { retireFlash } from "./flash.js";
import { ReconnectingSocket } from "./socket.js";

const region = document.getElementById("tournament-live");
// The channel layer is at-most-once, and in the embedded mode the clock loop (time limits, starts_at)
// runs in another process whose pushes never reach this server: after this long without a message,
// ask for the snapshot again (cheap: an unchanged one changes nothing on the page).
const IDLE_SYNC_MS = window.KamizaSyncIntervalMs || 20000;
let lastMessageAt = Date.now();
const badge = document.getElementById("tournament-connection");

function setConnection(state, text) {
  if (!badge) return;
  badge.dataset.state = state;
  if (badge.textContent !== text) badge.textContent = text; // a status region: the same words again would be said again
}

let lastSnapshot = null;
let fetching = Promise.resolve();
const withoutTokens = (html) => html.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "");

async function refresh() {
  try {
    const resp = await fetch(region.dataset.refreshUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!resp.ok) return;
    const tpl = document.createElement("template");
    tpl.innerHTML = await resp.text(); // our own server's escaped template output
    // the first snapshot after the page loads is usually what the page already shows: keep its nodes,
    // so a click landing on a link just then is not lost with the node it landed on
    if (withoutTokens(tpl.innerHTML) === withoutTokens(region.innerHTML)) return;
    region.replaceChildren(tpl.content);
  } catch {
    /* offline for a moment: the next push or reconnect refreshes */
  }
}

// The entry box holds forms: never swapped under a player's hands (focus inside, something typed);
// it is refreshed on a later snapshot instead. A team event in registration (data-poll) is refreshed on
// every snapshot, the idle resync's too: an invitation changes nothing the socket sends.
const entry = document.getElementById("tournament-entry");
let entryHtml = null;
let entryStale = false;

function entryBusy() {
  const focused = document.activeElement;
  if (focused && focused !== document.body && entry.contains(focused)) return true;
  return [...entry.querySelectorAll("input:not([type=hidden]), textarea")].some((f) => f.value !== f.defaultValue);
}

async function refreshEntry() {
  if (!entry) return;
  if (entryBusy()) {
    entryStale = true;
    return;
  }
  try {
    const resp = await fetch(entry.dataset.refreshUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!resp.ok) return;
    const html = await resp.text();
    entryStale = false;
    const same = withoutTokens(html);
    if (same === entryHtml || entryBusy()) return;
    entryHtml = same;
    const tpl = document.createElement("template");
    tpl.innerHTML = html; // our own server's escaped template output
    for (const open of entry.querySelectorAll("details[open][data-testid]")) {
      const again = tpl.content.querySelector(`details[data-testid="${open.dataset.testid}"]`);
      if (again) again.open = true;
    }
    entry.replaceChildren(tpl.content);
  } catch {
    /* offline for a moment: the next snapshot refreshes */
  }
}

if (region) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new ReconnectingSocket(`${scheme}//${location.host}${region.dataset.wsPath}`, {
    onOpen: () => setConnection("open", "live"),
    onClose: (_event, willRetry) => setConnection(willRetry ? "retrying" : "closed", willRetry ? "reconnecting…" : "offline"),
    onMessage: (msg) => {
      lastMessageAt = Date.now();
      if (msg.type !== "snapshot") return;
      const t = msg.tournament || {};
      if (t.status !== region.dataset.status || String(t.round ?? "") !== region.dataset.round) retireFlash();
      const text = JSON.stringify([msg.tournament, msg.pairings, msg.standings]);
      if (text === lastSnapshot) { // e.g. the same state again after a reconnect or an idle resync
        if (entry && (entryStale || entry.querySelector("[data-poll]"))) fetching = fetching.then(refreshEntry);
        return;
      }
      lastSnapshot = text;
      fetching = fetching.then(refresh).then(refreshEntry); // in order, one at a time
    },
  });
  socket.connect();
  setInterval(() => {
    if (socket.isOpen && Date.now() - lastMessageAt >= IDLE_SYNC_MS) {
      lastMessageAt = Date.now();
      socket.send({ type: "sync" });
    }
  }, Math.max(250, IDLE_SYNC_MS / 4));
}
