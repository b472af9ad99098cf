// Harakiri: Blades of Honor, the Adventure Phase board: the map of Japan (clan territories,
// locations, imperial roads and dangerous paths, cities and their services, ports and seas,
// sanctuaries, special locations), where every character and enemy stands, the round and
// influence tracks, the last influence card and travel event, the chapter's missions, the party,
// and every legal command as a control in words (a highlighted location to travel to, buttons
// and lists for the rest).
//
// harakiri.js hands a match over here when its view is an Adventure Phase (it has a `flow`).
// Every command sent is one of doc.legal_commands, unchanged. Commands this board does not know
// are still offered as plain buttons, in words, so no state is unplayable. Spectators see the
// board without controls. Only the seat's view and the public content pack are read: deck orders
// and face-down mission cards are not in the view, and the campaign book's texts (missions, clan
// token entries, triggers, sections, special locations) come from the view's book, which holds each
// only once it is read; the pack has each chapter as it stands before play.
// The DOM is built with textContent / SVG attributes only.

import { ensureStylesheet, fetchContent, h, showBoard } from "./registry.js";
import { seatLabel } from "../words.js";
import {
  ORDER, SERVICES, content, adv, plural, pretty, locInfo, locName, charName, enemyName, equipment,
  equipmentName, item, itemName, skillName, kami, kamiAbility, seaName, territory, chapterDoc, missionDoc,
  personalDoc, missionTitle, maxHealth, targetText, diceText, effectsText, tokenName, requirementText, servicesText, names,
  commandLabel, routes, routeKind, markName, SELF_ACTING_KAMI,
} from "./harakiri_adventure_words.js";


const CSS_URL = new URL("../../css/boards/harakiri_adventure.css", import.meta.url).href;
const LAYOUT_URL = new URL("./harakiri_adventure_map.json", import.meta.url).href;
const SVG_NS = "http://www.w3.org/2000/svg";
const SHORT = { akira: "Ak", hattori: "Ha", hikaru: "Hi", tomoe: "To" };
const ATTRIBUTES = ["power", "dexterity", "spirit", "knowledge"];
const KIND_WORD = { city: "city", village: "village", sanctuary: "sanctuary", special: "special location" };
const AFFINITY_MAX = 6;
const FEED_MAX = 10;

const ui = {
  pack: null, // the public content pack of harakiri
  layout: null, // where each location is drawn
  loading: null,
  failed: false,
  last: null, // [container, doc, sendCommand]
  busy: false,
  selected: null, // the location whose details are shown
  zoom: false,
  feed: [],
  lastEvent: null, // the last travel event drawn {card, side, character}
};

// -- loading -------------------------------------------------------------------------------------

function rerender() {
  if (ui.last) renderAdventure(...ui.last);
}

function load() {
  if (ui.loading || (ui.pack && ui.layout)) return;
  const layout = fetch(LAYOUT_URL, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))));
  ui.loading = Promise.all([fetchContent("harakiri"), layout])
    .then(([pack, map]) => {
      ui.pack = pack;
      content.pack = pack;
      ui.layout = map;
      ui.failed = false;
      rerender();
    })
    .catch(() => {
      ui.failed = true;
      rerender();
      setTimeout(() => { ui.loading = null; load(); }, 4000);
    });
}

/** What the view does not keep (rolls, draws, moves), read again at every render from doc.events,
 * the page's own log up to the view's seq (the live page gives its tail; a replay may give none). */
function readLog(doc) {
  ui.feed = [];
  ui.lastEvent = null;
  for (const ev of doc.events || []) if (ev && ev.seq <= doc.seq) digest(ev);
}

function seatName(doc, seat) {
  const s = doc.match && doc.match.seats && doc.match.seats[seat];
  const name = s ? seatLabel(s) : `Player ${Number(seat) + 1}`;
  return seat === doc.seat ? `${name} (you)` : name;
}

function position(id) {
  const at = ui.layout && ui.layout.locations && ui.layout.locations[id];
  if (at) return { x: at[0], y: at[1] };
  // A location the layout does not know yet (new content): along the bottom edge, still playable.
  const ids = Object.keys((adv().map && adv().map.locations) || {}).filter((k) => !(ui.layout.locations || {})[k]).sort();
  return { x: 40 + 70 * Math.max(0, ids.indexOf(id)), y: (ui.layout.height || 720) - 24 };
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "onkeydown") node.addEventListener("keydown", v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false || c === "") continue;
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

// -- the legal commands sorted by where they are offered -------------------------------------------------

function classify(legal, view) {
  const out = { targets: new Map(), byType: new Map() };
  for (const cmd of legal) {
    if (!out.byType.has(cmd.type)) out.byType.set(cmd.type, []);
    out.byType.get(cmd.type).push(cmd);
    const a = cmd.args || {};
    let kind = null;
    if (cmd.type === "move") kind = routeKind((view.characters[view.flow.active] || {}).location, a.to) === "path" ? "path" : "road";
    else if (cmd.type === "sail") kind = "sea";
    else if (cmd.type === "guided_by_the_waves") kind = "waves";
    else if (cmd.type === "choose_path") kind = "enemy";
    if (kind && typeof a.to === "string") {
      const prev = out.targets.get(a.to);
      const rank = { road: 0, path: 0, enemy: 0, sea: 1, waves: 2 };
      if (!prev || rank[kind] < rank[prev.kind]) out.targets.set(a.to, { cmd, kind });
    }
  }
  return out;
}

const take = (opts, ...types) => types.flatMap((t) => opts.byType.get(t) || []);

// -- rendering -------------------------------------------------------------------------------------------

export function renderAdventure(container, doc, sendCommand) {
  ui.last = [container, doc, sendCommand];
  ensureStylesheet("harakiri_adventure", CSS_URL);
  load();
  const view = doc.view;
  if (!view || !view.flow) {
    container.replaceChildren(h("p", { class: "muted" }, doc.match && doc.match.status === "open"
      ? "Waiting for the players: the Adventure Phase starts when every seat is taken." : "Nothing to show yet."));
    return;
  }
  if (!ui.pack || !ui.layout) {
    container.replaceChildren(h("p", { class: "muted", "data-testid": "adv-loading" },
      ui.failed ? "Could not load the map of Japan; trying again…" : "Unrolling the map of Japan…"));
    return;
  }
  readLog(doc);
  const player = doc.seat !== null && doc.seat !== undefined;
  const legal = player ? doc.legal_commands || [] : [];
  const opts = classify(legal, view);
  rememberFocus(container);

  const send = (cmd) => {
    if (ui.busy) return;
    ui.busy = true;
    rerender();
    sendCommand(cmd.type, cmd.args || {})
      .catch(() => { /* the match page shows the refusal under the board */ })
      .finally(() => { ui.busy = false; rerender(); });
  };
  const flow = view.flow;
  const active = flow.active && view.characters[flow.active] ? flow.active : null;
  if (!ui.selected || !locInfo(ui.selected)) {
    const mine = ORDER.find((c) => view.characters[c] && view.control && view.control[c] === doc.seat);
    ui.selected = (active && view.characters[active].location) || (mine && view.characters[mine].location) || null;
  }
  const ctx = { doc, view, legal, opts, send, player, active };

  const root = h("div", { class: `adv${ui.busy ? " is-busy" : ""}`, "data-testid": "adventure-board", dataset: { stage: flow.stage } });
  const prompt = renderPrompt(ctx);
  root.append(prompt);
  root.append(renderTracks(ctx));
  if (player) root.append(renderActions(ctx));
  root.append(renderMapCard(ctx));
  root.append(h("div", { class: "adv-columns" },
    h("div", { class: "adv-col" }, renderCards(ctx), renderEnemies(ctx), renderPlace(ctx), renderFeed()),
    h("div", { class: "adv-col" }, renderMissions(ctx))));
  root.append(renderParty(ctx));
  if (!player && !doc.open) root.append(h("p", { class: "muted" }, "You are watching this match.")); // not on the staff review's open board
  // The prompt's words are spoken by the container's one live region, which outlives the redraws
  // (a region made anew on every redraw is not spoken).
  showBoard(container, root, prompt.textContent, "adventure-said");
  restoreFocus(container);
}

/** Before a redraw: the control that has the focus on the board (its ``data-fkey``). A control
 * disabled or gone since (a command sent) leaves the focus on the page's body, or on the prompt:
 * the key noted last is still wanted then. */
