// The page's flash messages ("You are registered.", "You took a seat at alice's table.") say what the
// player's last action did. A live page moves on without a reload, and a message left standing would
// sit beside a state that contradicts it; so the live pages retire them once the page has moved on.
// Refusals and warnings stay: the player may not have read why something failed.

export function retireFlash() {
  const list = document.querySelector("main .messages");
  if (!list) return;
  list.querySelectorAll(".message:not(.error):not(.warning)").forEach((m) => m.remove());
  if (!list.querySelector(".message")) list.remove();
}
