// Yashima board: the hex map (terrain, miniatures with their facing, attack previews), every
// master's life (hand + deck), karma pool, statuses, tome; my hand; the action pool; setup picks,
// the secret destiny choice and defense prompts. Clicks map to legal commands (a highlighted hex
// for movement / placement / spaces; a hand card then one of six facing arrows for an attack; the
// arrows for a final facing); every other legal command is a plain labelled button.
//
// Every command sent is taken unchanged from doc.legal_commands. Spectators (doc.seat === null)
// get no controls. The DOM is built with textContent / createElementNS only.
//
// Rules help (help.js): every card, keyword, defense, status, terrain, tome tag and ability shows
// its rules text on hover, focus or tap (content pack + the game's glossary); keywords are never
// shown bare. Reach marks: hand cards whose pattern can hit an opponent from here, and the facings
// that do, are marked before any hover. Setup previews a terrain board and its placement on the
// map. The last move by someone else (doc.last_move) is outlined. Escape cancels a selection.

import { entry, explain, help, helpText, loadGlossary, onEscape } from "./help.js";
import { ensureStylesheet as useStylesheet, fetchContent, h, registerBoard, showBoard } from "./registry.js";
import { PAUSED, isPaused, pausedWaitWords, seatLabel, toPlayBadge, waitingWords } from "../words.js";

const CSS_URL = new URL("../../css/boards/yashima.css", import.meta.url).href;
const SVG = "http://www.w3.org/2000/svg";
const S = 20; // hex size (centre to corner), SVG units
const DIRS = [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]];
const FACING_NAMES = ["up", "upper right", "lower right", "down", "lower left", "upper left"]; // as the history says
const TERRAINS = ["blank", "road", "arduous", "deadly", "solid", "relic", "rejuvenating", "slick", "splice_point"];
// one glyph per terrain on the map (a word would not fit a hex); the legend and the help name them
const TERRAIN_GLYPH = { road: "═", arduous: "▲", deadly: "☠", solid: "■", relic: "✦", rejuvenating: "✚", slick: "≈", splice_point: "✳" };
const DEFENSES = new Set(["BLOCK", "CLASH", "DODGE", "RIPOSTE", "BARRIER", "OCCUPY", "SPIRIT_SHIELD", "COUNTER"]);
const CELL_ARG = { step: "to", dodge_to: "to", relocate_to: "to", choose_space: "cell", explode: "cell" };
const FACING_CMDS = new Set(["attack", "chain_attack"]);

const ui = { content: null, contentPromise: null, last: null, sel: null, hoverFacing: null, busy: false };

function ensureStylesheet() {
  useStylesheet("yashima", CSS_URL);
}

function loadContent() {
  if (!ui.glossaryAsked) {
    ui.glossaryAsked = true;
    loadGlossary("yashima").then(() => { if (ui.last) render(...ui.last); }).catch(() => { ui.glossaryAsked = false; });
  }
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
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const at = (cell) => `(${cell})`; // a space the map does not hold: its coordinates
const towards = (f) => FACING_NAMES[f] || "an unknown direction";
const capitalise = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);

/** A title followed by more text, as sentences: a full stop after the title unless it has one. */
export function joinSentences(first, ...rest) {
  const head = String(first || "").trim();
  const tail = rest.filter(Boolean).join(" ");
  if (!head) return tail;
  return `${/[.!?…]$/.test(head) ? head : `${head}.`}${tail ? ` ${tail}` : ""}`;
}

function masterInfo(id) { return ((ui.content && ui.content.masters) || []).find((m) => m.id === id) || null; }
function kamiInfo(id) { return ((ui.content && ui.content.kami) || []).find((k) => k.id === id) || null; }
function def(d) {
  const custom = ui.last && ui.last[1] && ui.last[1].view && ui.last[1].view.custom; // a scenario's own cards
  return (custom && custom[d]) || (ui.defs && ui.defs[d]) || null;
}
function defName(d) { const x = def(d); return x && x.name ? x.name : titleCase(d); }

// -- rules help ---------------------------------------------------------------------------------

/** The glossary key of a card item keyword ("keyword:KINDLE", "defense:CLASH"). */
function kwKey(k) {
  return DEFENSES.has(k) ? `defense:${k}` : `keyword:${k}`;
}

/** One card item in words: "DAMAGE 4: Deal 4 damage (range 3, BURN targets)". */
function itemText(it) {
  const e = entry(kwKey(it.k));
  const term = e ? e.term : titleCase(it.k);
  const extra = [];
  const tg = it.target || {};
  if (tg.range) extra.push(`within ${tg.range}`);
  if (tg.adjacent_all) extra.push("every adjacent master");
  if (tg.self) extra.push("yourself");
  if (tg.status) extra.push(`masters with ${tg.status}`);
  if (it.range && !tg.range) extra.push(`range ${it.range}`);
  const short = e ? explain(kwKey(it.k), it) : "";
  return `${term}${it.n && !(e && (e.short || "").includes("{n}")) ? ` ${it.n}` : ""}${short ? `: ${short}` : ""}${extra.length ? ` (${extra.join(", ")})` : ""}`;
}

/** A chip's short label: the keyword, with the status or amount it carries ("BURN on 2 spaces"). */
function chipLabel(k, it, e) {
  const term = e ? e.term : titleCase(k);
  if (!it) return term;
  if (it.status && /^STATUS/.test(k)) {
    return { STATUS: it.status, STATUS_HIT: `${it.status} on hit`, STATUS_SELF: `gain ${it.status}`, STATUS_SPACES: `${it.status} on ${it.n || 1} space${it.n > 1 ? "s" : ""}` }[k] || `${term} ${it.status}`;
  }
  if (it.status && k === "EXPLODE") return `EXPLODE ${it.status}`;
  if (k === "ADAPT" && it.seat !== undefined) {
    const a = adaptOf(it.seat);
    const gains = [...(a.attack || []).map((x) => chipLabel(x.k, x, entry(kwKey(x.k)))), a.defense || ""].filter(Boolean);
    return gains.length ? `ADAPT → ${gains.join(", ")}` : term;
  }
  return it.n ? `${term} ${it.n}` : term;
}

/** A small keyword chip with its rules text (never a bare keyword). */
function kwChip(k, it) {
  const e = entry(kwKey(k));
  const chip = h("span", { class: "ys-kw", dataset: { kw: k } }, chipLabel(k, it, e));
  return help(chip, [it ? itemText(it) : "", helpText(kwKey(k))].filter(Boolean).join("\n"));
}

/** The master's ADAPT items a card gains (what "ADAPT" means for this seat). */
function adaptOf(seat) {
  const view = ui.last && ui.last[1] && ui.last[1].view;
  const m = view && isSeat(seat) && view.players[seat] ? masterInfo(view.players[seat].master) : null;
  return m ? m.adapt || {} : {};
}

/** A battle card's whole text for a tooltip: values, pattern, every keyword explained. */
function cardHelp(d, seat) {
  const c = def(d);
  if (!c) return "";
  const lines = [`Karma ${c.karma} · ATK ${c.atk}`];
  const pat = typeof c.pattern === "string" ? entry(`pattern:${c.pattern}`) : null;
  lines.push(`Pattern: ${pat ? `${pat.term}: ${pat.short}` : "custom"}`);
  for (const it of c.attack || []) {
    lines.push(itemText(it));
    if (it.k === "ADAPT") {
      const a = adaptOf(seat);
      for (const x of a.attack || []) lines.push(`  ADAPT gives: ${itemText(x)}`);
      if (a.defense) lines.push(`  ADAPT gives the defense: ${itemText({ k: a.defense })}`);
    }
  }
  if (c.defense) lines.push(`Defense ${itemText({ k: c.defense })}`);
  if (c.quick) lines.push(`Quick effect, ${itemText(c.quick)}`);
  for (const [flag, key] of [["fate", "FATE"], ["endure", "ENDURE"]]) {
    if (c[flag]) lines.push(`${entry(`marker:${key}`) ? `${key}: ${entry(`marker:${key}`).short}` : key} → ${c[flag].map(itemText).join("; ")}`);
  }
  if (c.icebreaker) lines.push(`ICEBREAKER: ${explain("marker:ICEBREAKER")}`);
  if (c.plague) lines.push(`PLAGUE card: ${explain("marker:PLAGUE")}`);
  return lines.join("\n");
}

/** A tome page's text: cost, IMPRINT/EQUIP and what the torn half does. */
function tomeHelp(face) {
  const lines = [`Karma cost ${face.cost}`];
  if (face.kind) lines.push(`${face.kind}: ${explain(`tome:${face.kind}`)}`);
  for (const it of face.effects || []) lines.push(itemText(it));
  const torn = face.torn;
  if (torn) {
    lines.push(`Torn half (${explain("tome:TORN")})${torn.cost !== undefined ? `, cost ${torn.cost}` : ""}:`);
    for (const it of torn.effects || []) lines.push(`  ${itemText(it)}`);
    if (torn.passive) lines.push(`  While equipped: ${Object.entries(torn.passive).map(([k, v]) => `${k.toUpperCase()} +${v}`).join(", ")}`);
    if (torn.into) lines.push(`  IMPRINT into another master's deck within ${torn.into.range}`);
  }
  return lines.join("\n");
}

/** An avatar ability in words. */
function abilityHelp(ab) {
  const kind = entry(`ability:${ab.kind}`);
  const lines = [`${kind ? kind.term : titleCase(ab.kind)}${ab.cost ? `, karma cost ${ab.cost}` : ""}${ab.exert ? `, EXERT ${ab.exert}` : ""}${kind ? `: ${kind.short}` : ""}`];
  for (const it of ab.effects || []) lines.push(itemText(it));
  for (const [k, v] of Object.entries(ab.hook || {})) if (k !== "n") lines.push(explain(`passive:${k}`, { ...ab.hook, [k]: v }));
  return lines.filter(Boolean).join("\n");
}

function kwChipTome(kind) {
  return help(h("span", { class: "ys-kw" }, kind), helpText(`tome:${kind}`));
}

function statusChip(name, owners) {
  const n = Array.isArray(owners) ? owners.length : owners;
  const chip = h("span", { class: "ys-st", dataset: { status: name } }, n > 1 ? `${name} ×${n}` : name);
  return help(chip, helpText(`status:${name}`) || name);
}

function seatName(doc, seat) {
  const st = doc.match && doc.match.seats && doc.match.seats[seat];
  const name = st ? seatLabel(st) : `Seat ${Number(seat) + 1}`;
  return seat === doc.seat ? `${name} (you)` : name;
}

/** A team's letter, as the lobby and the seat list name it: team 0 is "A", team 1 "B", ... */
export function teamLetter(team) {
  return String.fromCharCode(65 + Number(team));
}

