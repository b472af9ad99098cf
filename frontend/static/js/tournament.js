// Keeps a tournament page live: the socket /ws/tournaments/{id}/ pushes a snapshot whenever the
// pairings, results or standings change; the page then fetches its own server-rendered fragment
// (one rendering path, escaped by the templates) and swaps it in.

import { ReconnectingSocket } from "./socket.js";

const region = document.getElementById("tournament-live");
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
      if (msg.type !== "snapshot") return;
      const text = JSON.stringify([msg.tournament, msg.pairings, msg.standings]);
      if (text === lastSnapshot) return; // e.g. the same state again after a reconnect
      lastSnapshot = text;
      fetching = fetching.then(refresh); // in order, one at a time
    },
  });
  socket.connect();
}
