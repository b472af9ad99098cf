// The lobby's "Create a match" form (frontend/option_fields.py): show the chosen game's options only,
// offer only the numbers of players that game allows, offer only the players at the table in the
// "Player N" choices, show "who plays each hero" for the heroes chosen, and hide "Rated" for a
// cooperative game. Without JavaScript every field shows and the server checks the same things.

const form = document.querySelector("form.match-form");

function chosenGame() {
  const select = form.querySelector("[name=game]");
  return select.options[select.selectedIndex] || null;
}

function syncPlayers(option) {
  const seats = form.querySelector("[name=seats]");
  const min = Number(option.dataset.min || 1);
  const max = Number(option.dataset.max || 16);
  for (const o of seats.options) {
    const n = Number(o.value);
    o.disabled = o.hidden = n < min || n > max;
  }
  const now = Number(seats.value);
  if (now < min || now > max) seats.value = String(Math.max(min, Math.min(2, max)));
}

function syncSeatChoices(set, players) {
  for (const select of set.querySelectorAll("select[data-seat-select]")) {
    for (const o of select.options) {
      if (o.value === "") continue;
      o.disabled = o.hidden = Number(o.value) >= players;
    }
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = select.options[0].value;
  }
  // nothing to choose with one player: a single person plays every hero and leads
  for (const field of set.querySelectorAll("[data-seat-field], .field:has(> select[data-seat-select])")) {
    field.hidden = players < 2;
  }
}

function syncKeys(set) {
  for (const group of set.querySelectorAll("[data-keys-from]")) {
    const source = form.querySelectorAll(`[name="${group.dataset.keysFrom}"]`);
    let keys = [...source].filter((i) => i.checked).map((i) => i.value);
    if (keys.length === 0) keys = [...source].filter((i) => i.defaultChecked).map((i) => i.value);
    for (const field of group.querySelectorAll("[data-key]")) {
      const on = keys.includes(field.dataset.key);
      field.hidden = !on;
      for (const input of field.querySelectorAll("select")) input.disabled = !on;
    }
  }
}

function sync() {
  const option = chosenGame();
  if (!option) return;
  syncPlayers(option);
  const players = Number(form.querySelector("[name=seats]").value);
  for (const set of form.querySelectorAll("fieldset.match-options")) {
    const on = set.dataset.game === option.value;
    set.hidden = !on;
    for (const input of set.querySelectorAll("input, select")) input.disabled = !on;
    if (on) {
      syncSeatChoices(set, players);
      syncKeys(set);
    }
  }
  const rated = form.querySelector("[name=rated]");
  if (rated) rated.closest(".field").hidden = "cooperative" in option.dataset;
}

if (form) {
  form.addEventListener("change", sync);
  sync();
}