/** A team game's line for a seat's panel: "Team A · with Bot 3 and Bot 5" ("your team" for the
 * viewer's own), or "" when every master plays alone (view.teams: each seat's team number). */
export function teamLine(doc, seat) {
  const teams = (doc.view && doc.view.teams) || [];
  const mates = teams.map((t, i) => i).filter((i) => i !== seat && teams[i] === teams[seat]);
  if (!mates.length) return "";
  const names = mates.map((i) => (i === doc.seat ? "you" : seatName(doc, i)));
  const own = isSeat(doc.seat) && (seat === doc.seat || mates.includes(doc.seat));
  return `Team ${teamLetter(teams[seat])}${own ? " (your team)" : ""} · with ${andList(names)}`;
}

/** The team a seat plays in (0-based), or null when every master plays alone. */
export function teamOf(doc, seat) {
  const teams = (doc.view && doc.view.teams) || [];
  const mates = teams.filter((t, i) => i !== seat && t === teams[seat]);
  return mates.length ? Number(teams[seat]) : null;
}

/** The map's key to the team rings: "Team A: alice (you), Bot 3, Bot 5 · Team B: ...", or "" when
 * every master plays alone. */
export function teamLegend(doc) {
  const teams = (doc.view && doc.view.teams) || [];
  const numbers = [...new Set(teams.map((t, seat) => teamOf(doc, seat)).filter((t) => t !== null))].sort((a, b) => a - b);
  return numbers.map((t) => `Team ${teamLetter(t)}: ${teams.map((x, seat) => seat).filter((seat) => teamOf(doc, seat) === t)
    .map((seat) => seatName(doc, seat)).join(", ")}`).join(" · ");
}

/** A panel's restoration flag: "waiting to restore" while the game goes on, nothing once it is over. */
export function restoreFlag(doc, p) {
  return p.pending && !(doc.status || {}).finished ? "waiting to restore" : "";
}

/** A panel's destiny flag while the secret choice goes on ("destiny token chosen", or one's own
 * "your destiny token: move"), nothing once the game is over. */
export function destinyFlag(doc, seat) {
  const view = doc.view || {};
  const dest = view.destiny && view.destiny[String(seat)];
  if (view.phase !== "destiny" || !dest || (doc.status || {}).finished) return "";
  return dest === "chosen" ? "destiny token chosen" : `your destiny token: ${dest}`;
}

/** A space named for a player as the engine names it everywhere (the history, the command labels:
 * its ``spaces.name``, given in ``view.space_names``): "the road space E4", its terrain and the
 * label the map draws on its hex (``spaceLabel``). A space off the map: its coordinates. */
export function spaceWords(view, cell) {
  return ((view && view.space_names) || {})[cell] || at(cell);
}

/** The label the map draws on a space's hex ("E4"): the engine's, from the content pack's geometry
 * (a grid fixed for the whole table); "" for a space off it. */
export function spaceLabel(cell) {
  return (((ui.content && ui.content.geometry) || {}).labels || {})[cell] || "";
}

