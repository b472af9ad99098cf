// Destructive actions ask first: a form (or its submit button) with data-confirm="question" is
// submitted only once the player says yes. Delegated from the document, so forms swapped in later
// (the tournament's live entry box) ask too; without scripts the form simply submits.

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = event.submitter?.dataset.confirm || form.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
