// Keeps a campaign page current. The page listens to the campaign's own socket (ws /ws/campaigns/{id}/:
// a push after each campaign write: a player joining or leaving, the start, a cancellation or an
// abandonment, a phase ending or opening) and to its current phase match (ws /ws/matches/{id}/, as any
// watcher of that match may); on any change it fetches its own server-rendered fragment (one rendering
// path, escaped by the templates) and swaps it in; when the fragment names a new current match (the
// next phase opened), it follows that one. A slow self-refresh stays as the fallback for a push lost
// while a socket was reconnecting.

import "./confirm.js"; // Leave and Cancel ask first, in the fragment swapped in too
import { retireFlash } from "./flash.js";
import { ReconnectingSocket } from "./socket.js";

const region = document.getElementById("campaign-live");
const badge = document.getElementById("campaign-connection");
const REFRESH_MS = window.KamizaCampaignRefreshMs || 20000;

let socket = null;
let campaignSocket = null;
let matchId; // undefined until the first follow()
let campaignStatus = region?.querySelector("[data-status]")?.dataset.status;
let party = region?.querySelector("[data-party]")?.dataset.party; // who sits in it, in order
const subtitle = document.getElementById("campaign-subtitle"); // the header, outside the fragment
let lastHtml = null;
let queued = null;
let fetching = Promise.resolve();

function setConnection(state, text) {
  if (!badge) return;
  badge.dataset.state = state;
  badge.textContent = text;
}

function follow(id) {
  if (id === matchId) return;
  if (matchId !== undefined) retireFlash(); // the campaign moved on: "You have joined…" is old news
  if (socket) socket.stop();
  socket = null;
  matchId = id;
  if (!id) {
    if (!campaignSocket) setConnection("open", "updates by itself");
    return;
  }
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new ReconnectingSocket(`${scheme}//${location.host}/ws/matches/${id}/`, {
    onOpen: () => setConnection("open", "live"),
    onClose: (_event, willRetry) => setConnection(willRetry ? "retrying" : "closed", willRetry ? "reconnecting…" : "offline"),
    onMessage: (msg) => {
      if (msg.type === "events" || msg.type === "state") schedule();
    },
  });
  socket.connect();
}

async function refresh() {
  try {
    const resp = await fetch(region.dataset.refreshUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!resp.ok) return;
    const html = await resp.text();
    if (html !== lastHtml) {
      lastHtml = html;
      const tpl = document.createElement("template");
      tpl.innerHTML = html; // our own server's escaped template output
      const focused = focusedControl();
      region.replaceChildren(tpl.content);
      refocus(focused);
    }
  } catch {
    /* offline for a moment: the next push or the next self-refresh catches up */
  }
  const live = region.querySelector("[data-current-match]");
  if (live && live.dataset.status !== campaignStatus) {
    retireFlash(); // it started, or was cancelled: "You have joined…" is old news
    campaignStatus = live.dataset.status;
  }
  if (live && live.dataset.party !== party) {
    retireFlash(); // someone joined or left: "The campaign has begun…" is old news
    party = live.dataset.party;
  }
  if (live && subtitle && live.dataset.subtitle && subtitle.textContent !== live.dataset.subtitle) {
    subtitle.textContent = live.dataset.subtitle; // "Act 1 · 2 players" becomes "· 1 player"
  }
  follow(live ? live.dataset.currentMatch || null : null);
}

const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

/** The control that has the keyboard focus in the fragment (null elsewhere): what finds it again
 * in the next fragment. */
function focusedControl() {
  const node = document.activeElement;
  if (!node || node === region || !region.contains(node)) return null;
  return { id: node.id, testid: node.dataset.testid, tag: node.tagName, text: node.textContent.trim(), href: node.getAttribute("href") };
}

/** After a swap: the focus back on the same control (by id, test id, or kind, words and link), or
 * on the region itself when it is gone, so that a keyboard never falls back to the page's top. */
function refocus(was) {
  if (!was) return;
  const active = document.activeElement;
  if (active && active !== document.body && !region.contains(active)) return; // the player moved on
  const same = (was.id && document.getElementById(was.id))
    || (was.testid && region.querySelector(`[data-testid="${CSS.escape(was.testid)}"]`))
    || [...region.querySelectorAll(FOCUSABLE)].find((n) => n.tagName === was.tag && n.textContent.trim() === was.text && n.getAttribute("href") === was.href);
  if (same && region.contains(same)) {
    same.focus({ preventScroll: true });
    return;
  }
  if (!region.hasAttribute("tabindex")) region.setAttribute("tabindex", "-1");
  region.focus({ preventScroll: true });
}

function schedule() {
  // a burst of events (a whole Shōgun's turn) becomes one refresh
  if (queued) return;
  queued = setTimeout(() => {
    queued = null;
    fetching = fetching.then(refresh);
  }, 250);
}

function listenToCampaign(url) {
  // "hello" on each (re)connection: whatever changed while it was down is caught up by one refresh
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  campaignSocket = new ReconnectingSocket(`${scheme}//${location.host}${url}`, {
    onOpen: () => { if (!matchId) setConnection("open", "live"); },
    onClose: (_event, willRetry) => { if (!matchId) setConnection(willRetry ? "retrying" : "closed", willRetry ? "reconnecting…" : "offline"); },
    onMessage: (msg) => {
      if (msg.type === "hello") campaignSocket.healthy();
      if (msg.type === "changed" || msg.type === "hello") schedule();
    },
  });
  campaignSocket.connect();
}

if (region) {
  const live = region.querySelector("[data-current-match]");
  if (region.dataset.socketUrl) listenToCampaign(region.dataset.socketUrl);
  follow(live ? live.dataset.currentMatch || null : null);
  setInterval(schedule, REFRESH_MS);
}