/** "a", "a and b", "a, b and c". */
export function andList(items) {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items[0] || "";
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

/** A master named with the seat playing it: "Akiko (hanzo)". */
function masterOf(doc, seat) {
  const m = masterInfo(((doc.view.players || [])[seat] || {}).master);
  return m ? `${m.name} (${seatName(doc, seat)})` : seatName(doc, seat);
}

/** The name alone of an ability source (page:N, avatar:I, equip:ID). */
function srcName(view, seat, src) {
  const [kind, ref] = String(src).split(":");
  const p = view.players[seat] || {};
  const m = masterInfo(p.master);
  if (kind === "page") {
    for (const t of (m && m.tome) || []) for (const face of Object.values(t.faces || {})) if (face.page === Number(ref)) return face.name;
    return `tome page ${ref}`;
  }
  if (kind === "avatar") {
    const ab = m && m.abilities && m.abilities[Number(ref)];
    return ab ? ab.name : "your master's ability";
  }
  if (kind === "equip") return cardLabel(view, String(src).slice(6));
  return null;
}

/** The terrain board by name, from the content pack. */
function boardName(id) {
  const b = ((ui.content && ui.content.boards && ui.content.boards.terrain) || []).find((x) => x.id === id);
  return b ? b.name : titleCase(id);
}

const pages = (n) => `${plural(Math.abs(n), "page")} ${n > 0 ? "forward" : "back"}`;
const ZONE_WORDS = { hand: "your hand", karma: "your karma pool", deck: "your battle deck" };

/** The label the engine gives a listed command (view.choices), if it is there. */
function engineLabel(doc, cmd) {
  const key = JSON.stringify(cmd);
  const opt = ((doc.view.choices || {}).options || []).find((o) => JSON.stringify(o.command) === key);
  return opt ? opt.label : null;
}

/** Every command type the engine lists, as a player's sentence. */
export function commandLabel(doc, cmd) {
  const view = doc.view;
  const a = cmd.args || {};
  const card = (id) => cardLabel(view, id);
  const mine = Object.values(view.prompts || {}).find((pr) => pr.seat === doc.seat && pr.cmds) || {};
  const info = mine.info || {};
  switch (cmd.type) {
    // setup
    case "pick": return `${titleCase((masterInfo(a.master) || {}).name || a.master)} + ${(kamiInfo(a.kami) || {}).name || titleCase(a.kami)}`;
    case "choose_board": return `${boardName(a.board)}, side ${String(a.side).toUpperCase()}`;
    case "place_board": {
      const choice = (view.setup && view.setup.choice) || [];
      return `Place ${choice[0] ? boardName(choice[0]) : "the board"} in slot ${a.slot + 1}, turned ${a.rotation * 60}°`;
    }
    case "place_miniature": return `Place your miniature on ${spaceWords(view, a.cell)} facing ${towards(a.facing)}`;
    // destiny, reconcile
    case "choose_token": return a.token === "attack" ? "Add an Attack token" : "Add a Move token";
    case "tuck": return `Tuck ${card(a.card)} beneath your battle deck`;
    case "draw": return "Draw a card";
    case "end_reconcile": return "Done (end reconcile)";
    // the turn
    case "focus": return "Focus (tome action)";
    case "delve": return a.dir === 1 ? "Delve: next spread" : "Delve: previous spread";
    case "ability": return `Use ${srcLabel(view, doc.seat, a.src)}`;
    case "quick": return `Quick: ${srcLabel(view, doc.seat, a.src)}`;
    case "attack": return `Attack with ${card(a.card)} facing ${towards(a.facing)}`;
    case "move_action": return "Move (use a move token)";
    case "take_token": return `Take ${a.token === "attack" ? "an" : "a"} ${a.token} token without acting`;
    case "end_turn": return "End turn";
    case "wind": return "Use WIND (move up to 2)";
    case "dash": return `Dash: discard ${card(a.card)}, move to ${spaceWords(view, a.to)}`;
    // prompts
    case "pay_card": {
      const c = visibleCards(view)[a.card];
      const karma = c && def(c.d) ? def(c.d).karma : null;
      return `Pay with ${card(a.card)}${karma !== null && karma !== undefined ? ` (karma ${karma})` : ""}`;
    }
    case "defend": return `Defend with ${card(a.card)}`;
    case "no_defense": return "No defense";
    case "lose_card": return a.card ? `Lose ${card(a.card)} from ${ZONE_WORDS[a.zone] || a.zone}` : "Lose the top card of the deck";
    case "dodge_to": return `Dodge to ${spaceWords(view, a.to)}`;
    case "step": return `Step to ${spaceWords(view, a.to)}`;
    case "end_move": return `End move facing ${towards(a.facing)}`;
    case "use_effect": return `Use ${titleCase(a.effect)}`;
    case "skip_effect": return `Skip ${titleCase(a.effect)}`;
    case "choose_space": return `Choose ${spaceWords(view, a.cell)}${info.status ? ` for ${info.status}` : ""}`;
    case "done": return mine.kind === "saru_move" ? "Keep SARU where it is" : "Done: choose no more";
    case "choose_master": return `Choose ${masterOf(doc, a.master)}`;
    case "relocate_master": return `Relocate ${masterOf(doc, a.master)} to ${spaceWords(view, a.to)}`;
    case "relocate_to": return `Relocate to ${spaceWords(view, a.to)}`;
    case "stay": return "Stay where you are";
    case "remove_status": return `Remove ${a.status} from ${a.on === "master" ? masterOf(doc, a.who) : spaceWords(view, a.who)}`;
    case "explode": return `EXPLODE the ${info.status || "status"} on ${spaceWords(view, a.cell)}`;
    case "grow": return `GROW the PLANT from ${spaceWords(view, a.frm)} to ${spaceWords(view, a.to)}`;
    case "discard_karma": return `Discard ${card(a.card)} from your karma pool`;
    case "discard_card": return `Discard ${card(a.card)} from your hand`;
    case "destroy_equipment": return `DESTROY ${card(a.card)}, equipped by ${masterOf(doc, a.master)}`;
    case "place_status": return `Give ${info.status || "the status"} to ${a.on === "master" ? masterOf(doc, a.who) : spaceWords(view, a.who)} first`;
    case "turn_page": return `Turn your tome ${pages(a.dir)}`;
    case "turn_to": return engineLabel(doc, cmd) || `Open your tome at spread ${a.spread}`; // the engine knows which pages show
    case "reorder": {
      const names = new Map((info.cards || []).map((c) => [c.id, defName(c.d)]));
      return `Top to bottom: ${(a.order || []).map((id) => names.get(id) || card(id)).join(", ")}`;
    }
    case "put_on_top": return `Put ${card(a.card)} on top of your battle deck`;
    case "empower": return { karma: "Empower: to karma pool", top: "Empower: top of deck", bottom: "Empower: bottom of deck" }[a.to] || `Empower: ${a.to}`;
    case "chain_attack": return `Follow up with ${card(a.card)} facing ${towards(a.facing)}`;
    case "decline_chain": return "Decline the chained attack";
    case "relic_turn": return `Turn the tome of ${masterOf(doc, a.master)} ${pages(a.delta)}`;
    case "relic_skip": return "Turn no tome";
    case "rejuvenate": return "HEAL (rejuvenating terrain)";
    case "no_rejuvenate": return "Do not heal";
    case "pay_frost": return "Pay 4 karma to remove FROST";
    case "keep_frost": return "Keep FROST";
    case "restore_remove_status": return `Remove ${a.status}`;
    case "restore_keep_statuses": return "Keep the remaining statuses";
    case "restore_unequip": return `Return ${card(a.card)} to your tome`;
    case "restore_keep_equipment": return "Keep the remaining equipment";
    default: return engineLabel(doc, cmd) || titleCase(cmd.type); // a type this board does not know yet
  }
}

/** A facing arrow's label: the attack, then whom that facing hits. */
export function arrowLabel(doc, cmd, hits) {
  const label = commandLabel(doc, cmd);
  if (!hits) return label;
  return `${label}: ${hits.length ? `hits ${hits.map((x) => seatName(doc, x)).join(", ")}` : "no opponent in the pattern"}`;
}

/** A kami choice: its own cards, and the battle deck they make with the master's (core setup step 2). */
export function kamiChoiceLabel(kamiId, masterId) {
  const k = kamiInfo(kamiId);
  if (!k) return titleCase(kamiId);
  const m = masterInfo(masterId);
  const own = (m && m.cards) ? m.cards.length : 0;
  return own ? `${k.name} (${k.deck_size} kami cards; deck ${k.deck_size + own} with ${m.name}'s ${own})` : `${k.name} (${k.deck_size} kami cards)`;
}

/** Whether an ability source is played as the tome action (a quick ability is not). */
function usesTomeAction(view, seat, src) {
  const [kind, ref] = String(src).split(":");
  if (kind !== "avatar") return kind === "page" || kind === "equip";
  const m = masterInfo((view.players[seat] || {}).master);
  const ab = m && m.abilities && m.abilities[Number(ref)];
  return Boolean(ab) && ab.kind !== "quick";
}

/** The karma payment prompt: what for, how many cards, and why it cannot be called off (the
 * engine lists no way back: the ability is already played, rules decision 5). */
export function payText(doc, info) {
  const src = info.src;
  const what = src === "frost" ? "removing FROST" : src ? srcName(doc.view, doc.seat, src) : null;
  const left = Number.isInteger(info.left) ? info.left : info.cards;
  let count = "cards";
  if (Number.isInteger(left)) count = left !== info.cards ? `${left} more ${left === 1 ? "card" : "cards"} (${info.cards} in all)` : plural(left, "card");
  let why = "This cost must be paid now.";
  if (src === "frost") why = "You chose to remove FROST, so its cost is due now.";
  else if (what) why = `${what} is already played${usesTomeAction(doc.view, doc.seat, src) ? " as your tome action" : ""}, so its cost must be paid now: a karma ability cannot be taken back.`;
  return `Pay ${info.cost ?? "the"} karma${what ? ` for ${what}` : ""}: choose ${count} from your karma pool (each button shows its karma; karma above the cost is lost). ${why}`;
}

// -- the legal commands, sorted by what the board can click ------------------------------------

function classify(doc) {
  const view = doc.view;
  const out = { cells: new Map(), place: [], facing: [], endMove: [], picks: [], boards: [], placeBoard: [], other: [] };
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
    else if (cmd.type === "choose_board" && keys.length === 2) out.boards.push(cmd);
    else if (cmd.type === "place_board" && Number.isInteger(a.slot) && Number.isInteger(a.rotation)) out.placeBoard.push(cmd);
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
  else if (sel.kind === "board") ok = opts.placeBoard.some((c) => c.args.slot === sel.slot && c.args.rotation === sel.rotation);
  if (!ok || sel.seq !== doc.seq) { ui.sel = null; ui.hoverFacing = null; }
}

// -- rendering ---------------------------------------------------------------------------------

function render(container, doc, sendCommand) {
  ui.last = [container, doc, sendCommand];
  ensureStylesheet();
  loadContent();
  const view = doc.view;
  if (!view || !view.players) {
    container.replaceChildren(h("p", { class: "muted", dataset: { testid: "waiting" } }, waitingWords(doc)));
    return;
  }
  const player = isSeat(doc.seat) && doc.seat !== "system";
  const opts = player ? classify(doc) : classify({ ...doc, legal_commands: [] });
  validateSelection(doc, opts);
  const send = (cmd, how = {}) => {
    if (ui.busy) return;
    ui.busy = true;
    ui.sel = null;
    ui.hoverFacing = null;
    if (!how.keepAuto) ui.autoLose = null;
    render(...ui.last);
    sendCommand(cmd.type, cmd.args || {}).catch(() => {}).finally(() => { ui.busy = false; render(...ui.last); });
  };
  const select = (sel) => {
    // a card chosen by keyboard: the focus goes on to the facing arrows (drawn on the map, before the hand)
    if (sel && sel.kind === "attack" && keyboardFocus()) ui.focusNext = [".ys-arrow.is-reach", ".ys-arrow"];
    ui.sel = sel ? { ...sel, seq: doc.seq } : null;
    ui.hoverFacing = null;
    render(...ui.last);
  };
  onEscape("yashima", () => {
    if (!ui.sel && !ui.autoLose) return false;
    if (ui.sel && ui.sel.kind === "attack" && keyboardFocus()) ui.focusNext = [`.ys-card[data-card-id="${CSS.escape(ui.sel.card)}"]`];
    ui.sel = null;
    ui.hoverFacing = null;
    ui.autoLose = null;
    render(...ui.last);
    return true;
  });
  const ctx = { doc, view, opts, send, select, player, reach: reachOf(doc, opts), marks: lastMoveMarks(doc), ghost: boardPreview(doc, opts) };
  autoLose(ctx);
  const root = h("div", { class: "ys", dataset: { seat: player ? String(doc.seat) : "spectator", phase: view.phase } });
  root.append(renderBanner(ctx), renderTop(ctx), renderPrompt(ctx));
  root.append(h("div", { class: "ys-main" }, renderMap(ctx), renderPlayers(ctx)));
  root.append(renderLegend(Boolean(player), teamLegend(doc)));
  if (player) root.append(renderHand(ctx));
  else if (doc.open) view.players.forEach((p, i) => root.append(renderHand(ctx, i))); // staff review: all hands open
  else root.append(h("p", { class: "muted" }, "You are watching this match: hands and destiny choices stay hidden."));
  const focused = focusKey(container);
  const said = root.querySelector(".ys-banner") || root.querySelector(".ys-prompt p");
  showBoard(container, root, said ? said.textContent : "", "yashima-said");
  scrollMap(root, doc);
  if (focused) ui.focusAfterBusy = restoreFocus(root, ui.focusAfterBusy && focused.classes.includes("ys-map") ? ui.focusAfterBusy : focused);
  const next = (ui.focusNext || []).map((sel) => root.querySelector(sel)).find(Boolean);
  ui.focusNext = null;
  if (next) next.focus({ preventScroll: true });
}

/** Whether the focus is where a keyboard put it (a click leaves it without a visible ring). */
function keyboardFocus() {
  const el = document.activeElement;
  return Boolean(el && el.closest(".ys") && el.matches(":focus-visible"));
}

// Every redraw (a live update, a command sent) replaces the board's nodes; a keyboard player's focus
// must not fall back to the top of the page. The focused control is found again by what it is.
const FOCUS_KEYS = ["cell", "facing", "cmdType", "cardId", "cmd", "master", "kami", "board", "side", "slot", "rotation", "action", "seat", "page"];

/** What the focused element inside ``container`` is (its data attributes), or null. */
function focusKey(container) {
  const el = document.activeElement;
  if (!el || el === container || !container.contains(el)) return null;
  const data = {};
  for (const key of FOCUS_KEYS) if (el.dataset && el.dataset[key] !== undefined) data[key] = el.dataset[key];
  return { tag: el.tagName, classes: [...el.classList].filter((c) => /^(ys-(cell|arrow|card|mini|map|board-pick)|command|link-button)$/.test(c)), data, text: el.textContent };
}

/** Focus the redrawn twin of the element ``key`` describes; if it is gone, the board's next control
 * (a highlighted space, an arrow, a prompt button), else the map itself. While a command is on its
 * way (the controls are disabled) the map holds the focus: returns the key to look for once the
 * answer is drawn, else null. */
function restoreFocus(root, key) {
  const same = [...root.querySelectorAll("[tabindex], button")].filter((el) => el.tagName === key.tag
    && key.classes.every((c) => el.classList.contains(c))
    && Object.entries(key.data).every(([k, v]) => el.dataset[k] === v));
  const twin = same.length > 1 ? same.find((el) => el.textContent === key.text) || same[0] : same[0];
  const map = root.querySelector(".ys-map");
  if (twin && !twin.disabled) {
    twin.focus({ preventScroll: true });
    return null;
  }
  const next = ui.busy ? null : root.querySelector(".ys-cell.is-target, .ys-arrow, .ys-prompt button:not([disabled]), .ys-card.is-playable");
  (next || map || root).focus({ preventScroll: true });
  return ui.busy ? key : null;
}

/** The terrain board being placed, previewed on the map (the selected or first legal placement). */
function boardPreview(doc, opts) {
  const choice = doc.view.setup && doc.view.setup.choice;
  if (!choice || !opts.placeBoard.length) return null;
  const sel = ui.sel && ui.sel.kind === "board" ? ui.sel : { slot: opts.placeBoard[0].args.slot, rotation: opts.placeBoard[0].args.rotation };
  return boardCells(choice[0], choice[1], sel.slot, sel.rotation);
}

/** "Lose the rest from the top of the deck": one click, then each card's LOSE is sent as it is
 * asked (each a listed command); it stops when the loss ends or anything else is asked. */
function autoLose(ctx) {
  const { doc, opts, send } = ctx;
  const al = ui.autoLose;
  if (!al) return;
  const deckCmd = opts.other.find((c) => c.type === "lose_card" && c.args.zone === "deck");
  const mine = ((doc.view.prompts || {}).main || {}).kind === "lose";
  if (!deckCmd || !mine) { ui.autoLose = null; return; }
  if (ui.busy || doc.seq <= al.sentAt) return;
  al.sentAt = doc.seq;
  queueMicrotask(() => { if (ui.autoLose === al) send(deckCmd, { keepAuto: true }); });
}

function renderBanner({ doc, view }) {
  const st = doc.status || {};
  if (!st.finished) return "";
  const winners = st.winners || [];
  const result = view.result || {};
  const won = isSeat(doc.seat) && winners.includes(doc.seat);
  const resigned = doc.match && Number.isInteger(doc.match.resigned) ? doc.match.resigned : null;
  const reason = resigned !== null ? ` ${seatName(doc, resigned)} resigned.`
    : result.reason === "round_cap" ? " The round limit was reached." : result.reason ? ` (${titleCase(result.reason)})` : "";
  return h("div", { class: `ys-banner${won ? " is-win" : ""}`, "data-testid": "yashima-banner" },
    h("strong", {}, "Game over. "),
    winners.length ? `${andList(winners.map((x) => seatName(doc, x)))} win${winners.length === 1 ? "s" : ""}!` : "A draw: no winner.",
    reason);
}

function renderTop({ doc, view }) {
  const st = doc.status || {};
  const turnSeat = view.turn && isSeat(view.turn.seat) ? view.turn.seat : null;
  const bar = h("div", { class: "ys-top" });
  let text = titleCase(view.phase);
  if (st.finished) text = "Final position";
  else if (isPaused(doc)) text = PAUSED.header;
  else if (view.phase === "battle" && turnSeat !== null) text = turnSeat === doc.seat ? "Your turn" : `${seatName(doc, turnSeat)}'s turn`;
  bar.append(h("div", { class: `ys-turn${turnSeat !== null ? ` seat-${turnSeat}` : ""}` }, turnSeat !== null ? h("span", { class: "ys-swatch" }) : "", text));
  if (view.phase === "setup") return bar; // no round and no action pool before the first round
  bar.append(h("div", { class: "ys-stat" }, h("small", {}, "Round"), String(view.round || 0), view.options && view.options.round_cap ? ` / ${view.options.round_cap}` : ""));
  bar.append(help(h("div", { class: "ys-stat", "data-testid": "yashima-pool" }, h("small", {}, "Action pool"),
    h("span", { class: "ys-token move" }, `Move × ${(view.pool || {}).move || 0}`),
    h("span", { class: "ys-token attack" }, `Attack × ${(view.pool || {}).attack || 0}`)), helpText("concept:ACTION_POOL")));
  if (view.turn && turnSeat !== null && !st.finished) {
    bar.append(help(h("div", { class: "ys-stat" }, h("small", {}, "Tome action"), view.turn.tome ? "used" : "available"), helpText("concept:TOME_ACTION")));
    bar.append(help(h("div", { class: "ys-stat" }, h("small", {}, "Token"), view.turn.token ? titleCase(view.turn.token) : "not taken"), helpText("concept:COMBAT_ACTION")));
  }
  return bar;
}

export function promptText(ctx) {
  const { doc, view, opts } = ctx;
  if (isPaused(doc)) return pausedWaitWords(true, []); // the page's banner above says why
  const me = doc.seat;
  const mine = (view.prompts || {}).main && view.prompts.main.seat === me ? view.prompts.main : null;
  const legalTypes = new Set((doc.legal_commands || []).map((c) => c.type));
  const setup = view.setup || {};
  if (view.phase === "setup") {
    if (legalTypes.has("pick")) return "Setup: pick your master and your kami (each may be picked once per match).";
    if (legalTypes.has("choose_board")) return "Setup: choose your terrain board and its side (each picture below shows that side).";
    if (legalTypes.has("place_board")) return "Setup: choose a slot next to the relic board and a rotation; the map shows where your board goes (dashed), then press Place the board.";
    if (legalTypes.has("place_miniature")) return "Setup: choose a highlighted space of your board for your miniature, then its facing.";
    return `Setup (${titleCase(setup.step)}).`;
  }
  if (legalTypes.has("choose_token")) return "Destiny (secret, everyone at once): add a Move or an Attack token to the action pool. The others only see that you have chosen.";
  if (legalTypes.has("defend") || legalTypes.has("no_defense")) {
    const atk = (view.attacks || []).find((x) => (x.targets || []).some((t) => t.seat === me));
    const tg = atk && atk.targets.find((t) => t.seat === me);
    return `You are targeted by ${atk ? `${seatName(doc, atk.seat)}'s ${defName(atk.card)}` : "an attack"}${tg ? ` for ${tg.atk} damage` : ""}: play one defense card from your hand, or take the damage. Each button says what it does.`;
  }
  if (legalTypes.has("dodge_to")) return "DODGE: choose a space to move to. A space marked ✓ is outside the attack: all its damage is prevented. A space still inside it prevents nothing.";
  if (legalTypes.has("lose_card")) {
    const info = (mine && mine.info) || {};
    const left = info.remaining;
    const from = isSeat(info.by) ? masterOf(doc, info.by) : null;
    const cause = info.why ? ` (${info.why}${from ? ` from ${from}` : ""})` : from ? ` (damage from ${from})` : "";
    return `You LOSE ${left ?? "cards"}${cause}: one card at a time, from the top of your battle deck or from your hand, as you choose (life = hand + deck).`;
  }
  if (view.phase === "reconcile" && (legalTypes.has("draw") || legalTypes.has("end_reconcile"))) return "Reconcile: tuck cards beneath your deck, then draw up to your hand size, then finish.";
  if (mine) {
    const info = mine.info || {};
    if (mine.kind === "move") return `Moving: choose a highlighted space (speed left ${info.speed_left ?? "?"}), or an arrow around your miniature to end the move facing that way.`;
    if (mine.kind === "pay") return payText(doc, info);
    return joinSentences(mine.title || titleCase(mine.kind), `Choose with the buttons below${opts.cells.size ? " or a highlighted space" : ""}.`);
  }
  if (ui.sel && ui.sel.kind === "attack") {
    const reach = ctx.reach.get(ui.sel.card);
    const hitting = reach ? [...reach.entries()].filter(([, hits]) => hits.length).map(([f]) => FACING_NAMES[f]) : [];
    return `Attack with ${defName(ui.sel.d)}: choose an arrow around your miniature to attack that way (pointing at or focusing an arrow shows its pattern in red). ${hitting.length ? `Arrows marked ⚔ reach an opponent: ${hitting.join(", ")}.` : "No facing reaches an opponent from here."} Escape cancels.`;
  }
  if (view.phase === "battle" && view.turn && view.turn.seat === me) {
    const reaching = [...ctx.reach.values()].filter((m) => [...m.values()].some((x) => x.length)).length;
    return ctxHasAttack(ctx) ? `Your turn: a tome action (optional), then a combat action: an attack card from your hand (${reaching ? `${reaching} marked ⚔ reach an opponent from here` : "none reaches an opponent from here"}), a move, or a token. Buttons below.` : "Your turn: choose an action with the buttons below.";
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
  // its words are spoken by the board's live region (registry.showBoard), which outlives the redraws
  const box = h("div", { class: "ys-prompt", "data-testid": "yashima-prompt" });
  if (!player || !awaiting.includes(doc.seat)) {
    box.classList.add("is-idle");
    const names = awaiting.filter((x) => x !== "system").map((x) => seatName(doc, x));
    if (isPaused(doc)) {
      box.append(h("p", {}, pausedWaitWords(false, names)));
      return box;
    }
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
      masters.map((m) => help(h("button", { type: "button", class: ui.sel && ui.sel.master === m ? "is-selected" : "", "data-master": m, disabled: ui.busy,
        onclick: () => select({ kind: "pick", master: m }) }, (masterInfo(m) || {}).name || titleCase(m)), masterSummary(m), (masterInfo(m) || {}).name))));
    if (ui.sel && ui.sel.kind === "pick") {
      box.append(h("div", { class: "ys-choices", "data-testid": "yashima-kami" }, h("span", { class: "muted" }, "Kami:"),
        opts.picks.filter((c) => c.args.master === ui.sel.master).map((c) => {
          const k = kamiInfo(c.args.kami);
          return help(h("button", { type: "button", class: "primary", "data-kami": c.args.kami, disabled: ui.busy, onclick: () => send(c) },
            kamiChoiceLabel(c.args.kami, c.args.master)), kamiSummary(c.args.kami, c.args.master), k && k.name);
        })));
    }
  }
  if (opts.boards.length) box.append(renderBoardChoice(ctx));
  if (opts.placeBoard.length) box.append(renderBoardPlacement(ctx));
  if (ui.sel && ui.sel.kind === "place") box.append(h("p", {}, `Placing your miniature on ${spaceWords(view, ui.sel.cell)} of your board: choose an arrow around it for the facing. `, h("button", { type: "button", class: "link-button", onclick: () => select(null) }, "Cancel")));
  if (ui.sel && ui.sel.kind === "attack") box.append(h("button", { type: "button", class: "link-button", onclick: () => select(null) }, "Cancel the attack"));
  if (opts.other.length) {
    const loses = opts.other.filter((c) => c.type === "lose_card");
    const shown = loses.length ? loseButtons(ctx, loses) : [];
    box.append(h("div", { class: "ys-choices ys-options", "data-testid": "yashima-options" },
      shown,
      opts.other.filter((c) => c.type !== "lose_card").map((cmd) => optionButton(ctx, cmd))));
  }
  return box;
}

