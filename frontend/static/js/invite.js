// The match page's invite panel: "Copy invite link" asks the API for this player's link, shows it
// and copies it; "Invite" sends an invitation by name. Both without a reload (the forms post to
// the server without JavaScript). Messages are sentences, never error codes. A player invited by
// name leaves the "is invited" list once they sit down (the seats come live over the socket).

import { api, el, onRender } from "./social.js";

const linkForm = document.getElementById("invite-link-form");
const userForm = document.getElementById("invite-user-form");
const linkRow = document.getElementById("invite-link-row");
const linkInput = document.getElementById("invite-link");
const statusLine = document.getElementById("invite-status");
const sentList = document.getElementById("invite-sent");

function say(text, isError = false) {
  statusLine.textContent = text;
  statusLine.classList.toggle("error", isError);
}

function sentence(res, username) {
  const body = res.body || {};
  if (res.status === 429) return `You are sending invitations too quickly; try again in ${res.retryAfter || 60} seconds.`;
  if (body.code === "unknown_user") return `There is no player called ${username}.`;
  if (body.code === "invite_self") return "You cannot invite yourself.";
  if (body.code === "offline") return "Not connected just now; try again in a moment.";
  const message = body.message || "That did not work; try again.";
  return message.charAt(0).toUpperCase() + message.slice(1) + (/[.!?]$/.test(message) ? "" : ".");
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

async function makeLink(event) {
  event.preventDefault();
  const res = await api("invitations/", { method: "POST", body: {} });
  if (!res.ok) return say(sentence(res), true);
  linkInput.value = res.body.url;
  linkRow.hidden = false;
  if (await copy(res.body.url)) {
    say("Link copied. Send it to a friend: it seats them at this table.");
  } else {
    linkInput.focus();
    linkInput.select();
    say("Copy the link above and send it to a friend: it seats them at this table.");
  }
}

function revokeForm(invitation, username) {
  const csrf = userForm.querySelector("input[name=csrfmiddlewaretoken]").cloneNode();
  return el(
    "form",
    { method: "post", action: `/invitations/${invitation.id}/revoke/`, class: "inline" },
    csrf,
    el("button", { type: "submit", class: "link-button", "aria-label": `Withdraw the invitation to ${username}` }, "withdraw"),
  );
}

async function invite(event) {
  event.preventDefault();
  const input = userForm.querySelector("input[name=username]");
  const username = input.value.trim();
  if (!username) return say("Type the name of the player to invite.", true);
  const res = await api("invitations/", { method: "POST", body: { username } });
  if (!res.ok) return say(sentence(res, username), true);
  const inv = res.body;
  input.value = "";
  say(`Invitation sent to ${inv.invitee}: it shows in their lobby.`);
  if (!sentList.querySelector(`[data-invitation-id="${inv.id}"]`)) {
    sentList.append(
      el("li", { dataset: { invitationId: inv.id, invitee: inv.invitee } }, `${inv.invitee} `, el("span", { class: "muted small" }, "is invited"), " ", revokeForm(inv, inv.invitee)),
    );
  }
  sentList.hidden = false;
}

function dropSeated(doc) {
  const seated = new Set(((doc && doc.match && doc.match.seats) || []).filter((s) => s && !s.bot).map((s) => s.username));
  sentList.querySelectorAll("li[data-invitee]").forEach((li) => {
    if (seated.has(li.dataset.invitee)) li.remove();
  });
  sentList.hidden = !sentList.querySelector("li");
}

function quietWhenFull(doc) {
  const seats = (doc && doc.match && doc.match.seats) || [];
  if (statusLine && seats.length && seats.every(Boolean) && !statusLine.classList.contains("error")) say("");
}

if (sentList) onRender(dropSeated);
onRender(quietWhenFull);
if (linkForm) linkForm.addEventListener("submit", makeLink);
if (userForm) userForm.addEventListener("submit", invite);
