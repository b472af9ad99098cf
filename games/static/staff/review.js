// The staff log review's board: draws the match at the chosen seq with the game's own board renderer
// (static/js/boards/<slug>.js, read-only), with all hands open (unredacted: the default where the
// engine draws it), as the seat the judge picks, or as a spectator. Every document is in the page
// (#staff-board-boot), so switching redraws at once; the choice is kept in the URL (?as=open|N|
// spectator) and on the page's seq links.

import { drawBoard } from "../js/board_view.js";

const boot = JSON.parse(document.getElementById("staff-board-boot").textContent);
const container = document.getElementById("staff-board");
const keyOf = (b) => b.key;

function withAs(href, as) {
  const url = new URL(href, location.href);
  url.searchParams.set("as", as);
  return url.pathname + url.search + url.hash;
}

function show(as) {
  const board = boot.boards.find((b) => keyOf(b) === as) || boot.boards[0];
  if (!board) return;
  const key = keyOf(board);
  container.dataset.as = key;
  drawBoard(container, boot.game, board.doc);
  document.querySelectorAll("a.board-seat").forEach((a) => a.toggleAttribute("aria-current", a.dataset.as === key));
  document.querySelectorAll("a[data-seq-link]").forEach((a) => (a.href = withAs(a.getAttribute("href"), key)));
  history.replaceState(null, "", withAs(location.href, key));
}

document.querySelectorAll("a.board-seat").forEach((a) =>
  a.addEventListener("click", (e) => {
    e.preventDefault();
    show(a.dataset.as);
  }),
);
show(boot.as || (boot.boards[0] && boot.boards[0].key));
