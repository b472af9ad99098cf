// The organizer's form: show only the match options of the chosen game (without JavaScript every
// game's options show, and the server uses only the chosen game's).

const form = document.querySelector("[data-testid=tournament-form]");

function sync() {
  const game = form.querySelector("[name=game]").value;
  for (const set of form.querySelectorAll("fieldset.match-options")) {
    const on = set.dataset.game === game;
    set.hidden = !on;
    for (const input of set.querySelectorAll("input, select")) input.disabled = !on;
  }
}

if (form) {
  form.querySelector("[name=game]").addEventListener("change", sync);
  sync();
}
