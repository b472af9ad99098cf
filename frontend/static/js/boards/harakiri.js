// Harakiri: Blades of Honor board: the square grid of the revealed zones (terrain, heights, doors,
// interaction points, spawn points), the miniatures, the initiative queue, the oracle and malice,
// the party (AP, Ki dice, equipment), the last dice rolled, and every legal command by clicking
// (a highlighted square to step, a highlighted enemy then the attack variant, a party decision
// button, the action bar for everything else).
//
// Every command sent comes from doc.legal_commands, unchanged. Commands the board cannot map to a
// click are still offered as plain buttons, so no state is unplayable. Spectators (doc.seat ===
// null) see the board without controls. The DOM is built with textContent only.
//
// The last roll and the departures (a villager or an enemy leaving the board) are read from
// doc.events, the page's own log up to the view's seq, so a roll and its outcome always belong
// together and match the board drawn; the last move by someone else (doc.last_move) is outlined.
// Each enemy has one name everywhere: its type and colour, "Kachi (red)", as the history says.
// Rules help (help.js): conditions, terrain, skills, dice, enemies and their lines explain
// themselves on hover, focus or tap. Escape cancels a selection.
// After a failure the zones that give no heads any more (the view's zones.<z>.no_heads) carry a
// "no heads" tag on their first square, a line in each of their squares' help and in the legend.

import { renderAdventure, stageWords } from "./harakiri_adventure.js";
import { entry, explain, help, helpText, loadGlossary, onEscape } from "./help.js";
import { ensureStylesheet as useStylesheet, fetchContent, h, registerBoard, showBoard } from "./registry.js";
import { seatLabel, waitingWords } from "../words.js";

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
  prevMinis: null, // id -> "sq|health" at the previous seq
  flash: new Set(),
  flashUntil: 0,
  seenSeq: null,
  notice: null, // {text, seq}: why a click found nothing to do, until the next state
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

function loadGlossaryOnce() {
  if (ui.glossaryAsked) return;
  ui.glossaryAsked = true;
  loadGlossary("harakiri").then(rerender).catch(() => { ui.glossaryAsked = false; });
}

const ROLLS = new Set(["AttackRolled", "AttackDieRerolled", "AttackDieRemoved", "EnemyAttackRolled", "ResurrectionRolled"]);

/** The last roll made (anyone's, the viewer's own included; an enemy's activation roll on its
 * behaviour table too) and its outcome, from the log up to the view's seq: an outcome only ever joins
 * the roll it follows. */
function lastRoll(doc) {
  let roll = null;
  for (const ev of doc.events || []) {
    const p = ev.payload || {};
    if (ev.type === "AttackDieRemoved") {
      if (roll && roll.who === p.attacker) { // a die taken away (Ninja Shadow): the same roll, one die less
        const i = roll.dice.findIndex((d) => JSON.stringify(d) === JSON.stringify(p.die));
        if (i >= 0) roll.dice = [...roll.dice.slice(0, i), ...roll.dice.slice(i + 1)];
      }
    } else if (ev.type === "AttackRolled" || ev.type === "AttackDieRerolled") {
      const a = p.attack || {};
      if (ev.type === "AttackRolled" || !roll || roll.who !== a.attacker) {
        roll = { seq: ev.seq, who: a.attacker, targets: a.targets || [], dice: a.dice || [], mode: a.mode, skill: a.skill, outcomes: [], rerolls: 0 };
      }
      if (a.dice) roll.dice = a.dice;
      roll.seq = ev.seq; // a reroll is the roll just made
      if (ev.type === "AttackDieRerolled") roll.rerolls += 1;
    } else if (ev.type === "EnemyAttackRolled") {
      roll = { seq: ev.seq, who: p.attacker, targets: [p.target], dice: p.dice || [], skill: p.skill, counter: p.counter, blind: p.blind, outcomes: [], rerolls: 0 };
    } else if (ev.type === "ResurrectionRolled") {
      // the test die's face (none for Izanami's Known Path, which always succeeds)
      const face = p.die && typeof p.die === "object" ? p.die : { n: p.die, s: p.passed ? "hit" : "fail" };
      roll = { seq: ev.seq, who: p.who, targets: [], dice: p.die ? [{ die: "test", n: face.n, s: face.s }] : [], outcomes: [p.known_path ? "Known Path: comes back" : `${p.total} against ${p.difficulty}: ${p.passed ? "comes back" : "does not come back"}`], resurrection: true };
    } else if (ev.type === "EnemyActivated" && Number.isInteger(p.roll)) {
      // a minion's or servant's test die for its lines (a chosen draws an AI card instead: no roll)
      roll = { seq: ev.seq, who: p.enemy, targets: [], dice: [{ die: "test", n: p.roll }], outcomes: [activationWords(p)], activation: true };
    } else if ((ev.type === "AttackResolved" || ev.type === "AttackFinished") && roll && !roll.resurrection && !roll.activation) {
      const who = ev.type === "AttackFinished" ? (p.summary || {}).attacker : p.attacker;
      if (who === roll.who) roll.outcomes.push(ev.type === "AttackFinished" ? pretty((p.summary || {}).outcome) : resolvedText(p));
    }
  }
  return roll;
}

/** What an enemy's activation roll chose: "on the aggressive table: lines 1, 2" (as the history says it). */
function activationWords(p) {
  const lines = p.lines || [];
  const chosen = lines.length ? `line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}` : "no line applies";
  return p.table ? `On the ${p.table} table: ${chosen}` : chosen.charAt(0).toUpperCase() + chosen.slice(1);
}

const DEPARTURES = { CreatureRemoved: "leaves the board", EnemyDefeated: "is defeated and leaves the board", ResistorDefeated: "falls and leaves the board", CharacterDefeated: "is defeated and leaves the board" };

/** Villagers, enemies and characters that left the board this round (from the log). */
function departures(doc) {
  const out = [];
  for (const ev of doc.events || []) {
    const p = ev.payload || {};
    if (ev.type === "OracleDrawn" || ev.type === "RoundEnded") out.length = 0; // a new round
    const who = p.who || p.resistor;
    if (DEPARTURES[ev.type] && who) out.push({ seq: ev.seq, who, text: `${nameOf(who)} ${DEPARTURES[ev.type]}`, sq: lastSquare(doc, who, ev.seq, p.square) });
    else if (ev.type === "CreatureMoved" && p.set && "sq" in p.set && p.set.sq === null && p.who) {
      out.push({ seq: ev.seq, who: p.who, text: `${nameOf(p.who)} leaves the board`, sq: lastSquare(doc, p.who, ev.seq) });
    }
  }
  return out;
}

/** Where a miniature last stood before ``seq`` (from the log), for the mark it leaves. */
function lastSquare(doc, who, seq, given) {
  if (given) return given;
  let sq = null;
  for (const ev of doc.events || []) {
    if (ev.seq >= seq) break;
    const p = ev.payload || {};
    if (ev.type === "CreatureMoved" && p.who === who && p.set && p.set.sq) sq = p.set.sq;
    if (ev.type === "EnemySpawned" && p.who === who && p.enemy && p.enemy.sq) sq = p.enemy.sq;
  }
  if (!sq && ui.prevSquares) sq = ui.prevSquares.get(who) || null;
  return sq;
}

/** The squares and miniatures the last move by someone else touched. */
function lastMoveMarks(doc) {
  const squares = new Set();
  const minis = new Set();
  for (const ev of ((doc.last_move || {}).events) || []) {
    const p = ev.payload || {};
    if (ev.type === "CreatureMoved" && p.set && p.set.sq) { squares.add(p.set.sq); if (p.who) minis.add(p.who); }
    if (ev.type === "EnemySpawned" && p.enemy && p.enemy.sq) { squares.add(p.enemy.sq); if (p.who) minis.add(p.who); }
    if (ev.type === "EnemyActivated" && p.enemy) minis.add(p.enemy);
    if (ev.type === "EnemyAttackRolled") { if (p.attacker) minis.add(p.attacker); if (p.target) minis.add(p.target); }
    if (ev.type === "HealthChanged" && p.who) minis.add(p.who);
  }
  return { squares, minis };
}

/** Why a hit dealt no damage, as the history says it: the target's defense and armor (a
 * character's protective skills too) absorbed the hits, or a critical hit had none to land. */