/** A labelled button for one legal command; defenses and the like say what they do. */
function optionButton(ctx, cmd, label, extra = {}) {
  const { doc, send } = ctx;
  const what = optionEffect(ctx, cmd);
  const node = h("button", { type: "button", class: `command${/^(no_defense|end_turn|end_reconcile|choose_token)$/.test(cmd.type) ? " primary" : ""}${what ? " has-what" : ""}`,
    disabled: ui.busy, dataset: { ...(extra.onclick ? {} : { cmd: JSON.stringify(cmd) }), ...(extra.dataset || {}) }, onclick: extra.onclick || (() => send(cmd)) },
  h("span", { class: "ys-opt-label" }, label || commandLabel(doc, cmd)), what ? h("span", { class: "ys-opt-what" }, what) : "");
  const tip = optionHelp(ctx, cmd);
  return tip ? help(node, tip) : node;
}

const PREVENTS = { BLOCK: 3, RIPOSTE: 2, OCCUPY: 2, SPIRIT_SHIELD: 2, COUNTER: 2 };

/** The defense keyword a hand card gives this seat (its own, or the master's ADAPT defense). */
function defenseOf(d, seat) {
  const c = def(d) || {};
  if (c.defense) return c.defense;
  return (c.attack || []).some((it) => it.k === "ADAPT") ? adaptOf(seat).defense || null : null;
}

function myTarget(doc) {
  for (const a of doc.view.attacks || []) {
    const tg = (a.targets || []).find((t) => t.seat === doc.seat);
    if (tg) return { attack: a, atk: tg.atk };
  }
  return null;
}

/** What choosing cmd does, in one short line shown on its button ("" when the label says it all). */
function optionEffect(ctx, cmd) {
  const { doc, view } = ctx;
  const me = view.players[doc.seat] || {};
  const a = cmd.args || {};
  if (cmd.type === "no_defense") {
    const t = myTarget(doc);
    return t ? `You LOSE ${t.atk} card${t.atk === 1 ? "" : "s"} (deck top or hand)` : "Take the damage";
  }
  if (cmd.type === "defend") {
    const c = (me.hand || []).find((x) => x.id === a.card);
    const kw = c ? defenseOf(c.d, doc.seat) : null;
    if (!kw) return "";
    const t = myTarget(doc);
    const short = explain(`defense:${kw}`);
    let take = "";
    if (t && PREVENTS[kw] !== undefined) take = `: you take ${Math.max(0, t.atk - PREVENTS[kw])}`;
    else if (t && kw === "BARRIER") take = `: you take ${Math.max(0, t.atk - (me.karma || []).length)}`;
    else if (t && kw === "CLASH") take = `: you take 0 or ${Math.max(0, t.atk - 4)}`;
    else if (t && kw === "DODGE") take = ": 0 if you leave the pattern";
    return `${short}${take}`;
  }
  if (cmd.type === "use_effect" || cmd.type === "skip_effect") {
    const k = String(a.effect || "").toUpperCase();
    const e = entry(kwKey(k));
    return e && cmd.type === "use_effect" ? e.short.replace(/\s?\{\w+\}/g, "") : "";
  }
  if (cmd.type === "empower") return "";
  return "";
}