function rememberFocus(container) {
  if (!ui.watchingClicks) { // a click elsewhere on the page: the focus is no longer the board's to keep
    ui.watchingClicks = true;
    document.addEventListener("mousedown", (e) => { if (ui.focusBoard && !ui.focusBoard.contains(e.target)) ui.focusKey = null; }, true);
  }
  ui.focusBoard = container;
  const active = document.activeElement;
  if (!active || active === document.body || active.classList.contains("adv-prompt")) return;
  ui.focusKey = container.contains(active) && active.dataset ? active.dataset.fkey || null : null;
}

/** After a redraw: the focus back on the same control, else on the first option offered, else on
 * the prompt (which says what happens now), so that a keyboard never falls back to the page's top. */
function restoreFocus(container) {
  const active = document.activeElement;
  if (!ui.focusKey || (active && active !== document.body && !container.contains(active))) return;
  const usable = (n) => Boolean(n) && ((n.tabIndex >= 0 && !n.disabled) || n.classList.contains("adv-prompt"));
  const again = [...container.querySelectorAll("[data-fkey]")].find((n) => n.dataset.fkey === ui.focusKey && !n.disabled);
  const target = [again, container.querySelector(".adv-actions button:not([disabled])"), container.querySelector(".adv-prompt")].find(usable);
  if (target && target !== active) target.focus({ preventScroll: true });
}

// -- the prompt: what happens now, and who the game waits for ----------------------------------------------

export function stageWords(view) {
  const flow = view.flow;
  switch (flow.stage) {
    case "prepare": return "Preparation";
    case "shogun": return "The Shōgun's turn";
    case "enemies": return "The enemies' turn";
    case "characters":
    case "activation": return "The characters' turn";
    case "round_end": return "End of the round";
    case "ending": return "End of the chapter";
    case "finished": return "The chapter is over";
    default: return pretty(flow.stage);
  }
}

function awaitedCharacters(view, seat) {
  const flow = view.flow;
  const controlled = (c) => view.control && view.control[c] === seat;
  if (view.choice) return [view.choice.character];
  if (flow.stage === "prepare") {
    return ORDER.filter((c) => view.characters[c] && (!view.characters[c].equipped || view.characters[c].kami_chosen === false) && controlled(c));
  }
  if (flow.stage === "ending" && flow.loss) return [flow.loss];
  if (flow.stage === "characters") return ORDER.filter((c) => view.characters[c] && !view.characters[c].activated && !view.characters[c].defeated && controlled(c));
  if (flow.proposal) return (flow.proposal.group || []).filter(controlled);
  if (flow.stage === "activation" && flow.active) return [flow.active];
  return [];
}

function systemWords(view) {
  const flow = view.flow;
  if (flow.stage === "shogun") return "The Shōgun's turn: the round token moves, the influence rises and an influence card is read…";
  if (flow.stage === "enemies") return "The enemies move along the shortest way to their targets…";
  if (flow.stage === "activation" && (flow.event || (flow.travel && flow.travel.ended))) return "A travel event is being resolved…";
  if (flow.stage === "round_end") return "The round ends…";
  if (flow.stage === "ending") return "The chapter ends: the campaign book is read…";
  return "The game resolves what happened…";
}

function yourWords(ctx) {
  const { view, doc } = ctx;
  const flow = view.flow;
  if (view.choice) return `${charName(view.choice.character)} must decide: choose below.`;
  if (flow.stage === "prepare") return `choose a level 1 weapon${ctx.opts.byType.has("choose_kami") ? " and a Kami" : ""} for ${names(awaitedCharacters(view, doc.seat))}.`;
  if (flow.proposal) return `${charName(flow.proposal.character)} proposes that ${names(flow.proposal.group)} travel together: agree or refuse.`;
  if (flow.stage === "ending" && ctx.opts.byType.has("change_kami")) return "a Kami was unlocked: choose who takes it, if anyone.";
  if (flow.stage === "ending" && flow.loss) return `${charName(flow.loss)} came back from defeat weaker: choose the attribute to lose.`;
  if (flow.stage === "enemies" && flow.tie && !flow.tie.chosen) {
    return `the ${enemyName(flow.tie.enemy).toLowerCase()} has equally short ways: choose where it ends its move (highlighted on the map).`;
  }
  if (flow.stage === "enemies") return "the party chooses which enemy moves next (any player may choose).";
  if (flow.stage === "characters") return `choose which of your characters acts next: ${names(awaitedCharacters(view, doc.seat))}.`;
  if (flow.stage === "activation" && ctx.active) {
    const ch = view.characters[ctx.active];
    const name = charName(ctx.active);
    if (flow.travel) {
      return `${name} is travelling from ${locName(ch.location)}: ${plural(flow.travel.mp, "movement point")} left. Choose a highlighted location on the map, or stop here.`;
    }
    if (flow.shop) return `${name} is at the ${flow.shop.kind} of ${locName(ch.location)}.`;
    return `${name}'s activation at ${locName(ch.location)}: ${plural(ch.ap, "action point")} left.`;
  }
  return "choose below.";
}

function renderPrompt(ctx) {
  const { doc, view } = ctx;
  const st = doc.status || {};
  const awaiting = st.awaiting || [];
  const chapter = chapterDoc(view);
  const title = `Chapter ${view.chapter}${chapter ? `: ${chapter.title}` : ""}`;
  const box = h("section", { class: "adv-prompt", "data-testid": "adv-prompt", tabindex: "-1" });
  box.append(h("div", { class: "adv-prompt-title" }, h("strong", {}, title), h("span", { class: "muted" }, ` · ${stageWords(view)}${view.round ? ` · round ${view.round}` : ""}`)));
  if (st.finished || view.flow.stage === "finished") {
    const result = view.result || {};
    const won = result.outcome === "success";
    box.classList.add(won ? "is-success" : "is-failure");
    box.append(h("p", { class: "adv-prompt-text" }, h("strong", {}, won ? "The Adventure Phase ends in success. " : "The Adventure Phase ends in failure. "),
      endingWords(view, result)));
    box.append(h("p", { class: "adv-small" }, "In a campaign, the Exploration Phase follows: ",
      h("a", { href: "/campaigns/" }, "your campaigns"), " show where the party goes next."));
    return box;
  }
  let text;
  if (awaiting.includes("system")) {
    text = systemWords(view);
    box.classList.add("is-system");
  } else if (ctx.player && awaiting.includes(doc.seat) && ctx.legal.length) {
    text = `Your move: ${yourWords(ctx)}`;
    box.classList.add("is-mine");
  } else {
    const who = awaiting.map((seat) => {
      const chars = awaitedCharacters(view, seat);
      return `${seatName(doc, seat)}${chars.length ? ` (${names(chars)})` : ""}`;
    });
    text = `Waiting for ${who.join(" or ") || "the other players"}.`;
  }
  box.append(h("p", { class: "adv-prompt-text" }, text));
  return box;
}

function endingWords(view, result) {
  const reason = {
    influence: "The Shōgun's influence reached 12.",
    all_defeated: "Every character was defeated.",
    final_round: "The final round is over.",
    mission_completed: "The chapter's mission is completed.",
    mission_failed: "A mission the chapter hangs on has failed.",
    city_captured: "A city the party had to hold was captured.",
    enemies_defeated: "Every enemy is defeated.",
  }[result.reason];
  // the campaign book's sections read at the end, from the view (a replay may have no events)
  const chapter = chapterDoc(view);
  const adventure = (chapter && chapter.adventure) || {};
  const ending = result.reason === "final_round" ? adventure.final_section
    : (adventure.ending_conditions || []).find((c) => c.text && c.when === result.reason);
  const section = adventure[result.outcome];
  const read = [ending && ending.text, section && section.text].filter(Boolean);
  if (!read.length) {
    const last = [...ui.feed].reverse().find((f) => f.kind === "section");
    if (last) read.push(last.text);
  }
  return [reason || "", ...read].filter(Boolean).join(" ");
}

// -- tracks: round and influence ---------------------------------------------------------------------------