function noDamageWhy(target, critical) {
  if (critical) return "no hits to land";
  const guards = currentView && currentView.characters && currentView.characters[target] ? "defense, armor and protections" : "defense and armor";
  return `${nameOf(target)}'s ${guards} absorb the hits`;
}

export function resolvedText(p) {
  if (p.outcome) {
    const target = p.target ? ` on ${nameOf(p.target)}` : "";
    const dmg = p.damage !== undefined && p.damage !== null ? `: ${p.damage} damage${p.damage === 0 && p.target ? ` (${noDamageWhy(p.target, p.critical)})` : ""}` : "";
    return `${pretty(p.outcome)}${target}${dmg}${p.critical ? " (critical)" : ""}`;
  }
  if (p.damage && typeof p.damage === "object") {
    const parts = Object.entries(p.damage).map(([t, d]) => {
      const n = typeof d === "number" ? d : (d && d.damage) || 0;
      return `${n} damage to ${nameOf(t)}${n === 0 ? ` (${noDamageWhy(t, p.critical)})` : ""}`;
    });
    return (p.critical ? "Critical! " : "") + (parts.join(", ") || "no damage");
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

/** An enemy's one name, as the history and the prompts give it: its type and colour, "Kachi (red)"
 * (the plus version is a badge, never part of the name). */
function enemyName(en) {
  if (en.kind === "double") return `${nameOf(en.double_of)}'s double`;
  const info = enemyInfo(en);
  const base = info && info.name ? info.name : pretty(en.type);
  return `${base}${en.color ? ` (${en.color})` : ""}`;
}

/** An enemy board's text for a tooltip: its stats, skills and how it activates (content pack + glossary). */
function enemyHelp(id, en) {
  const info = enemyInfo(en) || {};
  const kind = entry(`enemy:${en.kind}`);
  const lines = [
    `${pretty(en.kind)}${en.plus ? " (plus version)" : ""}: ${en.health}/${en.max_health} health${info.movement !== undefined ? `, movement ${info.movement}` : ""}${info.range !== undefined ? `, range ${info.range}` : ""}${info.defense !== undefined ? `, defense ${info.defense}` : ""}${info.armor !== undefined ? `, armor ${info.armor}${en.armor_tokens ? ` (-${en.armor_tokens})` : ""}` : ""}`,
    info.dice ? `Attack dice: ${asRolled(info.dice).join(", ")}` : "",
    ...Object.entries(info.skills || {}).map(([k, sk]) => `${pretty(k)} (${sk.kind}): ${sk.text}`),
    kind ? `${kind.term}: ${kind.text}` : "",
    en.no_heads && !en.allied ? "No head when defeated: it was placed in a zone that was on the table when the party failed." : "",
    condText(en.conditions),
  ];
  const ai = aiLines(en, info);
  if (ai.length) lines.push("Lines:", ...ai);
  return lines.filter(Boolean).join("\n");
}

/** An enemy's AI lines in words (minion tables, servant lines, chosen AI cards in play). */
function aiLines(en, info) {
  const line = (l) => {
    const parts = [];
    if (l.move) parts.push(`${explain(`line:${l.move.cond}`) || pretty(l.move.cond)}${l.move.x ? ` (${l.move.x})` : ""}${l.move.of === "ally" ? " (an ally)" : ""}`);
    if (l.attack) parts.push(`attack with ${pretty(l.attack.skill)}${l.attack.focus ? " + focus die" : ""}`);
    const pri = explain(`line:${l.priority || "none"}`);
    return `${l.n}. ${parts.join(", then ") || "nothing"}${pri ? ` — ${pri.toLowerCase()}` : ""}`;
  };
  if (en.kind === "minion") {
    const oracle = currentView && currentView.oracle && currentView.oracle.color === "red" ? "aggressive" : "normal";
    return (info[oracle] || []).map((row) => `${(row.die || []).join("/")} (${oracle}): ${(row.lines || []).map(line).join("; ")}`);
  }
  if (info.lines) return info.lines.map(line);
  return [];
}

function condText(conds) {
  const on = Object.entries(conds || {}).filter(([, n]) => n > 0);
  return on.map(([k, n]) => `${helpText(`condition:${k}`) || pretty(k)}${n > 1 ? ` (×${n})` : ""}`).join("\n");
}

function weaponName(id) {
  const w = ui.content && ui.content.weapons && ui.content.weapons[id];
  return w ? w.name : pretty(id);
}

function armorName(id) {
  if (id === null || id === undefined) return "none";
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

function skillInfo(id) {
  const sk = ((ui.content && ui.content.skills) || []).find((x) => x.id === id);
  if (sk) return sk;
  for (const k of (ui.content && ui.content.kami) || []) {
    const ks = (k.skills || []).find((x) => x.id === id);
    if (ks) return { ...ks, kami: k.name };
  }
  return null;
}

/** A skill's text for a tooltip: its kind, Ki requirement and rules text (content pack + glossary). */
function skillHelp(id) {
  const sk = skillInfo(id);
  if (!sk) return "";
  const kind = entry(`skill:${sk.kind}`);
  return [`${sk.kami ? `${sk.kami}, level ${sk.level} Kami skill` : `${pretty(sk.kind)} skill`}${sk.ki ? `, needs a Ki die of ${sk.ki}+ in its slot` : ""}`,
    sk.text, kind ? `${kind.term}: ${kind.short}` : ""].filter(Boolean).join("\n");
}

/** Dice as this match rolls them: with the optional rule "Replace the Red Die" (the view's
 * ``blue_die``) each red die is the blue die. */
function asRolled(dice) {
  return currentView && currentView.blue_die ? dice.map((d) => (d === "red" ? "blue (for red)" : d)) : dice;
}

function weaponHelp(id) {
  const w = ui.content && ui.content.weapons && ui.content.weapons[id];
  if (!w) return "";
  const yy = w.yinyang ? entry(`yinyang:${w.yinyang}`) : null;
  return [`${pretty(w.class)} weapon, range ${w.range}`,
    w.fast ? `Fast attack (1 AP): ${asRolled(w.fast).join(", ")}` : "No fast attack", w.strong ? `Strong attack (2 AP): ${asRolled(w.strong).join(", ")}` : "No strong attack",
    yy ? `Yin-yang: ${yy.term}: ${yy.short}` : ""].filter(Boolean).join("\n");
}

const ALWAYS_ON = new Set(["attack_bonus", "armor_bonus", "none"]);

/** What an item does in this phase, in words (the catalogue's Exploration effect). */
function itemEffect(info) {
  const eff = info.effect || {};
  return {
    heal: `regain ${eff.amount} health${eff.cleanse ? ` and remove ${eff.cleanse.join(", ")}` : ""}`,
    cleanse: "remove all negative conditions",
    bless: `gain a blessed token${eff.once_per_phase ? " (once per Exploration Phase)" : ""}`,
    damage: `${eff.amount} damage to an enemy in range ${info.range} and line of sight (not an attack)`,
    condition: `${eff.condition} on a minion in range ${info.range} (not an attack)`,
    karma: `gain ${eff.amount} karma`,
    movement: `${eff.amount} more movement point${eff.amount === 1 ? "" : "s"} while you move`,
    attack_bonus: `always on: +${eff.amount} to the hits of your attacks`,
    armor_bonus: `always on: +${eff.amount} armor while you wear your class's armor`,
    none: "no use in the Exploration Phase",
  }[eff.kind] || pretty(eff.kind);
}

function itemHelp(it) {
  const info = ui.content && ui.content.items && ui.content.items[it.id];
  if (!info) return "";
  const type = entry(`item:${info.type}`);
  const eff = info.effect || {};
  const use = ALWAYS_ON.has(eff.kind) ? "" : info.type === "permanent" ? "Use (no AP): " : "Use (1 AP): ";
  return [`${use}${itemEffect(info)}${info.knowledge ? ` (needs knowledge ${info.knowledge})` : ""}`,
    info.text ? `Card: ${info.text}` : "",
    type ? `${type.term}: ${type.short}` : "", it.uses !== null && it.uses !== undefined ? `${it.uses} use${it.uses === 1 ? "" : "s"} left` : ""].filter(Boolean).join("\n");
}

/** A card's name and price, from the content pack (an item, a weapon or an armor). */
function card(id) {
  const c = ui.content || {};
  return (c.items && c.items[id]) || (c.weapons && c.weapons[id]) || (c.armors && c.armors[id]) || null;
}

function cardName(id) {
  const found = card(id);
  return found ? found.name : pretty(id);
}

function seatName(doc, seat) {
  const s = doc.match && doc.match.seats && doc.match.seats[seat];
  const name = s ? seatLabel(s) : `Seat ${Number(seat) + 1}`;
  return seat === doc.seat ? `${name} (you)` : name;
}

function xy(sq) {
  const [x, y] = String(sq).split(",").map(Number);
  return { x, y };
}

function cardLabel(view, card) {
  const [kind, id] = String(card).split(":");
  if (kind === "char") return nameOf(id);
  if (kind === "color") return `${pretty(id)} enemies`;
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
  if (opt.buy) {
    const c = card(opt.buy);
    const pack = ui.content || {};
    const what = pack.weapons && pack.weapons[opt.buy] ? ` (level ${c.level} weapon, range ${c.range})`
      : pack.armors && pack.armors[opt.buy] ? ` (level ${c.level} armor ${c.armor})` : "";
    return `Buy ${cardName(opt.buy)}${what}${c ? ` for ${c.cost} coins` : ""}`;
  }
  if (opt.sell) {
    const c = card(opt.sell);
    return `Sell ${cardName(opt.sell)}${c ? ` for ${Math.floor(c.cost / 2)} coins` : ""}`;
  }
  if (opt.sell_heads) return "Sell heads (10 coins each, boss heads 30)";
  if (opt.repair) return "Repair the armor";
  if (opt.repeat) return "Repeat the failure procedure";
  if (opt.success) return "Read the success section";
  if (opt.done) return pending && (pending.kind === "market" || pending.kind === "blacksmith") ? `Leave the ${pending.kind}` : "Done";
  const rest = argsText(opt);
  return rest ? pretty(rest) : `Option ${i + 1}`;
}

// -- the legal commands, sorted by what the board can click --------------------------------------

function classify(doc) {
  const view = doc.view;
  const legal = doc.legal_commands || [];
  const out = { steps: new Map(), attacks: new Map(), choices: [], rerolls: [], resolve: null, actions: [], other: [], shares: [], endShare: null };
  for (const cmd of legal) {
    const a = cmd.args || {};
    if (cmd.type === "step" && typeof a.to === "string" && view.squares[a.to]) out.steps.set(a.to, cmd);
    else if (cmd.type === "attack" && typeof a.target === "string" && view.enemies[a.target] && view.enemies[a.target].sq) {
      if (!out.attacks.has(a.target)) out.attacks.set(a.target, []);
      out.attacks.get(a.target).push(cmd);
    } else if (cmd.type === "choose" && view.pending && Number.isInteger(a.option) && view.pending.options[a.option] !== undefined) out.choices.push(cmd);
    else if (cmd.type === "reroll_die" && view.attack && Number.isInteger(a.die)) out.rerolls.push(cmd);
    else if (cmd.type === "resolve_attack") out.resolve = cmd;
    else if (cmd.type === "share") out.shares.push(cmd);
    else if (cmd.type === "end_share") out.endShare = cmd;
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
      h("p", { class: "muted", dataset: { testid: "waiting" } }, waitingWords(doc)),
    );
    return;
  }
  loadGlossaryOnce();
  trackChanges(doc);
  const player = doc.seat !== null && doc.seat !== undefined;
  const opts = classify(player ? doc : { ...doc, legal_commands: [] });
  if (ui.sel && !(ui.sel.kind === "attack" && opts.attacks.has(ui.sel.target) && ui.sel.seq === doc.seq)) ui.sel = null;
  onEscape("harakiri", () => {
    if (!ui.sel) return false;
    focusOnSelection(view, null);
    ui.sel = null;
    rerender();
    return true;
  });

  const send = (cmd) => {
    if (ui.busy) return;
    ui.busy = true;
    ui.sel = null;
    rerender();
    sendCommand(cmd.type, cmd.args || {})
      .catch(() => { /* the match page shows the refusal under the board */ })
      .finally(() => { ui.busy = false; rerender(); });
  };
  const ctx = { doc, view, opts, send, player, select: (sel) => { focusOnSelection(view, sel); ui.sel = sel ? { ...sel, seq: doc.seq } : null; rerender(); },
    explain: (text) => { ui.notice = text ? { text, seq: doc.seq } : null; rerender(); },
    marks: lastMoveMarks(doc), gone: departures(doc) };

  rememberFocus(container);
  const root = h("div", { class: "hk", dataset: { seat: player ? String(doc.seat) : "spectator" } });
  root.append(renderBanner(ctx));
  root.append(renderTop(ctx));
  root.append(renderInitiative(ctx));
  root.append(renderPrompt(ctx));
  if (player) root.append(renderActions(ctx));
  // just under the squares, so they do not move under the pointer that clicked
  const notice = ui.notice && ui.notice.seq === doc.seq
    ? h("p", { class: "notice hk-notice", "data-testid": "harakiri-notice" }, ui.notice.text) : "";
  root.append(h("div", { class: "hk-main" },
    h("div", { class: "hk-map", "data-testid": "harakiri-map" }, renderGrid(ctx), notice, renderLegend(view)),
    h("div", { class: "hk-side" }, renderDice(ctx), renderDepartures(ctx), renderEnemies(ctx))));
  if (!player && !doc.open) root.append(h("p", { class: "muted hk-spectating" }, "You are watching this match.")); // not on the staff review's open board
  root.append(renderParty(ctx));
  // said aloud: why a click did nothing, else the end, else what the prompt asks
  const said = root.querySelector(".hk-notice") || root.querySelector(".hk-banner") || root.querySelector(".hk-prompt p");
  showBoard(container, root, said ? said.textContent : "", "harakiri-said");
  restoreFocus(container);
}

/** What has the keyboard focus on the board, as a selector that finds the same control in the next
 * drawing (a square by its coordinates, a button by what it does): a live update redraws the board
 * and must not throw the focus back to the top of the page. */
function focusKey(node) {
  const d = node.dataset || {};
  for (const k of ["sq", "action", "option", "variant", "share", "card", "enemy", "character"]) {
    if (d[k] !== undefined) return `[data-${k}="${CSS.escape(d[k])}"]`;
  }
  if (d.type) return `[data-type="${CSS.escape(d.type)}"]${d.die !== undefined ? `[data-die="${CSS.escape(d.die)}"]` : ""}`;
  if (d.die !== undefined) return `[data-die="${CSS.escape(d.die)}"]`;
  if (d.help !== undefined) return `[data-help="${CSS.escape(d.help)}"]`; // a card, a skill, a term
  return null;
}

/** Before a redraw: note the focused control when the focus is on the board (a control disabled or
 * gone since leaves the focus on the page's body: the last one noted is still wanted). */
function rememberFocus(container) {
  if (!ui.watchingClicks) { // a click elsewhere on the page: the focus is no longer the board's to keep
    ui.watchingClicks = true;
    document.addEventListener("mousedown", (e) => { const board = ui.last && ui.last[0]; if (board && !board.contains(e.target)) ui.focus = null; }, true);
  }
  const active = document.activeElement;
  if (ui.focusNext) { // a selection said where the focus goes next
    ui.focus = ui.focusNext;
    ui.focusNext = null;
  } else if (active && active !== container && container.contains(active)) {
    if (!active.classList.contains("hk-prompt")) ui.focus = focusKey(active);
  } else if (active && active !== document.body) ui.focus = null; // the player went elsewhere
}

/** After a redraw: the focus back on the control noted (or the one ``ui.focus`` was set to, as a
 * selection does), else on the prompt, which says what to do now. */
function restoreFocus(container) {
  if (!ui.focus) return;
  const active = document.activeElement;
  if (active && active !== document.body && !container.contains(active)) return;
  const again = [...container.querySelectorAll(ui.focus)].find((n) => !n.disabled && (n.tabIndex >= 0 || n.hasAttribute("tabindex")));
  const target = again || container.querySelector(".hk-prompt");
  if (target && target !== document.activeElement) target.focus({ preventScroll: true });
}

/** Where the focus goes when a target is selected (its attack choices) or unselected (its square),
 * if the focus is on the board (a click leaves it where it was). */
function focusOnSelection(view, sel) {
  const board = ui.last && ui.last[0];
  if (!board || !board.contains(document.activeElement)) return;
  const target = sel || ui.sel;
  const e = target && view.enemies[target.target];
  ui.focusNext = sel ? '[data-variant="0"]' : e && e.sq ? `[data-sq="${CSS.escape(e.sq)}"]` : null;
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
  // where every miniature was last seen (a defeated one keeps its square, for the mark it leaves)
  const squares = new Map(ui.prevSquares || []);
  for (const group of [doc.view.characters, doc.view.enemies, doc.view.resistors || {}]) {
    for (const [id, m] of Object.entries(group)) if (m.sq) squares.set(id, m.sq);
  }
  ui.prevSquares = squares;
  ui.seenSeq = doc.seq;
}

function renderBanner({ doc, view }) {
  const st = doc.status || {};
  if (!st.finished) return "";
  const result = view.result;
  const text = result === "victory" ? "Victory! The party completed the objective."
    : result === "round_cap" ? "The round limit was reached."
    : result ? `The phase ended: ${pretty(result)}.` : "The phase ended.";
  return h("div", { class: `hk-banner${result === "victory" ? " is-win" : ""}`, "data-testid": "harakiri-banner" },
    h("strong", {}, "Game over. "), text);
}

function renderTop({ view }) {
  const oracle = view.oracle || {};
  const bar = h("div", { class: "hk-top" });
  bar.append(h("div", { class: "hk-stat" }, h("span", { class: "hk-stat-label" }, "Round"),
    `${view.round_cap && view.phase === "ended" ? Math.min(view.round, view.round_cap) : view.round}${view.round_cap ? ` / ${view.round_cap}` : ""}`));
  bar.append(h("div", { class: "hk-stat" }, h("span", { class: "hk-stat-label" }, "Phase"), phaseWords(view)));
  bar.append(help(h("div", { class: "hk-stat", "data-testid": "harakiri-oracle" },
    h("span", { class: "hk-stat-label" }, "Oracle"),
    h("span", { class: `hk-oracle oc-${oracle.color || "none"}` }, oracle.color ? pretty(oracle.color) : "–"),
    h("span", { class: "hk-small" }, `deck ${oracle.deck ?? "?"}`)), `${oracle.deck ?? "?"} cards left in the oracle deck.\n${helpText("concept:ORACLE")}`));
  const malice = h("span", { class: "hk-pips", "aria-hidden": "true" });
  for (let i = 0; i < Math.max(5, view.malice); i++) malice.append(h("span", { class: i < view.malice ? "pip on" : "pip" }));
  bar.append(help(h("div", { class: "hk-stat", "data-testid": "harakiri-malice" },
    h("span", { class: "hk-stat-label" }, "Malice"), String(view.malice), malice), helpText("concept:MALICE")));
  bar.append(help(h("div", { class: "hk-objective" },
    h("span", { class: "hk-stat-label" }, "Objective "), (view.objective && view.objective.text) || ""), `${view.scenario_name || ""}\n${helpText("concept:OBJECTIVE")}`));
  // the chapter's consequences of the Adventure Phase just played (its missions, the campaign sheet's marks)
  if (view.blue_die) {  // the optional rule "Replace the Red Die": every red die is rolled blue
    bar.append(help(h("div", { class: "hk-stat", "data-testid": "harakiri-blue-die" },
      h("span", { class: "hk-stat-label" }, "Optional rule"), h("span", { class: "hk-die die-blue" }, "1–3"), "blue die for red"),
    `Replace the Red Die: the blue die is rolled wherever a red die is called for.\n${helpText("dice:blue")}`));
  }
  const after = view.adventure_consequences || [];
  if (after.length) {
    bar.append(h("div", { class: "hk-objective", "data-testid": "harakiri-adventure-consequences" },
      h("span", { class: "hk-stat-label" }, "From the Adventure Phase "), after.map((c) => c.text).join(" ")));
  }
  return bar;
}

function renderPrompt(ctx) {
  const { doc, view, opts, send, player, select } = ctx;
  const st = doc.status || {};
  if (st.finished) return "";
  // its words are spoken by the board's live region (registry.showBoard), which outlives the redraws
  const box = h("div", { class: "hk-prompt", tabindex: "-1", "data-testid": "harakiri-prompt" });
  const awaited = st.awaiting || [];
  const mine = player && awaited.includes(doc.seat);
  if (view.phase === "share") return renderShare(ctx, box, mine, awaited);
  const pending = view.pending;
  if (pending) {
    box.append(h("p", { class: "hk-ask" }, h("strong", {}, pending.by === "party" ? "Party decision: " : "Decision: "), readable(view, pending.prompt) || pretty(pending.kind)));
    if (mine) {
      const onMap = opts.choices.some((c) => choiceSquare(view, pending.options[c.args.option]));
      box.append(h("p", { class: "muted hk-small" }, onMap
        ? "Choose with the buttons just below, or choose a square marked ✓ on the map."
        : "Choose with the buttons just below."));
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
    box.append(h("p", { class: "hk-ask" }, `${nameOf(atk.attacker)} rolled against ${(atk.targets || []).map(nameOf).join(", ")}:`,
      mine ? h("span", { class: "muted hk-small" }, ` reroll a die with the button under it, or press Resolve attack${opts.resolve ? "" : " (someone else decides)"}.`) : ""));
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
    box.append(h("p", { class: "hk-ask" }, `${who ? who.name : "Attack"} attacks ${nameOf(s.target)}: choose how with the buttons below (Escape cancels).`));
    box.append(h("div", { class: "hk-choices" },
      cmds.map((cmd, i) => h("button", { type: "button", class: i === 0 ? "primary hk-variant" : "hk-variant", disabled: ui.busy, dataset: { variant: String(i) }, onclick: () => send(cmd) }, attackVariant(cmd.args))),
      h("button", { type: "button", class: "link-button", onclick: () => select(null) }, "Cancel")));
    return box;
  }
  const hints = [];
  if (opts.steps.size) hints.push("choose a blue-outlined square on the map to step there");
  if (opts.attacks.size) hints.push("choose a red-glowing enemy on the map to attack it");
  const bar = opts.actions.length || opts.other.length;
  if (bar) hints.push(hints.length ? "or choose an action in the bar just below" : "choose an action in the bar just below");
  if (!hints.length) hints.push("wait: nothing to do right now");
  const mp = view.turn && (view.turn.moving ? view.turn.mp : view.turn.rolling ? view.turn.roll_mp : null);
  box.append(h("p", { class: "hk-ask" },
    `${who ? `${who.name}'s activation (${who.ap} AP${mp !== null && mp !== undefined ? `, ${mp} MP` : ""})` : "Your move"}: ${hints.join(", ").replace(", or", " or")}.`));
  return box;
}

/** A share command in words: "3 coins", "Ginseng Tea", "Katana", "the armor (exchanged)". */
function shareWhat(view, a) {
  if (a.what === "coins") return `${a.amount} coin${a.amount === 1 ? "" : "s"}`;
  if (a.what === "heads") return `${a.amount} head${a.amount === 1 ? "" : "s"}`;
  if (a.what === "boss_heads") return `${a.amount} boss head${a.amount === 1 ? "" : "s"}`;
  if (a.what === "armor") {
    const other = view.characters[a.to];
    return other && other.armor_card ? `${armorName(view.characters[a.from].armor_card)} (for ${armorName(other.armor_card)})` : armorName(view.characters[a.from].armor_card);
  }
  return cardName(a.what);
}

/** Exploration Phase Setup, step 2: before the first round the players hand over what their
 * characters carry (one list per giver and receiver), then each says it is ready. */
function renderShare({ doc, view, opts, send }, box, mine, awaited) {
  box.classList.add("hk-share");
  box.append(h("p", { class: "hk-ask" }, "Before the Exploration Phase: the characters may exchange items."),
    h("p", { class: "hk-small muted" }, "As with the share action of the Adventure Phase: coins, heads, items, weapons and armor, free of action points. "
      + "Hand over what your characters carry (the receiver's limits apply: 2 weapons, 2 permanent and 5 market items). The first round begins when every player is ready."));
  if (!mine) {
    const waiting = awaited.map((s) => seatName(doc, s)).join(", ");
    box.append(h("p", { class: "muted" }, doc.seat !== null && doc.seat !== undefined && (view.share || {}).ready && view.share.ready.includes(doc.seat)
      ? `You are ready. Waiting for ${waiting}.` : `Waiting for ${waiting}.`));
    return box;
  }
  const pairs = new Map();
  for (const cmd of opts.shares) {
    const key = `${cmd.args.from}>${cmd.args.to}`;
    if (!pairs.has(key)) pairs.set(key, []);
    pairs.get(key).push(cmd);
  }
  const lists = h("div", { class: "hk-share-lists", "data-testid": "harakiri-share" });
  for (const [key, cmds] of pairs) {
    const [from, to] = key.split(">");
    const id = `hk-share-${from}-${to}`;
    const select = h("select", { id, dataset: { from, to } }, cmds.map((c, i) => h("option", { value: String(i) }, shareWhat(view, c.args))));
    lists.append(h("div", { class: "hk-share-pair" },
      h("label", { for: id }, `${nameOf(from)} gives ${nameOf(to)}`), select,
      h("button", { type: "button", disabled: ui.busy, dataset: { share: key }, onclick: () => send(cmds[Number(select.value) || 0]) }, "Give")));
  }
  if (!pairs.size) lists.append(h("p", { class: "muted hk-small" }, "Your characters have nothing another character can take."));
  box.append(lists);
  if (opts.endShare) {
    box.append(h("button", { type: "button", class: "primary", disabled: ui.busy, "data-action": "end_share", onclick: () => send(opts.endShare) },
      "Ready: start the Exploration"));
  }
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
  if (d.die === "test") { face = String(d.n ?? "?"); cls = d.s ? `s-${d.s}` : ""; }
  else if (d.die === "focus") { face = d.f === "minus1" ? "−1" : d.f === "fail_no_counter" ? "✗·" : "✗"; cls = "s-focus"; }
  else { face = String(d.i ?? 0); cls = d.y ? `y-${d.y}` : ""; }
  const face_ = d.die === "test" ? entry(`dice:${d.s}`) : d.die === "focus" ? entry(`dice:${d.f}`) : null;
  const text = [
    `${pretty(d.die)} die: ${d.die === "test" ? `${d.n ?? "?"}${face_ ? `, ${face_.term}: ${face_.short}` : ""}` : d.die === "focus" ? (face_ ? `${face_.term}: ${face_.short}` : pretty(d.f)) : `${d.i} impact${d.i === 1 ? "" : "s"}`}`,
    d.y ? `${d.y === "success" ? "Success" : "Fail"} yin-yang symbol. ${explain("dice:yinyang")}` : "",
    explain(`dice:${d.die}`),
  ].filter(Boolean).join("\n");
  return help(h("span", { class: `hk-die die-${d.die} ${cls}` }, face, d.y ? h("span", { class: "hk-yy" }, "☯") : ""), text);
}

/** Why a click on enemy ``id`` found no attack to offer, in one sentence for the player. Only what
 * the view shows is said (the turn, action points, the weapon's range and heights); line of sight
 * and skills are the engine's, so anything else reads as the plain fact. */
export function whyNoAttack(doc, id) {
  const view = doc.view;
  currentView = view;
  const e = view.enemies[id];
  if (!e || doc.seat === null || doc.seat === undefined) return "";
  const target = enemyName(e);
  if (!((doc.status && doc.status.awaiting) || []).includes(doc.seat)) return `It is not your turn: nothing of yours can target ${target} now.`;
  if (view.pending) return `Answer the decision above first: nothing can target ${target} until then.`;
  if (view.attack) return "Finish the attack roll first.";
  const turn = view.turn || {};
  const c = turn.kind === "character" && turn.who ? view.characters[turn.who] : null;
  if (!c) return `No action can target ${target} now.`;
  const who = c.name;
  if (e.allied || e.kind === "double") return `${target} is on the party's side.`;
  if (turn.attacked) return `${who} has already attacked this activation.`;
  if (c.divine_fire === view.round) return `${who} used Divine Fire: no attacks this round.`;
  if (turn.moving || turn.rolling) return `${who} is moving: end the move first, then attack ${target}.`;
  if (c.ap < 1) return `${who} has no action points left to attack ${target}.`;
  const w = ui.content && ui.content.weapons && ui.content.weapons[c.equipped];
  if (w && c.sq && e.sq) {
    const a = xy(c.sq);
    const b = xy(e.sq);
    const away = Math.max(Math.abs(a.x - b.x), Math.abs(a.y - b.y)); // diagonals count 1 (rulebook "Determining Range")
    if (away > w.range) return `${target} is out of ${who}'s reach: ${w.name} has range ${w.range}, ${target} is ${away} squares away.`;
    const height = (sq) => (view.squares[sq] && view.squares[sq].h) || 0;
    if (height(c.sq) !== height(e.sq) && w.range < 3) return `${target} stands at another height: ${who}'s ${w.name} (range ${w.range}) cannot reach it.`;
  }
  return `No action of ${who}'s can target ${target} now.`;
}

function renderGrid(ctx) {
  const { doc, view, opts, send, select, explain: say, player } = ctx;
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
  const markHelp = new Map();
  const markWords = new Map(); // sq -> the marks in a few words, for the square's accessible name
  const mark = (sq, text, cls, title, words) => {
    if (!sq) return;
    if (!marks.has(sq)) marks.set(sq, []);
    marks.get(sq).push(h("span", { class: `hk-mark ${cls}`, "aria-hidden": "true" }, text));
    markHelp.set(sq, [...(markHelp.get(sq) || []), title]);
    markWords.set(sq, [...(markWords.get(sq) || []), words]);
  };
  for (const g of ctx.gone) if (g.sq) mark(g.sq, "✕", "gone", `${g.text} (this round).`, `${g.text} this round`);
  for (const [id, d] of Object.entries(view.doors || {})) mark(d.sq, d.open ? "▯" : "▮", d.open ? "door-open" : "door-closed", `Door ${pretty(id)} (${d.open ? "open" : "closed"}${d.survey ? `, leads to ${pretty(d.survey)}` : ""}). ${explain("terrain:door")}`, `${d.open ? "open" : "closed"} door`);
  for (const [id, p] of Object.entries(view.points || {})) mark(p.sq || p.at, id, "point", `Interaction point ${id}${p.text ? `: ${p.text}` : ""}. ${explain("terrain:point")}`, `interaction point ${id}`);
  for (const [color, sq] of Object.entries(view.spawns || {})) mark(typeof sq === "string" ? sq : sq && sq.sq, "◎", `spawn sp-${color}`, `${pretty(color)} spawn point: ${explain("terrain:spawn")}`, `${color} spawn point`);
  (view.heads || []).forEach((hd) => mark(hd.sq, hd.boss ? "☗" : "☖", "head", `${hd.boss ? "Boss head" : "Head"}: ${explain("concept:HEAD")}`, hd.boss ? "a boss head" : "a head"));
  (view.yastun_lad || []).forEach((lad) => mark(lad.sq, "🐾", "lad", `Yastun Lad (${nameOf(lad.owner)})${lad.on ? ` on ${nameOf(lad.on)}'s board` : ""}`, `Yastun Lad (${nameOf(lad.owner)})`));

  const headless = new Map(noHeadZones(view, new Set([...at.keys(), ...marks.keys()])).map((z) => [z.zone, z]));
  const tagged = new Set([...headless.values()].map((z) => z.sq));
  const turnWho = view.turn && view.turn.who;
  // A grid of rows of squares (ARIA's grid: the arrow keys move between squares, Tab stops only
  // at the squares that hold something or offer an action, Enter or Space does what a click does).
  const grid = h("div", { class: "hk-grid", role: "grid", "aria-label": `The map, ${cols} squares by ${maxY - minY + 1}; arrow keys move between squares`,
    onkeydown: moveAcrossGrid });
  grid.style.setProperty("--cols", String(cols)); // the squares shrink to fit the board's width
  for (let y = minY; y <= maxY; y++) {
    const row = h("div", { class: "hk-gridrow", role: "row" });
    grid.append(row);
    for (let x = minX; x <= maxX; x++) {
      const sq = `${x},${y}`;
      const info = view.squares[sq];
      if (!info) {
        row.append(h("div", { class: "hk-cell t-wall", role: "gridcell", tabindex: "-1", "aria-label": `${sq}: wall`, dataset: { sq } }));
        continue;
      }
      const act = clickable.get(sq);
      const zoneName = zoneNameOf(view, info.z);
      const noHeads = headless.has(info.z);
      const cls = ["hk-cell", `t-${info.t}`, `hgt-${Math.min(3, info.h || 0)}`];
      if (act) cls.push("is-target", `act-${act.kind}`);
      if (act && act.selected) cls.push("is-selected");
      if (ctx.marks.squares.has(sq)) cls.push("is-last");
      const west = view.squares[`${x - 1},${y}`];
      const north = view.squares[`${x},${y - 1}`];
      if (west && west.z !== info.z) cls.push("zb-w");
      if (north && north.z !== info.z) cls.push("zb-n");
      const here = at.get(sq) || [];
      const foe = !act && player && here.find((o) => o.kind === "enemy");
      const onclick = act ? act.run : foe ? () => say(whyNoAttack(doc, foe.id)) : undefined;
      // ARIA's grid: a square that offers an action is a button inside its gridcell (a screen reader
      // says "button"); any other square is the gridcell itself, focusable for the arrow keys
      const node = h(act ? "button" : "div", {
        class: cls.join(" "), role: act ? undefined : "gridcell", type: act ? "button" : undefined,
        dataset: { sq, terrain: info.t, height: String(info.h || 0) },
        "aria-label": squareName({ sq, info, here, act, view, turnWho, zoneName, noHeads, last: ctx.marks.squares.has(sq), marks: markWords.get(sq) }),
        onclick,
        // a square that answers a click without being a button answers Enter and Space too
        onkeydown: !act && onclick ? (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onclick(); } } : undefined,
      });
      if (info.h) node.append(h("span", { class: "hk-height", "aria-hidden": "true" }, `▲${info.h}`));
      if (tagged.has(sq)) node.append(h("span", { class: "hk-noheads", "aria-hidden": "true" }, "no heads"));
      for (const m of marks.get(sq) || []) node.append(m);
      here.forEach((o, i) => {
        const mini = miniNode(view, o, turnWho);
        mini.setAttribute("aria-hidden", "true");
        if (here.length > 1) mini.classList.add("is-stacked", `stack-${Math.min(i, 3)}`);
        node.append(mini);
      });
      if (act && act.kind === "step") node.append(h("span", { class: "hk-action", "aria-hidden": "true" }, "•"));
      if (act && act.kind === "choice") node.append(h("span", { class: "hk-action is-choice", "aria-hidden": "true" }, "✓"));
      const terrain = entry(`terrain:${info.t}`);
      help(node, [
        act ? (act.kind === "attack" ? "Press to attack this enemy." : act.kind === "step" ? "Press to step here." : "Press to choose this square.") : "",
        ...here.map((o) => miniHelp(o)),
        ...(markHelp.get(sq) || []),
        `${terrain ? `${terrain.term}: ${terrain.short}` : TERRAIN_LABEL[info.t] || pretty(info.t)}${specialNote(view, info)}`,
        info.h ? `Height ${info.h}: ${explain("terrain:height")}` : "",
        `${zoneName}, square ${sq}`,
        noHeads ? noHeadsText(zoneName) : "",
      ].filter(Boolean).join("\n"), here.length ? here.map((o) => nameOf(o.id)).join(" and ") : undefined,
      Boolean(act) || here.length > 0 || markHelp.has(sq) || tagged.has(sq)); // plain squares: hover only (the legend has their text)
      if (!node.hasAttribute("tabindex") && node.tagName !== "BUTTON") node.setAttribute("tabindex", "-1"); // the arrow keys reach them
      row.append(act ? h("div", { class: "hk-gridcell", role: "gridcell",
        "aria-selected": act.kind === "attack" ? String(Boolean(act.selected)) : undefined }, node) : node);
    }
  }
  return h("div", { class: "hk-grid-wrap" }, grid);
}

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** The arrow keys move the focus to the next square of the map that way (walls included). */
function moveAcrossGrid(e) {
  const step = ARROWS[e.key];
  const from = e.target.closest && e.target.closest(".hk-cell[data-sq]");
  if (!step || !from) return;
  const { x, y } = xy(from.dataset.sq);
  const next = e.currentTarget.querySelector(`.hk-cell[data-sq="${x + step[0]},${y + step[1]}"]`);
  if (!next) return;
  e.preventDefault();
  next.focus();
}

/** What a sighted player sees on a square, in words: where it is, its terrain and height, who
 * stands there and how they are, its marks, and what a click does. */
function squareName({ sq, info, here, act, view, turnWho, zoneName, noHeads, last, marks }) {
  const parts = [`${sq}, ${TERRAIN_LABEL[info.t] || pretty(info.t)}${info.h ? `, height ${info.h}` : ""}`];
  parts.push(...here.map((o) => miniWords(view, o, turnWho)));
  parts.push(...(marks || []));
  if (noHeads) parts.push(`${zoneName} gives no heads`);
  if (last) parts.push("touched by the last move");
  const name = parts.join("; ");
  if (!act) return name;
  const does = act.kind === "attack" ? (act.selected ? "selected to attack" : "attack") : act.kind === "step" ? "step here" : `choose option ${act.label}`;
  return `${name}: ${does}`;
}

function conditionWords(conds) {
  return Object.entries(conds || {}).filter(([, n]) => n > 0).map(([k, n]) => `${k}${n > 1 ? ` ×${n}` : ""}`);
}

/** A miniature in words: "Akira, 11/11 health, bleeding, acting now". */
function miniWords(view, o, turnWho) {
  if (o.kind === "char") {
    const c = o.c;
    return [c.name, `${c.health}/${c.max_health} health`, ...conditionWords(c.conditions), turnWho === o.id ? "acting now" : ""].filter(Boolean).join(", ");
  }
  if (o.kind === "enemy" && o.e.kind === "double") return enemyName(o.e);
  if (o.kind === "enemy") {
    const e = o.e;
    return [enemyName(e), e.allied ? "on the party's side" : "", e.plus ? "plus version" : "", `${e.health}/${e.max_health} health`, ...conditionWords(e.conditions)].filter(Boolean).join(", ");
  }
  return `${o.r.name}, ${o.r.tokens} resistance token${o.r.tokens === 1 ? "" : "s"}`;
}

/** What a tooltip says about a miniature on a square. */
function miniHelp(o) {
  if (o.kind === "char") {
    const c = o.c;
    return `${c.name}: ${c.health}/${c.max_health} health, ${c.ap} AP${condText(c.conditions) ? `\n${condText(c.conditions)}` : ""}`;
  }
  if (o.kind === "enemy" && o.e.kind === "double") return `${enemyName(o.e)}: ${explain("enemy:double")}`;
  if (o.kind === "enemy") return `${enemyName(o.e)}: ${enemyHelp(o.id, o.e)}`;
  return `${o.r.name}: ${o.r.tokens} resistance token${o.r.tokens === 1 ? "" : "s"}. ${explain("enemy:resistor")}`;
}

function healthBar(cur, max) {
  const pct = max ? Math.max(0, Math.min(100, Math.round((100 * cur) / max))) : 0;
  return h("span", { class: "hk-hp", "aria-hidden": "true" }, h("span", { class: "hk-hp-fill", style: `width:${pct}%` }));
}

function condBadges(conds) {
  return Object.entries(conds || {}).filter(([, n]) => n > 0).map(([k, n]) =>
    help(h("span", { class: `hk-cond c-${k}` }, h("span", { "aria-hidden": "true" }, `${CONDITIONS[k] || k[0]}${n > 1 ? n : ""}`),
      h("span", { class: "visually-hidden" }, `${k}${n > 1 ? ` ×${n}` : ""}`)), `${helpText(`condition:${k}`) || pretty(k)}${n > 1 ? ` (×${n})` : ""}`));
}

function isFlashing(id) {
  const now = Date.now();
  return ui.flash.has(id) && now < ui.flashUntil;
}

function miniNode(view, o, turnWho) {
  if (o.kind === "char") {
    const c = o.c;
    return h("span", {
      class: `hk-mini is-char ch-${o.id}${turnWho === o.id ? " is-active" : ""}${isFlashing(o.id) ? " is-flash" : ""}`,
      dataset: { mini: o.id },
    }, h("span", { class: "hk-mini-tag" }, HERO_SHORT[o.id] || c.name.slice(0, 2)), healthBar(c.health, c.max_health), h("span", { class: "hk-mini-conds" }, condBadges(c.conditions)));
  }
  if (o.kind === "enemy" && o.e.kind === "double") {
    const owner = o.e.double_of;
    const active = view.turn && view.turn.kind === "double" && view.turn.double === o.id;
    return h("span", {
      class: `hk-mini is-char is-double ch-${owner}${active ? " is-active" : ""}${isFlashing(o.id) ? " is-flash" : ""}`,
      dataset: { mini: o.id },
    }, h("span", { class: "hk-mini-tag" }, `${HERO_SHORT[owner] || "?"}²`));
  }
  if (o.kind === "enemy") {
    const e = o.e;
    const actor = view.turn && view.turn.kind === "enemies" && (view.turn.card === `color:${e.color}` || view.turn.card === `enemy:${o.id}`);
    return h("span", {
      class: `hk-mini is-enemy k-${e.kind} ec-${e.color || "none"}${e.allied ? " is-allied" : ""}${actor ? " is-active" : ""}${isFlashing(o.id) ? " is-flash" : ""}`,
      dataset: { mini: o.id },
    }, h("span", { class: "hk-mini-tag" }, (enemyName(e)[0] || "?") + (e.plus ? "+" : "")), healthBar(e.health, e.max_health), h("span", { class: "hk-mini-conds" }, condBadges(e.conditions)));
  }
  const r = o.r;
  return h("span", { class: `hk-mini is-resistor${r.living ? "" : " is-object"}`, dataset: { mini: o.id } },
    h("span", { class: "hk-mini-tag" }, "☺"), h("span", { class: "hk-mini-tokens" }, `×${r.tokens}`));
}

/** The zone's special (blue) terrain rule for a special square's tooltip ("" otherwise). */
function specialNote(view, info) {
  const rule = info.t === "special" && view.zones_info && view.zones_info[info.z] && view.zones_info[info.z].special;
  return rule ? ` (${rule.name}${rule.text ? `: ${rule.text}` : ""})` : "";
}

function zoneNameOf(view, z) {
  return (view.zones_info && view.zones_info[z] && view.zones_info[z].name) || pretty(z);
}

/** Failure, step 7: the zones on the table whose enemies give no heads any more (the view's
 * ``zones.<z>.no_heads``: the zones that were on the table at a failure), each with its name and the
 * square its "no heads" tag sits on: the zone's first square in reading order that is free, and whose
 * east neighbour is free too (the tag may run over it on a phone), so that it hides no miniature
 * and no mark (``busy``: the squares holding one); else its first square. */
export function noHeadZones(view, busy = new Set()) {
  const out = [];
  for (const [z, zs] of Object.entries(view.zones || {})) {
    if (!zs || !zs.no_heads) continue;
    const squares = Object.keys(view.squares || {}).filter((sq) => view.squares[sq].z === z)
      .sort((a, b) => xy(a).y - xy(b).y || xy(a).x - xy(b).x);
    const free = (sq) => !busy.has(sq) && !busy.has(`${xy(sq).x + 1},${xy(sq).y}`);
    if (squares.length) out.push({ zone: z, name: zoneNameOf(view, z), sq: squares.find(free) || squares[0] });
  }
  return out;
}

/** What a "no heads" zone means, in a player's words (a square's help line). */
export function noHeadsText(zoneName) {
  return `No heads: ${zoneName} was on the table when the party failed, so its enemies leave no head when defeated. `
    + "Only zones discovered after the failure give heads.";
}

function renderLegend(view) {
  const headless = noHeadZones(view);
  return h("div", { class: "hk-legend", "aria-label": "Legend" },
    TERRAINS.map((t) => help(h("span", { class: `hk-legend-item hk-cell t-${t}` }, TERRAIN_LABEL[t]), helpText(`terrain:${t}`))),
    help(h("span", { class: "hk-legend-item hk-cell t-open hgt-1" }, "▲ height"), helpText("terrain:height")),
    help(h("span", { class: "hk-legend-item hk-cell t-wall" }, "Wall"), helpText("terrain:wall")),
    h("span", { class: "muted hk-small" }, "▮ closed door · ▯ open door · letters = interaction points · ◎ spawn point · ☖ head (☗ boss) · 🐾 Yastun Lad · ☺ villager · ✕ left the board this round · round = hero, square = enemy (ring = minion colour) · bar = health · ",
      ...Object.entries(CONDITIONS).map(([k, tag], i) => [i ? "/" : "", help(h("span", { class: "hk-legend-cond" }, tag), helpText(`condition:${k}`))]).flat(),
      " = bleeding/poisoned/blinded/downed/blessed"),
    headless.length ? help(h("span", { class: "hk-legend-noheads hk-small", "data-testid": "harakiri-noheads" },
      h("span", { class: "hk-noheads is-inline" }, "no heads"),
      ` ${headless.map((z) => z.name).join(", ")}: no heads from enemies there since the failure; only zones discovered after it give heads`),
    `${headless.map((z) => noHeadsText(z.name)).join("\n")}\n${explain("concept:HEAD")}`) : "");
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
    const whose = kind === "color" ? Object.entries(view.enemies).filter(([, e]) => e.color === id && e.kind === "minion" && e.sq).map(([eid]) => nameOf(eid))
      : kind === "enemy" ? [nameOf(id)] : [];
    list.append(help(h("li", { class: cls.join(" "), dataset: { card } }, cardLabel(view, card)),
      `${cardLabel(view, card)}${i < init.pos ? " (done)" : i === init.pos && view.turn ? " (now)" : ""}${whose.length ? `: ${whose.join(", ")}` : ""}\n${explain("concept:INITIATIVE")}`));
  });
  if (init.deck) list.append(help(h("li", { class: "hk-card qk-facedown" }, `${init.deck} face down`), "Initiative cards revealed card by card (an event)."));
  if (!init.queue.length && !init.deck) list.append(h("li", { class: "muted" }, "Not drawn yet"));
  return h("section", { class: "hk-panel hk-init" }, help(h("h3", {}, "Initiative"), helpText("concept:INITIATIVE")), list);
}

function renderDice({ doc, view }) {
  const box = h("section", { class: "hk-panel", "data-testid": "harakiri-dice" }, h("h3", {}, "Last roll"));
  // an attack still open (rerolls possible) is the roll just made; otherwise the log's last roll
  const live = view.attack ? { who: view.attack.attacker, targets: view.attack.targets, dice: view.attack.dice, outcomes: ["not resolved yet: rerolls are possible"], seq: doc.seq } : null;
  const d = live || lastRoll(doc);
  if (!d) box.append(h("p", { class: "muted hk-small" }, "No dice rolled yet."));
  else {
    box.dataset.seq = String(d.seq);
    box.append(h("p", { class: "hk-small hk-roller" }, d.resurrection ? `${nameOf(d.who)}: resurrection roll` : d.activation ? `${nameOf(d.who)}: activation roll` :
      `${nameOf(d.who)}${d.counter ? " counterattacks" : ""} → ${(d.targets || []).map(nameOf).join(", ")}${d.skill ? ` (${skillName(d.skill) || pretty(d.skill)})` : ""}${d.rerolls ? `, ${d.rerolls} reroll${d.rerolls > 1 ? "s" : ""}` : ""}`));
    box.append(h("div", { class: "hk-dice" }, (d.dice || []).map(dieNode)));
    const total = (d.dice || []).reduce((n, x) => n + (x.i || 0), 0);
    if ((d.dice || []).some((x) => "i" in x)) box.append(h("p", { class: "hk-small" }, `${total} impact${total === 1 ? "" : "s"} rolled`));
    for (const o of d.outcomes || []) box.append(h("p", { class: "hk-small hk-outcome" }, o));
  }
  return box;
}

/** A message for each villager or enemy that left the board this round. */
function renderDepartures({ gone }) {
  if (!gone.length) return "";
  return h("section", { class: "hk-panel hk-gone", role: "status", "aria-live": "polite", "data-testid": "harakiri-departures" },
    h("h3", {}, "Left the board this round"),
    h("ul", { class: "hk-feed" }, gone.slice(-5).map((g) => h("li", { dataset: { who: g.who } }, g.text, g.sq ? ` (from ${g.sq})` : ""))));
}

// A chosen's AI cards in play (e.g. the Blood Oni's Hate cards) and the characters its passive
// skill has barred from Kami skills for the rest of the combat.
function passiveNotes(e) {
  const notes = [];
  const inPlay = (e.ai && e.ai.in_play) || [];
  if (inPlay.length) {
    const deck = (enemyInfo(e) || {}).ai_deck || [];
    const names = inPlay.map((id) => (deck.find((c) => c.id === id) || { name: pretty(id) }).name);
    notes.push(help(h("span", { class: "hk-small" }, ` in play: ${names.join(", ")}`), "AI cards in play until the combat finishes."));
  }
  if ((e.kami_barred || []).length) {
    notes.push(help(h("span", { class: "hk-small" },
      ` no Kami: ${e.kami_barred.map(nameOf).join(", ")}`), "These characters cannot use Kami skills for the rest of this combat."));
  }
  return h("span", {}, ...notes);
}

function renderEnemies({ view, marks }) {
  const list = h("ul", { class: "hk-enemies" });
  for (const [id, e] of Object.entries(view.enemies)) {
    if (!e.sq || e.kind === "double") continue; // Hikaru's Multi-Form double is drawn as a hero
    list.append(help(h("li", { class: `hk-enemy ec-${e.color || "none"}${isFlashing(id) ? " is-flash" : ""}${marks.minis.has(id) ? " is-last" : ""}`, dataset: { enemy: id } },
      h("span", { class: "hk-ename" }, enemyName(e)), " ", h("span", { class: "hk-small" }, `${e.health}/${e.max_health}`, h("span", { class: "visually-hidden" }, " health")),
      e.armor_tokens ? h("span", { class: "hk-small" }, ` armor -${e.armor_tokens}`) : "", " ", condBadges(e.conditions),
      e.plus ? h("span", { class: "hk-small hk-plus" }, " plus") : "", passiveNotes(e)), enemyHelp(id, e), enemyName(e)));
  }
  if (!list.childNodes.length) list.append(h("li", { class: "muted" }, "No enemies in sight."));
  return h("section", { class: "hk-panel" }, h("h3", {}, "Enemies"), list);
}

function renderActions({ view, opts, send }) {
  const bar = h("div", { class: "hk-actions", "data-testid": "harakiri-actions", role: "group", "aria-label": "Actions" });
  const order = (c) => (c.type === "end_activation" ? 2 : c.type === "end_move" ? 1 : 0);
  const cmds = [...opts.actions].sort((a, b) => order(a) - order(b));
  for (const cmd of cmds) {
    const a = cmd.args || {};
    const info = cmd.type === "technique" || cmd.type === "place_ki" || cmd.type === "withdraw_ki" ? skillHelp(a.skill)
      : cmd.type === "meditate" ? explain("concept:MEDITATE") : cmd.type === "exert" ? explain("concept:EXERT")
        : cmd.type === "move" ? explain("concept:MP") : cmd.type === "kami_mode" ? explain("skill:kami_mode") : "";
    const node = h("button", {
      type: "button", class: `hk-act${cmd.type === "end_activation" || cmd.type === "end_move" ? " primary" : ""}`,
      disabled: ui.busy, dataset: { type: cmd.type }, onclick: () => send(cmd),
    }, commandLabel(view, cmd));
    bar.append(info ? help(node, info) : node);
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
      (c.ki.supply || []).map((v) => help(h("span", { class: "hk-kidie" }, String(v)), `A Ki die of ${v} in the supply.\n${explain("dice:ki")}`)),
      Object.entries(c.ki.slots || {}).map(([sk, v]) => help(h("span", { class: "hk-kislot" }, h("span", { class: "hk-kidie is-slotted" }, String(v)), skillName(sk)), `Ki die ${v} in the slot of ${skillName(sk)}.\n${skillHelp(sk)}`)),
      c.ki.exhausted ? help(h("span", { class: "hk-kidie is-exhausted" }, `×${c.ki.exhausted}`), `${c.ki.exhausted} exhausted Ki dice.\n${explain("dice:ki")}`) : "");
    const skills = h("div", { class: "hk-skills hk-small" }, h("span", { class: "hk-stat-label" }, "Skills"),
      (c.skills || []).map((sk) => help(h("span", { class: "hk-skill" }, skillName(sk)), skillHelp(sk), skillName(sk))));
    const apPips = h("span", { class: "hk-pips ap" });
    for (let i = 0; i < Math.max(4, c.ap); i++) apPips.append(h("span", { class: i < c.ap ? "pip on" : "pip" }));
    box.append(h("article", { class: `hk-hero ch-${id}${turnWho === id ? " is-active" : ""}${c.defeated ? " is-defeated" : ""}${isFlashing(id) ? " is-flash" : ""}`, dataset: { character: id } },
      h("header", {}, h("span", { class: "hk-hero-tag", "aria-hidden": "true" }, HERO_SHORT[id] || ""), h("strong", {}, c.name), h("span", { class: "hk-small" }, ` L${c.level} ${pretty(c.class)}`),
        seat !== null && seat !== undefined ? h("span", { class: "hk-small muted" }, ` · ${seatName(doc, seat)}`) : ""),
      h("div", { class: "hk-row" }, healthBar(c.health, c.max_health), h("span", { class: "hk-small" }, `${c.health}/${c.max_health}`, h("span", { class: "visually-hidden" }, " health")), condBadges(c.conditions)),
      h("div", { class: "hk-row" }, help(h("span", { class: "hk-stat-label" }, "AP"), helpText("concept:AP")), String(c.ap), apPips,
        c.meditation ? help(h("span", { class: "hk-small hk-tokenbadge" }, "meditating"), helpText("concept:MEDITATE")) : ""),
      slots,
      skills,
      h("div", { class: "hk-equip hk-small" },
        help(h("span", {}, `Weapon ${weaponName(c.equipped)}${(c.weapons || []).length > 1 ? ` (+${c.weapons.length - 1})` : ""}`),
          [weaponHelp(c.equipped), (c.weapons || []).length > 1 ? `Also carries: ${c.weapons.filter((w) => w !== c.equipped).map(weaponName).join(", ")}` : ""].filter(Boolean).join("\n"), weaponName(c.equipped)),
        help(h("span", {}, c.armor_card ? `Armor ${armorName(c.armor_card)} (${c.armor}${c.armor_bonus ? `+${c.armor_bonus}` : ""})` : "No armor"), explain("concept:ARMOR"), armorName(c.armor_card)),
        (c.items || []).map((it) => help(h("span", { class: "hk-item" }, itemName(it.id) + (it.uses !== null && it.uses !== undefined ? ` ×${it.uses}` : "")), itemHelp(it), itemName(it.id))),
        c.heads || c.boss_heads || c.coins ? h("span", {}, `Heads ${c.heads} · boss heads ${c.boss_heads} · coins ${c.coins}`) : ""),
      c.defeated ? h("div", { class: "hk-flag" }, "defeated") : ""));
    if (c.defeated) box.lastChild.setAttribute("aria-label", `${c.name} (defeated)`);
  }
  return box;
}

/** The phase as the board's bar says it (the match page's status panel says it the same way). */
function phaseWords(view) {
  if (view.flow) return stageWords(view); // an Adventure Phase match
  return view.phase === "share" ? "Exchanging items" : pretty(view.phase);
}

registerBoard("harakiri", { render, hidesCommands: true, phaseLabel: (doc) => (doc.view ? phaseWords(doc.view) : null) });

// For tests and debugging (read-only).
window.KamizaHarakiri = { ui, classify, whyNoAttack, resolvedText, noHeadZones, noHeadsText, lastRoll };
