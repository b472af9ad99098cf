// Board squares named in the engines' sentences ("Tomoe moves to (1,5)"): the boards show no
// coordinates, so a name outlines its square on the board while it is pointed at. The boards key
// their squares by the same "x,y": Harakiri data-sq, Yashima's hexes data-cell, Yokai Battle data-pos.

export const SQUARE_NAME = /\((-?\d+),(-?\d+)\)/g;
const KEY_ATTRIBUTES = ["sq", "cell", "pos"];

/** The board keys of the squares ``text`` names, in order. */
export function squaresNamed(text) {
  return [...String(text || "").matchAll(SQUARE_NAME)].map((m) => `${m[1]},${m[2]}`);
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