function renderTracks(ctx) {
  const { view } = ctx;
  const chapter = chapterDoc(view);
  const adventure = (chapter && chapter.adventure) || {};
  const final = adventure.final_round || view.round || 1;
  const triggers = adventure.triggers || {};
  const rounds = h("ol", { class: "adv-track adv-rounds", "aria-label": `Round ${view.round || 0} of ${final}` });
  for (let r = 1; r <= final; r++) {
    const trigger = triggers[String(r)];
    // the campaign book's entry for a round is read when the round token reaches it
    const said = trigger ? (r <= (view.round || 0) ? trigger.text : "something happens when the round token reaches it") : "";
    const cls = ["adv-cell", r === view.round ? "is-now" : "", r < (view.round || 0) ? "is-past" : "", trigger ? "has-trigger" : "", r === final ? "is-final" : ""];
    rounds.append(h("li", { class: cls.filter(Boolean).join(" "), title: [r === final ? "Final round" : `Round ${r}`, said].filter(Boolean).join(": "), dataset: { round: String(r) } },
      String(r), trigger ? h("span", { class: "adv-mark", "aria-hidden": "true" }, "!") : ""));
  }
  const act = adv().act1 || {};
  const failure = act.influence_failure || 12;
  const bands = act.influence_bands || { low: [0, 5], medium: [6, 9], high: [10, failure] };
  const bandOf = (n) => Object.keys(bands).find((b) => n >= bands[b][0] && n <= bands[b][1]) || "high";
  const influence = h("ol", { class: "adv-track adv-influence", start: "0", "aria-label": `Shōgun's influence ${view.influence} of ${failure}` });
  for (let n = 0; n <= failure; n++) {
    const cls = ["adv-cell", `band-${bandOf(n)}`, n === view.influence ? "is-now" : "", n === failure ? "is-failure" : ""];
    influence.append(h("li", { class: cls.filter(Boolean).join(" "), title: n === failure ? `${n}: the Adventure Phase fails` : `${n} (${bandOf(n)})`, dataset: { influence: String(n) } },
      String(n)));
  }
  const rule = adventure.influence && adventure.influence.text;
  const decks = view.decks || {};
  return h("section", { class: "adv-tracks", "aria-label": "Round and influence" },
    h("div", { class: "adv-track-box", "data-testid": "adv-rounds" },
      h("div", { class: "adv-track-head" }, h("strong", {}, view.round ? `Round ${view.round} of ${final}` : `${final} rounds: the first is next`),
        view.final ? h("span", { class: "adv-badge is-warn" }, "final round") : ""),
      rounds,
      h("p", { class: "adv-small muted" }, [Object.keys(triggers).length ? "! marks a round when the chapter has something in store." : "",
        adventure.final_section ? `After round ${final} the chapter ends in ${adventure.final_section.outcome}.` : ""].filter(Boolean).join(" "))),
    h("div", { class: "adv-track-box", "data-testid": "adv-influence" },
      h("div", { class: "adv-track-head" }, h("strong", {}, `Shōgun's influence ${view.influence}`),
        h("span", { class: `adv-badge band-${view.influence_band || bandOf(view.influence)}` }, view.influence_band || bandOf(view.influence)),
        h("span", { class: "adv-small muted" }, `(at ${failure} the Adventure Phase fails)`)),
      influence,
      h("p", { class: "adv-small muted" }, [rule, `Decks: ${plural(decks.travel ?? 0, "travel event")}, ${plural(decks.influence ?? 0, "influence card")}, ${plural(decks.market ?? 0, "market card")}.`].filter(Boolean).join(" "))));
}

// -- the actions of the awaited seat -------------------------------------------------------------------------

function button(ctx, cmd, extra = {}) {
  const key = `${cmd.type}:${JSON.stringify(cmd.args || {})}`;
  return h("button", {
    type: "button", class: `adv-btn${extra.primary ? " primary" : ""}${extra.cls ? ` ${extra.cls}` : ""}`, disabled: ui.busy,
    dataset: { type: cmd.type, fkey: key }, onclick: () => ctx.send(cmd),
  }, extra.label || commandLabel(ctx, cmd));
}

function group(title, ...nodes) {
  const items = nodes.flat().filter(Boolean);
  if (!items.length) return null;
  return h("div", { class: "adv-group" }, title ? h("h4", {}, title) : "", h("div", { class: "adv-buttons" }, items));
}

function renderActions(ctx) {
  const { opts, view, legal } = ctx;
  const box = h("section", { class: "adv-actions", "data-testid": "adv-actions", "aria-label": "Your options" });
  if (!legal.length) {
    box.classList.add("is-empty");
    return box;
  }
  const add = (...nodes) => nodes.flat().forEach((n) => n && box.append(n));
  const used = new Set();
  const use = (...types) => {
    types.forEach((t) => used.add(t));
    return take(opts, ...types).map((cmd) => button(ctx, cmd));
  };
  const flow = view.flow;
  if (view.choice) add(renderChoice(ctx, used));
  used.add("choose_weapon");
  used.add("choose_kami");
  for (const cid of ORDER) {
    const weapons = take(opts, "choose_weapon").filter((c) => c.args.character === cid);
    if (weapons.length) add(group(`${charName(cid)}'s weapon`, weapons.map((c) => button(ctx, c))));
    const kamis = take(opts, "choose_kami").filter((c) => c.args.character === cid);
    // The character's own Kami (its card in the box) comes first, never an arbitrary one.
    const suggested = (view.characters[cid] || {}).kami;
    if (kamis.length) add(h("div", { class: "adv-group" }, pickList(ctx, `kami-${cid}`, `${charName(cid)}'s Kami`, kamis, "Choose",
      Math.max(0, kamis.findIndex((c) => c.args.kami === suggested)))));
  }
  add(group(flow.proposal ? `Travel together with ${charName(flow.proposal.character)}?` : "", use("answer_group")));
  add(group("An unlocked Kami", use("change_kami")));
  add(group("Which enemy moves next?", use("activate_enemy")));
  add(group(flow.tie ? `Where does the ${enemyName(flow.tie.enemy).toLowerCase()} end its move?` : "", use("choose_path")));
  add(group("Who acts next?", use("activate")));
  add(group("Defeated and back: lose an attribute", use("lose_attribute")));
  if (flow.shop) add(renderShop(ctx, used));
  if (flow.travel) {
    add(group(`Travel: ${plural(flow.travel.mp, "movement point")} left${flow.travel.group && flow.travel.group.length ? ` (with ${names(flow.travel.group)})` : ""}`,
      use("move", "sail", "guided_by_the_waves"), use("exert"),
      take(opts, "end_travel").map((c) => button(ctx, c, { primary: true }))));
    used.add("end_travel");
  }
  const me = ctx.active ? view.characters[ctx.active] : null;
  add(group(me ? `${charName(ctx.active)}'s actions: ${plural(me.ap, "action point")} left, 1 for each` : "Actions (1 action point each)",
    use("travel"), use("attack"), use("interact_mission", "interact_clan", "interact_personal"),
    use("inn", "blacksmith", "market", "port"), use("interact_sanctuary"), use("interact_special"), use("work", "camp")));
  add(renderFree(ctx, used));
  const end = take(opts, "end_activation").map((c) => button(ctx, c, { primary: true }));
  used.add("end_activation");
  const rest = legal.filter((c) => !used.has(c.type)).map((c) => button(ctx, c, { cls: "adv-other" }));
  add(group("", end, rest));
  return box;
}

function renderChoice(ctx, used) {
  const { view, opts } = ctx;
  used.add("choose");
  const legalByOption = new Map(take(opts, "choose").map((c) => [c.args.option, c]));
  const list = h("div", { class: "adv-buttons" });
  (view.choice.options || []).forEach((o, i) => {
    const cmd = legalByOption.get(i);
    list.append(cmd ? button(ctx, cmd, { cls: "adv-choice" }) : h("button", { type: "button", class: "adv-btn adv-choice", disabled: true, title: "not possible (e.g. not enough coins)" }, `${o.label} (not possible)`));
  });
  const ev = view.travel_event;
  return h("div", { class: "adv-group adv-decision", "data-testid": "adv-decision" },
    h("h4", {}, `${charName(view.choice.character)} decides${ev && ev.title ? `: ${ev.title}` : ""}`),
    ev && ev.text ? h("p", { class: "adv-quote adv-small" }, ev.text) : "", list);
}

