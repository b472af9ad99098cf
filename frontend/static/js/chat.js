// The match chat: a tab per channel the viewer may read ("Players": the seated players only;
// "Spectators": everyone watching, and the players too once the match is over), the messages as
// text (textContent only: a message is never HTML), and a box to post in the open tab.
//
// Messages come from GET .../chat/ (paged with `after`, following `next`) and, live, from the
// socket's {"type": "chat"} / {"type": "chat_hidden"} pushes, which the server sends only to the
// sockets allowed to read them. After every (re)connect the chat is read again from the last id.

import { api, boot, currentDoc, el, isOver, onRender, onSocket } from "./social.js";
import { errorText } from "./words.js";

const root = document.getElementById("chat");
const CHANNELS = ["players", "spectators"];
const LABELS = { players: "Players", spectators: "Spectators" };
const NOTES = {
  players: "Only the players at this table read this.",
  spectators: "Spectators' chat. The players read it only once the match is over.",
  spectatorsOver: "Spectators' chat: the match is over, so the players read it too.",
};

const chat = {
  messages: new Map(), // id -> message
  lastId: 0,
  channels: null, // {players: {read, post}, spectators: {...}} as the server last said
  loaded: new Set(), // channels read from the start
  active: null,
  unread: { players: 0, spectators: 0 },
  key: null, // seat|status the channels were last asked for
  maxChars: 500,
  loading: null,
};

const $ = (id) => document.getElementById(id);

function readable() {
  return CHANNELS.filter((c) => chat.channels && chat.channels[c].read);
}

function when(iso) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function messageNode(m) {
  const mine = boot.user_id !== null && m.user_id === boot.user_id;
  const who = mine ? `${m.username} (you)` : m.username;
  const tag = m.channel === "spectators" && m.seat !== null && m.seat !== undefined ? "player" : null;
  return el(
    "li",
    { class: `chat-msg${mine ? " mine" : ""}`, dataset: { id: String(m.id), channel: m.channel } },
    el("span", { class: "chat-author" }, who),
    tag ? el("span", { class: "chat-tag" }, tag) : null,
    el("time", { class: "chat-time muted small", dateTime: m.at }, when(m.at)),
    el("div", { class: "chat-text" }, m.text),
  );
}

function renderTabs() {
  const tabs = $("chat-tabs");
  const channels = readable();
  if (!channels.includes(chat.active)) chat.active = channels[0] || null;
  tabs.hidden = channels.length < 2;
  tabs.replaceChildren(
    ...channels.map((c) => {
      const selected = c === chat.active;
      const b = el(
        "button",
        { type: "button", role: "tab", id: `chat-tab-${c}`, class: "chat-tab", dataset: { channel: c }, "aria-selected": String(selected) },
        LABELS[c],
        !selected && chat.unread[c] ? el("span", { class: "badge", "aria-label": `${chat.unread[c]} new` }, String(chat.unread[c])) : null,
      );
      b.addEventListener("click", () => {
        chat.active = c;
        chat.unread[c] = 0;
        render();
      });
      return b;
    }),
  );
  const heading = $("chat-channel-name");
  heading.textContent = chat.active && channels.length < 2 ? ` · ${LABELS[chat.active]}` : "";
}

