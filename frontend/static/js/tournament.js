// Keeps a tournament page live: the socket /ws/tournaments/{id}/ pushes a snapshot whenever the
// pairings, results or standings change; the page then fetches its own server-rendered fragment
// (one rendering path, escaped by the templates) and swaps it in.

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
  badge.textContent = text;
}

let lastSnapshot = null;
let fetching = Promise.resolve();

async function refresh() {
  try {
    const resp = await fetch(region.dataset.refreshUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!resp.ok) return;
    const tpl = document.createElement("template");
    tpl.innerHTML = await resp.text(); // our own server's escaped template output
    region.replaceChildren(tpl.content);
  } catch {
    /* offline for a moment: the next push or reconnect refreshes */
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
      const text = JSON.stringify([msg.tournament, msg.pairings, msg.standings]);
      if (text === lastSnapshot) return; // e.g. the same state again after a reconnect
      lastSnapshot = text;
      fetching = fetching.then(refresh); // in order, one at a time
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