/** The full rules text behind an option (a tooltip). */
function optionHelp(ctx, cmd) {
  const { doc, view } = ctx;
  const me = view.players[doc.seat] || {};
  const a = cmd.args || {};
  if (cmd.type === "defend") {
    const c = (me.hand || []).find((x) => x.id === a.card);
    if (!c) return "";
    const kw = defenseOf(c.d, doc.seat);
    return [kw ? helpText(`defense:${kw}`) : "", helpText("concept:DEFENSE"), `${defName(c.d)}: ${cardHelp(c.d, doc.seat)}`].filter(Boolean).join("\n\n");
  }
  if (cmd.type === "no_defense" || cmd.type === "lose_card") return helpText("concept:LOSE");
  if (cmd.type === "focus") return helpText("keyword:FOCUS");
  if (cmd.type === "delve") return helpText("keyword:DELVE");
  if (cmd.type === "wind") return helpText("status:WIND");
  if (cmd.type === "dash") return helpText("keyword:DASH");
  if (cmd.type === "move_action") return [helpText("concept:SPEED"), helpText("concept:COMBAT_MOVEMENT")].join("\n");
  if (cmd.type === "take_token") return helpText("concept:COMBAT_ACTION");
  if (cmd.type === "choose_token") return helpText("concept:DESTINY");
  if (cmd.type === "tuck" || cmd.type === "draw" || cmd.type === "end_reconcile") return helpText("concept:RECONCILE");
  if (cmd.type === "empower") return helpText("keyword:EMPOWER");
  if (cmd.type === "use_effect" || cmd.type === "skip_effect") return helpText(kwKey(String(a.effect || "").toUpperCase()));
  if (cmd.type === "ability" || cmd.type === "quick") {
    const [kind, ref] = String(a.src).split(":");
    const m = masterInfo(me.master);
    if (kind === "avatar" && m && m.abilities[Number(ref)]) return abilityHelp(m.abilities[Number(ref)]);
    if (kind === "page" && m) {
      for (const t of m.tome || []) for (const face of Object.values(t.faces || {})) if (face.page === Number(ref)) return tomeHelp(face);
    }
    if (kind === "equip") {
      const c = (me.equip || []).find((x) => x.id === String(a.src).slice(6));
      const face = c && def(c.d);
      if (face) return tomeHelp(face);
    }
  }
  if (cmd.type === "pay_card") return helpText("concept:KARMA_POOL");
  return "";
}

/** LOSE: one click for the rest from the deck top, the deck top alone, or a hand card (same cards once). */
function loseButtons(ctx, loses) {
  const { doc, view } = ctx;
  const me = view.players[doc.seat] || {};
  const left = (((view.prompts || {}).main || {}).info || {}).remaining;
  const out = [];
  const deck = loses.find((c) => c.args.zone === "deck");
  if (deck && left > 1 && (me.deck_count ?? left) >= left) { // the deck holds them all
    out.push(optionButton(ctx, deck, `Lose all ${left} from the top of your deck`, {
      dataset: { action: "lose-all" },
      onclick: () => { ui.autoLose = { sentAt: -1 }; render(...ui.last); },
    }));
  }
  if (deck) out.push(optionButton(ctx, deck, "Lose the top card of your deck"));
  const seen = new Map();
  for (const c of loses) {
    if (c.args.zone === "deck") continue;
    const card = (me[c.args.zone] || []).find((x) => x.id === c.args.card);
    const key = `${c.args.zone}|${card ? card.d : c.args.card}`;
    if (seen.has(key)) { seen.get(key).n += 1; continue; }
    seen.set(key, { cmd: c, n: 1, card });
  }
  for (const { cmd, n } of seen.values()) {
    out.push(optionButton(ctx, cmd, `${commandLabel(doc, cmd)}${n > 1 ? ` (you hold ${n})` : ""}`));
  }
  return out;
}

/** Setup: every terrain board side as a picture to choose. */
function renderBoardChoice(ctx) {
  const { opts, send } = ctx;
  const boards = (ui.content && ui.content.boards && ui.content.boards.terrain) || [];
  return h("div", { class: "ys-boards", "data-testid": "yashima-boards" },
    opts.boards.map((cmd) => {
      const b = boards.find((x) => x.id === cmd.args.board);
      const layout = b ? b.sides[cmd.args.side] || {} : {};
      const kinds = [...new Set(Object.values(layout))].filter((t) => t !== "blank");
      return help(h("button", { type: "button", class: "ys-board-pick", disabled: ui.busy, dataset: { board: cmd.args.board, side: cmd.args.side, cmd: JSON.stringify(cmd) }, onclick: () => send(cmd) },
        boardSvg(layout), h("span", {}, `${b ? b.name : titleCase(cmd.args.board)}, side ${String(cmd.args.side).toUpperCase()}`)),
      kinds.map((t) => { const e = entry(`terrain:${t}`); return e ? `${e.term}: ${e.short}` : titleCase(t); }).join("\n") || "Blank spaces only.");
    }));
}

/** Setup: slot and rotation of the chosen board, previewed on the map, then placed. */
function renderBoardPlacement(ctx) {
  const { doc, opts, send, select } = ctx;
  const cur = ui.sel && ui.sel.kind === "board" ? ui.sel : { slot: opts.placeBoard[0].args.slot, rotation: opts.placeBoard[0].args.rotation };
  const slots = [...new Set(opts.placeBoard.map((c) => c.args.slot))];
  const rotations = opts.placeBoard.filter((c) => c.args.slot === cur.slot).map((c) => c.args.rotation);
  const cmd = opts.placeBoard.find((c) => c.args.slot === cur.slot && c.args.rotation === cur.rotation);
  const choice = doc.view.setup.choice || [];
  const b = ((ui.content && ui.content.boards && ui.content.boards.terrain) || []).find((x) => x.id === choice[0]);
  return h("div", { class: "ys-placing", "data-testid": "yashima-placement" },
    h("div", { class: "ys-choices" }, h("span", { class: "muted" }, "Slot:"),
      slots.map((x) => h("button", { type: "button", class: x === cur.slot ? "is-selected" : "", "aria-pressed": String(x === cur.slot), disabled: ui.busy, dataset: { slot: String(x) },
        onclick: () => select({ kind: "board", slot: x, rotation: opts.placeBoard.find((c) => c.args.slot === x).args.rotation }) }, `Slot ${x + 1}`))),
    h("div", { class: "ys-choices" }, h("span", { class: "muted" }, "Rotation:"),
      rotations.map((r) => h("button", { type: "button", class: r === cur.rotation ? "is-selected" : "", "aria-pressed": String(r === cur.rotation), disabled: ui.busy, dataset: { rotation: String(r) },
        "aria-label": `Rotation ${r}: turned ${r * 60} degrees`, onclick: () => select({ kind: "board", slot: cur.slot, rotation: r }) },
      h("span", { class: "ys-rot", "aria-hidden": "true" }, boardSvg(b ? b.sides[choice[1]] || {} : {}, r)), `${r * 60}°`))),
    cmd ? h("button", { type: "button", class: "primary", "data-action": "place-board", disabled: ui.busy, dataset: { cmd: JSON.stringify(cmd) }, onclick: () => send(cmd) },
      `Place ${b ? b.name : "the board"} in slot ${cur.slot + 1}, turned ${cur.rotation * 60}°`) : "");
}

/** A small picture of a terrain board side (its 19 spaces), optionally rotated. */
function boardSvg(layout, rotation = 0) {
  const R = (ui.content && ui.content.geometry && ui.content.geometry.board_radius) || 2;
  const svg = s("svg", { class: "ys-board-svg", viewBox: `${-S * 3.6} ${-S * 4.6} ${S * 7.2} ${S * 9.2}`, "aria-hidden": "true" });
  for (let q = -R; q <= R; q++) for (let r = -R; r <= R; r++) {
    if (Math.abs(q) + Math.abs(r) + Math.abs(q + r) > 2 * R) continue;
    const t = layout[`${q},${r}`] || "blank";
    const [a, c] = rotate(q, r, rotation);
    const [x, y] = px(a, c);
    svg.append(s("polygon", { class: `ys-hex t-${t}`, points: hexPoints(x, y, S - 1.5) }));
    if (TERRAIN_GLYPH[t]) svg.append(s("text", { class: "ys-cell-label", x, y: y + S * 0.35, "text-anchor": "middle" }, TERRAIN_GLYPH[t]));
  }
  return svg;
}

function masterSummary(id) {
  const m = masterInfo(id);
  if (!m) return "";
  const f = (m.avatar && m.avatar.front) || {};
  const adapt = m.adapt || {};
  return [
    `Karma ${f.karma}, hand ${f.hand}, speed ${f.speed}`,
    m.status ? `Status: ${helpText(`status:${m.status}`) || m.status}` : "",
    `ADAPT: ${[...(adapt.attack || []).map(itemText), adapt.defense ? `defense ${itemText({ k: adapt.defense })}` : ""].filter(Boolean).join("; ") || "none"}`,
    ...(m.abilities || []).map((a) => `${a.name}: ${abilityHelp(a)}`),
  ].filter(Boolean).join("\n");
}