function renderLog() {
  const log = $("chat-log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const shown = [...chat.messages.values()].filter((m) => m.channel === chat.active).sort((a, b) => a.id - b.id);
  log.replaceChildren(...(shown.length ? shown.map(messageNode) : [el("li", { class: "chat-empty muted" }, "No messages yet.")]));
  if (atBottom) log.scrollTop = log.scrollHeight;
  const over = chat.active === "spectators" && isOver(currentDoc());
  $("chat-note").textContent = chat.active ? NOTES[over ? "spectatorsOver" : chat.active] : "";
}

function renderForm() {
  const form = $("chat-form");
  const signIn = $("chat-sign-in");
  const canPost = Boolean(chat.active && chat.channels && chat.channels[chat.active].post);
  if (form) {
    form.hidden = !canPost;
    const input = $("chat-text");
    input.maxLength = chat.maxChars;
    input.placeholder = chat.active === "players" ? "Message the other players…" : "Message the spectators…";
  }
  if (signIn) signIn.hidden = Boolean(boot.user_id) || !chat.active;
}

function render() {
  if (!chat.channels) return;
  renderTabs();
  renderLog();
  renderForm();
}

function add(messages, { live = false } = {}) {
  for (const m of messages || []) {
    if (chat.messages.has(m.id)) continue;
    chat.messages.set(m.id, m);
    chat.lastId = Math.max(chat.lastId, m.id);
    if (live && m.channel !== chat.active) chat.unread[m.channel] += 1;
  }
}

/** Read the chat after ``after`` (one channel, or every readable one), following `next`. */
async function load(after, channel) {
  let url = `chat/?after=${after}&limit=200${channel ? `&channel=${channel}` : ""}`;
  while (url) {
    const res = await api(url);
    if (!res.ok) return false; // offline, or that channel closed to us meanwhile: the next refresh asks again
    chat.channels = res.body.channels;
    chat.maxChars = res.body.max_chars || chat.maxChars;
    add(res.body.messages);
    url = res.body.next;
  }
  return true;
}

/** Catch up (after a reconnect, or when the viewer's rights may have changed). */
function refresh() {
  if (chat.loading) return chat.loading;
  chat.loading = (async () => {
    try {
      const from = chat.lastId;
      await load(from);
      for (const c of readable()) {
        if (!chat.loaded.has(c)) {
          if (from > 0) await load(0, c); // e.g. the spectators' chat, readable now the match is over
          chat.loaded.add(c);
        }
      }
      for (const [id, m] of chat.messages) if (!readable().includes(m.channel)) chat.messages.delete(id);
      render();
    } finally {
      chat.loading = null;
    }
  })();
  return chat.loading;
}

function showError(text) {
  const node = $("chat-error");
  node.hidden = !text;
  node.textContent = text || "";
}

// Messages on their way, oldest first: one POST at a time, so they arrive in the order they were
// written. The box is emptied as a message leaves, so whatever is typed meanwhile is the next message
// (never wiped by the answer); a message the server refuses comes back into the box with the reason.
const outbox = { queue: [], busy: false };

function refused(res, unsent) {
  const input = $("chat-text");
  const typed = input.value.trim();
  input.value = [...unsent, typed].filter(Boolean).join(" ");
  const code = res.body && res.body.code;
  if (code === "throttled") showError(`You are sending messages too quickly: wait ${res.retryAfter || "a few"} seconds, then send it again.`);
  else if (code === "message_too_long") showError(`A message has at most ${chat.maxChars} characters.`);
  else if (code === "chat_forbidden") {
    showError(errorText(res.body, {}, "You cannot write here."));
    refresh();
  } else showError(errorText(res.body, {}, "The message could not be sent."));
}

async function drain() {
  if (outbox.busy) return;
  outbox.busy = true;
  $("chat-form").setAttribute("aria-busy", "true");
  try {
    while (outbox.queue.length) {
      const res = await api("chat/", { method: "POST", body: outbox.queue[0] });
      if (!res.ok) {
        const unsent = outbox.queue.map((m) => m.text); // the refused one and those behind it
        outbox.queue = [];
        refused(res, unsent);
        return;
      }
      outbox.queue.shift();
      showError("");
      add([res.body]);
      render();
    }
  } finally {
    outbox.busy = false;
    $("chat-form").removeAttribute("aria-busy");
  }
}

function send(event) {
  event.preventDefault();
  const input = $("chat-text");
  const text = input.value.trim();
  if (!text || !chat.active) return;
  outbox.queue.push({ text, channel: chat.active });
  input.value = ""; // only what was sent: what is typed from now on is the next message
  input.focus();
  drain();
}

function start() {
  if (!root) return;
  const form = $("chat-form");
  if (form) form.addEventListener("submit", send);
  onSocket((msg) => {
    if (msg.type === "hello") refresh();
    else if (msg.type === "chat" && msg.message) {
      add([msg.message], { live: true });
      render();
    } else if (msg.type === "chat_hidden") {
      chat.messages.delete(msg.id);
      render();
    }
  });
  onRender((doc) => {
    const key = `${doc.seat}|${doc.match && doc.match.status}|${isOver(doc)}`;
    if (key !== chat.key) {
      chat.key = key;
      refresh();
    }
  });
  const doc = currentDoc();
  chat.key = `${doc.seat}|${doc.match && doc.match.status}|${isOver(doc)}`;
  refresh();
}

window.KamizaChat = chat; // read-only, for the browser test
start();
