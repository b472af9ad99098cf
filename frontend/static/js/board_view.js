// Draw a seat's view document with the game's board renderer, read-only: the staff log review and
// the replay page show the same board as live play, but nothing can be played from it (no legal
// commands are passed, and sendCommand refuses). Without a renderer (or when it fails) the view is
// shown as text, like the match page's generic board.
//
// The renderer file (static/js/boards/<slug>.js) must be loaded before the module that calls this.

import { boardFor } from "./boards/registry.js";

const readOnly = () => Promise.reject({ code: "read_only", message: "this board only shows the game" });

/** Render `doc` (the /view/ document shape) into `container`; returns true when the game's board drew it. */
export function drawBoard(container, slug, doc) {
  const shown = { ...doc, legal_commands: [] };
  const board = boardFor(slug);
  if (board) {
    try {
      board.render(container, shown, readOnly);
      return true;
    } catch (err) {
      console.error("board renderer failed, showing the view as text", err);
    }
  }
  const pre = document.createElement("pre");
  pre.className = "json-view";
  pre.tabIndex = 0;
  pre.textContent = shown.view === null || shown.view === undefined ? "Nothing to show." : JSON.stringify(shown.view, null, 2);
  container.replaceChildren(pre);
  return false;
}