function renderShop(ctx, used) {
  const { view, opts } = ctx;
  const shop = view.shop || view.flow.shop;
  ["buy", "sell", "repair", "sell_heads", "leave"].forEach((t) => used.add(t));
  const me = view.characters[ctx.active] || {};
  const box = h("div", { class: "adv-group adv-shop", "data-testid": "adv-shop" },
    h("h4", {}, `${shop.kind === "market" ? "At the market" : "At the blacksmith"} of ${locName(me.location)}: ${charName(ctx.active)} has ${plural(me.coins || 0, "coin")}`));
  if (shop.kind === "market") {
    const buyable = new Map(take(opts, "buy").map((c) => [c.args.card, c]));
    const cards = h("ul", { class: "adv-cards" });
    for (const id of shop.revealed || []) {
      const card = item(id) || {};
      const cmd = buyable.get(id);
      const why = (me.coins || 0) < card.cost ? "not enough coins" : "no room for it (at most 2 permanent and 5 market items)";
      cards.append(h("li", { class: "adv-shopcard" }, h("strong", {}, card.name || pretty(id)),
        h("div", { class: "adv-small" }, `${card.cost} coins · ${pretty(card.type).toLowerCase()}${card.uses ? ` (${card.uses} uses)` : ""}${card.knowledge ? ` · needs knowledge ${card.knowledge}` : ""}`),
        card.text ? h("div", { class: "adv-small" }, card.text) : "",
        cmd ? button(ctx, cmd, { label: `Buy for ${card.cost} coins` }) : h("div", { class: "adv-small muted" }, `Cannot be bought: ${why}.`)));
    }
    if (!(shop.revealed || []).length) cards.append(h("li", { class: "muted" }, "The market deck is empty."));
    box.append(cards);
  } else {
    // the character's blacksmith deck: the class's cards of its blacksmith level and lower
    const buyable = new Map(take(opts, "buy").map((c) => [c.args.card, c]));
    const owned = new Set([...(me.weapons || []), me.armor].filter(Boolean));
    const deck = Object.entries(adv().blacksmith || {})
      .filter(([id, c]) => c.class === me.class && c.level <= (me.blacksmith_level || 1) && !owned.has(id))
      .sort((x, y) => x[1].level - y[1].level || x[1].cost - y[1].cost);
    const cards = h("ul", { class: "adv-cards" });
    for (const [id, card] of deck) {
      const cmd = buyable.get(id);
      const why = shop.bought ? "one card per visit" : (me.coins || 0) < card.cost ? "not enough coins"
        : card.slot === "weapon" ? "two weapons already" : "not now";
      const stats = card.slot === "armor" ? `armor ${card.armor}` : `combat tests roll ${diceText(card.strong || card.fast, view.blue_die)}`;
      cards.append(h("li", { class: "adv-shopcard" }, h("strong", {}, card.name),
        h("div", { class: "adv-small" }, `level ${card.level} ${card.slot} · ${card.cost} coins · ${stats}`),
        cmd ? button(ctx, cmd, { label: `Buy for ${card.cost} coins${card.slot === "armor" && me.armor ? ` (the ${equipmentName(me.armor)} is sold)` : ""}` })
          : h("div", { class: "adv-small muted" }, `Cannot be bought: ${why}.`)));
    }
    take(opts, "buy").filter((c) => !deck.some(([id]) => id === c.args.card)).forEach((c) => cards.append(h("li", { class: "adv-shopcard" }, button(ctx, c))));
    box.append(cards.childNodes.length ? cards : h("p", { class: "adv-small muted" }, "The blacksmith has nothing more for this class."));
  }
  box.append(h("div", { class: "adv-buttons" }, take(opts, "sell", "repair", "sell_heads").map((c) => button(ctx, c))));
  box.append(h("div", { class: "adv-buttons" }, take(opts, "leave").map((c) => button(ctx, c, { primary: true }))));
  return box;
}

/** A labelled list of legal commands (each option one of them, in words) and the button that sends
 * the one picked: for long lists (exchanges, a Kami among eight). */
function pickList(ctx, key, title, cmds, action, selected = 0) {
  const id = `adv-pick-${key}`;
  const select = h("select", { id, dataset: { fkey: `pick-select:${key}` } },
    cmds.map((c, i) => h("option", { value: String(i), selected: i === selected }, commandLabel(ctx, c))));
  return h("div", { class: "adv-give" }, h("label", { for: id }, title), select,
    h("button", { type: "button", class: "adv-btn", disabled: ui.busy, dataset: { type: cmds[0].type, fkey: `pick:${key}` },
      onclick: () => ctx.send(cmds[Number(select.value) || 0]) }, action));
}

function renderFree(ctx, used) {
  const { opts, view } = ctx;
  ["use_item", "swap_weapon", "give", "share_information", "omamori", "sell_heads"].forEach((t) => used.add(t));
  const gives = take(opts, "give");
  const pairs = new Map();
  for (const cmd of gives) {
    const other = cmd.args.from === ctx.active ? cmd.args.to : cmd.args.from;
    if (!pairs.has(other)) pairs.set(other, []);
    pairs.get(other).push(cmd);
  }
  const exchanges = [...pairs.entries()].map(([other, cmds]) => pickList(ctx, `give-${other}`, `Exchange with ${charName(other)}`, cmds, "Hand over"));
  const nodes = [
    ...take(opts, "use_item", "swap_weapon", "share_information", "omamori", "sell_heads").map((c) => button(ctx, c)),
  ];
  if (!nodes.length && !exchanges.length) return null;
  return h("div", { class: "adv-group" }, h("h4", {}, "Free actions"), h("div", { class: "adv-buttons" }, nodes), exchanges);
}

// -- the map -----------------------------------------------------------------------------------------------

function renderMapCard(ctx) {
  const wrap = h("div", { class: `adv-map-wrap${ui.zoom ? " is-zoomed" : ""}`, "data-testid": "adv-map-wrap" }, renderMap(ctx));
  const zoom = h("button", {
    type: "button", class: "adv-btn adv-zoom", "aria-pressed": ui.zoom ? "true" : "false", dataset: { fkey: "zoom" },
    onclick: () => { ui.zoom = !ui.zoom; rerender(); },
  }, ui.zoom ? "Fit the map" : "Zoom in");
  const travel = ctx.view.flow.travel;
  const note = travel && ctx.opts.targets.size
    ? h("span", { class: "adv-small" }, `${plural(travel.mp, "movement point")} left: the highlighted places are reachable now.`)
    : ctx.opts.targets.size ? h("span", { class: "adv-small" }, "Choose a highlighted place.") : "";
  const box = h("section", { class: "adv-mapcard", "aria-label": "The map of Japan" },
    h("div", { class: "adv-map-head" }, h("strong", {}, "The map of Japan"), note, zoom), wrap, renderLegend());
  if (ui.zoom) {
    requestAnimationFrame(() => {
      const focus = ctx.active ? ctx.view.characters[ctx.active].location : ui.selected;
      if (!focus) return;
      const p = position(focus);
      const scale = wrap.scrollWidth / (ui.layout.width || 1000);
      wrap.scrollLeft = Math.max(0, p.x * scale - wrap.clientWidth / 2);
      wrap.scrollTop = Math.max(0, p.y * scale - wrap.clientHeight / 2);
    });
  }
  return box;
}

function renderMap(ctx) {
  const { view } = ctx;
  const map = adv().map || {};
  const W = ui.layout.width || 1000;
  const H = ui.layout.height || 720;
  const locations = map.locations || {};
  const ids = Object.keys(locations);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "adv-map", role: "group", "aria-label": "Map of Japan", "data-testid": "adv-map" });
  root.append(svg("rect", { class: "adv-water", x: 0, y: 0, width: W, height: H }));

  // The land: a coast drawn round the places and the roads between them, then each clan's territory.
  const land = (cls, width, radius) => svg("g", { class: cls },
    routes().map((r) => { const a = position(r.a); const b = position(r.b); return svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, "stroke-width": width }); }),
    ids.map((id) => { const p = position(id); return svg("circle", { cx: p.x, cy: p.y, r: radius }); }));
  root.append(land("adv-coast", 66, 36), land("adv-land", 58, 32));
  for (const [tid, info] of Object.entries(map.territories || {})) {
    const members = ids.filter((id) => locations[id].territory === tid);
    root.append(svg("g", { class: `adv-territory t-${tid}`, dataset: { territory: tid } },
      members.map((id) => { const p = position(id); return svg("circle", { cx: p.x, cy: p.y, r: 34 }); }),
      routes().filter((r) => members.includes(r.a) && members.includes(r.b)).map((r) => {
        const a = position(r.a); const b = position(r.b);
        return svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, "stroke-width": 40 });
      }),
      svg("title", {}, `${info.clan} clan territory`)));
  }
  for (const [tid, info] of Object.entries(map.territories || {})) {
    const at = (ui.layout.territories || {})[tid];
    if (at) {
      root.append(svg("text", { class: `adv-territory-label t-${tid}`, x: at[0], y: at[1], "text-anchor": "middle" },
        svg("tspan", { x: at[0] }, info.clan.toUpperCase()), svg("tspan", { x: at[0], dy: 22 }, "CLAN")));
    }
  }

  // Seas: each port's lane to its sea.
  for (const [sid, sea] of Object.entries(map.seas || {})) {
    const hub = (ui.layout.seas || {})[sid];
    if (!hub) continue;
    const ports = ids.filter((id) => locations[id].sea === sid && (locations[id].services || []).includes("port"));
    root.append(svg("g", { class: "adv-sea", dataset: { sea: sid } },
      ports.map((id) => { const p = position(id); return svg("line", { class: "adv-lane", x1: p.x, y1: p.y, x2: hub[0], y2: hub[1] }); }),
      svg("circle", { class: "adv-sea-hub", cx: hub[0], cy: hub[1], r: 5 }),
      svg("text", { class: "adv-sea-label", x: hub[0], y: hub[1] - 10, "text-anchor": "middle" }, sea.name),
      svg("title", {}, `${sea.name}: ports ${ports.map(locName).join(", ")} (sailing costs 3 movement points and 10 coins)`)));
  }

  // Roads and paths.
  const here = ctx.active ? view.characters[ctx.active].location : null;
  root.append(svg("g", { class: "adv-routes" }, routes().map((r) => {
    const a = position(r.a); const b = position(r.b);
    const lit = here && ((r.a === here && ctx.opts.targets.has(r.b)) || (r.b === here && ctx.opts.targets.has(r.a))) && view.flow.travel;
    const cls = `adv-route ${r.kind === "path" ? "is-path" : "is-road"}${lit ? " is-lit" : ""}`;
    return svg("g", { class: cls, dataset: { route: `${r.a}|${r.b}` } },
      svg("line", { class: "adv-route-base", x1: a.x, y1: a.y, x2: b.x, y2: b.y }),
      svg("line", { class: "adv-route-top", x1: a.x, y1: a.y, x2: b.x, y2: b.y }),
      svg("title", {}, `${r.kind === "path" ? "Dangerous path" : "Imperial road"}: ${locName(r.a)} – ${locName(r.b)}`));
  })));

  // The places, then what stands on them.
  const markers = locationMarkers(view);
  const occupants = locationOccupants(view);
  const places = svg("g", { class: "adv-places" });
  for (const id of ids) places.append(renderPlaceNode(ctx, id, markers.get(id) || [], occupants.get(id) || []));
  root.append(places);
  return root;
}