function kamiSummary(id, master) {
  const k = kamiInfo(id);
  if (!k) return "";
  const m = masterInfo(master);
  const deck = m && m.cards ? `, shuffled with ${m.name}'s ${m.cards.length} battle cards into a battle deck of ${k.deck_size + m.cards.length}` : ", shuffled with the master's battle cards into the battle deck";
  return [`${k.deck_size} kami battle cards${deck}; average karma ${k.average_karma}, average attack ${k.average_attack}`,
    `Keywords: ${(k.abilities || []).map((x) => { const e = entry(kwKey(x.replace(/ /g, "_"))); return e ? `${e.term} (${e.short.replace(/\s?\{\w+\}/g, "")})` : x; }).join(", ")}`,
    `Defenses: ${(k.defenses || []).map((x) => { const e = entry(`defense:${x.replace(/ /g, "_")}`); return e ? `${e.term} (${e.short})` : x; }).join(", ")}`].join("\n");
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

/** Whether two seats play on the same side (teams) or are the same seat. */
function sameSide(view, a, b) {
  if (a === b) return true;
  const t = view.teams;
  return Array.isArray(t) && t[a] !== undefined && t[a] === t[b];
}

/** For each attack the seat may make now: card id -> facing -> [opponent seats the pattern hits]. */
function reachOf(doc, opts) {
  const view = doc.view;
  const me = isSeat(doc.seat) ? view.players[doc.seat] : null;
  const out = new Map();
  if (!me || !me.pos) return out;
  const occupants = new Map();
  view.players.forEach((p, seat) => { if (p.pos && !p.dead && !p.pending && !sameSide(view, seat, doc.seat)) occupants.set(p.pos, seat); });
  const hand = new Map(((me.hand) || []).map((c) => [c.id, c]));
  for (const cmd of opts.facing) {
    const c = hand.get(cmd.args.card);
    if (!c) continue;
    const hit = attackCells(view, me.pos, cmd.args.facing, c.d).filter((k) => occupants.has(k)).map((k) => occupants.get(k));
    if (!out.has(c.id)) out.set(c.id, new Map());
    out.get(c.id).set(cmd.args.facing, hit);
  }
  return out;
}

/** The cells of a terrain board side placed at slot with rotation (as the engine's board_cells). */
function boardCells(board, side, slot, rotation) {
  const geo = ui.content && ui.content.geometry;
  const b = ((ui.content && ui.content.boards && ui.content.boards.terrain) || []).find((x) => x.id === board);
  if (!geo || !b) return {};
  const layout = b.sides[side] || {};
  const [cq, cr] = geo.slots[slot];
  const out = {};
  const R = geo.board_radius;
  for (let q = -R; q <= R; q++) for (let r = -R; r <= R; r++) {
    if (Math.abs(q) + Math.abs(r) + Math.abs(q + r) > 2 * R) continue;
    const [a, c] = rotate(q, r, rotation);
    out[`${cq + a},${cr + c}`] = layout[`${q},${r}`] || "blank";
  }
  return out;
}

/** The squares and masters the last move by someone else touched. */
function lastMoveMarks(doc) {
  const cells = new Set();
  const seats = new Set();
  for (const ev of ((doc.last_move || {}).events) || []) {
    const p = ev.payload || {};
    if (ev.type === "MasterMoved" && p.pos) { cells.add(p.pos); seats.add(p.seat); }
    if (ev.type === "AttackDeclared") { for (const c of p.cells || []) cells.add(c); seats.add(p.seat); }
    if (ev.type === "StatusChanged" && p.on === "space" && p.who) cells.add(p.who);
    if (ev.type === "BoardPlaced") for (const c of ((doc.view.boards || []).find((x) => x.slot === p.slot) || {}).cells || []) cells.add(c);
  }
  return { cells, seats };
}

function initials(name) {
  const words = String(name || "?").split(/\s+/).filter(Boolean);
  return words.length > 1 ? words.map((w) => w[0]).join("").slice(0, 2).toUpperCase() : words[0].slice(0, 2);
}

const MIN_HEX_PX = 32; // a hex's width (corner to corner) a finger can still hit
// on a phone (the stylesheet's narrow-screen rule): wide enough that the space labels read at
// about 10 px; the map scrolls sideways in its own box there
const MIN_HEX_PX_PHONE = 48;

/** The narrowest the map's picture may be drawn, in px, for a map ``width`` SVG units wide. */
export function mapMinWidth(width, hexPx = MIN_HEX_PX) { return Math.ceil(width * hexPx / (2 * S)); }

const UPWARD = new Set([5, 0, 1]); // facings whose arrow or nose crosses the top half of a hex

/** Where each space's label goes so that no miniature, facing nose or facing arrow covers it:
 * ``{cell: "bottom" | "centre"}`` for the spaces whose label leaves its usual place at the top of
 * the hex (absent: "top"). ``minis``: ``[{pos, facing}]``; ``arrows``: ``{centre, facings}`` for the
 * arrows drawn around a space (placement, end of move, attack), or null. An arrow crosses its own
 * space's edge and reaches into the neighbour's middle: the top of a space is taken by a nose or an
 * arrow pointing up-ish out of it, or an arrow coming down-ish into it; the bottom likewise. A space
 * whose top and bottom are both taken shows its label in the middle when nothing stands there. */
export function labelSlots(keys, minis, arrows) {
  const taken = new Map(); // cell -> Set of "top" / "bottom" / "centre"
  const take = (cell, where) => { if (!taken.has(cell)) taken.set(cell, new Set()); taken.get(cell).add(where); };
  for (const m of minis || []) {
    if (!m || !m.pos) continue;
    take(m.pos, "centre");
    take(m.pos, UPWARD.has(m.facing || 0) ? "top" : "bottom");
  }
  if (arrows && arrows.centre) {
    const [q, r] = parse(arrows.centre);
    for (const f of arrows.facings || []) {
      const up = UPWARD.has(f);
      if (f === 0 || f === 3) take(arrows.centre, up ? "top" : "bottom");
      const [dq, dr] = DIRS[f];
      const next = `${q + dq},${r + dr}`;
      take(next, up ? "bottom" : "top");
      take(next, "centre");
    }
  }
  const out = {};
  for (const k of keys) {
    const t = taken.get(k);
    if (!t || !t.has("top")) continue;
    if (!t.has("bottom")) out[k] = "bottom";
    else if (!t.has("centre")) out[k] = "centre";
  }
  return out;
}

const LABEL_FONT = 8.2; // SVG units, as the stylesheet's .ys-space-label
const LABEL_Y = { top: -S * 0.6, bottom: S * 0.6, centre: 0 }; // the plate's middle, from the hex's centre

/** A space's label on a light plate, drawn above everything on its hex (``slot`` from ``labelSlots``). */
function spaceTag(cell, tag, x, y, slot) {
  const w = tag.length * LABEL_FONT * 0.62 + 3.5, ht = LABEL_FONT + 0.4;
  const cy = y + LABEL_Y[slot];
  return s("g", { class: "ys-space-tag", "data-of": cell, "data-slot": slot, "aria-hidden": "true" },
    s("rect", { x: (x - w / 2).toFixed(1), y: (cy - ht / 2).toFixed(1), width: w.toFixed(1), height: ht.toFixed(1), rx: 2 }),
    s("text", { class: "ys-space-label", x, y: (cy + LABEL_FONT * 0.35).toFixed(1), "text-anchor": "middle" }, tag));
}

/** A small number in the team's colour by a miniature. */
function teamBadge(team, x, y) {
  return s("g", { class: `ys-team-badge team-${team}`, "aria-hidden": "true" },
    s("circle", { cx: x, cy: y, r: 6 }), s("text", { x, y: y + 3, "text-anchor": "middle" }, teamLetter(team)));
}

/** A miniature as a player sees it: "Akiko (alice (you)), facing up, Team A, life 10, BURN". */
export function miniWords(doc, seat) {
  const p = doc.view.players[seat] || {};
  const m = masterInfo(p.master);
  const team = teamOf(doc, seat);
  const dealt = doc.view.phase !== "setup";
  const statuses = Object.entries(p.st || {}).map(([st, owners]) => (Array.isArray(owners) && owners.length > 1 ? `${st} ×${owners.length}` : st));
  return [`${m ? m.name : titleCase(p.master)} (${seatName(doc, seat)})`, `facing ${towards(p.facing || 0)}`,
    team === null ? "" : `Team ${teamLetter(team)}`, dealt && !p.dead ? `life ${(p.hand_count || 0) + (p.deck_count || 0)}` : "",
    p.dead ? "out of the game" : "", p.pending ? "waiting to restore" : "", ...statuses].filter(Boolean).join(", ");
}

/** A space's accessible name: its name and what activating it does ("The road space H8: Step to
 * the road space H8"), then what a sighted player reads on its hex (statuses, the miniature on it,
 * the attack marks). */
export function cellWords(doc, named, seat, spst, marks, action) {
  const parts = [action ? `${named}: ${action}` : named];
  const statuses = Object.entries(spst || {}).map(([st, owners]) => (Array.isArray(owners) && owners.length > 1 ? `${st} ×${owners.length}` : st));
  if (statuses.length) parts.push(`Statuses here: ${statuses.join(", ")}`);
  if (isSeat(seat)) parts.push(miniWords(doc, seat));
  if (marks.safe) parts.push("Outside the attack");
  else if (marks.attacked) parts.push("Targeted by the attack being resolved");
  if (marks.preview) parts.push("In the attack pattern");
  if (marks.last) parts.push("Part of the last move");
  return parts.join(". ");
}

/** Scroll a map wider than its box: back to where the player left it, else to their own miniature. */
function scrollMap(root, doc) {
  const wrap = root.querySelector(".ys-map");
  if (!wrap || wrap.scrollWidth <= wrap.clientWidth) return;
  if (ui.mapScroll !== undefined && ui.mapScroll !== null) { wrap.scrollLeft = ui.mapScroll; return; }
  const mini = isSeat(doc.seat) ? wrap.querySelector(`.ys-mini[data-seat="${doc.seat}"] circle.body`) : null;
  if (!mini) return;
  const box = mini.getBoundingClientRect();
  const frame = wrap.getBoundingClientRect();
  wrap.scrollLeft += box.left + box.width / 2 - (frame.left + frame.width / 2);
  ui.mapScroll = wrap.scrollLeft;
}

function renderMap(ctx) {
  const { doc, view, opts, send, select, player } = ctx;
  const ghost = ctx.ghost || {}; // a terrain board previewed during setup
  const cells = { ...ghost, ...(view.cells || {}) };
  const keys = Object.keys(cells);
  // five or more boards (five or six masters): the map may grow taller; on a narrow screen the
  // hexes keep MIN_HEX_PX and the map scrolls sideways inside its own box
  // focusable, so that a keyboard can scroll the map where it is wider than its box (a phone)
  const wrap = h("div", { class: `ys-map${keys.length > 5 * 19 ? " is-large" : ""}`, "data-testid": "yashima-map", role: "region", "aria-label": "Map", tabindex: "0" });
  wrap.addEventListener("scroll", () => { ui.mapScroll = wrap.scrollLeft; });
  if (!keys.length) { wrap.append(h("p", { class: "muted" }, "No map yet.")); return wrap; }
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const k of keys) { const [x, y] = px(...parse(k)); minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y); }
  const pad = S * 1.6;
  const width = maxX - minX + 2 * pad;
  const svg = s("svg", { viewBox: `${minX - pad} ${minY - pad} ${width} ${maxY - minY + 2 * pad}`, role: "group", "aria-label": "Hex map" });
  // set through the CSSOM (the page's CSP refuses style attributes); the stylesheet picks one
  svg.style.setProperty("--ys-min-width", `${mapMinWidth(width)}px`);
  svg.style.setProperty("--ys-min-width-phone", `${mapMinWidth(width, MIN_HEX_PX_PHONE)}px`);
  const me = player ? view.players[doc.seat] : null;
  const placeCells = new Set(opts.place.map((c) => c.args.cell));
  // preview: the selected attack card at the hovered facing (else the master's facing)
  let preview = new Set();
  if (ui.sel && ui.sel.kind === "attack" && me && me.pos) preview = new Set(attackCells(view, me.pos, ui.hoverFacing ?? me.facing, ui.sel.d));
  const underAttack = new Set((view.attacks || []).flatMap((a) => a.cells || []));
  const last = ctx.marks;
  const dodging = opts.cells.size && [...opts.cells.values()].some((c) => c.type === "dodge_to");
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
  // the space labels go last, above the miniatures and the arrows, where none of them lies
  const slots = labelSlots(keys, view.players.filter((p) => p.pos && p.pos in cells), centre ? { centre, facings: arrows.map((c) => c.args.facing) } : null);
  const tags = [];
  const occupants = new Map(view.players.map((p, seat) => [p.pos, seat]).filter(([pos]) => pos && pos in cells));
  for (const k of keys) {
    const [x, y] = px(...parse(k));
    const isGhost = !(k in (view.cells || {}));
    const t = TERRAINS.includes(cells[k]) ? cells[k] : "unknown";
    const cmd = player && !isGhost ? opts.cells.get(k) : null;
    const placing = player && placeCells.has(k);
    const target = Boolean(cmd || placing) && !ui.busy;
    const safe = cmd && cmd.type === "dodge_to" && !underAttack.has(k);
    const tag = spaceLabel(k); // the label the history and the command labels name the space by
    const g = s("g", { class: `ys-cell${target ? " is-target" : ""}${preview.has(k) ? " is-preview" : ""}${isGhost ? " is-ghost" : ""}${last.cells.has(k) ? " is-last" : ""}${safe ? " is-safe" : ""}`,
      "data-cell": k, "data-terrain": cells[k], "data-space": tag || null },
      s("polygon", { class: `ys-hex t-${t}`, points: hexPoints(x, y, S - 0.6) }));
    const slot = slots[k] || "top";
    if (tag) tags.push(spaceTag(k, tag, x, y, slot));
    // the terrain's glyph at the bottom of the hex, or at the top when the label took the bottom
    if (TERRAIN_GLYPH[cells[k]]) g.append(s("text", { class: "ys-cell-label", x, y: y + (slot === "bottom" ? -S * 0.3 : S * 0.62), "text-anchor": "middle", "aria-hidden": "true" }, TERRAIN_GLYPH[cells[k]]));
    const spst = (view.spst || {})[k];
    if (spst && Object.keys(spst).length) g.append(s("text", { class: "ys-status-dot", x, y: y + S * 0.1, "text-anchor": "middle" }, Object.keys(spst).join(" ")));
    if (underAttack.has(k)) g.append(s("circle", { class: "ys-attack-dot", cx: x, cy: y, r: S * 0.55 }));
    if (preview.has(k)) g.append(s("circle", { class: "ys-preview-dot", cx: x, cy: y, r: S * 0.45 }));
    if (safe) g.append(s("text", { class: "ys-safe-mark", x, y: y + 4, "text-anchor": "middle", "aria-hidden": "true" }, "✓"));
    const terrain = entry(`terrain:${cells[k]}`);
    const lines = [];
    if (cmd) lines.push(cmd.type === "dodge_to" ? (safe ? "Dodge here: outside the attack, so all its damage is prevented." : "Dodge here: still inside the attack, so you take its damage.") : `${commandLabel(doc, cmd)}.`);
    if (placing) lines.push("Place your miniature here, then choose its facing.");
    if (isGhost) lines.push("Your terrain board would go here (preview).");
    lines.push(terrain ? `${terrain.term}: ${terrain.text}` : titleCase(cells[k]));
    for (const [name, owners] of Object.entries(spst || {})) lines.push(`${name} on this space${Array.isArray(owners) && owners.length > 1 ? ` ×${owners.length}` : ""}: ${explain(`status:${name}`)}`);
    if (underAttack.has(k)) lines.push("Targeted by the attack being resolved.");
    if (last.cells.has(k)) lines.push("Part of the last move.");
    const named = isGhost ? `A ${titleCase(cells[k]).toLowerCase()} space of the board being placed` : capitalise(spaceWords(view, k));
    help(g, lines.join("\n"), named, target || Boolean(spst && Object.keys(spst).length));
    const marks = { attacked: underAttack.has(k), preview: preview.has(k), safe, last: last.cells.has(k) };
    const action = cmd ? commandLabel(doc, cmd) : placing ? "Place your miniature here, then choose its facing" : "";
    g.setAttribute("aria-label", cellWords(doc, named, occupants.get(k), spst, marks, action));
    // a space that does something is a button; any other is a picture with its name (an svg g
    // may carry a name only with a role)
    g.setAttribute("role", target ? "button" : "img");
    if (target) {
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
    const r = S * 0.52; // leaves the top and bottom of the hex to its label
    const nose = [[x + ux * (r + 9), y + uy * (r + 9)], [x + ux * (r - 3) - uy * 8, y + uy * (r - 3) + ux * 8], [x + ux * (r - 3) + uy * 8, y + uy * (r - 3) - ux * 8]];
    const m = masterInfo(p.master);
    const name = m ? m.name : titleCase(p.master);
    const team = teamOf(doc, seat);
    const mini = s("g", { class: `ys-mini seat-${seat}${p.dead ? " is-dead" : ""}${last.seats.has(seat) ? " is-last" : ""}`, "data-seat": seat, "data-facing": p.facing,
      "data-team": team === null ? undefined : teamLetter(team) },
      team === null ? null : s("circle", { class: `ys-team-ring team-${team}`, cx: x, cy: y, r: r + 3.5 }),
      s("polygon", { class: "nose", points: nose.map((pt) => pt.map((v) => v.toFixed(1)).join(",")).join(" ") }),
      s("circle", { class: "body", cx: x, cy: y, r }),
      s("text", { x, y: y + 3, "text-anchor": "middle" }, initials(name)),
      team === null ? null : teamBadge(team, x - S * 0.68, y)); // at the hex's left corner: the label has the top
    mini.setAttribute("role", "img");
    mini.setAttribute("aria-label", miniWords(doc, seat));
    help(mini, [`${name} (${seatName(doc, seat)}), facing ${FACING_NAMES[p.facing]}${team === null ? "" : `, Team ${teamLetter(team)}`}`,
      ...Object.entries(p.st || {}).map(([st, owners]) => `${st}${Array.isArray(owners) && owners.length > 1 ? ` ×${owners.length}` : ""}: ${explain(`status:${st}`)}`)].join("\n"), name);
    svg.append(mini);
  });
  if (centre) {
    const [x, y] = px(...parse(centre));
    const reach = ui.sel && ui.sel.kind === "attack" ? ctx.reach.get(ui.sel.card) : null;
    for (const cmd of arrows) {
      const f = cmd.args.facing;
      // the arrow points at the centre of the neighbouring hex in that direction
      const [dx, dy] = px(...DIRS[f]);
      const len = Math.hypot(dx, dy);
      const ux = dx / len, uy = dy / len;
      // an arrow with a shaft, so its direction reads at a glance (a lone triangle looks the same
      // pointing up-right or down: equilateral triangles repeat every 120 degrees)
      const along = (r, side = 0) => [x + ux * r - uy * side, y + uy * r + ux * side];
      const r0 = S * 0.66, neck = S * 1.12, tip = S * 1.62, shaft = 2.2, head = 5.5;
      const pts = [along(r0, -shaft), along(neck, -shaft), along(neck, -head), along(tip), along(neck, head), along(neck, shaft), along(r0, shaft)];
      const hits = reach ? reach.get(f) || [] : [];
      const label = arrowLabel(doc, cmd, reach ? hits : null);
      const [hx_, hy_] = along(S * 1.3);
      const g = s("g", { class: `ys-arrow${ui.hoverFacing === f ? " is-hover" : ""}${hits.length ? " is-reach" : ""}`, role: "button", tabindex: "0", "data-facing": f, "data-cmd-type": cmd.type, "aria-label": label },
        s("circle", { class: "hit-area", cx: hx_.toFixed(1), cy: hy_.toFixed(1), r: 8 }),
        s("polygon", { points: pts.map((pt) => pt.map((v) => v.toFixed(1)).join(",")).join(" ") }));
      if (hits.length) g.append(s("text", { class: "ys-reach-label", x: x + ux * (tip + 6), y: y + uy * (tip + 6) + 2.5, "text-anchor": "middle", "aria-hidden": "true" }, "⚔"));
      help(g, label);
      g.addEventListener("click", () => send(cmd));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); send(cmd); } });
      if (ui.sel && ui.sel.kind === "attack") {
        // update the preview in place: redrawing would swap the arrow under the pointer for a new
        // element, and a click or tap that lands meanwhile would be lost
        const hover = () => { if (ui.hoverFacing !== f) showHover(svg, view, me.pos, ui.sel.d, f); };
        g.addEventListener("mouseenter", hover);
        g.addEventListener("focus", hover);
      }
      svg.append(g);
    }
  }
  svg.append(s("g", { class: "ys-space-tags" }, ...tags));
  wrap.append(svg);
  return wrap;
}

