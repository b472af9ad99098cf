// Yashima board: the hex map (terrain, miniatures with their facing, attack previews), every
// master's life (hand + deck), karma pool, statuses, tome; my hand; the action pool; setup picks,
// the secret destiny choice and defense prompts. Clicks map to legal commands (a highlighted hex
// for movement / placement / spaces; a hand card then one of six facing arrows for an attack; the
// arrows for a final facing); every other legal command is a plain labelled button.
//
// Every command sent is taken unchanged from doc.legal_commands. Spectators (doc.seat === null)
// get no controls. The DOM is built with textContent / createElementNS only.

import { ensureStylesheet as useStylesheet, fetchContent, h, registerBoard } from "./registry.js";

const CSS_URL = new URL("../../css/boards/yashima.css", import.meta.url).href;
const SVG = "http://www.w3.org/2000/svg";
const S = 20; // hex size (centre to corner), SVG units
const DIRS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];
const FACING_NAMES = ["N", "NE", "SE", "S", "SW", "NW"];
const TERRAINS = ["blank", "road", "arduous", "deadly", "solid", "relic", "rejuvenating", "slick", "splice_point"];
const CELL_ARG = { step: "to", dodge_to: "to", relocate_to: "to", choose_space: "cell", explode: "cell" };
const FACING_CMDS = new Set(["attack", "chain_attack"]);

const ui = { content: null, contentPromise: null, last: null, sel: null, hoverFacing: null, busy: false };

function ensureStylesheet() {
  useStylesheet("yashima", CSS_URL);
}

function loadContent() {
  if (ui.contentPromise) return;
  ui.contentPromise = fetchContent("yashima")
    .then((pack) => {
      ui.content = pack;
      ui.defs = indexDefs(pack);
      if (ui.last) render(...ui.last);
    })
    .catch(() => { ui.contentPromise = null; });
}

function indexDefs(pack) {
  const out = {};
  for (const group of [pack.masters || [], pack.kami || []]) for (const m of group) for (const c of m.cards || []) out[c.id] = c;
  for (const m of pack.masters || []) {
    (m.tome || []).forEach((t, i) => {
      for (const [side, face] of Object.entries(t.faces || {})) out[`tome:${m.id}:${i}:${side}`] = { ...face, tome: true };
    });
  }
  return out;
}

// -- helpers -----------------------------------------------------------------------------------

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

const titleCase = (x) => String(x || "?").replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
const parse = (cell) => String(cell).split(",").map(Number);
const px = (q, r) => [1.5 * q * S, Math.sqrt(3) * (r + q / 2) * S];
const rotate = (q, r, steps) => { for (let i = 0; i < ((steps % 6) + 6) % 6; i++) [q, r] = [-r, q + r]; return [q, r]; };
const hexPoints = (cx, cy, size = S) => Array.from({ length: 6 }, (_, i) => {
  const a = (Math.PI / 3) * i;
  return `${(cx + size * Math.cos(a)).toFixed(2)},${(cy + size * Math.sin(a)).toFixed(2)}`;
}).join(" ");
const isSeat = (x) => x !== null && x !== undefined;

function masterInfo(id) { return ((ui.content && ui.content.masters) || []).find((m) => m.id === id) || null; }
function kamiInfo(id) { return ((ui.content && ui.content.kami) || []).find((k) => k.id === id) || null; }
function def(d) { return (ui.defs && ui.defs[d]) || null; }
function defName(d) { const x = def(d); return x && x.name ? x.name : titleCase(d); }

function seatName(doc, seat) {
  const st = doc.match && doc.match.seats && doc.match.seats[seat];
  const name = st ? st.username + (st.bot ? " (bot)" : "") : `Seat ${seat}`;
  return seat === doc.seat ? `${name} (you)` : name;
}

/** Every card instance visible to this seat: id -> card {id, d, o}. */
function visibleCards(view) {
  const out = {};
  for (const p of view.players || []) {
    for (const zone of ["hand", "karma", "discard", "equip", "aside"]) for (const c of p[zone] || []) if (c && c.id) out[c.id] = c;
  }
  return out;
}

function cardLabel(view, id) {
  const c = visibleCards(view)[id];
  return c ? defName(c.d) : `card ${String(id).slice(0, 6)}`;
}

function srcLabel(view, seat, src) {
  const [kind, ref] = String(src).split(":");
  const p = view.players[seat] || {};
  if (kind === "page") {
    const m = masterInfo(p.master);
    const n = Number(ref);
    for (const [i, t] of ((m && m.tome) || []).entries()) for (const face of Object.values(t.faces || {})) if (face.page === n) return `${face.name} (tome page ${n}, cost ${face.cost})`;
    return `tome page ${n}`;
  }
  if (kind === "avatar") {
    const m = masterInfo(p.master);
    const ab = m && m.abilities && m.abilities[Number(ref)];
    return ab ? `${ab.name} (${m.name})` : `avatar ability ${ref}`;
  }
  if (kind === "equip") return `${cardLabel(view, String(src).slice(6))} (equipment)`;
  return src;
}