/** A Map of lists and the function that adds a value to a key's list (a key like null is skipped). */
function grouping() {
  const out = new Map();
  const add = (key, value) => {
    if (key === null || key === undefined) return;
    if (!out.has(key)) out.set(key, []);
    out.get(key).push(value);
  };
  return [out, add];
}

function locationMarkers(view) {
  const [out, add] = grouping();
  for (const [n, m] of Object.entries(view.missions || {})) {
    if (m.status === "hidden" && m.token) add(m.token, { kind: "mission", text: "?", title: `Face-down mission token (${locName(m.token)}): reveal it by interacting here` });
    if (m.status === "active") {
      for (const [cid, locs] of Object.entries(m.clan_tokens || {})) {
        for (const loc of locs || []) add(loc, { kind: "clan", cid, text: "◆", title: `${charName(cid)}'s clan token for “${missionTitle(view, n)}”` });
      }
    }
  }
  for (const [cid, pm] of Object.entries(view.personal || {})) {
    if (pm && pm.status === "open" && pm.token) {
      const doc = personalDoc(view, cid);
      add(pm.token, { kind: "personal", cid, text: "P", title: `${charName(cid)}'s personal mission${doc ? `: ${doc.title}` : ""}` });
    }
  }
  return out;
}

function locationOccupants(view) {
  const [out, add] = grouping();
  for (const cid of ORDER) {
    const ch = view.characters[cid];
    if (ch && !ch.defeated) add(ch.location, { kind: "char", id: cid, ch });
  }
  for (const [eid, en] of Object.entries(view.enemies || {})) add(en.location, { kind: "enemy", id: eid, en });
  return out;
}

function placeTitle(view, id) {
  const loc = locInfo(id) || {};
  const terr = territory(loc.territory);
  const parts = [`${loc.name || pretty(id)}: ${KIND_WORD[loc.kind] || pretty(loc.kind)}${terr ? ` of the ${terr.clan} clan` : ""}`];
  if (loc.services && loc.services.length) parts.push(`services: ${servicesText(loc.services)}${loc.sea ? ` (port on the ${seaName(loc.sea)})` : ""}`);
  if (loc.kami) parts.push(`${pretty(loc.building || "sanctuary")} of ${(kami(loc.kami) || {}).name || pretty(loc.kami)}`);
  const captured = (view.cities && view.cities.captured) || [];
  const razed = (view.cities && view.cities.razed) || [];
  if (captured.includes(id)) parts.push("captured: its services are closed");
  if (razed.includes(id)) parts.push("razed: no character may enter or cross it");
  if (loc.kind === "special") parts.push((view.discovered || []).includes(id) ? "discovered" : "not discovered yet");
  return parts.join(" · ");
}

function renderPlaceNode(ctx, id, markers, occupants) {
  const { view } = ctx;
  const loc = locInfo(id) || {};
  const p = position(id);
  const target = ctx.opts.targets.get(id);
  const captured = ((view.cities && view.cities.captured) || []).includes(id);
  const razed = ((view.cities && view.cities.razed) || []).includes(id);
  const discovered = (view.discovered || []).includes(id);
  const cls = ["adv-loc", `k-${loc.kind || "unknown"}`, `t-${loc.territory || "none"}`];
  if (target) cls.push("is-target", `via-${target.kind}`);
  if (ui.selected === id) cls.push("is-selected");
  if (captured) cls.push("is-captured");
  if (razed) cls.push("is-razed");
  if (loc.kind === "special") cls.push(discovered ? "is-discovered" : "is-undiscovered");
  const title = placeTitle(view, id);
  const label = target ? `${commandLabel(ctx, target.cmd)}` : title;
  const node = svg("g", {
    class: cls.join(" "), transform: `translate(${p.x} ${p.y})`, dataset: { loc: id, ...(target ? { fkey: `target:${id}`, type: target.cmd.type } : {}) },
    role: target ? "button" : null, tabindex: target && !ui.busy ? "0" : null, "aria-label": target ? label : null,
    onclick: () => {
      if (target && !ui.busy) ctx.send(target.cmd);
      else { ui.selected = id; rerender(); }
    },
    onkeydown: target ? (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); if (!ui.busy) ctx.send(target.cmd); }
    } : null,
  });
  node.append(svg("title", {}, target ? `${label}\n${title}` : title));
  node.append(svg("circle", { class: "adv-hit", r: 24 }));
  if (target) node.append(svg("circle", { class: "adv-ring", r: 19 }));
  node.append(placeShape(loc, discovered));
  if (captured) node.append(svg("path", { class: "adv-flag", d: "M6 -8 V-26 L20 -21 L6 -16" }));
  if (razed) node.append(svg("path", { class: "adv-razed", d: "M-11 -11 L11 11 M11 -11 L-11 11" }));
  const services = (loc.services || []).map((s) => (SERVICES[s] ? SERVICES[s].glyph : "")).join("");
  const [dx, dy, anchor] = ((ui.layout.labels || {})[id]) || [0, 27, "middle"];
  node.append(svg("text", { class: "adv-name", x: dx, y: dy, "text-anchor": anchor }, loc.name || pretty(id)));
  if (services) node.append(svg("text", { class: "adv-services", x: dx, y: dy + 15, "text-anchor": anchor }, services));
  markers.forEach((m, i) => {
    node.append(svg("g", { class: `adv-marker m-${m.kind}${m.cid ? ` ch-${m.cid}` : ""}`, transform: `translate(${15 + 13 * i} 4)` },
      svg("rect", { x: -6, y: -6, width: 12, height: 12, rx: m.kind === "personal" ? 6 : 2 }),
      svg("text", { y: 4, "text-anchor": "middle" }, m.text), svg("title", {}, m.title)));
  });
  const n = occupants.length;
  const perRow = 4;
  occupants.forEach((o, i) => {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, n - row * perRow);
    const x = (i % perRow - (inRow - 1) / 2) * 21;
    const y = -24 - row * 21;
    node.append(o.kind === "char" ? characterToken(ctx, o, x, y) : enemyToken(ctx, o, x, y));
  });
  return node;
}

function placeShape(loc, discovered) {
  switch (loc.kind) {
    case "city": return svg("rect", { class: "adv-shape", x: -9, y: -9, width: 18, height: 18, rx: 3 });
    case "village": return svg("circle", { class: "adv-shape", r: 6 });
    case "sanctuary":
      if (loc.building === "temple") {
        return svg("g", { class: "adv-shape adv-temple" }, svg("circle", { class: "adv-disc", r: 11 }),
          svg("path", { d: "M-8 -1 L0 -8 L8 -1 Z M-5 -1 H5 V7 H-5 Z" }));
      }
      return svg("g", { class: "adv-shape adv-shrine" }, svg("circle", { class: "adv-disc", r: 11 }),
        svg("path", { d: "M-8 -6 H8 M-6 -3 H6 M-4 -6 V8 M4 -6 V8" }));
    case "special":
      return svg("g", { class: "adv-shape adv-star" },
        svg("path", { d: "M0 -11 L3 -3.5 L11 -3.5 L4.5 1.5 L7 9.5 L0 4.5 L-7 9.5 L-4.5 1.5 L-11 -3.5 L-3 -3.5 Z" }),
        discovered ? "" : svg("text", { y: 4, "text-anchor": "middle", class: "adv-q" }, "?"));
    default: return svg("circle", { class: "adv-shape", r: 6 });
  }
}

