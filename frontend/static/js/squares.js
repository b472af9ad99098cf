// Board squares named in the engines' sentences ("Tomoe moves to (1,5)", Yashima's "moves to the road
// space E4"): a name outlines its square on the board while it is pointed at. The boards key their
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

/** Outline the squares ``keys`` on ``board`` while ``node`` is pointed at or focused. ``board``:
 * a function giving the board's container (boards are redrawn, the container stays). */
export function outlineWhilePointed(node, board, keys) {
  const show = () => lightSquares(board(), keys);
  const hide = () => lightSquares(board(), []);
  for (const type of ["mouseenter", "focus"]) node.addEventListener(type, show);
  for (const type of ["mouseleave", "blur"]) node.addEventListener(type, hide);
  return node;
}

/** Outline the squares ``keys`` on ``board`` (none: clear every outline). */
function lightSquares(board, keys) {
  if (!board) return;
  for (const node of board.querySelectorAll(".is-named")) node.classList.remove("is-named");
  if (!keys.length) return;
  const selector = keys.flatMap((key) => KEY_ATTRIBUTES.map((attr) => `[data-${attr}="${CSS.escape(key)}"]`)).join(", ");
  for (const node of board.querySelectorAll(selector)) node.classList.add("is-named");
}
