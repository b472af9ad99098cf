// "Your turn" on the match page of a seated player:
// - the tab title starts with "Your turn" and the favicon turns into a red dot while the decision
//   is the player's;
// - an optional sound when the turn comes (off by default; this browser remembers the choice);
// - a browser notification when the turn comes while the tab is hidden, once the player allowed it
//   (permission is asked only when they press the button).
// E-mails for a turn that waited long are a setting of the account (accounts.turn_emails).

import { boot, currentDoc, isOver, onRender } from "./social.js";

const root = document.getElementById("turn-alerts");
const SOUND_KEY = "kamiza.turnSound";
const NOTIFY_KEY = "kamiza.turnNotify";
const TITLE_PREFIX = "Your turn · ";

const turn = {
  mine: null, // whether the decision is ours, as last rendered (null: not rendered yet)
  baseTitle: document.title,
  icon: document.querySelector("link[rel~='icon']"),
  idleIcon: null,
  audio: null,
};

const $ = (id) => document.getElementById(id);

function stored(key) {
  try {
    return window.localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
}

function store(key, on) {
  try {
    window.localStorage.setItem(key, on ? "on" : "off");
  } catch {
    /* private mode: the choice lasts for this page */
  }
}

function isMyTurn(doc) {
  const st = doc.status || {};
  return Boolean(doc.match && doc.match.status === "active" && doc.seat !== null && doc.seat !== undefined && (st.awaiting || []).includes(doc.seat));
}

function showTurn(mine) {
  document.title = mine ? TITLE_PREFIX + turn.baseTitle : turn.baseTitle;
  if (turn.icon) turn.icon.href = mine ? root.dataset.turnIcon : turn.idleIcon;
  document.documentElement.toggleAttribute("data-your-turn", mine);
}

function beep() {
  if (!turn.audio) return;
  try {
    const ctx = turn.audio;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(660, ctx.currentTime);
    osc.frequency.setValueAtTime(880, ctx.currentTime + 0.12);
    gain.gain.setValueAtTime(0.0001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.32);
  } catch {
    /* no audio device: the title still says it */
  }
}

/** Browsers only let a page play sound after the player touched it: make the context then. */
function audioReady() {
  if (turn.audio || !stored(SOUND_KEY)) return;
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (Ctx) turn.audio = new Ctx();
}

function notifyHidden() {
  if (!document.hidden || !stored(NOTIFY_KEY) || !("Notification" in window) || Notification.permission !== "granted") return;
  const note = new Notification("Your turn", { body: `${boot.game_name}: the decision is yours.`, tag: `kamiza-turn-${boot.match_id}` });
  note.onclick = () => {
    window.focus();
    note.close();
  };
}

/** Whether this seat's player left a game the others play on (resigned, or taken over). */
function leftTheGame(doc) {
  const gone = (doc.match && doc.match.conceded) || [];
  return Number.isInteger(doc.seat) && Array.isArray(gone) && gone.includes(doc.seat);
}

function onDoc(doc) {
  root.hidden = isOver(doc) || leftTheGame(doc); // no more turns
  const mine = isMyTurn(doc);
  if (mine === turn.mine) return;
  const came = turn.mine === false && mine; // a new turn, not the page opening on one
  turn.mine = mine;
  showTurn(mine);
  if (came) {
    if (stored(SOUND_KEY)) beep();
    notifyHidden();
  }
}

function renderNotifyButton() {
  const button = $("turn-notify");
  const state = $("turn-notify-state");
  if (!("Notification" in window)) {
    button.hidden = true;
    state.textContent = "This browser cannot show notifications.";
    return;
  }
  const on = stored(NOTIFY_KEY) && Notification.permission === "granted";
  button.textContent = on ? "Stop notifying me" : "Notify me when it is my turn";
  button.setAttribute("aria-pressed", String(on));
  state.textContent = Notification.permission === "denied" ? "Notifications are blocked for this site in the browser's settings." : on ? "On while this tab is hidden." : "";
}

async function toggleNotify() {
  if (stored(NOTIFY_KEY) && Notification.permission === "granted") {
    store(NOTIFY_KEY, false);
  } else {
    const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
    store(NOTIFY_KEY, permission === "granted");
  }
  renderNotifyButton();
}

function start() {
  if (!root) return;
  turn.idleIcon = turn.icon ? turn.icon.getAttribute("href") : null;
  const sound = $("turn-sound");
  sound.checked = stored(SOUND_KEY);
  sound.addEventListener("change", () => {
    store(SOUND_KEY, sound.checked);
    audioReady();
    if (sound.checked) beep(); // what it will sound like
  });
  document.addEventListener("pointerdown", audioReady, { once: true });
  document.addEventListener("keydown", audioReady, { once: true });
  $("turn-notify").addEventListener("click", toggleNotify);
  renderNotifyButton();
  onRender(onDoc);
  onDoc(currentDoc());
}

window.KamizaTurn = turn; // read-only, for the browser test
start();
