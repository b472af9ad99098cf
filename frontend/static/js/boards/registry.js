// The board-renderer registry: the hook for game-specific boards.
//
// A game's board lives in static/js/boards/<slug>.js and registers itself:
//
//     import { registerBoard } from "./registry.js";
//     registerBoard("yashima", {
//       // container: an empty <div>; doc: the seat's view document
//       //   {seq, seat, status{phase, awaiting, finished, winners}, match{game, status, seats, ...},
//       //    view, legal_commands:[{type, args}]}
//       // sendCommand(type, args) -> Promise of the command_result (rejects with {code, message}).
//       render(container, doc, sendCommand) { ... },
//       hidesCommands: false, // true if the board offers every legal command itself
//       phaseLabel(doc) { ... }, // optional: the status panel's phase in the board's words (or null)
//     });
//
// The match page loads that file only when it exists (the server checks), before match.js; games
// without one fall back to the generic JSON view + one button per legal command. A renderer only
// ever sees what the server sent for this seat: it cannot reveal hidden information.

window.KamizaBoards = window.KamizaBoards || {};

export function registerBoard(slug, renderer) {
  if (!renderer || typeof renderer.render !== "function") {
    throw new TypeError(`board for ${slug} needs a render(container, state, sendCommand) function`);
  }
  window.KamizaBoards[slug] = renderer;
}

export function boardFor(slug) {
  return window.KamizaBoards[slug] || null;
}

// Shared by the board renderers --------------------------------------------------------------

/** Add the board's stylesheet to the page once. */
export function ensureStylesheet(slug, href) {
  if (document.querySelector(`link[data-board-css="${slug}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.dataset.boardCss = slug;
  document.head.append(link);
}

/** The game's public content pack (cards, boards...): a Promise of the parsed JSON. */
export function fetchContent(slug) {
  return fetch(`/api/games/${slug}/content/`, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))));
}

/** Build a DOM element: h("button", {class, dataset, onclick, style, ...attrs}, ...children).
 * Null, undefined, false and "" props/children are skipped; arrays of children are flattened. */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "onclick") node.addEventListener("click", v);
    else if (k === "style") node.style.cssText = v; // CSSOM, which the CSP allows (a style attribute it would not)
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false && c !== "") node.append(c);
  return node;
}

/** Show a board's new drawing (``root``) in its container, keeping the container's one live region
 * across redraws: a screen reader speaks the changes of a live region already in the page, never the
 * words of one newly put there, so what a redraw should say (``said``: the prompt, the end banner) is
 * written into the kept region, and only when it changed. ``testid`` names the region for tests. */
export function showBoard(container, root, said, testid) {
  let live = container.querySelector(":scope > .board-live");
  if (!live) live = h("p", { class: "visually-hidden board-live", role: "status", "data-testid": testid });
  [...container.children].forEach((node) => node !== live && node.remove());
  container.append(root, live);
  const words = (said || "").replace(/\s+/g, " ").trim();
  if (live.textContent !== words) live.textContent = words;
}