function commandLabel(doc, cmd) {
  const view = doc.view;
  const a = cmd.args || {};
  const card = (id) => cardLabel(view, id);
  switch (cmd.type) {
    case "pick": return `${titleCase((masterInfo(a.master) || {}).name || a.master)} + ${(kamiInfo(a.kami) || {}).name || titleCase(a.kami)}`;
    case "choose_board": {
      const b = ((ui.content && ui.content.boards && ui.content.boards.terrain) || []).find((x) => x.id === a.board);
      return `${b ? b.name : titleCase(a.board)} (side ${a.side})`;
    }
    case "place_board": return `Slot ${a.slot}, rotation ${a.rotation}`;
    case "place_miniature": return `Place at ${a.cell} facing ${FACING_NAMES[a.facing] || a.facing}`;
    case "choose_token": return a.token === "attack" ? "Add an Attack token" : "Add a Move token";
    case "tuck": return `Tuck ${card(a.card)} under the deck`;
    case "draw": return "Draw a card";
    case "end_reconcile": return "Done (end reconcile)";
    case "focus": return "Focus (tome action)";
    case "delve": return a.dir === 1 ? "Delve: next spread" : "Delve: previous spread";
    case "ability": return `Use ${srcLabel(view, doc.seat, a.src)}`;
    case "quick": return `Quick: ${srcLabel(view, doc.seat, a.src)}`;
    case "move_action": return "Move (use a move token)";
    case "take_token": return `Take ${a.token === "attack" ? "an" : "a"} ${a.token} token without acting`;
    case "end_turn": return "End turn";
    case "wind": return "Use WIND (move up to 2)";
    case "dash": return `Dash: discard ${card(a.card)}, move to ${a.to}`;
    case "pay_card": return `Pay with ${card(a.card)}`;
    case "defend": return `Defend with ${card(a.card)}`;
    case "no_defense": return "No defense";
    case "lose_card": return a.card ? `Lose ${card(a.card)} from ${a.zone}` : `Lose the top card of the ${a.zone}`;
    case "use_effect": return `Use ${titleCase(a.effect)}`;
    case "skip_effect": return `Skip ${titleCase(a.effect)}`;
    case "end_move": return `End move facing ${FACING_NAMES[a.facing] || a.facing}`;
    case "empower": return { karma: "Empower: to karma pool", top: "Empower: top of deck", bottom: "Empower: bottom of deck" }[a.to] || `Empower: ${a.to}`;
    case "decline_chain": return "Decline the chained attack";
    case "discard_karma": return `Discard ${card(a.card)} from karma`;
    case "put_on_top": return `Put ${card(a.card)} on top`;
    case "restore_unequip": return `Unequip ${card(a.card)}`;
    case "choose_master": return `Choose ${seatName(doc, a.master)}`;
    default: break;
  }
  const parts = Object.entries(a).map(([k, v]) => {
    if ((k === "card") && typeof v === "string") return `${k}: ${card(v)}`;
    if ((k === "master" || k === "on" || k === "who") && Number.isInteger(v)) return `${k}: ${seatName(doc, v)}`;
    return `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`;
  });
  return [titleCase(cmd.type), ...parts].join(" · ");
}

// -- the legal commands, sorted by what the board can click ------------------------------------

function classify(doc) {
  const view = doc.view;
  const out = { cells: new Map(), place: [], facing: [], endMove: [], picks: [], other: [] };
  const cells = view.cells || {};
  const handIds = new Set(((view.players[doc.seat] || {}).hand || []).map((c) => c.id));
  const dup = new Set();
  for (const cmd of doc.legal_commands || []) {
    const a = cmd.args || {};
    const keys = Object.keys(a);
    const cellArg = CELL_ARG[cmd.type];
    if (cellArg && keys.length === 1 && typeof a[cellArg] === "string" && a[cellArg] in cells) {
      if (out.cells.has(a[cellArg])) dup.add(a[cellArg]);
      out.cells.set(a[cellArg], cmd);
    } else if (cmd.type === "place_miniature" && a.cell in cells && Number.isInteger(a.facing)) out.place.push(cmd);
    else if (FACING_CMDS.has(cmd.type) && handIds.has(a.card) && Number.isInteger(a.facing)) out.facing.push(cmd);
    else if (cmd.type === "end_move" && keys.length === 1 && Number.isInteger(a.facing)) out.endMove.push(cmd);
    else if (cmd.type === "pick") out.picks.push(cmd);
    else out.other.push(cmd);
  }
  // two commands on one hex: keep them as buttons rather than guess
  for (const cell of dup) {
    for (const cmd of doc.legal_commands) if (CELL_ARG[cmd.type] && cmd.args[CELL_ARG[cmd.type]] === cell) out.other.push(cmd);
    out.cells.delete(cell);
  }
  return out;
}

