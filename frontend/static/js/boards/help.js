// Rules help: the game's glossary (GET /api/games/{slug}/glossary/) and one shared tooltip.
//
// Any element with data-help="text" (optionally data-help-title) shows that text in a tooltip when
// the pointer rests on it, when it gets the keyboard focus, and when it is tapped on a touch screen;
// Escape, leaving it or scrolling hides it. Using a control (a click on a button or a highlighted
// target) hides it until the pointer moves on, and a redraw of the board hides it unless the pointer
// still rests on the same item. Elements that are not focusable themselves get
// tabindex=0 through help(), so every card, keyword, status and terrain is reachable by keyboard,
// unless the board passes focus=false and gives the same texts another way (the Yokai board's
// "Explain ..." disclosures list its stats' and legend's texts, so they are not each a tab stop).
// Text is set with textContent only.
//
//   import { loadGlossary, help, term, explain } from "./help.js";
//   loadGlossary("yashima").then(() => redraw());      // once; redraw when it arrives
//   help(node, "Full rules text", "Title");            // any node (HTML or SVG)
//   term("keyword:KINDLE")                              // <span class="kz-term">KINDLE</span> with its text
//   explain("keyword:DAMAGE", {n: 4})                   // "Deal 4 damage" (the entry's short line, filled)

const cache = new Map(); // slug -> {promise, doc}
let current = null; // the last glossary loaded (one game per page)

export function loadGlossary(slug) {
  if (!cache.has(slug)) {
    const entry = { doc: null, promise: null };
    entry.promise = fetch(`/api/games/${slug}/glossary/`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((doc) => {
        entry.doc = doc;
        current = doc;
        return doc;
      })
      .catch((err) => {
        cache.delete(slug); // try again next time
        throw err;
      });
    cache.set(slug, entry);
  }
  return cache.get(slug).promise;
}

export function glossaryReady() {
  return current !== null;
}

/** The entry for "group:KEY", or null (also while the glossary is loading). */
export function entry(key) {
  return (current && current.entries && current.entries[key]) || null;
}

/** Every entry of a group, {KEY: entry}. */
export function entriesOf(group) {
  const out = {};
  if (!current) return out;
  for (const [key, e] of Object.entries(current.entries || {})) if (e.group === group) out[key.slice(group.length + 1)] = e;
  return out;
}

/** Fill "{field}" placeholders from obj; a missing field drops the placeholder and its space. */
export function fill(template, obj = {}) {
  return String(template || "").replace(/\s?\{(\w+)\}/g, (m, k) => {
    const v = obj[k];
    if (v === undefined || v === null || v === "") return "";
    return (m.startsWith(" ") ? " " : "") + String(v).replace(/_/g, " ");
  });
}

/** The one-line explanation of an entry, filled from obj ("" when unknown). */
export function explain(key, obj) {
  const e = entry(key);
  return e ? fill(e.short || e.text, obj) : "";
}

/** "TERM: full text" of an entry, for a tooltip ("" when unknown). */
export function helpText(key) {
  const e = entry(key);
  if (!e) return "";
  return `${e.term}: ${e.text}${e.provisional ? " (provisional text)" : ""}`;
}

const FOCUSABLE = new Set(["A", "BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"]);

/** Give node a tooltip text and make it reachable by keyboard (``focus: false`` for the many
 * plain squares of a map, whose text the legend also gives). Returns node. */
export function help(node, text, title, focus = true) {
  if (!node || !text) return node;
  node.dataset.help = text;
  if (title) node.dataset.helpTitle = title;
  node.classList.add("has-help");
  const focusable = FOCUSABLE.has(node.tagName) || node.hasAttribute("tabindex");
  if (!focusable && focus) node.setAttribute("tabindex", "0");
  ensureTooltip();
  return node;
}

/** A small inline term with its glossary text: <span class="kz-term">LABEL</span>. */
export function term(key, label, extra) {
  const e = entry(key);
  const span = document.createElement("span");
  span.className = "kz-term";
  span.dataset.term = key;
  span.textContent = label || (e ? e.term : key.split(":").pop().replace(/_/g, " "));
  const text = [helpText(key), extra].filter(Boolean).join("\n");
  if (text) help(span, text);
  return span;
}

// -- the tooltip ------------------------------------------------------------------------------

let tip = null;
let shownFor = null;
// Where a click on a control hid the tip: the focus and the hover that click leaves behind (on the
// control, or on whatever the redrawn board puts under the pointer) show nothing until it moves.
let quietAt = null;
const ACTIONABLE = "button, a[href], input, select, textarea, summary, [role=button], .is-target";

/** Whether a click on ``node`` used a control (not a tap that asks for the help of a square or term). */
function usesControl(node) {
  return Boolean(node && node.closest && node.closest(ACTIONABLE));
}

function ensureTooltip() {
  if (tip) return;
  tip = document.createElement("div");
  tip.id = "kz-tip";
  tip.className = "kz-tip";
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  document.body.append(tip);
  const target = (e) => (e.target && e.target.closest ? e.target.closest("[data-help]") : null);
  document.addEventListener("click", (e) => {
    if (!usesControl(e.target)) return;
    hide();
    quietAt = { x: e.clientX, y: e.clientY };
  }, true);
  document.addEventListener("mousemove", (e) => {
    if (quietAt && Math.hypot(e.clientX - quietAt.x, e.clientY - quietAt.y) > 4) quietAt = null;
  }, { passive: true });
  document.addEventListener("mouseover", (e) => {
    if (quietAt) return;
    const t = target(e);
    if (t) show(t);
    else if (shownFor && !(document.activeElement && shownFor.contains(document.activeElement))) hide();
  });
  document.addEventListener("focusin", (e) => {
    if (quietAt) return;
    const t = target(e);
    if (t) show(t);
    else hide();
  });
  document.addEventListener("focusout", (e) => {
    if (shownFor && e.target && shownFor.contains(e.target)) hide();
  });
  document.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "touch") return;
    const t = target(e);
    if (t && t !== shownFor) show(t);
    else if (!t) hide();
  }, { passive: true });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Tab") quietAt = null; // the keyboard moves on: its focus shows help again
    if (e.key === "Escape" && shownFor) hide();
  });
  window.addEventListener("scroll", () => { if (shownFor) place(shownFor); }, { passive: true, capture: true });
  window.addEventListener("resize", () => { if (shownFor) place(shownFor); });
}