function characterToken(ctx, o, x, y) {
  const { view } = ctx;
  const ch = o.ch;
  const active = ctx.active === o.id;
  const seat = view.control ? view.control[o.id] : null;
  const hp = maxHealth(o.id, ch.level);
  return svg("g", { class: `adv-token is-char ch-${o.id}${active ? " is-active" : ""}${ch.activated && !active ? " is-done" : ""}`, transform: `translate(${x} ${y})`, dataset: { token: o.id } },
    svg("circle", { r: 10 }), svg("text", { y: 3.5, "text-anchor": "middle" }, SHORT[o.id] || (ch.name || "?").slice(0, 2)),
    svg("title", {}, `${ch.name || charName(o.id)} (${seat !== null && seat !== undefined ? seatName(ctx.doc, seat) : ""}): ${ch.health}${hp ? `/${hp}` : ""} health${active ? ", acting now" : ch.activated ? ", has acted this round" : ""}`));
}

function enemyToken(ctx, o, x, y) {
  const { view } = ctx;
  const en = o.en;
  const flow = view.flow;
  const next = (flow.enemies_left || []).includes(o.id) && flow.stage === "enemies";
  return svg("g", { class: `adv-token is-enemy e-${en.type || "enemy"}${next ? " is-next" : ""}`, transform: `translate(${x} ${y})`, dataset: { token: o.id } },
    svg("rect", { x: -8, y: -8, width: 16, height: 16, transform: "rotate(45)" }),
    svg("text", { y: 3.5, "text-anchor": "middle" }, (pretty(en.type || "?")[0] || "?").toUpperCase()),
    svg("title", {}, `${enemyName(o.id)}: ${targetText(view, en)}, moves ${en.movement ?? "?"}, combat test ${en.combat ?? "?"}`));
}

function renderLegend() {
  const item_ = (cls, text, shape) => h("li", {}, h("span", { class: `adv-key ${cls}`, "aria-hidden": "true" }, shape || ""), text);
  return h("details", { class: "adv-legend" }, h("summary", {}, "Map key"),
    h("ul", {},
      item_("k-road", "imperial road (a green travel event)"),
      item_("k-path", "dangerous path (a red travel event)"),
      item_("k-lane", "sea lane: sail from a port to another port of the same sea (3 movement points, 10 coins)"),
      item_("k-city", "city (⚒ blacksmith, ⚖ market, ♨ inn, ⚓ port)"),
      item_("k-village", "village"),
      item_("k-sanctuary", "shrine or temple (sanctuary: turn karma into Kami affinity)"),
      item_("k-special", "special location (★, “?” until discovered)"),
      item_("k-captured", "captured city (services closed) · ✕ razed (no entry)"),
      item_("k-char", "character", "Ak"),
      item_("k-enemy", "enemy (K = kachi, C = camp)"),
      item_("k-mission", "face-down mission token, ◆ clan token, P personal mission token"),
      item_("k-target", "a place you can reach now: choose it")));
}

// -- panels: the place, the cards, the missions, the feed, the party --------------------------------------

function renderPlace(ctx) {
  const { view } = ctx;
  const id = ui.selected;
  const select = h("select", { id: "adv-place-select", dataset: { fkey: "place-select" } },
    Object.keys((adv().map && adv().map.locations) || {}).sort((a, b) => locName(a).localeCompare(locName(b))).map((k) =>
      h("option", { value: k, selected: k === id }, locName(k))));
  select.addEventListener("change", () => { ui.selected = select.value; rerender(); });
  const box = h("section", { class: "adv-panel", "data-testid": "adv-place" },
    h("h3", {}, h("label", { for: "adv-place-select" }, "Look at a place "), select));
  if (!id) return box;
  const loc = locInfo(id) || {};
  box.append(h("p", { class: "adv-small" }, placeTitle(view, id)));
  const here = [];
  for (const cid of ORDER) {
    const ch = view.characters[cid];
    if (ch && ch.location === id && !ch.defeated) here.push(charName(cid));
  }
  const enemies = Object.entries(view.enemies || {}).filter(([, en]) => en.location === id);
  if (here.length) box.append(h("p", { class: "adv-small" }, `Here: ${here.join(", ")}.`));
  for (const [eid, en] of enemies) box.append(h("p", { class: "adv-small" }, `${enemyName(eid)}: ${targetText(view, en)}, moves ${en.movement}, combat test ${en.combat}${en.on_test && en.on_test.failure && en.on_test.failure.length ? ` (a failed test: ${effectsText(en.on_test.failure)})` : ""}.`));
  const markers = locationMarkers(view).get(id) || [];
  for (const m of markers) box.append(h("p", { class: "adv-small" }, m.title));
  if (loc.kind === "special") {
    const ch = chapterDoc(view);
    const card = ((ch && ch.adventure && ch.adventure.special_locations) || []).find((s) => s.location === id);
    if (card && card.text) box.append(h("p", { class: "adv-small adv-quote" }, `${card.text}${card.effects && card.effects.length ? ` (${effectsText(card.effects, view)})` : ""}`));
    else if (card && card.discovered) box.append(h("p", { class: "adv-small muted" }, "Its instructions in the campaign book are read when a character explores it."));
  }
  return box;
}

function renderCards(ctx) {
  const { view } = ctx;
  const box = h("section", { class: "adv-panel", "data-testid": "adv-cards" }, h("h3", {}, "Cards"));
  const ev = view.travel_event || (ui.lastEvent && travelCard(ui.lastEvent));
  if (ev) {
    const now = Boolean(view.travel_event);
    box.append(h("div", { class: `adv-card side-${ev.side}`, "data-testid": "adv-travel-event" },
      h("div", { class: "adv-card-head" }, now ? "Travel event being resolved" : "Last travel event", ` · ${ev.side === "red" ? "red side (a dangerous path was taken)" : "green side (imperial roads only)"}`),
      h("strong", {}, ev.title || ""), h("p", { class: "adv-quote" }, ev.text || ""),
      h("p", { class: "adv-small" }, effectsText((ev.effects || []).map(hideChoiceEffects)) || "Nothing more happens.")));
  }
  const card = view.influence_card;
  if (card) {
    const band = view.influence_band;
    box.append(h("div", { class: "adv-card is-influence", "data-testid": "adv-influence-card" },
      h("div", { class: "adv-card-head" }, "Last Shōgun's influence card"),
      h("strong", {}, card.title || ""), h("p", { class: "adv-quote" }, card.text || ""),
      h("ul", { class: "adv-bands" }, ["low", "medium", "high"].map((b) => h("li", { class: b === band ? "is-now" : "" },
        h("span", { class: `adv-badge band-${b}` }, b), " ", effectsText(card[b]) || "nothing happens")))));
  }
  if (!ev && !card) box.append(h("p", { class: "muted adv-small" }, "No card drawn yet."));
  return box;
}

function renderEnemies(ctx) {
  const { view } = ctx;
  const list = h("ul", { class: "adv-enemies" });
  for (const [eid, en] of Object.entries(view.enemies || {}).sort((x, y) => x[0].localeCompare(y[0]))) {
    const fail = en.on_test && en.on_test.failure && en.on_test.failure.length ? `; a failed test: ${effectsText(en.on_test.failure)}` : "";
    const reach = en.on_reach && en.on_reach.length ? `; on arrival: ${effectsText(en.on_reach)}` : "";
    const flow = view.flow;
    const moving = flow.stage === "enemies" && ((flow.tie && flow.tie.enemy === eid) || flow.next_enemy === eid);
    const next = flow.stage === "enemies" && !moving && (flow.enemies_left || []).includes(eid);
    const badge = moving ? "moving now" : next ? "still to move" : "";
    list.append(h("li", { dataset: { enemy: eid } }, h("strong", {}, enemyName(eid)), badge ? h("span", { class: "adv-badge is-warn" }, badge) : "",
      ` at ${locName(en.location)}, ${targetText(view, en)}; moves ${en.movement}, combat test ${en.combat}${fail}${reach}.`));
  }
  if (!list.childNodes.length) list.append(h("li", { class: "muted" }, "No enemy on the map."));
  return h("section", { class: "adv-panel", "data-testid": "adv-enemies" }, h("h3", {}, "Enemies"), list);
}