function validateSelection(doc, opts) {
  const sel = ui.sel;
  if (!sel) return;
  let ok = false;
  if (sel.kind === "attack") ok = opts.facing.some((c) => c.args.card === sel.card && c.type === sel.type);
  else if (sel.kind === "place") ok = opts.place.some((c) => c.args.cell === sel.cell);
  else if (sel.kind === "pick") ok = opts.picks.some((c) => c.args.master === sel.master);
  if (!ok || sel.seq !== doc.seq) { ui.sel = null; ui.hoverFacing = null; }
}

// -- rendering ---------------------------------------------------------------------------------

function render(container, doc, sendCommand) {
  ui.last = [container, doc, sendCommand];
  ensureStylesheet();
  loadContent();
  const view = doc.view;
  if (!view || !view.players) {
    container.replaceChildren(h("p", { class: "muted" }, doc.match && doc.match.status === "open" ? "Waiting for the match to start." : "Nothing to show yet."));
    return;
  }
  const player = isSeat(doc.seat) && doc.seat !== "system";
  const opts = player ? classify(doc) : classify({ ...doc, legal_commands: [] });
  validateSelection(doc, opts);
  const send = (cmd) => {
    if (ui.busy) return;
    ui.busy = true;
    ui.sel = null;
    ui.hoverFacing = null;
    render(...ui.last);
    sendCommand(cmd.type, cmd.args || {}).catch(() => {}).finally(() => { ui.busy = false; render(...ui.last); });
  };
  const select = (sel) => { ui.sel = sel ? { ...sel, seq: doc.seq } : null; ui.hoverFacing = null; render(...ui.last); };
  const ctx = { doc, view, opts, send, select, player };
  const root = h("div", { class: "ys", dataset: { seat: player ? String(doc.seat) : "spectator", phase: view.phase } });
  root.append(renderBanner(ctx), renderTop(ctx), renderPrompt(ctx));
  root.append(h("div", { class: "ys-main" }, renderMap(ctx), renderPlayers(ctx)));
  root.append(renderLegend());
  if (player) root.append(renderHand(ctx));
  else root.append(h("p", { class: "muted" }, "You are watching this match: hands and destiny choices stay hidden."));
  container.replaceChildren(root);
}

function renderBanner({ doc, view }) {
  const st = doc.status || {};
  if (!st.finished) return "";
  const winners = st.winners || [];
  const result = view.result || {};
  const won = isSeat(doc.seat) && winners.includes(doc.seat);
  const reason = result.reason === "round_cap" ? " The round limit was reached." : result.reason ? ` (${titleCase(result.reason)})` : "";
  return h("div", { class: `ys-banner${won ? " is-win" : ""}`, role: "status", "data-testid": "yashima-banner" },
    h("strong", {}, "Game over. "),
    winners.length ? `${winners.map((x) => seatName(doc, x)).join(" and ")} win${winners.length === 1 ? "s" : ""}!` : "A draw: no winner.",
    reason);
}

function renderTop({ doc, view }) {
  const st = doc.status || {};
  const turnSeat = view.turn && isSeat(view.turn.seat) ? view.turn.seat : null;
  const bar = h("div", { class: "ys-top" });
  let text = titleCase(view.phase);
  if (st.finished) text = "Final position";
  else if (view.phase === "battle" && turnSeat !== null) text = turnSeat === doc.seat ? "Your turn" : `${seatName(doc, turnSeat)}'s turn`;
  bar.append(h("div", { class: `ys-turn${turnSeat !== null ? ` seat-${turnSeat}` : ""}` }, turnSeat !== null ? h("span", { class: "ys-swatch" }) : "", text));
  bar.append(h("div", { class: "ys-stat" }, h("small", {}, "Round"), String(view.round || 0), view.options && view.options.round_cap ? ` / ${view.options.round_cap}` : ""));
  bar.append(h("div", { class: "ys-stat", "data-testid": "yashima-pool", title: "The action pool: tokens left this round" }, h("small", {}, "Action pool"),
    h("span", { class: "ys-token move" }, `Move × ${(view.pool || {}).move || 0}`),
    h("span", { class: "ys-token attack" }, `Attack × ${(view.pool || {}).attack || 0}`)));
  if (view.turn && turnSeat !== null && !st.finished) {
    bar.append(h("div", { class: "ys-stat" }, h("small", {}, "Tome action"), view.turn.tome ? "used" : "available"));
    bar.append(h("div", { class: "ys-stat" }, h("small", {}, "Token"), view.turn.token ? titleCase(view.turn.token) : "not taken"));
  }
  return bar;
}