// The hovered (or focused) attack facing: marks its arrow and the spaces its pattern covers by
// changing classes and preview dots on the elements already drawn, never replacing them.
function showHover(svg, view, pos, d, facing) {
  ui.hoverFacing = facing;
  const preview = new Set(attackCells(view, pos, facing, d));
  for (const a of svg.querySelectorAll(".ys-arrow")) a.classList.toggle("is-hover", Number(a.getAttribute("data-facing")) === facing);
  for (const g of svg.querySelectorAll(".ys-cell")) {
    const k = g.getAttribute("data-cell");
    const on = preview.has(k);
    g.classList.toggle("is-preview", on);
    const dot = g.querySelector(".ys-preview-dot");
    if (on && !dot) {
      const [x, y] = px(...parse(k));
      const circle = s("circle", { class: "ys-preview-dot", cx: x, cy: y, r: S * 0.45 });
      const safe = g.querySelector(".ys-safe-mark");
      if (safe) g.insertBefore(circle, safe); else g.append(circle);
    } else if (!on && dot) dot.remove();
  }
}

/** The terrain key, and what the marks mean (a spectator has nothing to choose: no "you can choose it"). */
function renderLegend(playing, teams) {
  const marks = [playing ? "yellow outline = you can choose it" : null, "red = attack pattern", "orange dashes = the last move",
    "⚔ = reaches an opponent"].filter(Boolean).join(" · ");
  return h("div", { class: "ys-legend", "aria-label": "Terrain" },
    TERRAINS.map((t) => help(h("span", { class: `t-${t}` }, TERRAIN_GLYPH[t] ? `${TERRAIN_GLYPH[t]} ${titleCase(t)}` : titleCase(t)), helpText(`terrain:${t}`))),
    h("span", { class: "muted ys-legend-note" }, marks),
    teams ? h("span", { class: "ys-legend-teams", "data-testid": "yashima-team-legend" },
      teams.split(" · ").map((line, t) => h("span", { class: `ys-legend-team team-${t}` }, line))) : "");
}