/** A decision's outcomes are read only once chosen: show its options' labels, not their effects. */
function hideChoiceEffects(e) {
  return e && e.do === "choice" ? { do: "choice", options: (e.options || []).map((o) => ({ label: o.label })) } : e;
}

function travelCard(last) {
  const card = (adv().travel_events || []).find((c) => c.id === last.card);
  const side = card && card[last.side];
  return side ? { card: last.card, side: last.side, ...side } : null;
}

function renderMissions(ctx) {
  const { view } = ctx;
  const chapter = chapterDoc(view);
  const adventure = (chapter && chapter.adventure) || {};
  const box = h("section", { class: "adv-panel", "data-testid": "adv-missions" },
    h("h3", {}, `Chapter ${view.chapter}${chapter ? `: ${chapter.title}` : ""}`));
  if (chapter && chapter.intro) box.append(h("p", { class: "adv-quote" }, chapter.intro));
  const goals = h("ul", { class: "adv-goals" });
  for (const c of adventure.ending_conditions || []) {
    const what = c.when === "mission_completed" ? `complete ${missionTitle(view, c.mission)}`
      : c.when === "mission_failed" ? `${missionTitle(view, c.mission)} fails`
      : c.when === "city_captured" ? `${locName(c.location)} is captured`
        : c.when === "enemies_defeated" ? "no enemy is left on the map" : pretty(c.when);
    goals.append(h("li", { class: `goal-${c.outcome}` }, h("strong", {}, c.outcome === "success" ? "Success: " : "Failure: "), what));
  }
  if (adventure.final_round) {
    goals.append(h("li", { class: `goal-${(adventure.final_section || {}).outcome}` }, h("strong", {}, "Round limit: "),
      `after round ${adventure.final_round} the chapter ends in ${(adventure.final_section || {}).outcome || "its final section"}`));
  }
  goals.append(h("li", { class: "goal-failure" }, h("strong", {}, "Failure: "), `the Shōgun's influence reaches ${(adv().act1 || {}).influence_failure || 12}, or every character is defeated`));
  box.append(h("h4", {}, "How the chapter ends"), goals);
  if (adventure.minion_rule) box.append(h("p", { class: "adv-small muted" }, adventure.minion_rule));
  // the preparation section's rules on the campaign sheet's marks (those on this campaign's sheet apply)
  const sheetRules = adventure.sheet_marks || [];
  if (sheetRules.length) {
    const marks = new Set(view.marks || []);
    box.append(h("h4", {}, "From the campaign sheet"), h("ul", { class: "adv-goals", "data-testid": "adv-sheet-marks" },
      sheetRules.map((r) => h("li", { class: marks.has(r.mark) ? "is-applied" : "muted" },
        h("strong", {}, `${marks.has(r.mark) ? "Applies" : "Does not apply"}: `), `if the sheet records “${markName(r.mark)}”: ${r.text}`))));
  }

  const list = h("ul", { class: "adv-mission-list" });
  for (const [n, m] of Object.entries(view.missions || {}).sort((a, b) => Number(a[0]) - Number(b[0]))) {
    const doc = missionDoc(view, n);
    const li = h("li", { class: `mission is-${m.status}`, dataset: { mission: n } });
    if (m.status === "unavailable") {
      li.append(h("strong", {}, `Mission ${n}: not on the map yet`), " · the chapter places it later.");
    } else if (m.status === "hidden" || !doc) {
      li.append(h("strong", {}, `Mission ${n}: face down`), m.token ? ` · its token lies at ${locName(m.token)}; a character there can reveal it.` : "");
    } else {
      li.append(h("strong", {}, `Mission ${n}: ${doc.title}`), ` · ${pretty(m.status)}`, m.starter ? ` · started by ${charName(m.starter)}` : "",
        h("div", { class: "adv-small" }, doc.objective));
      if (m.status === "active") {
        const tokens = Object.entries(m.clan_tokens || {}).filter(([, locs]) => (locs || []).length)
          .map(([cid, locs]) => `${charName(cid)}: ${locs.map(locName).join(", ")}`);
        li.append(h("div", { class: "adv-small" }, tokens.length ? `Clan tokens still to resolve: ${tokens.join("; ")}.` : "No clan token placed yet: share what you know."));
        const needs = (doc.clan_tokens || []).filter((t) => t.requires && !t.text)
          .map((t) => `at ${locName(t.at)}, ${requirementText(t.requires, view)}`);
        if (needs.length) li.append(h("div", { class: "adv-small muted" }, `Only when ${needs.join("; ")}.`));
        for (const c of doc.fails_when || []) if (c.text) li.append(h("div", { class: "adv-small" }, c.text));
      }
      // the campaign book's entries read for this mission's clan tokens
      for (const t of (doc.clan_tokens || []).filter((x) => x.text)) {
        const what = effectsText(t.effects, view);
        li.append(h("div", { class: "adv-small adv-quote", dataset: { entry: t.at } }, `${locName(t.at)}: ${t.text}${what ? ` (${what})` : ""}`));
      }
      for (const section of [m.status === "completed" && doc.success, m.status === "failed" && doc.failure].filter(Boolean)) {
        const what = effectsText(section.effects, view);
        li.append(h("div", { class: "adv-small adv-quote" }, `${section.text}${what ? ` (${what})` : ""}`));
      }
    }
    list.append(li);
  }
  box.append(h("h4", {}, "Missions"), list.childNodes.length ? list : h("p", { class: "muted adv-small" }, "No mission this chapter."));

  const personal = h("ul", { class: "adv-mission-list" });
  for (const cid of ORDER) {
    const pm = (view.personal || {})[cid];
    const doc = personalDoc(view, cid);
    if (!pm || !doc) continue;
    personal.append(h("li", { class: `mission is-${pm.status} ch-${cid}`, dataset: { personal: cid } },
      h("strong", {}, `${charName(cid)}: ${doc.title}`), ` · ${pm.status === "open" ? `at ${locName(pm.token)}` : pretty(pm.status)}`,
      h("div", { class: "adv-small" }, doc.objective),
      doc.success ? h("div", { class: "adv-small adv-quote" }, `${doc.success.text}${effectsText(doc.success.effects, view) ? ` (${effectsText(doc.success.effects, view)})` : ""}`) : ""));
  }
  if (personal.childNodes.length) box.append(h("h4", {}, "Personal missions (only their own character may complete them)"), personal);
  return box;
}

function say(ev, text, kind = "") {
  ui.feed.push({ seq: ev.seq, text, kind });
  if (ui.feed.length > FEED_MAX) ui.feed.shift();
}

