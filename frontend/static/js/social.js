// What the match page's social modules (chat.js, endscreen.js, notify.js) share: the page's boot
// data, a DOM helper (text only, never HTML), JSON requests to the match API with the CSRF token,
// and the two hooks match.js fires on `document`:
//   "kamiza:render"  detail = the view document just rendered (after every render);
//   "kamiza:message" detail = each socket message, before match.js handles it.

import { seatLabel } from "./words.js";

export const boot = JSON.parse(document.getElementById("match-boot").textContent);

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k in node) node[k] = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c); // strings become text nodes
  return node;
}

function csrfToken() {
  const input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input) return input.value;
  const cookie = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}

/** A JSON request to the match API: resolves {ok, status, body, retryAfter}. Never throws. */
export async function api(path, { method = "GET", body } = {}) {
  const url = path.startsWith("http") || path.startsWith("/") ? path : `${boot.api_base}${path}`;
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET") headers["X-CSRFToken"] = csrfToken();
  try {
    const resp = await fetch(url, { method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
    let data = null;
    try {
      data = await resp.json();
    } catch {
      data = null;
    }
    return { ok: resp.ok, status: resp.status, body: data, retryAfter: Number(resp.headers.get("Retry-After")) || 0 };
  } catch {
    return { ok: false, status: 0, body: { code: "offline", message: "not connected" }, retryAfter: 0 };
  }
}

export function onRender(fn) {
  document.addEventListener("kamiza:render", (e) => fn(e.detail));
}

export function onSocket(fn) {
  document.addEventListener("kamiza:message", (e) => fn(e.detail));
}

/** The current view document (match.js's, once it runs; the boot one before). */
export function currentDoc() {
  return (window.KamizaMatch && window.KamizaMatch.doc) || boot.doc;
}

export function isOver(doc) {
  const status = doc && doc.match && doc.match.status;
  return status === "finished" || status === "abandoned";
}

export function isSeated(doc) {
  return doc && doc.seat !== null && doc.seat !== undefined;
}

/** A seat's player name as the page shows it (never "seat 0"). */
export function playerName(doc, seat) {
  const s = doc && doc.match && doc.match.seats && doc.match.seats[seat];
  if (!s) return `player ${seat + 1}`;
  return seatLabel(s);
}
