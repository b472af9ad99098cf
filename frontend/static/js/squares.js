// Board squares named in the engines' sentences ("Tomoe moves to (1,5)", Yashima's "moves to the road
// space E4"): a name outlines its square on the board while it is pointed at, and a tap on it brings
// the square into view. The boards key their
// squares by the same "x,y" (Harakiri data-sq, Yashima's hexes data-cell, Yokai Battle data-pos), or
// by the label they draw on it (Yashima's data-space "E4").

export const SQUARE_NAME = /\((-?\d+),(-?\d+)\)/g;
// a square named by the label its board draws on it: "space E4", "the road space E4"
export const LABELLED_NAME = /\b(?:the (?:[a-z]+ ){1,2})?space ([A-Z]\d{1,2})\b/g;
const KEY_ATTRIBUTES = ["sq", "cell", "pos", "space"];

/** The squares ``text`` names, in order: ``{index, text, key}`` (``text``: the words that name it). */
export function squareMatches(text) {
  const words = String(text || "");
  const out = [...words.matchAll(SQUARE_NAME)].map((m) => ({ index: m.index, text: m[0], key: `${m[1]},${m[2]}` }));
  for (const m of words.matchAll(LABELLED_NAME)) out.push({ index: m.index, text: m[0], key: m[1] });
  return out.sort((a, b) => a.index - b.index);
}

/** The board keys of the squares ``text`` names, in order. */
export function squaresNamed(text) {
  return squareMatches(text).map((m) => m.key);
}

/** Outline the squares ``keys`` on ``board`` while ``node`` is pointed at or focused; a tap or a
 * click also brings the first of them into view when it is off screen (on a phone the board is far
 * up the page from the history). ``board``: a function giving the board's container (boards are
 * redrawn, the container stays). */
export function outlineWhilePointed(node, board, keys) {
  const show = () => lightSquares(board(), keys);
  const hide = () => lightSquares(board(), []);
  for (const type of ["mouseenter", "focus"]) node.addEventListener(type, show);
  for (const type of ["mouseleave", "blur"]) node.addEventListener(type, hide);
  node.addEventListener("click", () => { show(); bringIntoView(board()); });
  return node;
}

/** Scroll the page (and a board that scrolls in its own box) until the first outlined square is
 * wholly on screen; nothing moves when it already is. */
function bringIntoView(board) {
  const square = board && board.querySelector(".is-named");
  if (!square) return;
  if (!whollyShown(square)) square.scrollIntoView({ block: "center", inline: "center", behavior: "smooth" });
}

function boxInside(box, frame) {
  return box.top >= frame.top - 1 && box.left >= frame.left - 1 && box.bottom <= frame.bottom + 1 && box.right <= frame.right + 1;
}

/** Whether ``node`` lies wholly inside the window and inside every box that scrolls around it. */
function whollyShown(node) {
  const box = node.getBoundingClientRect();
  if (!boxInside(box, { top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth })) return false;
  for (let up = node.parentElement; up && up !== document.body; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (/(auto|scroll|hidden)/.test(`${style.overflowX} ${style.overflowY}`) && !boxInside(box, up.getBoundingClientRect())) return false;
  }
  return true;
}

/** Outline the squares ``keys`` on ``board`` (none: clear every outline). */
function lightSquares(board, keys) {
  if (!board) return;
  for (const node of board.querySelectorAll(".is-named")) node.classList.remove("is-named");
  if (!keys.length) return;
  const selector = keys.flatMap((key) => KEY_ATTRIBUTES.map((attr) => `[data-${attr}="${CSS.escape(key)}"]`)).join(", ");
  for (const node of board.querySelectorAll(selector)) node.classList.add("is-named");
}
