// Yokai Battle board: the terrain grid, the monsters, my hand, chakra, and every legal command
// offered by clicking (hand card -> terrain -> orientation; my monster -> enemy; ability prompts).
//
// Everything the player can do comes from doc.legal_commands and nothing else: a click only
// ever sends one of those commands, unchanged. Commands the board cannot map to a click are
// still offered as plain buttons, so no position is unplayable. Spectators (doc.seat === null)
// see the board without controls. Numbers shown beside the commands (attack costs, summoned LP)
// are display hints computed from public card data; the server decides.
// The DOM is built with textContent only (never innerHTML with server strings).
// Rules help: every monster, ability, element, terrain, badge and stat explains itself on hover,
// focus or tap (help.js, from the content pack and the game's glossary); the players' stats and the
// legend's chips are no Tab stops of their own: one "Explain ..." button per group shows their texts
// as a list (explainer), so Tab goes from the grid to the hand in three presses. The last move by someone
// else (doc.last_move) is outlined on the grid. Escape cancels a selection.
// Keyboard and screen reader: every click is a button (Tab, Enter or Space); a square is named by what
// it shows (squareName) and a hand card by its face (handCardName); a redraw keeps the keyboard focus
// where it was, or moves it where the move goes on (keepFocus); the prompt is spoken (showBoard's live region).

import { entry, explain, help, helpText, loadGlossary, onEscape } from "./help.js";
import { ensureStylesheet as useStylesheet, fetchContent, h, registerBoard, showBoard } from "./registry.js";
import { PAUSED, isPaused, pausedWaitWords, seatLabel, toPlayBadge, waitingWords } from "../words.js";

const CSS_URL = new URL("../../css/boards/yokai.css", import.meta.url).href;
const ELEMENTS = ["fire", "water", "earth", "wood", "metal"];
const SIDES = ["top", "right", "bottom", "left"];
const DIRS = ["N", "E", "S", "W"];
// Which printed side of a card faces each board direction (games/engines/yokai/board.py FACING).
const FACING = {
  vertical: { N: "top", E: "right", S: "bottom", W: "left" },
  horizontal: { E: "top", S: "right", W: "bottom", N: "left" },
};
const ORIENTATION_LABEL = { vertical: "Upright", horizontal: "Turned ¼ right" };
// What the last move did to a square (doc.last_move events -> a short mark on the cell).
const LAST_MARK = { MonsterSummoned: "new", Fought: "fight", LifeChanged: "LP", LpTransferred: "LP", MonsterDied: "died" };
const LAST_TEXT = { new: "summoned here", fight: "a fight here", LP: "LP changed here", died: "a monster died here" };
const PENDING_TEXT = {
  summon_attack: "must attack an adjacent enemy (a free summoning attack): choose a red-outlined enemy on the grid.",
  fire_burn: "fire ability: choose a red-outlined enemy monster on the grid to lose 1 LP.",
  wood_drop: "wood ability: choose a red-outlined adjacent enemy monster whose LP drops to 1.",
  block_draw: "wood ability: choose with the buttons below an opposing player who cannot draw during their next turn.",
};

// -- module state (survives re-renders) ---------------------------------------------------------

const ui = {
  content: null, // the content pack once fetched
  contentPromise: null,
  last: null, // [container, doc, sendCommand] of the latest render, to redraw when content arrives
  sel: null, // {kind: "summon", card, terrain?} | {kind: "monster", pos} | {kind: "transfer", source, target}
  busy: false, // a command is in flight
  focusNext: null, // where a keyboard player's focus goes on the next render (a selector), see keepFocus
  explain: {}, // the groups whose help is shown as a list ("stats", "legend"), see explainer
};

function ensureStylesheet() {
  useStylesheet("yokai", CSS_URL);
}

function loadContent() {
  if (!ui.glossaryAsked) {
    ui.glossaryAsked = true;
    loadGlossary("yokai").then(() => { if (ui.last) render(...ui.last); }).catch(() => { ui.glossaryAsked = false; });
  }
  if (ui.contentPromise) return;
  ui.contentPromise = fetchContent("yokai")
    .then((pack) => {
      ui.content = pack;
      if (ui.last) render(...ui.last);
    })
    .catch(() => {
      ui.contentPromise = null; // try again on the next render
    });
}

// -- helpers -----------------------------------------------------------------------------------

function monsterInfo(key) {
  const list = (ui.content && ui.content.monsters) || [];
  return list.find((m) => m.key === key) || null;
}

function abilityInfo(key) {
  return (ui.content && ui.content.abilities && ui.content.abilities[key]) || null;
}

/** A monster's name with soft hyphens (U+00AD) between the syllables of its long words, so that a
 * narrow card breaks "Gashadokuro" as "Gasha-/dokuro", never mid-syllable ("Gashadok/uro"). The names
 * are romanized Japanese: a break goes after a vowel, before a consonant (or sh/ch/ts/..y) and a vowel,
 * between two different vowels, or after an "n" before a consonant; three letters stay on each side. */
const DIGRAPH = /^(sh|ch|ts|[kgnhbpmr]y)$/i;
export function syllableBreaks(name) {
  const vowel = (c) => /[aeiou]/i.test(c || "");
  return String(name).split(" ").map((word) => {
    if (word.length < 7 || /[^a-z]/i.test(word)) return word;
    let out = word.slice(0, 3);
    for (let i = 3; i < word.length; i++) {
      const prev = word[i - 1], cur = word[i];
      const onset = !vowel(cur) && (vowel(word[i + 1]) || (DIGRAPH.test(word.slice(i, i + 2)) && vowel(word[i + 2])));
      const breaks = i <= word.length - 3 && ((vowel(prev) && onset) || (vowel(prev) && vowel(cur) && prev !== cur)
        || (/n/i.test(prev) && vowel(word[i - 2]) && !vowel(cur)));
      out += (breaks ? "\u00ad" : "") + cur;
    }
    return out;
  }).join(" ");
}

