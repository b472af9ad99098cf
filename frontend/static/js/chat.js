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

function chooseTab(c) {
  chat.active = c;
  chat.unread[c] = 0;
  render();
}

// The tabs as a keyboard expects them: one tab stop (the open tab), the arrow keys move between them.
function onTabKey(event) {
  const channels = readable();
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step || channels.length < 2) return;
  event.preventDefault();
  chooseTab(channels[(channels.indexOf(chat.active) + step + channels.length) % channels.length]);
}

function renderTabs() {
  const tabs = $("chat-tabs");
  const channels = readable();
  if (!channels.includes(chat.active)) chat.active = channels[0] || null;
  tabs.hidden = channels.length < 2;
  const hadFocus = tabs.contains(document.activeElement); // redrawn below: the open tab keeps the focus
  tabs.replaceChildren(
    ...channels.map((c) => {
      const selected = c === chat.active;
      const b = el(
        "button",
        { type: "button", role: "tab", id: `chat-tab-${c}`, class: "chat-tab", dataset: { channel: c }, "aria-selected": String(selected),
          "aria-controls": "chat-log", tabIndex: selected ? 0 : -1 },
        LABELS[c],
        !selected && chat.unread[c] ? el("span", { class: "badge", "aria-label": `${chat.unread[c]} new` }, String(chat.unread[c])) : null,
      );
      b.addEventListener("click", () => chooseTab(c));
      return b;
    }),
  );
  if (hadFocus && chat.active) $(`chat-tab-${chat.active}`).focus();
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
  renderUnsent();
}

function add(messages, { live = false } = {}) {
  for (const m of messages || []) {
    if (chat.messages.has(m.id)) continue;
    chat.messages.set(m.id, m);
    chat.lastId = Math.max(chat.lastId, m.id);
    if (live && m.channel !== chat.active) chat.unread[m.channel] += 1;
    if (live && m.channel === chat.active) announce(m);
  }
}

/** A screen reader hears a message someone else just wrote in the open tab, once (never the whole
 * list, which is redrawn on every change, nor the history read on load, nor the reader's own). */
function announce(m) {
  if (boot.user_id !== null && m.user_id === boot.user_id) return;
  $("chat-announce").textContent = `${m.username}: ${m.text}`;
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
// (never wiped by the answer). A message the server refuses (the throttle, a closed channel) does not
// come back into the box: the player may be typing the next message there, or start one, and the
// two would go out as one. It waits under the log as its own "Not sent" line, with the reason, for
// the player to send again as it was, take back into an empty box to change, or discard.
const outbox = { queue: [], busy: false, unsent: [], nextId: 1 };

function reason(res) {
  const code = res.body && res.body.code;
  if (code === "throttled") return `You are sending messages too quickly: wait ${res.retryAfter || "a few"} seconds, then press “Send again”.`;
  if (code === "message_too_long") return `A message has at most ${chat.maxChars} characters: edit it, then send it.`;
  if (code === "chat_forbidden") return errorText(res.body, {}, "You cannot write here.");
  return errorText(res.body, {}, "The message could not be sent.");
}

function refused(res, unsent) {
  for (const m of unsent) outbox.unsent.push({ ...m, id: outbox.nextId++ });
  showError(reason(res));
  if (res.body && res.body.code === "chat_forbidden") refresh();
  renderUnsent();
}

function takeUnsent(id) {
  const i = outbox.unsent.findIndex((m) => m.id === id);
  const [m] = i >= 0 ? outbox.unsent.splice(i, 1) : [];
  if (!outbox.unsent.length) showError("");
  return m;
}

/** The refused messages of the open tab, each with "Send again", "Edit" (into the box, only when it
 * is empty: never merged with what is being typed) and "Discard". */
function renderUnsent() {
  const list = $("chat-unsent");
  if (!list) return;
  const input = $("chat-text");
  const canPost = Boolean(chat.active && chat.channels && chat.channels[chat.active] && chat.channels[chat.active].post);
  const shown = outbox.unsent.filter((m) => m.channel === chat.active);
  list.hidden = !shown.length;
  list.replaceChildren(...shown.map((m) => {
    const button = (label, action, extra = {}) => {
      const b = el("button", { type: "button", class: "small", dataset: { action }, ...extra }, label);
      b.addEventListener("click", () => onUnsent(m.id, action));
      return b;
    };
    const boxBusy = Boolean(input && input.value.trim());
    return el("li", { class: "chat-msg chat-unsent-msg", dataset: { id: String(m.id) } },
      el("span", { class: "chat-tag not-sent" }, "not sent"),
      el("div", { class: "chat-text" }, m.text),
      el("div", { class: "chat-unsent-actions" },
        canPost ? button("Send again", "resend") : null,
        canPost ? button("Edit", "edit", boxBusy ? { disabled: true, title: "Send or clear the message you are typing first" } : {}) : null,
        button("Discard", "discard")));
  }));
}

function onUnsent(id, action) {
  const input = $("chat-text");
  if (action === "edit" && input && input.value.trim()) return; // never merged with the message being typed
  const m = takeUnsent(id);
  if (!m) return;
  if (action === "resend") {
    outbox.queue.push({ text: m.text, channel: m.channel });
    drain();
  } else if (action === "edit") {
    input.value = m.text;
    input.focus();
  }
  renderUnsent();
}

async function drain() {
  if (outbox.busy) return;
  outbox.busy = true;
  $("chat-form").setAttribute("aria-busy", "true");
  try {
    while (outbox.queue.length) {
      const res = await api("chat/", { method: "POST", body: outbox.queue[0] });
      if (!res.ok) {
        const unsent = outbox.queue; // the refused one and those behind it, each kept apart
        outbox.queue = [];
        refused(res, unsent);
        return;
      }
      outbox.queue.shift();
      if (!outbox.unsent.length) showError(""); // else the reason a waiting "Not sent" line was refused stays
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
  const input = $("chat-text");
  if (input) input.addEventListener("input", renderUnsent); // "Edit" waits for an empty box
  $("chat-tabs").addEventListener("keydown", onTabKey);
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
