// Harakiri: Blades of Honor board: the square grid of the revealed zones (terrain, heights, doors,
// interaction points, spawn points), the miniatures, the initiative queue, the oracle and malice,
// the party (AP, Ki dice, equipment), the last dice rolled, and every legal command by clicking
// (a highlighted square to step, a highlighted enemy then the attack variant, a party decision
// button, the action bar for everything else).
//
// Every command sent comes from doc.legal_commands, unchanged. Commands the board cannot map to a
// click are still offered as plain buttons, so no state is unplayable. Spectators (doc.seat ===
// null) see the board without controls. The DOM is built with textContent only.

import { renderAdventure } from "./harakiri_adventure.js";
import { ensureStylesheet as useStylesheet, fetchContent, h, registerBoard } from "./registry.js";

const CSS_URL = new URL("../../css/boards/harakiri.css", import.meta.url).href;
const TERRAINS = ["open", "difficult", "obstacle", "inaccessible", "special", "stairs", "door"];
const TERRAIN_LABEL = {
  open: "Open", difficult: "Difficult", obstacle: "Obstacle", inaccessible: "Inaccessible",
  special: "Special", stairs: "Stairs", door: "Door", wall: "Wall",
};
const CONDITIONS = { bleeding: "Bl", poisoned: "Po", blinded: "Bd", downed: "Dn", blessed: "+" };
const HERO_SHORT = { akira: "Ak", hattori: "Ha", hikaru: "Hi", tomoe: "To", akane: "An", byakuei: "By", hanako: "Hn", takashi: "Ta" };
const ACTION_LABEL = {
  move: "Move", exert: "Exert (+MP)", end_move: "End move", reroll_ki: "Reroll Ki dice (2 AP)",
  swap_weapon: "Swap weapon", meditate: "Meditate", kami_mode: "Kami Mode", end_activation: "End activation",
  resolve_attack: "Resolve attack",
};

const ui = {
  content: null,
  contentPromise: null,
  last: null,
  sel: null, // {kind: "attack", target}
  busy: false,
  evSeq: null, // events fetched up to this seq
  evFetching: false,
  dice: null, // the last attack roll seen in the log
  feed: [], // short lines: the latest things that happened
  acted: null, // {id, until}: the miniature that just acted
  prevMinis: null, // id -> "sq|health" at the previous seq
  flash: new Set(),
  flashUntil: 0,
  seenSeq: null,
};

function ensureStylesheet() {
  useStylesheet("harakiri", CSS_URL);
}

function rerender() {
  if (ui.last) render(...ui.last);
}

function loadContent() {
  if (ui.contentPromise) return;
  ui.contentPromise = fetchContent("harakiri")
    .then((pack) => { ui.content = pack; rerender(); })
    .catch(() => { ui.contentPromise = null; });
}

function apiBase() {
  const boot = document.getElementById("match-boot");
  try {
    return boot ? JSON.parse(boot.textContent).api_base : null;
  } catch {
    return null;
  }
}