function digest(ev) {
  const p = ev.payload || {};
  const c = (id) => charName(id);
  switch (ev.type) {
    case "RoundStarted": say(ev, `Round ${p.round} begins${p.final ? " (the final round)" : ""}.${p.trigger ? ` ${p.trigger}` : ""}`); break;
    case "InfluenceMoved": if (p.from !== p.to) say(ev, `The Shōgun's influence goes from ${p.from} to ${p.to}.`); break;
    case "InfluenceCardDrawn": {
      const card = (adv().influence || []).find((x) => x.id === p.card);
      say(ev, `Influence card: ${card ? card.title : pretty(p.card)} (${p.band} influence).`);
      break;
    }
    case "EnemySpawned": if (p.enemy) say(ev, `A ${String(pretty(p.enemy.type)).toLowerCase()} appears at ${locName(p.enemy.location)} (${enemyName(p.enemy.id)}).`); break;
    case "EnemyMoved": {
      const path = p.path || [];
      if (path.length > 1) say(ev, `The ${enemyName(p.enemy).toLowerCase()} moves to ${locName(path[path.length - 1])}.`);
      break;
    }
    case "EnemyPathChosen": say(ev, `The party sends the ${enemyName(p.enemy).toLowerCase()} towards ${locName(p.to)}.`); break;
    case "EnemyRemoved": say(ev, `The ${enemyName(p.enemy).toLowerCase()} is defeated${p.by ? ` by ${c(p.by)}` : ""}.`); break;
    case "CombatTested": {
      // the blue die (optional rule "Replace the Red Die", rolled for a red one) is named
      const dice = (p.dice || []).map((d) => (d.die === "blue" ? `${d.value} (blue die)` : d.value)).join(" + ") || "0";
      const helpers = (p.helpers || []).map((x) => `${c(x.character)} ${x.total}`).join(", ");
      say(ev, `${c(p.character)}'s combat test against the ${enemyName(p.enemy).toLowerCase()}: ${dice} + ${p.modifier}${helpers ? ` + ${helpers}` : ""} = ${p.total} against ${p.difficulty}: ${p.success ? "success" : "failure"}.`);
      break;
    }
    case "TestRolled":
      say(ev, p.roll === null || p.roll === undefined
        ? `${c(p.character)} passes the ${p.attribute} test at once (${pretty(p.trait)}).`
        : `${c(p.character)}'s ${p.attribute} test: ${p.roll} + ${p.modifier} = ${p.total} against ${p.difficulty}: ${p.success ? "success" : "failure"}.`);
      break;
    case "TravelEventDrawn": {
      ui.lastEvent = { card: p.card, side: p.side, character: p.character };
      const card = travelCard(ui.lastEvent);
      say(ev, `${c(p.character)} meets a travel event: ${card ? card.title : "?"} (${p.side} side).`);
      break;
    }
    case "HitsTaken": say(ev, `${c(p.character)} takes ${plural(p.hits, "hit")}; the armor stops ${Math.min(p.hits, p.armor)}: ${p.damage} damage.`); break;
    case "HealthChanged": if (p.delta > 0) say(ev, `${c(p.character)} regains ${p.delta} health (${p.health}).`); else if (p.delta < 0 && p.cause !== "hits") say(ev, `${c(p.character)} loses ${-p.delta} health (${p.health}).`); break;
    case "CharacterDefeated": say(ev, `${c(p.character)} is defeated.`); break;
    case "CharacterResurrected": say(ev, `${c(p.character)} comes back.`); break;
    case "CharacterDelayed": say(ev, `${c(p.character)} is delayed.`); break;
    case "CityCaptured": say(ev, `${locName(p.location)} is captured by the Shōgun's forces.`); break;
    case "CityRazed": say(ev, `${locName(p.location)} is razed.`); break;
    case "MissionRevealed": say(ev, `${c(p.character)} reveals a mission: ${p.title}.`); break;
    case "MissionCompleted": say(ev, `Mission completed: ${missionTitle(ui.last ? ui.last[1].view || {} : {}, p.mission)}.`); break;
    case "MissionFailed": say(ev, `Mission failed: ${p.title || p.mission}.`); break;
    case "PersonalMissionCompleted": say(ev, `${c(p.character)} completes a personal mission.`); break;
    case "ChoiceMade": say(ev, `${c(p.character)} chooses “${p.label}”.`); break;
    case "ItemGained": say(ev, `${c(p.character)} gains ${itemName(p.item)}.`); break;
    case "ItemBought": say(ev, `${c(p.character)} buys ${itemName(p.item)}.`); break;
    case "EquipmentBought": say(ev, `${c(p.character)} buys the ${equipmentName(p.card)}.`); break;
    case "LocationDiscovered": say(ev, `${locName(p.location)} is discovered.`); break;
    case "MarkRecorded": say(ev, `The campaign sheet records “${markName(p.mark)}”.`); break;
    case "SheetMarksRead": (p.marks || []).forEach((m) => say(ev, `The campaign sheet records “${markName(m.mark)}”: ${m.text}`, "section")); break;
    case "KamiSkillActivated": {
      const ability = kamiAbility(String(p.skill || "").replace(/_l1$/, ""));
      say(ev, `${c(p.character)} activates ${ability ? ability.name : "a Kami skill"} (1 action point).`);
      break;
    }
    case "Sailed": say(ev, `${names(p.characters)} sail${(p.characters || []).length > 1 ? "" : "s"} to ${locName(p.to)}.`); break;
    case "GuidedByTheWaves": say(ev, `${c(p.character)} is guided by the waves to ${locName(p.to)}.`); break;
    case "SectionRead": if (p.text) say(ev, p.text, "section"); break;
    case "PhaseEnded": if (p.text) say(ev, p.text, "section"); break;
    default: break;
  }
}

function renderFeed() {
  const box = h("section", { class: "adv-panel", "data-testid": "adv-feed" }, h("h3", {}, "What just happened"));
  if (!ui.feed.length) box.append(h("p", { class: "muted adv-small" }, "Nothing yet."));
  else box.append(h("ul", { class: "adv-feed" }, ui.feed.slice().reverse().map((f) => h("li", { dataset: { seq: String(f.seq) } }, f.text))));
  return box;
}

function renderParty(ctx) {
  const { view, doc } = ctx;
  const box = h("section", { class: "adv-party", "data-testid": "adv-party", "aria-label": "The party" });
  for (const cid of ORDER) {
    const ch = view.characters[cid];
    if (!ch) continue;
    const seat = view.control ? view.control[cid] : null;
    const hp = maxHealth(cid, ch.level);
    const pct = hp ? Math.max(0, Math.min(100, Math.round((100 * ch.health) / hp))) : 0;
    const flags = [
      ctx.active === cid ? "acting now" : "",
      ch.defeated ? "defeated" : "",
      ch.activated && ctx.active !== cid && !ch.defeated ? "has acted this round" : "",
      ch.traveled && !ch.defeated ? "has travelled this round" : "",
    ].filter(Boolean);
    const ability = ch.affinity >= 1 ? kamiAbility(ch.kami) : null;
    const k = kami(ch.kami);
    const weapons = (ch.weapons || []).map((w) => `${equipmentName(w)}${w === ch.equipped ? " (equipped)" : ""}`);
    const armorMax = equipment(ch.armor) ? equipment(ch.armor).armor : null;
    const items = (ch.items || []).map((i) => {
      const left = ch.item_uses && ch.item_uses[i];
      return `${itemName(i)}${left !== undefined ? ` (${left} uses left)` : ""}`;
    });
    box.append(h("article", { class: `adv-hero ch-${cid}${ctx.active === cid ? " is-active" : ""}${ch.defeated ? " is-defeated" : ""}`, dataset: { character: cid } },
      h("header", {}, h("span", { class: "adv-hero-tag", "aria-hidden": "true" }, SHORT[cid]), h("strong", {}, ch.name || charName(cid)),
        h("span", { class: "adv-small" }, ` level ${ch.level} ${pretty(ch.class).toLowerCase()}`),
        seat !== null && seat !== undefined ? h("span", { class: "adv-small muted" }, ` · ${seatName(doc, seat)}`) : ""),
      h("div", { class: "adv-small" }, `${ch.location ? `At ${locName(ch.location)}` : "Off the map"}${flags.length ? ` · ${flags.join(", ")}` : ""}`),
      h("div", { class: "adv-row" }, h("span", { class: "adv-hp", title: `${ch.health}/${hp} health` }, h("span", { class: "adv-hp-fill", style: `width:${pct}%` })),
        h("span", { class: "adv-small" }, `${ch.health}${hp ? `/${hp}` : ""} health`)),
      ctx.active === cid ? h("div", { class: "adv-small" }, `${plural(ch.ap, "action point")} left`) : "",
      h("div", { class: "adv-small" }, `${plural(ch.coins, "coin")} · ${ch.karma} karma · ${plural(ch.heads, "head")}${ch.boss_heads ? ` · ${plural(ch.boss_heads, "boss head")}` : ""}`),
      h("div", { class: "adv-small" }, ATTRIBUTES.map((a) => `${pretty(a)} ${(ch.attributes || {})[a] ?? 0}`).join(" · ")),
      h("div", { class: "adv-small" }, `Weapons: ${weapons.join(", ") || "none yet"}`),
      h("div", { class: "adv-small" }, `Armor: ${ch.armor ? `${equipmentName(ch.armor)} (${ch.armor_value}${armorMax !== null ? `/${armorMax}` : ""})` : "none"}`),
      h("div", { class: "adv-small" }, `Items: ${items.join(", ") || "none"}`),
      h("div", { class: "adv-small" }, `Skills: ${(ch.skills || []).map(skillName).join(", ") || "none"}`),
      h("div", { class: "adv-small", title: ability ? ability.text : "" }, `Kami: ${k ? k.name : pretty(ch.kami)}, affinity ${ch.affinity}/${AFFINITY_MAX}${ability ? ` · ${ability.name}: ${ability.text}${SELF_ACTING_KAMI.includes(ch.kami) ? "" : ch.kami_used ? " Used this phase." : " Activating it costs 1 action point, once per phase."}` : ""}`),
      (ch.traits || []).length ? h("div", { class: "adv-small" }, `Traits: ${ch.traits.map(pretty).join(", ")}`) : "",
      (ch.tokens || []).length ? h("div", { class: "adv-small" }, `Carries: ${ch.tokens.map((t) => tokenName(t, view)).join(", ")}`) : "",
      ch.blessed ? h("div", { class: "adv-small" }, `${plural(ch.blessed, "blessed token")} (can avoid being delayed)`) : ""));
  }
  return box;
}

// For tests and debugging (read-only).
window.KamizaAdventure = { ui, classify, commandLabel: (doc, cmd) => commandLabel({ view: doc.view, doc }, cmd) };