function promptText(ctx) {
  const { doc, view } = ctx;
  const me = doc.seat;
  const mine = (view.prompts || {}).main && view.prompts.main.seat === me ? view.prompts.main : null;
  const legalTypes = new Set((doc.legal_commands || []).map((c) => c.type));
  const setup = view.setup || {};
  if (view.phase === "setup") {
    if (legalTypes.has("pick")) return "Setup: pick your master and your kami (each may be picked once per match).";
    if (legalTypes.has("choose_board")) return "Setup: choose your terrain board and its side.";
    if (legalTypes.has("place_board")) return "Setup: place your board in a slot around the relic board (slot and rotation).";
    if (legalTypes.has("place_miniature")) return "Setup: click a highlighted space of your board for your miniature, then choose its facing.";
    return `Setup (${titleCase(setup.step)}).`;
  }
  if (legalTypes.has("choose_token")) return "Destiny (secret, everyone at once): add a Move or an Attack token to the action pool. The others only see that you have chosen.";
  if (legalTypes.has("defend") || legalTypes.has("no_defense")) {
    const atk = (view.attacks || []).find((x) => (x.targets || []).some((t) => t.seat === me));
    const tg = atk && atk.targets.find((t) => t.seat === me);
    return `You are targeted by ${atk ? `${seatName(doc, atk.seat)}'s ${defName(atk.card)}` : "an attack"}${tg ? ` (ATK ${tg.atk})` : ""}: play a defense card or take the damage.`;
  }
  if (legalTypes.has("lose_card")) return "You take damage: lose cards one at a time, from the top of your deck or from your hand.";
  if (view.phase === "reconcile" && (legalTypes.has("draw") || legalTypes.has("end_reconcile"))) return "Reconcile: tuck cards beneath your deck, then draw up to your hand size, then finish.";
  if (mine) {
    const info = mine.info || {};
    if (mine.kind === "move") return `Moving: click a highlighted space (speed left ${info.speed_left ?? "?"}) or click an arrow to end the move with that facing.`;
    if (mine.kind === "pay") return `Pay ${info.cost ?? "the"} karma: choose ${info.cards ?? ""} card(s) from your karma pool.`;
    return `${titleCase(mine.kind)}: choose one.${Object.keys(info).length ? ` (${Object.entries(info).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : v}`).join(", ")})` : ""}`;
  }
  if (ui.sel && ui.sel.kind === "attack") return `Attack with ${defName(ui.sel.d)}: hover an arrow around your miniature to preview the pattern, click it to attack in that direction.`;
  if (view.phase === "battle" && view.turn && view.turn.seat === me) {
    return ctxHasAttack(ctx) ? "Your turn: a tome action (optional), then a combat action: pick an attack card from your hand, move, or take a token." : "Your turn: choose an action below.";
  }
  return "Choose one.";
}

function ctxHasAttack({ opts }) { return opts.facing.length > 0; }

// -- the decision clock ------------------------------------------------------------------------
// doc.deadline is the clock the server runs on this decision; when it runs out the server sends the
// engine's timeout choice for the seats still on it (view.choices.on_timeout says which of mine).
// Only the [data-due-at] counters change each second: the board itself is not re-rendered.

const secondsLeft = (dueAt) => Math.max(0, Math.round((Date.parse(dueAt) - Date.now()) / 1000));
const clockFace = (n) => `${Math.floor(n / 60)}:${String(n % 60).padStart(2, "0")}`;

function tickClocks() {
  for (const counter of document.querySelectorAll(".ys [data-due-at]")) {
    const left = secondsLeft(counter.dataset.dueAt);
    if (counter.textContent !== clockFace(left)) counter.textContent = clockFace(left);
    counter.closest(".ys-clock").classList.toggle("is-urgent", left <= 10);
  }
}

function clockCounter(deadline) {
  if (!ui.ticker) ui.ticker = setInterval(tickClocks, 1000);
  return h("strong", { class: "ys-clock-left", "data-due-at": deadline.due_at }, clockFace(secondsLeft(deadline.due_at)));
}

function timeoutLabel(doc) {
  const ch = doc.view.choices;
  const cmd = ch && Number.isInteger(ch.on_timeout) ? (doc.legal_commands || [])[ch.on_timeout] : null;
  return cmd ? commandLabel(doc, cmd) : null;
}

function deciderName(doc, seat) {
  const m = masterInfo((doc.view.players[seat] || {}).master);
  return m ? `${m.name} (${seatName(doc, seat)})` : seatName(doc, seat);
}

function renderClock({ doc, player }) {
  const deadline = doc.deadline;
  if (!deadline || !deadline.due_at || !(deadline.seats || []).length) return "";
  const left = secondsLeft(deadline.due_at);
  const attrs = { class: `ys-clock${left <= 10 ? " is-urgent" : ""}`, role: "timer", "data-testid": "yashima-clock" };
  if (player && deadline.seats.includes(doc.seat)) {
    const types = new Set((doc.legal_commands || []).map((c) => c.type));
    const verb = types.has("defend") || types.has("no_defense") ? "Defend" : "Decide";
    const passive = timeoutLabel(doc);
    return h("p", { ...attrs, "data-mine": "1" }, `${verb} within `, clockCounter(deadline), passive ? ` — otherwise: ${passive}` : "");
  }
  const names = deadline.seats.filter((x) => x !== doc.seat).map((x) => deciderName(doc, x));
  return h("p", { ...attrs, class: `${attrs.class} is-other` }, `${names.join(", ")} deciding (`, clockCounter(deadline), ")");
}

function renderPrompt(ctx) {
  const { doc, view, opts, send, select, player } = ctx;
  const st = doc.status || {};
  if (st.finished) return "";
  const awaiting = st.awaiting || [];
  const box = h("div", { class: "ys-prompt", role: "status", "aria-live": "polite", "data-testid": "yashima-prompt" });
  if (!player || !awaiting.includes(doc.seat)) {
    box.classList.add("is-idle");
    const names = awaiting.filter((x) => x !== "system").map((x) => seatName(doc, x));
    let text = names.length ? `Waiting for ${names.join(", ")}` : "Waiting";
    const other = Object.values(view.prompts || {})[0];
    if (other && other.seat !== doc.seat) text += ` (${titleCase(other.kind)})`;
    if (view.phase === "destiny") {
      const chosen = Object.keys(view.destiny || {}).map(Number);
      text += `: secret destiny choice (${chosen.length} of ${view.players.length} chosen).`;
      const own = view.destiny && view.destiny[String(doc.seat)];
      if (player && own && own !== "chosen") text += ` You added a ${titleCase(own)} token.`;
    } else text += ".";
    box.append(h("p", {}, text), renderClock(ctx));
    return box;
  }
  box.append(h("p", { class: "ys-ask" }, promptText(ctx)), renderClock(ctx));
  // master + kami picks: two steps
  if (opts.picks.length) {
    const masters = [...new Set(opts.picks.map((c) => c.args.master))];
    box.append(h("div", { class: "ys-choices", "data-testid": "yashima-masters" }, h("span", { class: "muted" }, "Master:"),
      masters.map((m) => h("button", { type: "button", class: ui.sel && ui.sel.master === m ? "is-selected" : "", "data-master": m, disabled: ui.busy,
        title: masterSummary(m), onclick: () => select({ kind: "pick", master: m }) }, (masterInfo(m) || {}).name || titleCase(m)))));
    if (ui.sel && ui.sel.kind === "pick") {
      box.append(h("div", { class: "ys-choices", "data-testid": "yashima-kami" }, h("span", { class: "muted" }, "Kami:"),
        opts.picks.filter((c) => c.args.master === ui.sel.master).map((c) => {
          const k = kamiInfo(c.args.kami);
          return h("button", { type: "button", class: "primary", "data-kami": c.args.kami, disabled: ui.busy, onclick: () => send(c) },
            k ? `${k.name} (deck ${k.deck_size})` : titleCase(c.args.kami));
        })));
    }
  }
  if (ui.sel && ui.sel.kind === "place") box.append(h("p", {}, `Placing at ${ui.sel.cell}: click an arrow for the facing. `, h("button", { type: "button", class: "link-button", onclick: () => select(null) }, "Cancel")));
  if (ui.sel && ui.sel.kind === "attack") box.append(h("button", { type: "button", class: "link-button", onclick: () => select(null) }, "Cancel the attack"));
  if (opts.other.length) {
    box.append(h("div", { class: "ys-choices ys-options", "data-testid": "yashima-options" },
      opts.other.map((cmd) => h("button", { type: "button", class: `command${/^(no_defense|end_turn|end_reconcile|choose_token)$/.test(cmd.type) ? " primary" : ""}`,
        disabled: ui.busy, dataset: { cmd: JSON.stringify(cmd) }, onclick: () => send(cmd) }, commandLabel(doc, cmd)))));
  }
  return box;
}

function masterSummary(id) {
  const m = masterInfo(id);
  if (!m) return "";
  const f = (m.avatar && m.avatar.front) || {};
  return `${m.name}: karma ${f.karma}, hand ${f.hand}, speed ${f.speed}; ${(m.abilities || []).map((a) => a.name).join(", ")}`;
}

// -- the map -----------------------------------------------------------------------------------

/** A card's pattern for facing 0 (named pattern + PATTERN_PLUS cells), as hex offsets. */
function patternOffsets(d) {
  const card = def(d);
  if (!card) return [];
  const pats = (ui.content && ui.content.patterns) || {};
  const offs = Array.isArray(card.pattern) ? card.pattern : pats[card.pattern] || [];
  const extra = (card.attack || []).filter((x) => x.k === "PATTERN_PLUS").flatMap((x) => x.cells || []);
  const seen = new Set();
  return [...offs, ...extra].filter(([q, r]) => !seen.has(`${q},${r}`) && seen.add(`${q},${r}`));
}

function attackCells(view, pos, facing, d) {
  const [q0, r0] = parse(pos);
  return patternOffsets(d).map(([dq, dr]) => { const [a, b] = rotate(dq, dr, facing); return `${q0 + a},${r0 + b}`; }).filter((c) => c in (view.cells || {}));
}

function renderMap(ctx) {
  const { doc, view, opts, send, select, player } = ctx;
  const cells = view.cells || {};
  const keys = Object.keys(cells);
  const wrap = h("div", { class: "ys-map", "data-testid": "yashima-map" });
  if (!keys.length) { wrap.append(h("p", { class: "muted" }, "No map yet.")); return wrap; }
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const k of keys) { const [x, y] = px(...parse(k)); minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y); }
  const pad = S * 1.6;
  const svg = s("svg", { viewBox: `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`, role: "img", "aria-label": "Hex map" });
  const me = player ? view.players[doc.seat] : null;
  const placeCells = new Set(opts.place.map((c) => c.args.cell));
  // preview: the selected attack card at the hovered facing (else the master's facing)
  let preview = new Set();
  if (ui.sel && ui.sel.kind === "attack" && me && me.pos) preview = new Set(attackCells(view, me.pos, ui.hoverFacing ?? me.facing, ui.sel.d));
  const underAttack = new Set((view.attacks || []).flatMap((a) => a.cells || []));
  for (const k of keys) {
    const [x, y] = px(...parse(k));
    const t = TERRAINS.includes(cells[k]) ? cells[k] : "unknown";
    const cmd = player ? opts.cells.get(k) : null;
    const placing = player && placeCells.has(k);
    const target = Boolean(cmd || placing) && !ui.busy;
    const g = s("g", { class: `ys-cell${target ? " is-target" : ""}${preview.has(k) ? " is-preview" : ""}`, "data-cell": k, "data-terrain": cells[k] },
      s("polygon", { class: `ys-hex t-${t}`, points: hexPoints(x, y, S - 0.6) }),
      s("title", {}, `${k}: ${titleCase(cells[k])}${cmd ? ` — ${commandLabel(doc, cmd)}` : ""}`));
    if (cells[k] !== "blank") g.append(s("text", { class: "ys-cell-label", x: x, y: y + S * 0.7, "text-anchor": "middle" }, titleCase(cells[k]).slice(0, 5)));
    const spst = (view.spst || {})[k];
    if (spst && Object.keys(spst).length) g.append(s("text", { class: "ys-status-dot", x: x, y: y - S * 0.45, "text-anchor": "middle" }, Object.keys(spst).join(" ")));
    if (underAttack.has(k)) g.append(s("circle", { class: "ys-attack-dot", cx: x, cy: y, r: S * 0.55 }));
    if (preview.has(k)) g.append(s("circle", { class: "ys-preview-dot", cx: x, cy: y, r: S * 0.45 }));
    if (target) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      const act = () => (cmd ? send(cmd) : select({ kind: "place", cell: k }));
      g.addEventListener("click", act);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); } });
    }
    svg.append(g);
  }
  // miniatures
  view.players.forEach((p, seat) => {
    if (!p.pos || !(p.pos in cells)) return;
    const [x, y] = px(...parse(p.pos));
    const [dx, dy] = px(...DIRS[p.facing || 0]);
    const len = Math.hypot(dx, dy);
    const ux = dx / len, uy = dy / len;
    const r = S * 0.58;
    const nose = [[x + ux * (r + 9), y + uy * (r + 9)], [x + ux * (r - 3) - uy * 8, y + uy * (r - 3) + ux * 8], [x + ux * (r - 3) + uy * 8, y + uy * (r - 3) - ux * 8]];
    const m = masterInfo(p.master);
    svg.append(s("g", { class: `ys-mini seat-${seat}${p.dead ? " is-dead" : ""}`, "data-seat": seat, "data-facing": p.facing },
      s("polygon", { class: "nose", points: nose.map((pt) => pt.map((v) => v.toFixed(1)).join(",")).join(" ") }),
      s("circle", { class: "body", cx: x, cy: y, r }),
      s("text", { x, y: y + 3, "text-anchor": "middle" }, (m ? m.name : p.master || "?").slice(0, 3)),
      s("title", {}, `${seatName(doc, seat)}: ${m ? m.name : p.master}, facing ${FACING_NAMES[p.facing]}`)));
  });
  // facing arrows: attack (card chosen), end of a move, miniature placement
  let arrows = [];
  let centre = null;
  if (player && !ui.busy) {
    if (ui.sel && ui.sel.kind === "attack" && me && me.pos) {
      centre = me.pos;
      arrows = opts.facing.filter((c) => c.args.card === ui.sel.card && c.type === ui.sel.type);
    } else if (ui.sel && ui.sel.kind === "place") {
      centre = ui.sel.cell;
      arrows = opts.place.filter((c) => c.args.cell === ui.sel.cell);
    } else if (opts.endMove.length && me && me.pos) {
      centre = me.pos;
      arrows = opts.endMove;
    }
  }
  if (centre) {
    const [x, y] = px(...parse(centre));
    for (const cmd of arrows) {
      const f = cmd.args.facing;
      const [dx, dy] = px(...DIRS[f]);
      const len = Math.hypot(dx, dy);
      const ux = dx / len, uy = dy / len;
      const base = S * 0.95, tip = S * 1.55;
      const pts = [[x + ux * tip, y + uy * tip], [x + ux * base - uy * 7, y + uy * base + ux * 7], [x + ux * base + uy * 7, y + uy * base - ux * 7]];
      const g = s("g", { class: `ys-arrow${ui.hoverFacing === f ? " is-hover" : ""}`, role: "button", tabindex: "0", "data-facing": f, "data-cmd-type": cmd.type },
        s("polygon", { points: pts.map((pt) => pt.map((v) => v.toFixed(1)).join(",")).join(" ") }),
        s("title", {}, commandLabel(doc, cmd)));
      g.addEventListener("click", () => send(cmd));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); send(cmd); } });
      if (ui.sel && ui.sel.kind === "attack") {
        const hover = () => { if (ui.hoverFacing !== f) { ui.hoverFacing = f; render(...ui.last); } };
        g.addEventListener("mouseenter", hover);
        g.addEventListener("focus", hover);
      }
      svg.append(g);
    }
  }
  wrap.append(svg);
  return wrap;
}

function renderLegend() {
  return h("div", { class: "ys-legend", "aria-label": "Terrain" },
    TERRAINS.map((t) => h("span", { class: `t-${t}` }, titleCase(t))),
    h("span", { class: "muted", style: "border:0" }, "yellow outline = you can click · red = attack pattern"));
}

// -- players, hand -----------------------------------------------------------------------------

function renderPlayers({ doc, view }) {
  const awaited = new Set((doc.status && doc.status.awaiting) || []);
  const side = h("aside", { class: "ys-side" });
  view.players.forEach((p, seat) => {
    const m = masterInfo(p.master);
    const k = kamiInfo(p.kami);
    const statuses = Object.entries(p.st || {}).map(([name, owners]) => h("span", { class: "ys-st", title: `${name} (${Array.isArray(owners) ? owners.length : owners})` },
      Array.isArray(owners) && owners.length > 1 ? `${name} ×${owners.length}` : name));
    const karmaSum = (p.karma || []).reduce((n, c) => n + ((def(c.d) || {}).karma || 0), 0);
    const dest = view.destiny && view.destiny[String(seat)];
    side.append(h("div", { class: `ys-player seat-${seat}${awaited.has(seat) ? " is-awaited" : ""}`, dataset: { seat: String(seat) } },
      h("div", { class: "ys-pname" }, h("span", { class: "ys-swatch" }), seatName(doc, seat), awaited.has(seat) ? h("span", { class: "badge" }, "to play") : ""),
      h("div", {}, m ? m.name : "no master yet", k ? ` + ${k.name}` : "", p.restored ? " (restored)" : ""),
      h("div", { class: "ys-pstats" },
        h("span", { class: "ys-life", title: "life: cards in hand + deck", "data-testid": "yashima-life" }, `Life ${(p.hand_count || 0) + (p.deck_count || 0)}`),
        h("span", { title: "cards in hand" }, `Hand ${p.hand_count || 0}`),
        h("span", { title: "cards in the deck" }, `Deck ${p.deck_count || 0}`),
        h("span", { title: (p.discard || []).map((c) => defName(c.d)).join(", ") || "empty" }, `Discard ${(p.discard || []).length}`)),
      h("div", { class: "ys-pstats", title: (p.karma || []).map((c) => `${defName(c.d)} (${(def(c.d) || {}).karma ?? "?"})`).join(", ") || "empty" },
        `Karma pool: ${(p.karma || []).length} card${(p.karma || []).length === 1 ? "" : "s"}, total ${karmaSum}`),
      h("div", { class: "ys-pstats ys-tome" }, `Tome pages ${((p.tome || {}).pages || []).join(" and ") || "closed"}`, (p.equip || []).length ? ` · equipped: ${(p.equip || []).map((c) => defName(c.d)).join(", ")}` : ""),
      statuses.length ? h("div", { class: "ys-statuses" }, statuses) : "",
      p.pending ? h("div", { class: "ys-flag" }, "waiting to restore") : "",
      p.dead ? h("div", { class: "ys-flag" }, "killed") : "",
      view.phase === "destiny" && dest ? h("div", { class: "ys-flag" }, dest === "chosen" ? "destiny token chosen" : `your destiny token: ${dest}`) : ""));
  });
  return side;
}

function patternSvg(d) {
  const offs = patternOffsets(d);
  if (!offs.length) return "";
  const all = [[0, 0], ...offs];
  const pts = all.map(([q, r]) => px(q, r));
  const xs = pts.map((p) => p[0]), ys = pts.map((p) => p[1]);
  const pad = S;
  const svg = s("svg", { class: "ys-pat", width: 60, height: 52, viewBox: `${Math.min(...xs) - pad} ${Math.min(...ys) - pad} ${Math.max(...xs) - Math.min(...xs) + 2 * pad} ${Math.max(...ys) - Math.min(...ys) + 2 * pad}`, "aria-hidden": "true" });
  all.forEach(([q, r], i) => { const [x, y] = px(q, r); svg.append(s("polygon", { class: i === 0 ? "me" : "hit", points: hexPoints(x, y, S - 1) })); });
  return svg;
}

function renderHand(ctx) {
  const { doc, view, opts, select } = ctx;
  const me = view.players[doc.seat] || {};
  const hand = me.hand || [];
  const box = h("div", { class: "ys-section" }, h("h3", {}, `Your hand (${hand.length})`));
  const row = h("div", { class: "ys-cards", "data-testid": "yashima-hand" });
  const attackBy = new Map();
  for (const c of opts.facing) if (!attackBy.has(c.args.card)) attackBy.set(c.args.card, c.type);
  for (const c of hand) {
    const info = def(c.d) || {};
    const can = attackBy.has(c.id) && !ui.busy;
    const selected = ui.sel && ui.sel.kind === "attack" && ui.sel.card === c.id;
    const body = [
      h("span", { class: "nm" }, info.name || titleCase(c.d)),
      h("span", { class: "row" }, h("span", { title: "karma" }, `Karma ${info.karma ?? "?"}`), h("span", { title: "attack" }, `ATK ${info.atk ?? "?"}`)),
      patternSvg(c.d),
      h("span", { class: "fx" }, [titleCase(info.pattern || ""), ...(info.attack || []).map((x) => x.k), info.defense ? `defense: ${info.defense}` : ""].filter(Boolean).join(" · ")),
    ];
    const cls = `ys-card${can ? " is-playable" : ""}${selected ? " is-selected" : ""}`;
    row.append(can
      ? h("button", { type: "button", class: cls, dataset: { cardId: c.id, d: c.d }, onclick: () => select(selected ? null : { kind: "attack", card: c.id, d: c.d, type: attackBy.get(c.id) }) }, body)
      : h("div", { class: cls, dataset: { cardId: c.id, d: c.d } }, body));
  }
  if (!hand.length) row.append(h("p", { class: "muted" }, "No cards in hand."));
  box.append(row);
  // tome: the pages face up (the engine's view lists them: removed cards change what shows)
  const m = masterInfo(me.master);
  if (m) {
    const shown = (me.tome || {}).pages || [];
    const pages = [];
    (m.tome || []).forEach((t, i) => { for (const face of Object.values(t.faces || {})) if (shown.includes(face.page)) pages.push({ face, i }); });
    box.append(h("h3", {}, `Your tome (pages ${shown.join(" and ") || "none"})`),
      h("div", { class: "ys-cards" }, pages.length ? pages.map(({ face, i }) => h("div", { class: "ys-card small", dataset: { page: String(face.page) } },
        h("span", { class: "nm" }, `p.${face.page} ${face.name}`),
        h("span", { class: "row" }, `Cost ${face.cost}`, face.kind ? h("span", {}, face.kind) : ""),
        h("span", { class: "fx" }, (face.effects || []).map((e) => e.k).join(", ")))) : h("p", { class: "muted" }, "Avatar page.")));
    box.append(h("h3", {}, `Your karma pool (${(me.karma || []).length})`),
      h("div", { class: "ys-cards" }, (me.karma || []).map((c) => h("div", { class: "ys-card small" }, h("span", { class: "nm" }, defName(c.d)), h("span", { class: "row" }, `Karma ${(def(c.d) || {}).karma ?? "?"}`))),
        (me.karma || []).length ? "" : h("p", { class: "muted" }, "Empty.")));
  }
  return box;
}

registerBoard("yashima", { render, hidesCommands: true });

// For tests and debugging (read-only).
window.KamizaYashima = { ui, classify };