/** Read this seat's (redacted) log for the dice and enemy activations the view does not keep. */
function loadEvents(doc) {
  const base = apiBase();
  if (!base || ui.evFetching) return;
  const initial = ui.evSeq === null; // history: shown in the feed, no "just acted" flash
  if (initial) ui.evSeq = Math.max(0, doc.seq - 80);
  if (doc.seq <= ui.evSeq) return;
  ui.evFetching = true;
  fetch(`${base}events/?after=${ui.evSeq}`, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
    .then((body) => {
      const evs = (body.events || []).filter((e) => e.seq > ui.evSeq).sort((a, b) => a.seq - b.seq);
      for (const ev of evs) digest(ev, initial);
      if (evs.length) ui.evSeq = evs[evs.length - 1].seq;
    })
    .catch(() => {})
    .finally(() => {
      ui.evFetching = false;
      rerender();
    });
}

function digest(ev, initial = false) {
  const p = ev.payload || {};
  const say = (text) => {
    ui.feed.push({ seq: ev.seq, text });
    if (ui.feed.length > 6) ui.feed.shift();
  };
  switch (ev.type) {
    case "AttackRolled":
    case "AttackDieRerolled":
      if (p.attack) ui.dice = { seq: ev.seq, who: p.attack.attacker, targets: p.attack.targets || [], dice: p.attack.dice || [], mode: p.attack.mode, outcome: null };
      break;
    case "EnemyAttackRolled":
      ui.dice = { seq: ev.seq, who: p.attacker, targets: [p.target], dice: p.dice || [], outcome: null, blind: p.blind };
      break;
    case "AttackResolved":
      if (ui.dice && ui.dice.who === p.attacker) ui.dice.outcome = resolvedText(p);
      say(`${nameOf(p.attacker)} attacked: ${resolvedText(p)}`);
      break;
    case "EnemyActivated":
      if (!initial) ui.acted = { id: p.enemy, until: Date.now() + 2500 };
      say(`${nameOf(p.enemy)} activates`);
      break;
    case "EnemyDefeated":
      say(`${nameOf(p.who)} defeated`);
      break;
    case "EnemySpawned":
      say(`${nameOf(p.who)} appears`);
      break;
    case "OracleDrawn":
    case "RoundEnded":
    case "PhaseEnded":
      say(ev.type === "RoundEnded" ? "Round over" : ev.type === "PhaseEnded" ? "The phase ends" : "Oracle card drawn");
      break;
    default:
      break;
  }
}

function resolvedText(p) {
  if (p.outcome) return String(p.outcome).replace(/_/g, " ");
  if (p.damage && typeof p.damage === "object") {
    const parts = Object.entries(p.damage).map(([t, d]) => `${typeof d === "number" ? `${d} damage to` : JSON.stringify(d)} ${nameOf(t)}`);
    return (p.critical ? "critical! " : "") + (parts.join(", ") || "no damage");
  }
  return "resolved";
}

// -- helpers -----------------------------------------------------------------------------------

function pretty(id) {
  return String(id ?? "?").replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

let currentView = null;
function nameOf(id) {
  const v = currentView;
  if (v && v.characters && v.characters[id]) return v.characters[id].name;
  if (v && v.enemies && v.enemies[id]) return enemyName(v.enemies[id]);
  if (v && v.resistors && v.resistors[id]) return v.resistors[id].name;
  return pretty(id);
}

function enemyInfo(en) {
  const pack = ui.content && ui.content.enemies;
  if (!pack) return null;
  const group = pack[`${en.kind}s`] || pack[en.kind] || {};
  return group[en.type] || null;
}

function enemyName(en) {
  const info = enemyInfo(en);
  const base = info && info.name ? info.name : pretty(en.type);
  return `${base}${en.plus ? "+" : ""}${en.kind === "minion" && en.color ? ` (${en.color})` : ""}`;
}

function weaponName(id) {
  const w = ui.content && ui.content.weapons && ui.content.weapons[id];
  return w ? w.name : pretty(id);
}

function armorName(id) {
  const a = ui.content && ui.content.armors && ui.content.armors[id];
  return a ? a.name : pretty(id);
}

function itemName(id) {
  const it = ui.content && ui.content.items && ui.content.items[id];
  return it ? it.name : pretty(id);
}

function skillName(id) {
  if (!id) return "";
  const list = (ui.content && ui.content.skills) || [];
  const sk = list.find((x) => x.id === id);
  if (sk) return sk.name;
  for (const k of (ui.content && ui.content.kami) || []) {
    const ks = (k.skills || []).find((x) => x.id === id);
    if (ks) return ks.name;
  }
  return pretty(id);
}

function seatName(doc, seat) {
  const s = doc.match && doc.match.seats && doc.match.seats[seat];
  const name = s ? s.username + (s.bot ? " (bot)" : "") : `Seat ${seat}`;
  return seat === doc.seat ? `${name} (you)` : name;
}

function xy(sq) {
  const [x, y] = String(sq).split(",").map(Number);
  return { x, y };
}

function cardLabel(view, card) {
  const [kind, id] = String(card).split(":");
  if (kind === "char") return nameOf(id);
  if (kind === "color") return `${pretty(id)} minions`;
  if (kind === "enemy") return nameOf(id);
  return pretty(card);
}

function argsText(args) {
  return Object.entries(args || {})
    .filter(([, v]) => v !== null && v !== false)
    .map(([k, v]) => `${k} ${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(", ");
}

/** A readable label for any legal command (the action bar and the fallback buttons). */
function commandLabel(view, cmd) {
  const a = cmd.args || {};
  const who = view.turn && view.turn.who ? view.characters[view.turn.who] : null;
  switch (cmd.type) {
    case "technique": {
      const extra = { ...a };
      delete extra.skill;
      const rest = Object.entries(extra).filter(([, v]) => v !== null).map(([k, v]) => `${k === "ally" ? "on" : k} ${k === "ally" ? nameOf(v) : v}`);
      return `${skillName(a.skill)}${rest.length ? ` (${rest.join(", ")})` : ""}`;
    }
    case "interact":
      if (a.door) return `Open door ${pretty(a.door)}`;
      if (a.point) return `Interact with point ${a.point}`;
      break;
    case "give":
      if (a.what === "armor") return `Exchange armor with ${nameOf(a.to)}`;
      if (a.weapon || a.take) {
        const parts = [a.weapon ? `give ${pretty(a.weapon)}` : null, a.take ? `take ${pretty(a.take)}` : null].filter(Boolean);
        return `${nameOf(a.to)}: ${parts.join(", ")}`;
      }
      if (a.what) return `Give ${a.what.replace("_", " ")} to ${nameOf(a.to)}`;
      if (who && who.items[a.slot]) return `Give ${itemName(who.items[a.slot].id)} to ${nameOf(a.to)}`;
      break;
    case "use_item": {
      const it = who && who.items[a.slot];
      return `Use ${it ? itemName(it.id) : `item ${a.slot}`}${a.target ? ` on ${nameOf(a.target)}` : ""}`;
    }
    case "place_ki":
      return `Ki die ${who && who.ki.supply[a.die] !== undefined ? `[${who.ki.supply[a.die]}]` : a.die} → ${skillName(a.skill)}`;
    case "withdraw_ki":
      return `Withdraw Ki from ${skillName(a.skill)}`;
    case "retrieve_head":
      return `Pick up head${view.heads && view.heads[a.index] ? ` at ${view.heads[a.index].sq}` : ""}`;
    case "step":
      return `Step to ${a.to}`;
    case "attack":
      return `Attack ${Array.isArray(a.target) ? a.target.map(nameOf).join(" + ") : nameOf(a.target)}: ${attackVariant(a)}`;
    case "reroll_die":
      return `Reroll die ${a.die + 1} (${pretty(a.with)})`;
    case "lad":
      return `Move Yastun Lad to ${a.to}`;
    case "nemesis":
      return `Nemesis marker on ${nameOf(a.target)}`;
    default:
      break;
  }
  if (ACTION_LABEL[cmd.type] && !Object.keys(a).length) return ACTION_LABEL[cmd.type];
  const rest = argsText(a);
  return `${pretty(cmd.type)}${rest ? ` (${rest})` : ""}`;
}

function attackVariant(a) {
  const parts = [a.mode === "strong" ? "Strong (2 AP)" : a.mode === "fast" ? "Fast (1 AP)" : pretty(a.mode)];
  if (a.focus) parts.push("+ focus die");
  if (a.skill) parts.push(`· ${skillName(a.skill)}`);
  if (a.roll === "before") parts.push(`· roll to ${a.to} first`);
  else if (a.roll === "after") parts.push("· roll after");
  const extra = Object.keys(a).filter((k) => !["target", "mode", "focus", "skill", "roll", "to"].includes(k));
  for (const k of extra) parts.push(`· ${k} ${JSON.stringify(a[k])}`);
  return parts.join(" ");
}

/** A label for a party/character decision option (the engine gives only the option objects). */
function optionLabel(view, pending, opt, i) {
  if (!opt || typeof opt !== "object") return `Option ${i + 1}`;
  if ("swap" in opt) return opt.swap ? `Swap ${opt.swap.map(nameOf).join(" ⇄ ")}` : "No swap";
  if ("counter" in opt) return !opt.counter ? "No counter attack" : opt.focus ? "Counter attack + focus die" : "Counter attack";
  if (opt.square && opt.target) return `Move to ${opt.square} (toward ${nameOf(opt.target)})`;
  if (opt.target) return `Target ${nameOf(opt.target)}`;
  if (opt.sq) return `Square ${opt.sq}`;
  if (opt.card) return cardLabel(view, opt.card);
  if (opt.attribute) return pretty(opt.attribute);
  if (opt.skill) return skillName(opt.skill);
  if (opt.repeat) return "Repeat the failure procedure";
  if (opt.success) return "Read the success section";
  if (opt.done) return "Done";
  const rest = argsText(opt);
  return rest ? pretty(rest) : `Option ${i + 1}`;
}

// -- the legal commands, sorted by what the board can click --------------------------------------

function classify(doc) {
  const view = doc.view;
  const legal = doc.legal_commands || [];
  const out = { steps: new Map(), attacks: new Map(), choices: [], rerolls: [], resolve: null, actions: [], other: [] };
  for (const cmd of legal) {
    const a = cmd.args || {};
    if (cmd.type === "step" && typeof a.to === "string" && view.squares[a.to]) out.steps.set(a.to, cmd);
    else if (cmd.type === "attack" && typeof a.target === "string" && view.enemies[a.target] && view.enemies[a.target].sq) {
      if (!out.attacks.has(a.target)) out.attacks.set(a.target, []);
      out.attacks.get(a.target).push(cmd);
    } else if (cmd.type === "choose" && view.pending && Number.isInteger(a.option) && view.pending.options[a.option] !== undefined) out.choices.push(cmd);
    else if (cmd.type === "reroll_die" && view.attack && Number.isInteger(a.die)) out.rerolls.push(cmd);
    else if (cmd.type === "resolve_attack") out.resolve = cmd;
    else if (cmd.type in ACTION_LABEL || ["technique", "interact", "give", "use_item", "place_ki", "withdraw_ki", "retrieve_head"].includes(cmd.type)) out.actions.push(cmd);
    else out.other.push(cmd);
  }
  return out;
}

// -- rendering ---------------------------------------------------------------------------------

function render(container, doc, sendCommand) {
  // An Adventure Phase match (option phase "adventure", its view has a flow): the map of Japan.
  if ((doc.view && doc.view.flow) || (doc.match && doc.match.options && doc.match.options.phase === "adventure")) {
    renderAdventure(container, doc, sendCommand);
    return;
  }
  ui.last = [container, doc, sendCommand];
  ensureStylesheet();
  loadContent();
  const view = doc.view;
  currentView = view;
  if (!view || !view.squares) {
    container.replaceChildren(
      h("p", { class: "muted" }, doc.match && doc.match.status === "open" ? "Waiting for the match to start." : "Nothing to show yet."),
    );
    return;
  }
  loadEvents(doc);
  trackChanges(doc);
  const player = doc.seat !== null && doc.seat !== undefined;
  const opts = classify(player ? doc : { ...doc, legal_commands: [] });
  if (ui.sel && !(ui.sel.kind === "attack" && opts.attacks.has(ui.sel.target))) ui.sel = null;

  const send = (cmd) => {
    if (ui.busy) return;
    ui.busy = true;
    ui.sel = null;
    rerender();
    sendCommand(cmd.type, cmd.args || {})
      .catch(() => { /* the match page shows the refusal under the board */ })
      .finally(() => { ui.busy = false; rerender(); });
  };
  const ctx = { doc, view, opts, send, player, select: (sel) => { ui.sel = sel; rerender(); } };

  const root = h("div", { class: "hk", dataset: { seat: player ? String(doc.seat) : "spectator" } });
  root.append(renderBanner(ctx));
  root.append(renderTop(ctx));
  root.append(renderInitiative(ctx));
  root.append(renderPrompt(ctx));
  if (player) root.append(renderActions(ctx));
  root.append(h("div", { class: "hk-main" },
    h("div", { class: "hk-map" }, renderGrid(ctx), renderLegend()),
    h("div", { class: "hk-side" }, renderDice(ctx), renderEnemies(ctx))));
  if (!player) root.append(h("p", { class: "muted hk-spectating" }, "You are watching this match."));
  root.append(renderParty(ctx));
  container.replaceChildren(root);
}

function miniKey(view) {
  const out = new Map();
  for (const [id, c] of Object.entries(view.characters)) out.set(id, `${c.sq}|${c.health}|${JSON.stringify(c.conditions)}`);
  for (const [id, e] of Object.entries(view.enemies)) out.set(id, `${e.sq}|${e.health}|${JSON.stringify(e.conditions)}`);
  return out;
}

/** Which miniatures moved or changed since the previous state push: they flash briefly. */
function trackChanges(doc) {
  if (ui.seenSeq === doc.seq) return;
  const now = miniKey(doc.view);
  if (ui.prevMinis) {
    ui.flash = new Set([...now].filter(([id, k]) => ui.prevMinis.has(id) && ui.prevMinis.get(id) !== k).map(([id]) => id));
    for (const id of now.keys()) if (!ui.prevMinis.has(id)) ui.flash.add(id);
    ui.flashUntil = Date.now() + 1500;
  }
  ui.prevMinis = now;
  ui.seenSeq = doc.seq;
}

function renderBanner({ doc, view }) {
  const st = doc.status || {};
  if (!st.finished) return "";
  const result = view.result;
  const text = result === "victory" ? "Victory! The party completed the objective."
    : result === "round_cap" ? "The round limit was reached."
    : result ? `The phase ended: ${pretty(result)}.` : "The phase ended.";
  return h("div", { class: `hk-banner${result === "victory" ? " is-win" : ""}`, role: "status", "data-testid": "harakiri-banner" },
    h("strong", {}, "Game over. "), text);
}

function renderTop({ view }) {
  const oracle = view.oracle || {};
  const bar = h("div", { class: "hk-top" });
  bar.append(h("div", { class: "hk-stat" }, h("span", { class: "hk-stat-label" }, "Round"),
    `${view.round_cap && view.phase === "ended" ? Math.min(view.round, view.round_cap) : view.round}${view.round_cap ? ` / ${view.round_cap}` : ""}`));
  bar.append(h("div", { class: "hk-stat" }, h("span", { class: "hk-stat-label" }, "Phase"), pretty(view.phase)));
  bar.append(h("div", { class: "hk-stat", "data-testid": "harakiri-oracle", title: `Oracle card ${oracle.current || "–"}; ${oracle.deck} left in the deck` },
    h("span", { class: "hk-stat-label" }, "Oracle"),
    h("span", { class: `hk-oracle oc-${oracle.color || "none"}` }, oracle.color ? pretty(oracle.color) : "–"),
    h("span", { class: "hk-small" }, `deck ${oracle.deck ?? "?"}`)));
  const malice = h("span", { class: "hk-pips", "aria-hidden": "true" });
  for (let i = 0; i < Math.max(5, view.malice); i++) malice.append(h("span", { class: i < view.malice ? "pip on" : "pip" }));
  bar.append(h("div", { class: "hk-stat", "data-testid": "harakiri-malice", title: "Malice" },
    h("span", { class: "hk-stat-label" }, "Malice"), String(view.malice), malice));
  bar.append(h("div", { class: "hk-objective", title: view.scenario_name || "" },
    h("span", { class: "hk-stat-label" }, "Objective "), (view.objective && view.objective.text) || ""));
  return bar;
}

function renderPrompt(ctx) {
  const { doc, view, opts, send, player, select } = ctx;
  const st = doc.status || {};
  if (st.finished) return "";
  const box = h("div", { class: "hk-prompt", role: "status", "aria-live": "polite", "data-testid": "harakiri-prompt" });
  const awaited = st.awaiting || [];
  const mine = player && awaited.includes(doc.seat);
  const pending = view.pending;
  if (pending) {
    box.append(h("p", { class: "hk-ask" }, h("strong", {}, pending.by === "party" ? "Party decision: " : "Decision: "), readable(view, pending.prompt) || pretty(pending.kind)));
    if (mine && opts.choices.some((c) => choiceSquare(view, pending.options[c.args.option]))) {
      box.append(h("p", { class: "muted hk-small" }, "Click a highlighted square or a button."));
    }
    if (mine) {
      box.append(h("div", { class: "hk-choices" }, opts.choices.map((cmd) =>
        h("button", { type: "button", class: "primary hk-choice", disabled: ui.busy, dataset: { option: String(cmd.args.option) }, onclick: () => send(cmd) },
          optionLabel(view, pending, pending.options[cmd.args.option], cmd.args.option)))));
    } else {
      box.append(h("p", { class: "muted" }, `Waiting for ${awaited.map((s) => (s === "system" ? "the game" : seatName(doc, s))).join(", ")}.`));
    }
    return box;
  }
  if (view.attack) {
    const atk = view.attack;
    box.append(h("p", { class: "hk-ask" }, `${nameOf(atk.attacker)} rolled against ${(atk.targets || []).map(nameOf).join(", ")}:`));
    box.append(h("div", { class: "hk-dice" }, (atk.dice || []).map((d, i) => {
      const cmds = opts.rerolls.filter((c) => c.args.die === i);
      return h("div", { class: "hk-die-wrap" }, dieNode(d),
        cmds.map((cmd) => h("button", { type: "button", class: "hk-reroll", disabled: ui.busy, dataset: { die: String(i), with: cmd.args.with }, onclick: () => send(cmd) }, `Reroll (${pretty(cmd.args.with)})`)));
    })));
    if (opts.resolve) box.append(h("button", { type: "button", class: "primary", "data-action": "resolve_attack", disabled: ui.busy, onclick: () => send(opts.resolve) }, "Resolve attack"));
    return box;
  }
  if (!mine) {
    const who = view.turn && view.turn.kind === "enemies" ? `the enemies (${cardLabel(view, view.turn.card)})`
      : awaited.map((s) => (s === "system" ? "the game" : seatName(doc, s))).join(", ");
    box.append(h("p", { class: "muted" }, `Waiting for ${who || "the game"}.`));
    return box;
  }
  const who = view.turn && view.turn.who ? view.characters[view.turn.who] : null;
  const s = ui.sel;
  if (s && s.kind === "attack") {
    const cmds = opts.attacks.get(s.target) || [];
    box.append(h("p", { class: "hk-ask" }, `${who ? who.name : "Attack"} attacks ${nameOf(s.target)}: choose how.`));
    box.append(h("div", { class: "hk-choices" },
      cmds.map((cmd, i) => h("button", { type: "button", class: i === 0 ? "primary hk-variant" : "hk-variant", disabled: ui.busy, dataset: { variant: String(i) }, onclick: () => send(cmd) }, attackVariant(cmd.args))),
      h("button", { type: "button", class: "link-button", onclick: () => select(null) }, "Cancel")));
    return box;
  }
  const hints = [];
  if (opts.steps.size) hints.push("click a highlighted square to step there");
  if (opts.attacks.size) hints.push("click a highlighted enemy to attack it");
  hints.push(hints.length ? "or pick an action above" : "pick an action above");
  const mp = view.turn && (view.turn.moving ? view.turn.mp : view.turn.rolling ? view.turn.roll_mp : null);
  box.append(h("p", { class: "hk-ask" },
    `${who ? `${who.name}'s activation (${who.ap} AP${mp !== null && mp !== undefined ? `, ${mp} MP` : ""})` : "Your move"}: ${hints.join(", ").replace(", or", " or")}.`));
  return box;
}

/** The engine's prompts name miniatures by id: show their names instead. */
function readable(view, text) {
  if (!text) return "";
  const ids = [...Object.keys(view.characters), ...Object.keys(view.enemies), ...Object.keys(view.resistors || {})]
    .sort((a, b) => b.length - a.length);
  let out = String(text);
  for (const id of ids) out = out.split(new RegExp(`\\b${id.replace(/[^\w]/g, "")}\\b`, "g")).join(nameOf(id));
  return out;
}

/** The square a decision option points at (spawn square, enemy square, or a target's square). */
function choiceSquare(view, opt) {
  if (!opt || typeof opt !== "object") return null;
  if (typeof opt.square === "string" && view.squares[opt.square]) return opt.square;
  if (typeof opt.sq === "string" && view.squares[opt.sq]) return opt.sq;
  if (typeof opt.target === "string") {
    const m = view.characters[opt.target] || view.enemies[opt.target] || (view.resistors || {})[opt.target];
    if (m && m.sq && !m.defeated) return m.sq;
  }
  return null;
}

function dieNode(d) {
  let face = "";
  let cls = "";
  if (d.die === "test") { face = String(d.n ?? "?"); cls = `s-${d.s}`; }
  else if (d.die === "focus") { face = d.f === "minus1" ? "−1" : d.f === "fail_no_counter" ? "✗·" : "✗"; cls = "s-focus"; }
  else { face = String(d.i ?? 0); cls = d.y ? `y-${d.y}` : ""; }
  const title = `${pretty(d.die)} die: ${d.die === "test" ? d.s : d.die === "focus" ? d.f : `${d.i} impact${d.i === 1 ? "" : "s"}${d.y ? `, ${d.y} yin-yang` : ""}`}`;
  return h("span", { class: `hk-die die-${d.die} ${cls}`, title }, face, d.y ? h("span", { class: "hk-yy" }, "☯") : "");
}

function renderGrid(ctx) {
  const { view, opts, send, select } = ctx;
  const clickable = new Map(); // sq -> {label, kind, run}
  if (!ui.busy && view.pending) {
    // a decision about squares or miniatures: those are clickable too (when one square = one option)
    const bySq = new Map();
    for (const cmd of opts.choices) {
      const sq = choiceSquare(view, view.pending.options[cmd.args.option]);
      if (sq) bySq.set(sq, bySq.has(sq) ? null : cmd);
    }
    for (const [sq, cmd] of bySq) if (cmd) clickable.set(sq, { kind: "choice", label: String(cmd.args.option + 1), run: () => send(cmd) });
  }
  if (!ui.busy && !view.pending && !view.attack) {
    for (const [sq, cmd] of opts.steps) clickable.set(sq, { kind: "step", label: "step", run: () => send(cmd) });
    for (const [id, cmds] of opts.attacks) {
      const sq = view.enemies[id].sq;
      const selected = ui.sel && ui.sel.target === id;
      clickable.set(sq, { kind: "attack", label: "⚔", selected, run: () => select(selected ? null : { kind: "attack", target: id }) });
      void cmds;
    }
  }
  const keys = Object.keys(view.squares).map(xy);
  const minX = Math.min(...keys.map((p) => p.x));
  const maxX = Math.max(...keys.map((p) => p.x));
  const minY = Math.min(...keys.map((p) => p.y));
  const maxY = Math.max(...keys.map((p) => p.y));
  const cols = maxX - minX + 1;
  const cell = Math.max(34, Math.min(56, Math.floor(520 / cols)));
  // What stands on each square.
  const at = new Map();
  const put = (sq, node) => {
    if (!sq) return;
    if (!at.has(sq)) at.set(sq, []);
    at.get(sq).push(node);
  };
  for (const [id, c] of Object.entries(view.characters)) if (c.sq && !c.defeated) put(c.sq, { kind: "char", id, c });
  for (const [id, e] of Object.entries(view.enemies)) if (e.sq) put(e.sq, { kind: "enemy", id, e });
  for (const [id, r] of Object.entries(view.resistors || {})) if (r.sq) put(r.sq, { kind: "resistor", id, r });
  const marks = new Map();
  const mark = (sq, text, cls, title) => {
    if (!sq) return;
    if (!marks.has(sq)) marks.set(sq, []);
    marks.get(sq).push(h("span", { class: `hk-mark ${cls}`, title }, text));
  };
  for (const [id, d] of Object.entries(view.doors || {})) mark(d.sq, d.open ? "▯" : "▮", d.open ? "door-open" : "door-closed", `Door ${pretty(id)} (${d.open ? "open" : "closed"}${d.survey ? `, leads to ${pretty(d.survey)}` : ""})`);
  for (const [id, p] of Object.entries(view.points || {})) mark(p.sq || p.at, id, "point", `Interaction point ${id}${p.text ? `: ${p.text}` : ""}`);
  for (const [color, sq] of Object.entries(view.spawns || {})) mark(typeof sq === "string" ? sq : sq && sq.sq, "◎", `spawn sp-${color}`, `${pretty(color)} spawn point`);
  (view.heads || []).forEach((hd, i) => mark(hd.sq, hd.boss ? "☗" : "☖", "head", `${hd.boss ? "Boss head" : "Head"} #${i}`));
  (view.yastun_lad || []).forEach((lad) => mark(lad.sq, "🐾", "lad", `Yastun Lad (${nameOf(lad.owner)})${lad.on ? ` on ${nameOf(lad.on)}'s board` : ""}`));

  const turnWho = view.turn && view.turn.who;
  const grid = h("div", { class: "hk-grid", role: "grid", "aria-label": "The map", style: `--cell:${cell}px; grid-template-columns: repeat(${cols}, var(--cell));` });
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const sq = `${x},${y}`;
      const info = view.squares[sq];
      if (!info) {
        grid.append(h("div", { class: "hk-cell t-wall", role: "gridcell", title: `${sq}: wall`, dataset: { sq } }));
        continue;
      }
      const act = clickable.get(sq);
      const zoneName = (view.zones_info && view.zones_info[info.z] && view.zones_info[info.z].name) || pretty(info.z);
      const cls = ["hk-cell", `t-${info.t}`, `hgt-${Math.min(3, info.h || 0)}`];
      if (act) cls.push("is-target", `act-${act.kind}`);
      if (act && act.selected) cls.push("is-selected");
      const west = view.squares[`${x - 1},${y}`];
      const north = view.squares[`${x},${y - 1}`];
      if (west && west.z !== info.z) cls.push("zb-w");
      if (north && north.z !== info.z) cls.push("zb-n");
      const node = h(act ? "button" : "div", {
        class: cls.join(" "), role: "gridcell", type: act ? "button" : undefined,
        dataset: { sq, terrain: info.t, height: String(info.h || 0) },
        title: `${sq} · ${TERRAIN_LABEL[info.t] || pretty(info.t)}${specialNote(view, info)}${info.h ? ` · height ${info.h}` : ""} · ${zoneName}`,
        onclick: act ? act.run : undefined,
      });
      if (info.h) node.append(h("span", { class: "hk-height" }, `▲${info.h}`));
      for (const m of marks.get(sq) || []) node.append(m);
      const here = at.get(sq) || [];
      here.forEach((o, i) => {
        const mini = miniNode(view, o, turnWho);
        if (here.length > 1) mini.classList.add("is-stacked", `stack-${Math.min(i, 3)}`);
        node.append(mini);
      });
      if (here.length > 1) node.title += ` · ${here.map((o) => nameOf(o.id)).join(" and ")}`;
      if (act && act.kind === "step") node.append(h("span", { class: "hk-action" }, "•"));
      if (act && act.kind === "choice") node.append(h("span", { class: "hk-action is-choice" }, "✓"));
      grid.append(node);
    }
  }
  return h("div", { class: "hk-grid-wrap" }, grid);
}

function healthBar(cur, max) {
  const pct = max ? Math.max(0, Math.min(100, Math.round((100 * cur) / max))) : 0;
  return h("span", { class: "hk-hp", title: `${cur}/${max} health` }, h("span", { class: "hk-hp-fill", style: `width:${pct}%` }));
}

function condBadges(conds) {
  return Object.entries(conds || {}).filter(([, n]) => n > 0).map(([k, n]) =>
    h("span", { class: `hk-cond c-${k}`, title: `${k} ×${n}` }, `${CONDITIONS[k] || k[0]}${n > 1 ? n : ""}`));
}

function isFlashing(id) {
  const now = Date.now();
  return (ui.flash.has(id) && now < ui.flashUntil) || (ui.acted && ui.acted.id === id && now < ui.acted.until);
}

function miniNode(view, o, turnWho) {
  if (o.kind === "char") {
    const c = o.c;
    return h("span", {
      class: `hk-mini is-char ch-${o.id}${turnWho === o.id ? " is-active" : ""}${isFlashing(o.id) ? " is-flash" : ""}`,
      dataset: { mini: o.id },
      title: `${c.name}: ${c.health}/${c.max_health} health, ${c.ap} AP`,
    }, h("span", { class: "hk-mini-tag" }, HERO_SHORT[o.id] || c.name.slice(0, 2)), healthBar(c.health, c.max_health), h("span", { class: "hk-mini-conds" }, condBadges(c.conditions)));
  }
  if (o.kind === "enemy" && o.e.kind === "double") {
    const owner = o.e.double_of;
    const active = view.turn && view.turn.kind === "double" && view.turn.double === o.id;
    return h("span", {
      class: `hk-mini is-char is-double ch-${owner}${active ? " is-active" : ""}${isFlashing(o.id) ? " is-flash" : ""}`,
      dataset: { mini: o.id },
      title: `${nameOf(owner)}'s double (Multi-Form): immune to damage, removed at the end of the round`,
    }, h("span", { class: "hk-mini-tag" }, `${HERO_SHORT[owner] || "?"}²`));
  }
  if (o.kind === "enemy") {
    const e = o.e;
    const actor = view.turn && view.turn.kind === "enemies" && (view.turn.card === `color:${e.color}` || view.turn.card === `enemy:${o.id}`);
    return h("span", {
      class: `hk-mini is-enemy k-${e.kind} ec-${e.color || "none"}${e.allied ? " is-allied" : ""}${actor ? " is-active" : ""}${isFlashing(o.id) ? " is-flash" : ""}`,
      dataset: { mini: o.id },
      title: `${enemyName(e)}: ${e.health}/${e.max_health} health${e.armor_tokens ? `, ${e.armor_tokens} armor tokens` : ""}`,
    }, h("span", { class: "hk-mini-tag" }, (enemyName(e)[0] || "?") + (e.plus ? "+" : "")), healthBar(e.health, e.max_health), h("span", { class: "hk-mini-conds" }, condBadges(e.conditions)));
  }
  const r = o.r;
  return h("span", { class: `hk-mini is-resistor${r.living ? "" : " is-object"}`, dataset: { mini: o.id }, title: `${r.name}: ${r.tokens} resistance tokens` },
    h("span", { class: "hk-mini-tag" }, "☺"), h("span", { class: "hk-mini-tokens" }, `×${r.tokens}`));
}

/** The zone's special (blue) terrain rule for a special square's tooltip ("" otherwise). */
function specialNote(view, info) {
  const rule = info.t === "special" && view.zones_info && view.zones_info[info.z] && view.zones_info[info.z].special;
  return rule ? ` (${rule.name}${rule.text ? `: ${rule.text}` : ""})` : "";
}

function renderLegend() {
  return h("div", { class: "hk-legend", "aria-label": "Legend" },
    TERRAINS.map((t) => h("span", { class: `hk-legend-item hk-cell t-${t}` }, TERRAIN_LABEL[t])),
    h("span", { class: "hk-legend-item hk-cell t-open hgt-1" }, "▲ height"),
    h("span", { class: "hk-legend-item hk-cell t-wall" }, "Wall"),
    h("span", { class: "muted hk-small" }, "▮ closed door · ▯ open door · letters = interaction points · ◎ spawn point · ☖ head (☗ boss) · 🐾 Yastun Lad · ☺ villager · round = hero, square = enemy (ring = minion colour) · bar = health · Bl/Po/Bd/Dn/+ = bleeding/poisoned/blinded/downed/blessed"));
}

function renderInitiative({ view }) {
  const init = view.initiative || { queue: [], pos: -1 };
  const list = h("ol", { class: "hk-queue", "data-testid": "harakiri-initiative" });
  init.queue.forEach((card, i) => {
    const [kind, id] = String(card).split(":");
    const cls = ["hk-card", `qk-${kind}`];
    if (kind === "color") cls.push(`ec-${id}`);
    if (kind === "char") cls.push(`ch-${id}`);
    if (i === init.pos && view.turn) cls.push("is-active");
    else if (i < init.pos) cls.push("is-done");
    list.append(h("li", { class: cls.join(" "), dataset: { card } }, cardLabel(view, card)));
  });
  if (init.deck) list.append(h("li", { class: "hk-card qk-facedown", title: "Revealed card by card (an event)" }, `${init.deck} face down`));
  if (!init.queue.length && !init.deck) list.append(h("li", { class: "muted" }, "Not drawn yet"));
  return h("section", { class: "hk-panel hk-init" }, h("h3", {}, "Initiative"), list);
}

function renderDice({ view }) {
  const box = h("section", { class: "hk-panel", "data-testid": "harakiri-dice" }, h("h3", {}, "Last roll"));
  const d = view.attack ? { who: view.attack.attacker, targets: view.attack.targets, dice: view.attack.dice, outcome: "rerolls available" } : ui.dice;
  if (!d) box.append(h("p", { class: "muted hk-small" }, "No dice rolled yet."));
  else {
    box.append(h("p", { class: "hk-small" }, `${nameOf(d.who)} → ${(d.targets || []).map(nameOf).join(", ")}`));
    box.append(h("div", { class: "hk-dice" }, (d.dice || []).map(dieNode)));
    if (d.outcome) box.append(h("p", { class: "hk-small hk-outcome" }, d.outcome));
  }
  if (ui.feed.length) box.append(h("ul", { class: "hk-feed" }, ui.feed.slice(-4).map((f) => h("li", {}, f.text))));
  return box;
}

// A chosen's AI cards in play (e.g. the Blood Oni's Hate cards) and the characters its passive
// skill has barred from Kami skills for the rest of the combat.
function passiveNotes(e) {
  const notes = [];
  const inPlay = (e.ai && e.ai.in_play) || [];
  if (inPlay.length) {
    const deck = (enemyInfo(e) || {}).ai_deck || [];
    const names = inPlay.map((id) => (deck.find((c) => c.id === id) || { name: pretty(id) }).name);
    notes.push(h("span", { class: "hk-small", title: "AI cards in play until the combat finishes" }, ` in play: ${names.join(", ")}`));
  }
  if ((e.kami_barred || []).length) {
    notes.push(h("span", { class: "hk-small", title: "cannot use Kami skills for the rest of this combat" },
      ` no Kami: ${e.kami_barred.map(nameOf).join(", ")}`));
  }
  return h("span", {}, ...notes);
}

function renderEnemies({ view }) {
  const list = h("ul", { class: "hk-enemies" });
  for (const [id, e] of Object.entries(view.enemies)) {
    if (!e.sq || e.kind === "double") continue; // Hikaru's Multi-Form double is drawn as a hero
    list.append(h("li", { class: `hk-enemy ec-${e.color || "none"}${isFlashing(id) ? " is-flash" : ""}`, dataset: { enemy: id } },
      h("span", { class: "hk-ename" }, enemyName(e)), " ", h("span", { class: "hk-small" }, `${e.health}/${e.max_health}`),
      e.armor_tokens ? h("span", { class: "hk-small", title: "armor tokens" }, ` armor ${e.armor_tokens}`) : "", " ", condBadges(e.conditions),
      passiveNotes(e)));
  }
  if (!list.childNodes.length) list.append(h("li", { class: "muted" }, "No enemies in sight."));
  return h("section", { class: "hk-panel" }, h("h3", {}, "Enemies"), list);
}

function renderActions({ view, opts, send }) {
  const bar = h("div", { class: "hk-actions", "data-testid": "harakiri-actions", role: "group", "aria-label": "Actions" });
  const order = (c) => (c.type === "end_activation" ? 2 : c.type === "end_move" ? 1 : 0);
  const cmds = [...opts.actions].sort((a, b) => order(a) - order(b));
  for (const cmd of cmds) {
    bar.append(h("button", {
      type: "button", class: `hk-act${cmd.type === "end_activation" || cmd.type === "end_move" ? " primary" : ""}`,
      disabled: ui.busy, dataset: { type: cmd.type }, onclick: () => send(cmd),
    }, commandLabel(view, cmd)));
  }
  // Anything the board has no better place for (future shapes, multi-target attacks...).
  for (const cmd of opts.other) {
    bar.append(h("button", { type: "button", class: "command hk-other", disabled: ui.busy, dataset: { type: cmd.type }, onclick: () => send(cmd) },
      commandLabel(view, cmd)));
  }
  if (!bar.childNodes.length) return h("div", { class: "hk-actions is-empty" });
  return bar;
}

function renderParty({ doc, view }) {
  const box = h("section", { class: "hk-party", "data-testid": "harakiri-party", "aria-label": "The party" });
  const turnWho = view.turn && view.turn.who;
  for (const [id, c] of Object.entries(view.characters)) {
    const seat = view.control ? view.control[id] : null;
    const slots = h("div", { class: "hk-ki" }, h("span", { class: "hk-stat-label" }, "Ki"),
      (c.ki.supply || []).map((v) => h("span", { class: "hk-kidie", title: "Ki die in the supply" }, String(v))),
      Object.entries(c.ki.slots || {}).map(([sk, v]) => h("span", { class: "hk-kislot", title: `Ki die ${v} in the ${skillName(sk)} slot` }, h("span", { class: "hk-kidie is-slotted" }, String(v)), skillName(sk))),
      c.ki.exhausted ? h("span", { class: "hk-kidie is-exhausted", title: "exhausted Ki dice" }, `×${c.ki.exhausted}`) : "");
    const apPips = h("span", { class: "hk-pips ap" });
    for (let i = 0; i < Math.max(4, c.ap); i++) apPips.append(h("span", { class: i < c.ap ? "pip on" : "pip" }));
    box.append(h("article", { class: `hk-hero ch-${id}${turnWho === id ? " is-active" : ""}${c.defeated ? " is-defeated" : ""}${isFlashing(id) ? " is-flash" : ""}`, dataset: { character: id } },
      h("header", {}, h("span", { class: "hk-hero-tag" }, HERO_SHORT[id] || ""), h("strong", {}, c.name), h("span", { class: "hk-small" }, ` L${c.level} ${pretty(c.class)}`),
        seat !== null && seat !== undefined ? h("span", { class: "hk-small muted" }, ` · ${seatName(doc, seat)}`) : ""),
      h("div", { class: "hk-row" }, healthBar(c.health, c.max_health), h("span", { class: "hk-small" }, `${c.health}/${c.max_health}`), condBadges(c.conditions)),
      h("div", { class: "hk-row" }, h("span", { class: "hk-stat-label" }, "AP"), String(c.ap), apPips,
        c.meditation ? h("span", { class: "hk-small hk-tokenbadge", title: "meditation token" }, "meditating") : ""),
      slots,
      h("div", { class: "hk-equip hk-small" },
        h("span", { title: (c.weapons || []).map(weaponName).join(", ") }, `Weapon ${weaponName(c.equipped)}${(c.weapons || []).length > 1 ? ` (+${c.weapons.length - 1})` : ""}`),
        h("span", { title: `armor ${c.armor}${c.armor_bonus ? `+${c.armor_bonus}` : ""}` }, `Armor ${armorName(c.armor_card)} (${c.armor}${c.armor_bonus ? `+${c.armor_bonus}` : ""})`),
        (c.items || []).length ? h("span", {}, `Items ${c.items.map((it) => itemName(it.id) + (it.uses !== null && it.uses !== undefined ? ` ×${it.uses}` : "")).join(", ")}`) : "",
        c.heads || c.boss_heads || c.coins ? h("span", {}, `Heads ${c.heads} · boss heads ${c.boss_heads} · coins ${c.coins}`) : ""),
      c.defeated ? h("div", { class: "hk-flag" }, "defeated") : ""));
  }
  return box;
}

registerBoard("harakiri", { render, hidesCommands: true });

// For tests and debugging (read-only).
window.KamizaHarakiri = { ui, classify };
