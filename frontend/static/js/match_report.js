// "Report a moment to the judges" on a tournament match's page (a seated player only; the server
// renders the panel, templates/frontend/_match_report.html). The moment is a line of the history:
// chosen from the list (newest first, as the sentences read) or by clicking the line itself while the
// panel is open. The report goes to POST /api/matches/{id}/reports/ as {seq, text}; the seq never
// shows (the player sees the sentence), and a refusal is told in words.

import { api, boot } from "./social.js";

const panel = document.getElementById("match-report");
const form = document.getElementById("match-report-form");
const select = document.getElementById("match-report-moment");
const text = document.getElementById("match-report-text");
const status = document.getElementById("match-report-status");
const log = document.getElementById("log");
const MOMENTS = 60; // history lines offered in the list (the newest)
const WORDS = {
  seq_beyond_head: "That moment is not in the match yet.",
  not_a_player: "Only the players of this match can report it.",
  invalid_text: "Describe what went wrong (at most 4000 characters).",
  throttled: "Too many reports at once: try again in a moment.",
  offline: "Not connected: try again in a moment.",
};

function lines() {
  return [...log.querySelectorAll("li.event[data-seq]")].filter((li) => !li.hidden && li.textContent.trim());
}

function label(li) {
  const words = li.textContent.replace(/\s+/g, " ").trim();
  return words.length > 90 ? `${words.slice(0, 87)}…` : words;
}

function refreshMoments() {
  const chosen = select.value;
  const options = lines().slice(-MOMENTS).reverse().map((li) => {
    const option = document.createElement("option");
    option.value = li.dataset.seq;
    option.textContent = label(li);
    return option;
  });
  const latest = select.options[0];
  select.replaceChildren(latest, ...options);
  if (chosen && [...select.options].some((o) => o.value === chosen)) select.value = chosen;
  else if (chosen) {  // an older line than the list holds: keep it chosen
    const li = log.querySelector(`li.event[data-seq="${chosen}"]`);
    if (li) {
      const option = document.createElement("option");
      option.value = chosen;
      option.textContent = label(li);
      select.append(option);
      select.value = chosen;
    }
  }
  markChosen();
}

function markChosen() {
  for (const li of log.querySelectorAll("li.report-chosen")) li.classList.remove("report-chosen");
  if (!panel.open || !select.value) return;
  const li = log.querySelector(`li.event[data-seq="${select.value}"]`);
  if (li) li.classList.add("report-chosen");
}

function chosenSeq() {
  if (select.value) return Number(select.value);
  const newest = lines().pop(); // "the latest move": the newest line of the history this page shows
  if (newest) return Number(newest.dataset.seq);
  return Number(document.getElementById("match-app").dataset.seq) || 1;
}

log.addEventListener("click", (e) => {
  if (!panel.open) return;
  const li = e.target.closest("li.event[data-seq]");
  if (!li || !log.contains(li)) return;
  refreshMoments();
  if (![...select.options].some((o) => o.value === li.dataset.seq)) {
    const option = document.createElement("option");
    option.value = li.dataset.seq;
    option.textContent = label(li);
    select.append(option);
  }
  select.value = li.dataset.seq;
  markChosen();
});

select.addEventListener("change", markChosen);
panel.addEventListener("toggle", () => {
  log.classList.toggle("log-pickable", panel.open);
  refreshMoments();
});
new MutationObserver(() => { if (panel.open) refreshMoments(); }).observe(log, { childList: true });

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  status.className = "small";
  status.textContent = "Sending…";
  const res = await api(`${boot.api_base}reports/`, { method: "POST", body: { seq: chosenSeq(), text: text.value } });
  button.disabled = false;
  if (res.ok) {
    status.textContent = "Sent. The judges will look at the match from the moment you chose; the tournament page shows the review.";
    text.value = "";
    return;
  }
  const code = (res.body && res.body.code) || "";
  status.className = "small error";
  status.textContent = WORDS[code] || (res.body && res.body.message) || "The report could not be sent.";
});