// -- players, hand -----------------------------------------------------------------------------

function renderPlayers({ doc, view }) {
  const awaited = new Set((doc.status && doc.status.awaiting) || []);
  const side = h("aside", { class: "ys-side" });
  const dealt = view.phase !== "setup"; // no cards before the deal: no life to show yet
  view.players.forEach((p, seat) => {
    const m = masterInfo(p.master);
    const k = kamiInfo(p.kami);
    const statuses = Object.entries(p.st || {}).map(([name, owners]) => statusChip(name, owners));
    const karmaSum = (p.karma || []).reduce((n, c) => n + ((def(c.d) || {}).karma || 0), 0);
    const life = (p.hand_count || 0) + (p.deck_count || 0);
    side.append(h("div", { class: `ys-player seat-${seat}${awaited.has(seat) ? " is-awaited" : ""}`, dataset: { seat: String(seat) } },
      h("div", { class: "ys-pname" }, h("span", { class: "ys-swatch" }), seatName(doc, seat), awaited.has(seat) ? h("span", { class: "badge" }, toPlayBadge(doc)) : ""),
      teamLine(doc, seat) ? h("div", { class: "ys-team", "data-testid": "yashima-team" }, teamLine(doc, seat)) : "",
      h("div", {}, m ? help(h("span", { class: "ys-master" }, m.name), masterSummary(p.master), m.name) : p.dead ? "no master" : "no master yet",
        k ? [" + ", help(h("span", { class: "ys-master" }, k.name), kamiSummary(p.kami, p.master), k.name)] : "", p.restored ? " (restored)" : ""),
      dealt ? h("div", { class: "ys-pstats" },
        help(h("span", { class: `ys-life${life <= 3 ? " is-low" : ""}`, "data-testid": "yashima-life" }, `Life ${life}`), helpText("concept:LIFE")),
        help(h("span", {}, `Hand ${p.hand_count || 0}`), helpText("concept:HAND_SIZE")),
        help(h("span", {}, `Deck ${p.deck_count || 0}`), `${helpText("concept:DECK")}${p.deck_count ? "" : `\n${helpText("concept:EXHAUSTED")}`}`),
        help(h("span", {}, `Discard ${(p.discard || []).length}`), `${(p.discard || []).map((c) => defName(c.d)).join(", ") || "Empty"}.\n${helpText("concept:DISCARD_PILE")}`))
        : p.dead ? "" : h("div", { class: "ys-pstats muted" }, "Cards are dealt when setup ends."), // none for a master who left
      dealt ? help(h("div", { class: "ys-pstats" }, `Karma pool: ${(p.karma || []).length} card${(p.karma || []).length === 1 ? "" : "s"}, total ${karmaSum}`),
        `${(p.karma || []).map((c) => `${defName(c.d)} (karma ${(def(c.d) || {}).karma ?? "?"})`).join(", ") || "Empty"}.\n${helpText("concept:KARMA_POOL")}`) : "",
      m ? help(h("div", { class: "ys-pstats ys-tome" }, `Tome pages ${((p.tome || {}).pages || []).join(" and ") || "closed"}`,
        (p.equip || []).length ? ` · equipped: ${(p.equip || []).map((c) => defName(c.d)).join(", ")}` : ""), helpText("concept:TOME")) : "",
      m ? h("div", { class: "ys-abilities" }, (m.abilities || []).map((a) => help(h("span", { class: "ys-ability" }, a.name), abilityHelp(a), a.name))) : "",
      statuses.length ? h("div", { class: "ys-statuses" }, statuses) : "",
      restoreFlag(doc, p) ? help(h("div", { class: "ys-flag" }, restoreFlag(doc, p)), helpText("concept:RESTORATION")) : "",
      p.dead ? h("div", { class: "ys-flag" }, ((doc.match || {}).conceded || []).includes(seat) ? "resigned: out of the game" : "killed") : "",
      destinyFlag(doc, seat) ? h("div", { class: "ys-flag" }, destinyFlag(doc, seat)) : ""));
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

/** A seat's hand and tome: the viewer's own (playable), or, on the staff's all-hands-open board, any seat's. */
function renderHand(ctx, seat = ctx.doc.seat) {
  const { doc, view, select } = ctx;
  const opts = seat === doc.seat ? ctx.opts : { ...ctx.opts, facing: [] };
  const me = view.players[seat] || {};
  const hand = me.hand || [];
  const whose = seat === doc.seat ? "Your" : `${seatName(doc, seat)}'s`;
  const title = `${whose} hand`;
  const box = h("div", { class: "ys-section", dataset: { handSeat: String(seat) } }, h("h3", {}, `${title} (${hand.length})`));
  const row = h("div", { class: "ys-cards", "data-testid": "yashima-hand" });
  const attackBy = new Map();
  for (const c of opts.facing) if (!attackBy.has(c.args.card)) attackBy.set(c.args.card, c.type);
  for (const c of hand) {
    const info = def(c.d) || {};
    const can = attackBy.has(c.id) && !ui.busy;
    const selected = ui.sel && ui.sel.kind === "attack" && ui.sel.card === c.id;
    // reach mark: which opponents this card can hit from here, and with how many facings
    const reach = seat === doc.seat ? ctx.reach.get(c.id) : null;
    const facings = reach ? [...reach.entries()].filter(([, hits]) => hits.length) : [];
    const targets = [...new Set(facings.flatMap(([, hits]) => hits))];
    const keywords = [...(info.attack || []).map((x) => kwChip(x.k, x.k === "ADAPT" ? { ...x, seat } : x)), info.defense ? kwChip(info.defense, { k: info.defense }) : "",
      info.fate ? help(h("span", { class: "ys-kw" }, "FATE"), `${helpText("marker:FATE")}\n${info.fate.map(itemText).join("; ")}`) : "",
      info.endure ? help(h("span", { class: "ys-kw" }, "ENDURE"), `${helpText("marker:ENDURE")}\n${info.endure.map(itemText).join("; ")}`) : "",
      info.icebreaker ? help(h("span", { class: "ys-kw" }, "ICEBREAKER"), helpText("marker:ICEBREAKER")) : "",
      info.quick ? help(h("span", { class: "ys-kw" }, "Quick"), `${helpText("marker:QUICK")}\n${itemText(info.quick)}`) : ""].filter(Boolean);
    const pattern = typeof info.pattern === "string" ? entry(`pattern:${info.pattern}`) : null;
    const body = [
      h("span", { class: "nm" }, info.name || titleCase(c.d)),
      h("span", { class: "row" }, h("span", {}, `Karma ${info.karma ?? "?"}`), h("span", {}, `ATK ${info.atk ?? "?"}`)),
      patternSvg(c.d),
      h("span", { class: "fx" }, pattern ? h("span", { class: "ys-pname-small" }, pattern.term) : "", keywords),
      reach ? h("span", { class: `ys-reach${targets.length ? " is-reach" : ""}`, "data-testid": "yashima-reach" },
        targets.length ? `⚔ reaches ${targets.map((x) => seatName(doc, x)).join(", ")} (${facings.length} facing${facings.length === 1 ? "" : "s"})` : "no opponent in reach") : "",
    ];
    const cls = `ys-card${can ? " is-playable" : ""}${selected ? " is-selected" : ""}${targets.length ? " is-reach" : ""}`;
    const node = can
      ? h("button", { type: "button", class: cls, dataset: { cardId: c.id, d: c.d }, onclick: () => select(selected ? null : { kind: "attack", card: c.id, d: c.d, type: attackBy.get(c.id) }) }, body)
      : h("div", { class: cls, dataset: { cardId: c.id, d: c.d } }, body);
    row.append(help(node, `${can ? "Choose it to attack, then choose a facing.\n" : ""}${cardHelp(c.d, seat)}`, info.name || titleCase(c.d)));
  }
  if (!hand.length) row.append(h("p", { class: "muted" }, "No cards in hand."));
  box.append(row);
  // tome: the pages face up (the engine's view lists them: removed cards change what shows)
  const m = masterInfo(me.master);
  if (m) {
    const shown = (me.tome || {}).pages || [];
    const pages = [];
    (m.tome || []).forEach((t, i) => { for (const face of Object.values(t.faces || {})) if (shown.includes(face.page)) pages.push({ face, i }); });
    box.append(h("h3", {}, `${whose} tome (pages ${shown.join(" and ") || "none"})`),
      h("div", { class: "ys-cards" }, pages.length ? pages.map(({ face }) => help(h("div", { class: "ys-card small", dataset: { page: String(face.page) } },
        h("span", { class: "nm" }, `p.${face.page} ${face.name}`),
        h("span", { class: "row" }, `Cost ${face.cost}`, face.kind ? kwChipTome(face.kind) : ""),
        h("span", { class: "fx" }, (face.effects || []).map((e) => kwChip(e.k, e)),
          face.torn ? help(h("span", { class: "ys-kw" }, "torn half"), `${helpText("tome:TORN")}\n${(face.torn.effects || []).map(itemText).join("; ")}`) : "")),
      tomeHelp(face), face.name)) : h("p", { class: "muted" }, "Avatar page.")));
    box.append(h("h3", {}, `${whose} karma pool (${(me.karma || []).length})`),
      h("div", { class: "ys-cards" }, (me.karma || []).map((c) => help(h("div", { class: "ys-card small" }, h("span", { class: "nm" }, defName(c.d)), h("span", { class: "row" }, `Karma ${(def(c.d) || {}).karma ?? "?"}`)),
        `${cardHelp(c.d, seat)}\n${helpText("concept:KARMA_POOL")}`, defName(c.d))),
        (me.karma || []).length ? "" : h("p", { class: "muted" }, "Empty.")));
  }
  return box;
}

registerBoard("yashima", { render, hidesCommands: true });

// For tests and debugging (read-only).
window.KamizaYashima = { ui, classify };
export { indexDefs, ui };
