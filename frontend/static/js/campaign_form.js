// The new-campaign form: only players that exist can be picked for a character, and changing the
// number of players deals the characters round the table again (the server checks the same rules).

const form = document.querySelector("[data-testid=campaign-form]");

function seats() {
  const select = form.querySelector("[data-seats]");
  return Math.max(1, Number(select && select.value) || 1);
}

function limit(deal) {
  const n = seats();
  form.querySelectorAll("select[data-character]").forEach((select, i) => {
    for (const option of select.options) option.disabled = Number(option.value) >= n;
    if (deal || Number(select.value) >= n) select.value = String(i % n);
  });
}

if (form) {
  const select = form.querySelector("[data-seats]");
  if (select) select.addEventListener("change", () => limit(true));
  limit(false);
}