/** A short form of a monster's name for the narrow squares of a 4-column board ("Gasha.", "Akuro.",
 * "Mikari."): its first word (before a space or a hyphen), whole up to 7 letters ("Onikuma"), else cut
 * after a syllable so it keeps at most 6, with a full stop when anything was left off. The full name is
 * in the card's title and in the square's help. */
export function shortName(name) {
  const full = String(name);
  const first = full.split(/[ -]/)[0];
  let short = first;
  if (first.length > 7) {
    const parts = syllableBreaks(first).split("\u00ad");
    short = parts[0];
    for (const part of parts.slice(1)) {
      if ((short + part).length > 6) break;
      short += part;
    }
    if (short.length > 6) short = short.slice(0, 5);
  }
  return short === full ? full : `${short}.`;
}

function cardName(key) {
  const info = monsterInfo(key);
  if (info) return info.name;
  return String(key || "?").replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

function abilityName(key) {
  const info = abilityInfo(key);
  return (info && info.name) || String(key || "").replace(/_/g, " ");
}

/** A monster's full text for a tooltip: element, cost, LP, APs, ability (from the content pack). */
function monsterHelp(key) {
  const info = monsterInfo(key);
  if (!info) return "";
  const ab = abilityInfo(info.ability);
  const el = entry(`element:${info.element}`);
  return [
    `${info.element[0].toUpperCase()}${info.element.slice(1)} monster · cost ${info.cost} CP · ${info.lp} LP · APs top ${info.attack.top}, right ${info.attack.right}, bottom ${info.attack.bottom}, left ${info.attack.left}`,
    ab ? `${ab.name}: ${ab.text}` : "",
    el ? el.short : "",
    info.element === "colorless" ? "" : `Its ability works only on ${info.element} terrain.`,
  ].filter(Boolean).join("\n");
}

/** The squares the last move by someone else touched: pos -> short label. */
function lastMoveCells(doc) {
  const out = new Map();
  for (const ev of ((doc.last_move || {}).events) || []) {
    const p = ev.payload || {};
    const mark = LAST_MARK[ev.type];
    if (!mark) continue;
    for (const pos of [p.at, p.attacker, p.defender, p.from, p.to]) if (typeof pos === "string" && !out.has(pos)) out.set(pos, mark);
  }
  return out;
}

function seatName(doc, seat) {
  const s = doc.match && doc.match.seats && doc.match.seats[seat];
  const name = s ? seatLabel(s) : `Seat ${Number(seat) + 1}`;
  return seat === doc.seat ? `${name} (you)` : name;
}

function teamOf(view, seat) {
  return view.teams ? seat % 2 : seat;
}

function teamLabel(view, seat) {
  if (!view.teams) return "";
  return seat % 2 === 0 ? "Team A" : "Team B";
}

function teamMembers(view, seat) {
  return Array.from({ length: view.seats }, (_, i) => i).filter((i) => teamOf(view, i) === teamOf(view, seat));
}

/** The attack value a monster shows towards board direction `dir` (doubled if so). */
function apToward(monster, dir) {
  const info = monsterInfo(monster.card);
  if (!info) return null;
  const side = FACING[monster.orientation] ? FACING[monster.orientation][dir] : FACING.vertical[dir];
  const ap = info.attack[side];
  return monster.doubled ? ap * 2 : ap;
}

function parsePos(pos) {
  const [r, c] = String(pos).split(",").map(Number);
  return { r, c };
}

function dirBetween(a, b) {
  const p = parsePos(a);
  const q = parsePos(b);
  if (q.r === p.r - 1 && q.c === p.c) return "N";
  if (q.r === p.r + 1 && q.c === p.c) return "S";
  if (q.r === p.r && q.c === p.c + 1) return "E";
  if (q.r === p.r && q.c === p.c - 1) return "W";
  return null;
}

function summonedLpHint(view, key, pos) {
  const info = monsterInfo(key);
  if (!info) return null;
  if (info.element === "colorless") return info.lp;
  const mod = view.seats === 2 ? 1 : 2;
  const lp = view.terrain[pos] === info.element ? info.lp + mod : info.lp - mod;
  return Math.max(1, Math.min(10, lp));
}

// -- the legal commands, sorted by what the board can click --------------------------------------

function classify(doc) {
  const view = doc.view;
  const legal = doc.legal_commands || [];
  const hand = new Map(((view.players[doc.seat] || {}).hand || []).map((c) => [c.id, c]));
  const onBoard = (pos) => typeof pos === "string" && Object.prototype.hasOwnProperty.call(view.terrain, pos);
  const out = { summons: [], attacks: [], transfers: [], targets: [], seatTargets: [], endTurn: null, other: [] };
  for (const cmd of legal) {
    const a = cmd.args || {};
    if (cmd.type === "summon" && hand.has(a.card) && onBoard(a.terrain) && FACING[a.orientation]) out.summons.push(cmd);
    else if (cmd.type === "attack" && view.monsters[a.attacker] && view.monsters[a.defender]) out.attacks.push(cmd);
    else if (cmd.type === "transfer_lp" && view.monsters[a.source] && view.monsters[a.target] && Number.isInteger(a.amount)) out.transfers.push(cmd);
    else if (cmd.type === "choose_target" && typeof a.target === "string" && view.monsters[a.target]) out.targets.push(cmd);
    else if (cmd.type === "choose_target" && Number.isInteger(a.target)) out.seatTargets.push(cmd);
    else if (cmd.type === "end_turn" && Object.keys(a).length === 0) out.endTurn = cmd;
    else out.other.push(cmd);
  }
  return out;
}

/** Drop a selection that no longer leads to a legal command (the state moved on). */
function validateSelection(opts) {
  const s = ui.sel;
  if (!s) return;
  let ok = false;
  if (s.kind === "summon") ok = opts.summons.some((c) => c.args.card === s.card && (!s.terrain || c.args.terrain === s.terrain));
  else if (s.kind === "monster") ok = opts.attacks.some((c) => c.args.attacker === s.pos) || opts.transfers.some((c) => c.args.source === s.pos);
  else if (s.kind === "transfer") ok = opts.transfers.some((c) => c.args.source === s.source && c.args.target === s.target);
  if (!ok) ui.sel = null;
}

// -- rendering ---------------------------------------------------------------------------------

function render(container, doc, sendCommand) {
  ui.last = [container, doc, sendCommand];
  ensureStylesheet();
  loadContent();
  const view = doc.view;
  if (!view || !view.terrain) {
    container.replaceChildren(
      h("p", { class: "muted", dataset: { testid: "waiting" } }, waitingWords(doc)),
    );
    return;
  }
  const player = doc.seat !== null && doc.seat !== undefined;
  const opts = player ? classify(doc) : classify({ ...doc, legal_commands: [] });
  validateSelection(opts);

  const send = (cmd) => {
    if (ui.busy) return;
    ui.busy = true;
    ui.sel = null;
    ui.focusNext = commandSquare(cmd) ? `.yk-cell[data-pos="${commandSquare(cmd)}"]` : null;
    render(...ui.last);
    sendCommand(cmd.type, cmd.args || {})
      .catch(() => {
        /* the match page shows the refusal under the board */
      })
      .finally(() => {
        ui.busy = false;
        render(...ui.last);
      });
  };
  // focusNext: where a keyboard player goes next (the lit squares after a hand card, the orientations...)
  const select = (sel, focusNext = null) => { ui.sel = sel; ui.focusNext = focusNext; render(...ui.last); };
  const ctx = { doc, view, opts, send, player, select };
  onEscape("yokai", () => {
    if (!ui.sel) return false;
    ui.sel = null;
    render(...ui.last);
    return true;
  });

  const root = h("div", { class: "yk", dataset: { seat: player ? String(doc.seat) : "spectator" } });
  root.append(renderBanner(ctx));
  root.append(renderTopBar(ctx));
  root.append(renderPrompt(ctx));
  root.append(h("div", { class: "yk-main" }, renderGrid(ctx), renderPlayers(ctx)));
  root.append(renderLegend());
  if (player) root.append(renderHand(ctx));
  else if (doc.open) view.players.forEach((p, i) => root.append(renderHand(ctx, i))); // staff review: all hands open
  else root.append(h("p", { class: "muted yk-spectating" }, "You are watching this match: hands stay hidden."));
  if (player && opts.other.length) root.append(renderOther(ctx));
  const focus = keepFocus(container);
  const said = root.querySelector(".yk-banner") || root.querySelector(".yk-prompt p");
  showBoard(container, root, said ? said.textContent : "", "yokai-said");
  if (focus) focus(root);
}

// -- the keyboard focus across redraws -----------------------------------------------------------
// Every render replaces the board's nodes (a live update, a selection): a keyboard player's focus
// would fall back to the top of the page. It is put back on the same square, card or button, or on
// where the move leads (ui.focusNext); a mouse player's focus (not :focus-visible) is left alone.

const FOCUS_KEYS = ["pos", "cardId", "orientation", "action", "amount", "targetSeat"];

/** The square a command acts on, where the focus goes once it is sent. */
function commandSquare(cmd) {
  const a = cmd.args || {};
  const pos = { summon: a.terrain, attack: a.defender, choose_target: a.target, transfer_lp: a.target }[cmd.type];
  return typeof pos === "string" ? pos : null;
}

/** Before a redraw: a function that puts the keyboard focus back into the new board (or null). */
function keepFocus(container) {
  const next = ui.focusNext;
  ui.focusNext = null;
  const active = document.activeElement;
  if (!active || !container.contains(active) || !active.matches(":focus-visible")) return null;
  const key = FOCUS_KEYS.find((k) => active.dataset[k] !== undefined);
  const words = (n) => n.dataset.help || n.textContent;
  const same = key
    ? (root) => [...root.querySelectorAll(`[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`)].find((n) => n.dataset[key] === active.dataset[key])
    : (root) => [...root.querySelectorAll(active.tagName)].find((n) => words(n) === words(active));
  // a stat whose words changed ("CP 10" -> "CP 8"): the control at the same place in the Tab order
  const place = tabStops(container).indexOf(active);
  return (root) => {
    const onward = next && root.querySelector(next);
    const target = onward || same(root) || (!key && tabStops(root)[place]) || root.querySelector("[data-focus-fallback]");
    // the page stays where the player scrolled it, unless the focus moves on to the move's next step
    if (target) target.focus({ focusVisible: true, preventScroll: !onward });
  };
}

function tabStops(root) {
  return [...root.querySelectorAll("button, [tabindex]")].filter((n) => n.tabIndex >= 0 && !n.disabled);
}

/** Why the game ended, in a sentence under "Game over" ("" for a reason the board does not know). */
export function howItEnded(doc, result, winners) {
  if (doc.match && Number.isInteger(doc.match.resigned)) return `${seatName(doc, doc.match.resigned)} resigned.`;
  if (result.reason === "last_standing") return "Every other player resigned and left the game.";
  if (result.reason === "conquest") return `${seatName(doc, result.seat)} conquered 5 terrain cards.`;
  if (result.reason === "deck_out") return `${seatName(doc, result.loser)} had to draw from an empty deck.`;
  if (result.reason === "time_limit") {
    return winners.length
      ? "The round's time ran out: the side with the most monsters on the board (then the most LP on them) wins."
      : "The round's time ran out with every side level in monsters on the board and their LP: a draw.";
  }
  return "";
}

function renderBanner({ doc, view }) {
  const st = doc.status || {};
  if (!st.finished) return "";
  const winners = st.winners || [];
  const names = winners.map((s) => seatName(doc, s)).join(" and ");
  const how = howItEnded(doc, view.result || {}, winners);
  const won = doc.seat !== null && doc.seat !== undefined && winners.includes(doc.seat);
  const team = view.teams && winners.length ? `${teamLabel(view, winners[0])} wins: ` : "";
  return h(
    "div",
    { class: `yk-banner${won ? " is-win" : ""}`, "data-testid": "yokai-banner", tabindex: "-1", "data-focus-fallback": "" },
    h("strong", {}, "Game over. "),
    winners.length ? `${team}${names} win${winners.length === 1 ? "s" : ""}!` : "No winner.",
    how ? h("span", { class: "yk-banner-how" }, ` ${how}`) : "",
  );
}

/** The top bar's first words: whose turn it is, or why nobody moves now. */
export function turnWords(doc, view, player) {
  if ((doc.status || {}).finished) return "Final position";
  if (isPaused(doc)) return PAUSED.header;
  return player && view.turn === doc.seat ? "Your turn" : `${seatName(doc, view.turn)}'s turn`;
}

/** The prompt's line while the organizer holds the match: who plays once the round resumes. */
export function pausedPrompt(doc, player) {
  const awaited = ((doc.status || {}).awaiting || [])[0];
  return pausedWaitWords(Boolean(player) && awaited === doc.seat, awaited === undefined ? [] : [seatName(doc, awaited)]);
}

function renderTopBar({ doc, view, opts, send, player }) {
  const st = doc.status || {};
  const turnSeat = view.turn;
  const mine = player && turnSeat === doc.seat;
  const bar = h("div", { class: "yk-top" });
  const turn = h(
    "div",
    { class: "yk-turn" },
    h("span", { class: `yk-swatch seat-${turnSeat}` }),
    turnWords(doc, view, player),
    view.teams && !st.finished ? h("span", { class: "yk-team" }, ` (${teamLabel(view, turnSeat)})`) : "",
  );
  bar.append(turn);
  bar.append(h("div", { class: "yk-stat" }, h("span", { class: "yk-stat-label" }, "Round"), String(view.round)));
  // the chakra of the player whose turn it is (mine on my turn, theirs on theirs)
  const active = Number.isInteger(turnSeat) && !st.finished ? turnSeat : null;
  if (active !== null) {
    const cp = view.chakra[active];
    const pips = h("span", { class: "yk-pips", "aria-hidden": "true" });
    for (let i = 0; i < view.meter; i++) pips.append(h("span", { class: i < cp ? "pip on" : "pip" }));
    bar.append(help(
      h("div", { class: "yk-stat yk-chakra", "data-testid": "yokai-chakra", dataset: { seat: String(active) } },
        h("span", { class: "yk-stat-label" }, mine ? "Your chakra" : `${seatName(doc, active)}'s chakra`), `${cp} / ${view.meter}`, pips),
      `${cp} chakra points left of this round's ${view.meter}.\n${helpText("concept:CP")}`));
  } else {
    bar.append(help(h("div", { class: "yk-stat" }, h("span", { class: "yk-stat-label" }, "Chakra meter"), String(view.meter)), helpText("concept:METER")));
  }
  const left = Math.max(0, 2 - view.summons);
  bar.append(help(h("div", { class: "yk-stat" },
    h("span", { class: "yk-stat-label" }, "Summons left"), st.finished ? "–" : String(left)), `Monsters that may still be summoned this combat phase (at most 2).\n${helpText("concept:SUMMON")}`));
  if (player && opts.endTurn) {
    bar.append(
      h("button", { type: "button", class: "primary yk-end", disabled: ui.busy, "data-action": "end-turn", onclick: () => send(opts.endTurn) }, "End turn"),
    );
  }
  return bar;
}

function renderPrompt(ctx) {
  const { doc, view, opts, send, player, select } = ctx;
  // its words are spoken by the board's live region (registry.showBoard), which outlives the redraws
  const box = h("div", { class: "yk-prompt", "data-testid": "yokai-prompt", tabindex: "-1", "data-focus-fallback": "" });
  const st = doc.status || {};
  if (st.finished) return "";
  if (isPaused(doc)) {
    box.append(h("p", { class: "muted" }, pausedPrompt(doc, player)));
    return box;
  }
  const pending = (view.pending || [])[0];
  const awaited = (st.awaiting || [])[0];
  if (!player || awaited !== doc.seat) {
    let text = `Waiting for ${seatName(doc, awaited)}`;
    if (pending && PENDING_TEXT[pending.kind]) text += ` to choose a target (${pending.kind === "summon_attack" ? "summoning attack" : cardName(pending.source)}).`;
    else text += " to play.";
    box.append(h("p", { class: "muted" }, text));
    return box;
  }
  if (pending && PENDING_TEXT[pending.kind]) {
    const origin = pending.kind === "summon_attack"
      ? Object.entries(view.monsters).find(([, m]) => m.uid === pending.uid)
      : null;
    const who = origin ? cardName(origin[1].card) : cardName(pending.source);
    box.append(h("p", { class: "yk-ask" }, h("strong", {}, `${who}: `), PENDING_TEXT[pending.kind]));
    if (opts.seatTargets.length) {
      box.append(
        h("div", { class: "yk-choices" },
          opts.seatTargets.map((cmd) =>
            h("button", { type: "button", class: "primary", disabled: ui.busy, "data-target-seat": String(cmd.args.target), onclick: () => send(cmd) },
              h("span", { class: `yk-swatch seat-${cmd.args.target}` }), seatName(doc, cmd.args.target)),
          )),
      );
    }
    return box;
  }
  const s = ui.sel;
  const cancel = h("button", { type: "button", class: "link-button", "data-action": "cancel", onclick: () => select(null) }, "Cancel");
  if (s && s.kind === "summon" && s.terrain) {
    const info = monsterInfo(handCard(view, doc.seat, s.card).card);
    const choices = distinctOrientations(opts.summons.filter((c) => c.args.card === s.card && c.args.terrain === s.terrain), info && info.attack);
    box.append(h("p", { class: "yk-ask" }, `Summon ${info ? info.name : "the card"} on ${s.terrain}: ${choices.length > 1 ? "choose its orientation." : "it has the same attack values whichever way it is turned."}`));
    box.append(
      h("div", { class: "yk-choices" },
        choices.map((cmd) => orientationButton(cmd, handCard(view, doc.seat, s.card).card, view, send)), cancel),
    );
  } else if (s && s.kind === "summon") {
    box.append(h("p", { class: "yk-ask" }, `Summon ${cardName(handCard(view, doc.seat, s.card).card)}: choose a highlighted terrain.`, " "), cancel);
  } else if (s && s.kind === "transfer") {
    const cmds = opts.transfers.filter((c) => c.args.source === s.source && c.args.target === s.target);
    box.append(h("p", { class: "yk-ask" }, `Transfer LP from ${cardName(view.monsters[s.source].card)} (${s.source}) to ${cardName(view.monsters[s.target].card)} (${s.target}): how many?`));
    box.append(
      h("div", { class: "yk-choices" },
        cmds.map((cmd) =>
          h("button", { type: "button", disabled: ui.busy, "data-amount": String(cmd.args.amount), onclick: () => send(cmd) }, `${cmd.args.amount} LP`)),
        cancel),
    );
  } else if (s && s.kind === "monster") {
    const m = view.monsters[s.pos];
    const parts = [];
    if (opts.attacks.some((c) => c.args.attacker === s.pos)) parts.push("choose a highlighted enemy to attack it (the cost is shown on it)");
    if (opts.transfers.some((c) => c.args.source === s.pos)) parts.push("choose a highlighted ally to transfer LP to it");
    box.append(h("p", { class: "yk-ask" }, `${cardName(m.card)}: ${parts.join("; or ")}. `, cancel));
  } else {
    const hints = [];
    if (opts.summons.length) hints.push("choose a glowing hand card to summon it");
    if (opts.attacks.length || opts.transfers.length) hints.push("choose one of your glowing monsters to attack or use its ability");
    let text;
    if (hints.length) text = `Your move: ${hints.join(", or ")}${opts.endTurn ? ", or end your turn (End turn, above)" : ""}.`;
    else if (opts.endTurn) text = "Nothing more to play this turn (no summon or attack you can pay for): press End turn (above).";
    else text = "Your move.";
    box.append(h("p", { class: "yk-ask" }, text));
  }
  return box;
}

function handCard(view, seat, id) {
  return ((view.players[seat] || {}).hand || []).find((c) => c.id === id) || { id, card: "" };
}

/** The summon commands worth a button each (``attack``: the card's printed attack values by side): when
 * two orientations give the same attack value on every side (a symmetric monster such as Gaki), only
 * the first. The engine reads a monster's orientation for its attack values only (rules.side_ap), so
 * such options are the same move. */
export function distinctOrientations(cmds, attack) {
  if (!attack) return cmds;
  const seen = new Set();
  return cmds.filter((cmd) => {
    const facing = FACING[(cmd.args || {}).orientation];
    if (!facing) return true;
    const values = DIRS.map((d) => attack[facing[d]]).join(",");
    if (seen.has(values)) return false;
    seen.add(values);
    return true;
  });
}

function orientationButton(cmd, key, view, send) {
  const probe = { card: key, orientation: cmd.args.orientation, doubled: false };
  const mini = h("span", { class: "yk-mini", "aria-hidden": "true" });
  for (const d of DIRS) mini.append(h("span", { class: `ap ap-${d}` }, String(apToward(probe, d) ?? "?")));
  mini.append(h("span", { class: "yk-mini-core" }, cmd.args.orientation === "vertical" ? "▲" : "▶"));
  const facing = DIRS.map((d) => `${d} ${apToward(probe, d) ?? "?"}`).join(", ");
  return h(
    "button",
    { type: "button", class: "yk-orient has-help", disabled: ui.busy, "data-orientation": cmd.args.orientation, "data-help": `Summon it ${cmd.args.orientation === "vertical" ? "upright" : "turned a quarter right"}: attack values facing ${facing}.`, onclick: () => send(cmd) },
    mini,
    h("span", {}, ORIENTATION_LABEL[cmd.args.orientation] || cmd.args.orientation, h("small", { class: "muted" }, ` (${facing})`)),
  );
}

function renderGrid(ctx) {
  const { doc, view, opts, send, player, select } = ctx;
  const s = ui.sel;
  const pending = (view.pending || [])[0];
  // What each square does when clicked now.
  const action = new Map(); // pos -> {label, run}
  if (player && !ui.busy) {
    if (pending && pending.kind === "summon_attack") {
      for (const cmd of opts.attacks) action.set(cmd.args.defender, { label: "⚔ free", kind: "attack", says: "attack it: the free summoning attack", run: () => send(cmd) });
    } else if (opts.targets.length) {
      const drop = pending && pending.kind === "wood_drop";
      for (const cmd of opts.targets) action.set(cmd.args.target, { label: drop ? "LP→1" : "−1 LP", kind: "target", says: drop ? "choose it: its LP drops to 1" : "choose it: it loses 1 LP", run: () => send(cmd) });
    } else if (s && s.kind === "summon" && !s.terrain) {
      for (const cmd of opts.summons) {
        if (cmd.args.card !== s.card || action.has(cmd.args.terrain)) continue;
        const key = handCard(view, doc.seat, s.card).card;
        const lp = summonedLpHint(view, key, cmd.args.terrain);
        action.set(cmd.args.terrain, { label: lp === null ? "summon" : `summon · ♥ ${lp}`, kind: "summon",
          says: `summon ${cardName(key)} here${lp === null ? "" : `, with ${lp} LP`}`,
          run: () => select({ ...s, terrain: cmd.args.terrain }, ".yk-orient") });
      }
    } else if (s && s.kind === "monster") {
      for (const cmd of opts.attacks.filter((c) => c.args.attacker === s.pos)) {
        const way = dirBetween(s.pos, cmd.args.defender);
        const cost = way ? apToward(view.monsters[s.pos], way) : null;
        action.set(cmd.args.defender, { label: cost === null ? "⚔" : `⚔ ${cost} CP`, kind: "attack", says: cost === null ? "attack it" : `attack it for ${cost} chakra`, run: () => send(cmd) });
      }
      for (const cmd of opts.transfers.filter((c) => c.args.source === s.pos)) {
        if (!action.has(cmd.args.target)) {
          action.set(cmd.args.target, { label: "give ♥", kind: "transfer", says: `give it LP from ${cardName(view.monsters[s.pos].card)} (${s.pos})`,
            run: () => select({ kind: "transfer", source: s.pos, target: cmd.args.target }, "[data-amount]") });
        }
      }
    }
    if (!pending && !(s && (s.kind === "summon" || s.kind === "transfer"))) {
      // my monsters that can act: click to select them (again to deselect)
      for (const pos of Object.keys(view.monsters)) {
        if (action.has(pos)) continue;
        if (opts.attacks.some((c) => c.args.attacker === pos) || opts.transfers.some((c) => c.args.source === pos)) {
          const selected = s && s.kind === "monster" && s.pos === pos;
          action.set(pos, { label: selected ? "chosen" : "act", kind: "actor", selected,
            says: selected ? "put it back (it is chosen to act)" : "choose it to attack or use its ability", run: () => select(selected ? null : { kind: "monster", pos }) });
        }
      }
    }
  }
  const wide = Math.max(...view.rows) > 3;
  const last = lastMoveCells(doc);
  // a group of squares, not an ARIA grid: a square is a button when it does something (Tab, Enter),
  // else a picture named by what it shows (still focusable, for its rules help)
  const grid = h("div", { class: `yk-grid${wide ? " is-wide" : ""}`, role: "group", "aria-label": "The Kekkai (terrain grid)" });
  grid.style.setProperty("--cols", String(Math.max(...view.rows)));
  view.rows.forEach((len, r) => {
    const row = h("div", { class: "yk-row" });
    for (let c = 0; c < len; c++) {
      const pos = `${r},${c}`;
      const element = view.terrain[pos];
      const m = view.monsters[pos];
      const act = action.get(pos);
      const chosen = s && s.kind === "summon" && s.terrain === pos;
      const cls = ["yk-cell", `el-${element}`];
      if (last.has(pos)) cls.push("is-last");
      if (act) cls.push("is-target", `act-${act.kind}`);
      if (act && act.selected) cls.push("is-selected");
      if (chosen || (s && s.kind === "transfer" && (s.source === pos || s.target === pos))) cls.push("is-selected");
      const cell = h(
        act ? "button" : "div",
        { class: cls.join(" "), type: act ? "button" : undefined, role: act ? undefined : "img", dataset: { pos, element }, onclick: act ? act.run : undefined,
          "aria-pressed": act && act.kind === "actor" ? String(Boolean(act.selected)) : undefined,
          "aria-label": squareName(doc, view, pos, act, last.get(pos)) },
        h("span", { class: "yk-terrain" }, h("span", { class: "yk-tword" }, element), h("span", { class: "yk-pos" }, pos)),
        m ? renderMonster(doc, view, m, pos) : "",
        last.has(pos) && !act ? h("span", { class: "yk-last", "aria-hidden": "true" }, last.get(pos)) : "",
        act ? h("span", { class: "yk-action", title: act.label }, act.label) : "",
      );
      const terrainText = `${element[0].toUpperCase()}${element.slice(1)} terrain (${pos}): favourable for ${element} monsters.\n${explain("concept:FAVOURABLE")}`;
      const monsterText = m ? `${cardName(m.card)} (${seatName(doc, m.owner)}): ${m.lp} LP, ${m.orientation === "horizontal" ? "turned a quarter" : "upright"}${m.stealth ? ", stealth" : ""}${m.doubled ? ", APs doubled" : ""}.\n${monsterHelp(m.card)}` : "";
      help(cell, [act ? `Choose it: ${act.label}` : "", monsterText, terrainText, last.has(pos) ? `Last move: ${LAST_TEXT[last.get(pos)]}.` : ""].filter(Boolean).join("\n\n"),
        m ? cardName(m.card) : `${element} terrain`);
      row.append(cell);
    }
    grid.append(row);
  });
  return grid;
}

/** What a sighted player sees on a square, in words: its position and terrain, the monster on it (its
 * owner, LP, marks and attack values), the last move's mark, and what pressing it does now. */
export function squareName(doc, view, pos, act, lastMark) {
  const element = view.terrain[pos];
  const m = view.monsters[pos];
  const parts = [`${pos}, ${element} terrain: ${m ? monsterWords(doc, view, m, pos) : "empty"}.`];
  if (lastMark) parts.push(`Last move: ${LAST_TEXT[lastMark]}.`);
  if (act) parts.push(`Press to ${act.says}.`);
  return parts.join(" ");
}

function monsterWords(doc, view, m, pos) {
  const info = monsterInfo(m.card);
  const owner = m.owner === doc.seat ? "yours" : `${seatName(doc, m.owner)}'s${view.teams ? ` (${teamLabel(view, m.owner)})` : ""}`;
  const words = [cardName(m.card), owner, `${m.lp} LP`];
  if (info && (info.element === "colorless" || info.element === view.terrain[pos])) words.push("on favourable terrain");
  if (m.doubled) words.push("attack values doubled");
  if (m.orientation === "horizontal") words.push("turned a quarter right");
  if (m.stealth) words.push("stealth");
  if (info) words.push(`attack values ${DIRS.map((d) => `${d} ${apToward(m, d)}`).join(", ")}`);
  return words.join(", ");
}

function renderMonster(doc, view, m, pos) {
  const info = monsterInfo(m.card);
  const favourable = info && (info.element === "colorless" || info.element === view.terrain[pos]);
  const card = h("div", {
    class: `yk-monster seat-${m.owner}${m.owner === doc.seat ? " is-mine" : ""}${info ? ` el-${info.element}` : ""}`,
    dataset: { owner: String(m.owner), card: m.card },
  });
  for (const d of DIRS) card.append(h("span", { class: `ap ap-${d}`, "aria-label": `attack value facing ${d}` }, String(apToward(m, d) ?? "?")));
  const badges = [];
  // the one-glyph marks first, on the LP's line; the word "stealth" last, on a line of its own if need be
  if (favourable) badges.push(h("span", { class: "yk-badge yk-fav", "aria-label": "on favourable terrain" }, "★"));
  if (m.doubled) badges.push(h("span", { class: "yk-badge", "aria-label": "attack values doubled" }, "×2"));
  if (m.orientation === "horizontal") badges.push(h("span", { class: "yk-badge", "aria-label": "turned a quarter right" }, "↻"));
  // on a narrow square the word becomes a glyph (CSS), named by its title
  if (m.stealth) badges.push(h("span", { class: "yk-badge yk-stealth", title: "stealth" }, "stealth"));
  card.append(
    h("span", { class: "yk-mname yk-mfull", title: cardName(m.card) }, syllableBreaks(cardName(m.card))),
    // a narrow square of a 4-column board shows this short form instead (CSS), the full name in its title
    h("span", { class: "yk-mname yk-mshort", title: cardName(m.card) }, shortName(cardName(m.card))),
    h("span", { class: "yk-owner" }, seatName(doc, m.owner).replace(" (you)", "")),
    h("span", { class: "yk-mfoot" }, h("span", { class: "yk-lp", "aria-label": `${m.lp} life points` }, `♥ ${m.lp}`), badges),
  );
  return card;
}

function renderPlayers({ doc, view }) {
  const st = doc.status || {};
  const awaited = new Set(st.awaiting || []);
  const list = h("ol", { class: "yk-players", start: "0", "aria-label": "Players" });
  const left = new Set(view.out || []); // players who resigned: their monsters left the board with them
  let noDraw = false;
  view.players.forEach((p, seat) => {
    const onBoard = Object.values(view.monsters).filter((m) => m.owner === seat).length;
    const flagged = !left.has(seat) && p.no_draw;
    if (flagged) noDraw = true;
    // each stat explains itself on hover and tap, not as a Tab stop of its own: the keyboard reads
    // them all behind the one "Explain the stats" button under the list (explainer)
    const stats = STATS.map((stat) => help(h("span", {}, stat.shows(p, view.chakra[seat], onBoard)), stat.help(p), null, false));
    list.append(
      h("li", { class: `yk-player${awaited.has(seat) ? " is-awaited" : ""}${seat === doc.seat ? " is-me" : ""}${left.has(seat) ? " is-out" : ""}`, dataset: { seat: String(seat) } },
        // the "to play" badge keeps to the first line, at its end: the name and team wrap beside it
        h("div", { class: "yk-pname" }, h("span", { class: `yk-swatch seat-${seat}` }),
          h("span", { class: "yk-pwho" }, h("span", { class: "yk-pn" }, seatName(doc, seat)),
            view.teams ? h("span", { class: "yk-team" }, ` · ${teamLabel(view, seat)}`) : ""),
          awaited.has(seat) ? h("span", { class: "badge" }, toPlayBadge(doc)) : ""),
        h("div", { class: "yk-pstats" }, stats),
        left.has(seat) ? h("div", { class: "yk-flag" }, "resigned: out of the game") : "",
        flagged ? help(h("div", { class: "yk-flag" }, p.no_draw === "next" ? "cannot draw next turn" : "cannot draw this turn"), helpText("concept:NO_DRAW"), null, false) : "",
      ),
    );
  });
  const discards = view.players.map((p, seat) => `${seatName(doc, seat)}: ${(p.discard || []).map(cardName).join(", ") || "none yet"}`).join("; ");
  const items = STATS.map((stat) => [stat.label, stat.key === "discard" ? `Dead monsters. ${discards}.` : stat.help({})]);
  if (noDraw) items.push(["cannot draw", helpText("concept:NO_DRAW")]);
  return h("aside", { class: "yk-side" }, list, explainer("stats", "Explain the stats", items));
}

// A player's stats: the words shown and their help (the same text in the hover tooltip and in the
// "Explain the stats" panel; the discard's help names that player's dead monsters).
const STATS = [
  { key: "hand", label: "Hand", shows: (p) => `Hand ${p.hand_count}`, help: () => `Cards in hand.\n${helpText("concept:DRAW")}` },
  { key: "deck", label: "Deck", shows: (p) => `Deck ${p.deck_count}`, help: () => `Cards left in the deck.\n${helpText("concept:DECK_OUT")}` },
  { key: "discard", label: "Discard", shows: (p) => `Discard ${(p.discard || []).length}`, help: (p) => `Dead monsters: ${(p.discard || []).map(cardName).join(", ") || "none yet"}.` },
  { key: "cp", label: "CP", shows: (p, cp) => `CP ${cp}`, help: () => `Chakra points left this round.\n${helpText("concept:CP")}` },
  { key: "board", label: "Board n/5", shows: (p, cp, n) => `Board ${n}/5`, help: () => `Own monsters on the board.\n${helpText("concept:CONQUEST")}` },
];

const MARKS = "★ = monster on favourable terrain · ↻ = turned · ◐ = stealth (on small squares) · numbers on a card's edges = attack values facing that way";

function renderLegend() {
  const marksHelp = [helpText("concept:FAVOURABLE"), helpText("concept:AP")].filter(Boolean).join("\n\n");
  return h(
    "div",
    { class: "yk-legend", role: "group", "aria-label": "Terrain elements" },
    // hover and tap show each chip's help; the keyboard gets them all from "Explain the colours"
    ELEMENTS.map((e) => help(h("span", { class: `yk-legend-item el-${e}` }, e), helpText(`element:${e}`), null, false)),
    help(h("span", { class: "muted small" }, MARKS), marksHelp, null, false),
    explainer("legend", "Explain the colours and marks", [
      // the term is the list's own label: its text without the tooltip's "Fire: " in front
      ...ELEMENTS.map((e) => [`${e[0].toUpperCase()}${e.slice(1)}`, helpText(`element:${e}`).replace(/^[^:]*: /, "")]),
      ["★ ↻ ◐ and the edge numbers", marksHelp],
    ]),
  );
}

// -- the help of a group of stats or chips: one disclosure button (WAI-ARIA APG "Disclosure") ---
// The items of a group explain themselves on hover and tap (help.js tooltips) but are no Tab stops
// of their own: a keyboard player would press Tab some 30 times from the grid to the hand. The
// group's one button shows (aria-expanded) or hides the same texts as a visible list under it; it
// stays open across redraws (ui.explain), and keepFocus finds it again by its data-action.

const panelIds = new WeakMap(); // a board's container -> its number (ids stay unique per page)
let boards = 0;

function explainer(group, label, items) {
  const open = Boolean(ui.explain[group]);
  const container = ui.last && ui.last[0];
  if (container && !panelIds.has(container)) panelIds.set(container, ++boards);
  const id = `yk-explain-${group}-${container ? panelIds.get(container) : 0}`;
  const panel = h("dl", { class: "yk-explain", id, hidden: !open },
    items.filter(([, text]) => text).map(([term, text]) => h("div", {}, h("dt", {}, term), h("dd", {}, text))));
  const button = h("button", {
    type: "button", class: "link-button yk-explain-toggle", "data-action": `explain-${group}`, "aria-expanded": String(open), "aria-controls": id,
    onclick: () => {
      ui.explain[group] = !ui.explain[group];
      button.setAttribute("aria-expanded", String(ui.explain[group]));
      panel.hidden = !ui.explain[group];
    },
  }, label);
  return h("div", { class: `yk-explain-box yk-explain-${group}` }, button, panel);
}

/** A seat's hand: the viewer's own (playable), or, on the staff's all-hands-open board, any seat's. */
function renderHand(ctx, seat = ctx.doc.seat) {
  const { doc, view, opts, select } = ctx;
  const me = view.players[seat] || {};
  const hand = me.hand || [];
  const playable = new Set(seat === doc.seat ? opts.summons.map((c) => c.args.card) : []);
  const s = ui.sel;
  const title = seat === doc.seat ? "Your hand" : `${seatName(doc, seat)}'s hand`;
  const box = h("div", { class: "yk-hand-box", dataset: { handSeat: String(seat) } }, h("h3", {}, `${title} (${hand.length})`));
  const row = h("div", { class: "yk-hand" });
  for (const c of hand) {
    const info = monsterInfo(c.card);
    const ability = info ? abilityInfo(info.ability) : null;
    const can = playable.has(c.id) && !ui.busy && !(view.pending || []).length;
    const myDecision = (doc.status.awaiting || []).includes(doc.seat);
    const selected = s && s.kind === "summon" && s.card === c.id;
    const body = [
      h("div", { class: "yk-hhead" }, h("span", { class: "yk-hname" }, cardName(c.card)), info ? h("span", { class: "yk-cost", "aria-label": `costs ${info.cost} chakra` }, `${info.cost} CP`) : ""),
      info ? h("div", { class: "yk-hmeta" }, h("span", { class: `yk-el-tag el-${info.element}` }, info.element), h("span", { "aria-label": `${info.lp} life points` }, `♥ ${info.lp}`)) : "",
      info ? h("div", { class: "yk-hap", "aria-hidden": "true" },
        SIDES.map((side) => h("span", { class: `hap hap-${side}` }, String(info.attack[side])))) : "",
      info ? h("div", { class: "yk-hability" }, h("strong", {}, abilityName(info.ability)), ability ? h("span", { class: "small" }, ` ${ability.text}`) : "") : "",
    ];
    const cls = `yk-hcard${can ? " is-playable" : myDecision ? " is-idle" : ""}${selected ? " is-selected" : ""}${info ? ` el-${info.element}` : ""}`;
    const name = handCardName(c.card, can ? (selected ? "Chosen: press again to put it back." : "Press to summon it.") : "");
    const node = can
      ? h("button", { type: "button", class: cls, dataset: { cardId: c.id, card: c.card }, "aria-pressed": String(Boolean(selected)), "aria-label": name,
        onclick: () => select(selected ? null : { kind: "summon", card: c.id }, selected ? null : ".yk-cell.is-target") }, body)
      : h("div", { class: cls, dataset: { cardId: c.id, card: c.card }, role: "group", "aria-label": name }, body);
    row.append(help(node, [can ? "Choose it to summon it." : "", monsterHelp(c.card)].filter(Boolean).join("\n"), cardName(c.card)));
  }
  if (!hand.length) row.append(h("p", { class: "muted" }, "No cards in hand."));
  box.append(row);
  return box;
}

/** A hand card in words: what its face shows (name, cost, element, LP, printed attack values, ability). */
export function handCardName(key, then = "") {
  const info = monsterInfo(key);
  if (!info) return [cardName(key), then].filter(Boolean).join(". ");
  const ability = abilityInfo(info.ability);
  return [
    `${info.name}, ${info.cost} CP, ${info.element}, ${info.lp} LP, attack values as printed: ${SIDES.map((side) => `${side} ${info.attack[side]}`).join(", ")}.`,
    ability ? `${ability.name}: ${ability.text}` : abilityName(info.ability),
    then,
  ].filter(Boolean).map((part) => (/[.!?]$/.test(part) ? part : `${part}.`)).join(" ");
}

function renderOther({ opts, send }) {
  return h(
    "div",
    { class: "yk-other" },
    h("h3", {}, "Other options"),
    h("div", { class: "commands" },
      opts.other.map((cmd) =>
        h("button", { type: "button", class: "command", disabled: ui.busy, onclick: () => send(cmd) },
          [cmd.type, ...Object.entries(cmd.args || {}).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`)].join(" ")))),
  );
}

// The engine's status phases: a turn is its combat phase; "choice" is a summoned monster's or an
// ability's pending choice inside it.
const PHASE_WORDS = { combat: "Combat", choice: "Combat: a choice to make", finished: "Over" };

registerBoard("yokai", { render, hidesCommands: true, phaseLabel: (doc) => PHASE_WORDS[(doc.status || {}).phase] || null });

// For tests and debugging (read-only).
window.KamizaYokai = { ui, classify };