function show(node) {
  if (!node.isConnected) return;
  shownFor = node;
  const title = node.dataset.helpTitle;
  tip.replaceChildren();
  if (title) {
    const strong = document.createElement("strong");
    strong.textContent = title;
    tip.append(strong);
  }
  const body = document.createElement("span");
  body.textContent = node.dataset.help;
  tip.append(body);
  tip.hidden = false;
  node.setAttribute("aria-describedby", "kz-tip");
  place(node);
  watch();
}

/** While shown: a board redraw replaces its nodes; follow the same text to the new node while the
 * pointer rests on it (a hover), or hide (a focus the redraw took away, an item gone). */
let watching = false;
function watch() {
  if (watching) return;
  watching = true;
  const tick = () => {
    if (!shownFor) { watching = false; return; }
    if (!shownFor.isConnected) {
      const text = tip.textContent;
      const same = [...document.querySelectorAll("[data-help]")].find((n) => (n.dataset.helpTitle || "") + n.dataset.help === text);
      if (!same || !same.matches(":hover")) { hide(); watching = false; return; }
      shownFor = same;
      same.setAttribute("aria-describedby", "kz-tip");
      place(same);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

function place(node) {
  if (!node.isConnected) {
    hide();
    return;
  }
  const r = node.getBoundingClientRect();
  const w = Math.min(340, window.innerWidth - 16);
  tip.style.maxWidth = `${w}px`;
  const tw = tip.offsetWidth;
  const th = tip.offsetHeight;
  let left = Math.min(Math.max(8, r.left + r.width / 2 - tw / 2), window.innerWidth - tw - 8);
  let top = r.bottom + 8;
  if (top + th > window.innerHeight - 8) top = Math.max(8, r.top - th - 8);
  tip.style.left = `${Math.round(left)}px`;
  tip.style.top = `${Math.round(top)}px`;
}

export function hide() {
  if (!tip) return;
  tip.hidden = true;
  if (shownFor) shownFor.removeAttribute("aria-describedby");
  shownFor = null;
}

/** The tooltip node while it is shown for an element (tests and debugging). */
export function shownTip() {
  return shownFor ? { for: shownFor, text: tip.textContent } : null;
}

// -- Escape -------------------------------------------------------------------------------------

const escapeHandlers = new Map(); // name -> fn(): true when it cancelled something

/** Register what Escape cancels (a board's selection). One handler per name; the latest wins. */
export function onEscape(name, fn) {
  if (!escapeHandlers.size) {
    document.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      for (const handler of escapeHandlers.values()) if (handler()) e.preventDefault();
    });
  }
  escapeHandlers.set(name, fn);
}
