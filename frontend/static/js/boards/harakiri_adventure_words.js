// Harakiri's Adventure Phase in words: names from the public content pack (places, characters,
// equipment, items, skills, Kami) and from the view's campaign book (the chapter as read so far:
// missions once revealed, entries once read), effects, and every legal command as a sentence. Used
// by harakiri_adventure.js; reads nothing but the content pack and the view given.

export const ORDER = ["akira", "hattori", "hikaru", "tomoe"];
export const SERVICES = {
  blacksmith: { glyph: "⚒", word: "blacksmith" },
  market: { glyph: "⚖", word: "market" },
  inn: { glyph: "♨", word: "inn" },
  port: { glyph: "⚓", word: "port" },
};

// -- names and words -------------------------------------------------------------------------------

/** The public content pack the words are read from (set once it is loaded). */
export const content = { pack: null };

export const adv = () => (content.pack && content.pack.adventure) || {};
export const plural = (n, one, many = `${one}s`) => `${n} ${Math.abs(n) === 1 ? one : many}`;

export function pretty(id) {
  const text = String(id ?? "").replace(/_/g, " ").trim();
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

export function locInfo(id) {
  return (adv().map && adv().map.locations && adv().map.locations[id]) || null;
}

export function locName(id) {
  const loc = locInfo(id);
  return loc ? loc.name : pretty(id);
}

export function charName(id) {
  const c = content.pack && content.pack.characters && content.pack.characters[id];
  return c ? c.name : pretty(id);
}

export function enemyName(id) {
  return pretty(id);
}

export function equipment(id) {
  return (adv().blacksmith && adv().blacksmith[id]) || null;
}

export function equipmentName(id) {
  const card = equipment(id);
  return card ? card.name : pretty(id);
}

export function item(id) {
  return (adv().market && adv().market[id]) || null;
}

export function itemName(id) {
  const card = item(id);
  return card ? card.name : pretty(id);
}

export function skillName(id) {
  const skills = (content.pack && content.pack.skills) || [];
  const sk = skills.find((x) => x.id === id);
  if (sk) return sk.name;
  for (const k of (content.pack && content.pack.kami) || []) {
    const ks = (k.skills || []).find((x) => x.id === id);
    if (ks) return ks.name;
  }
  return pretty(id);
}

export function kami(id) {
  return ((content.pack && content.pack.kami) || []).find((k) => k.id === id) || null;
}

export function kamiAbility(id) {
  const k = kami(id);
  return k ? (k.skills || []).find((s) => s.level === 1) || null : null;
}

export function seaName(id) {
  const sea = adv().map && adv().map.seas && adv().map.seas[id];
  return sea ? sea.name : pretty(id);
}

export function territory(id) {
  return (adv().map && adv().map.territories && adv().map.territories[id]) || null;
}

/** The current chapter as this match has read it: the view's book (``view.book.chapter``), else the
 * content pack's chapter as it stands before play. Unread entries are in neither. */
export function chapterDoc(view) {
  if (view && view.book && view.book.chapter) return view.book.chapter;
  const act = adv().act1 || {};
  return (act.chapters || []).find((c) => c.number === (view && view.chapter)) || null;
}

export function missionDoc(view, number) {
  const ch = chapterDoc(view);
  const missions = (ch && ch.adventure && ch.adventure.missions) || [];
  return missions.find((m) => String(m.number) === String(number)) || null;
}

export function personalDoc(view, cid) {
  const ch = chapterDoc(view);
  return (ch && ch.adventure && ch.adventure.personal_missions && ch.adventure.personal_missions[cid]) || null;
}

/** A mission's title once its card is face up (the view's book has it then), else where its token lies. */
export function missionTitle(view, number) {
  const m = (view.missions || {})[String(number)];
  const doc = missionDoc(view, number);
  if (doc && doc.title) return doc.title;
  return m && m.token ? `the mission at ${locName(m.token)}` : `mission ${number}`;
}

export function maxHealth(cid, level) {
  const klass = content.pack && content.pack.characters && content.pack.characters[cid] && content.pack.characters[cid].class;
  const table = adv().levels && adv().levels.health_by_class && adv().levels.health_by_class[klass];
  return table ? table[Math.max(0, Math.min(table.length - 1, (level || 1) - 1))] : null;
}

export function targetText(view, en) {
  const t = en && en.target;
  if (!t) return "holding its ground";
  if (t.character) return `hunting ${t.character === "active" ? "the active character" : charName(t.character)}`;
  if (t.location) return `marching on ${locName(t.location)}`;
  return "moving";
}

/** A weapon's combat dice in words; ``blue``: the optional rule "Replace the Red Die" (the view's
 * ``blue_die``) rolls the blue die for each red one. */
export function diceText(dice, blue = false) {
  return (dice || []).filter((d) => d !== "test")
    .map((d) => (blue && d === "red" ? "blue die (for the red)" : `${d} die`)).join(", ") || "no dice";
}

export function weaponText(id, blue = false) {
  const w = equipment(id);
  if (!w) return pretty(id);
  const strong = w.strong || w.fast || [];
  return `${w.name} (combat tests roll ${diceText(strong, blue)})`;
}

/** Effects in words; ``view`` (optional) names the carried tokens the campaign book has shown. */
export function effectsText(effects, view) {
  return (effects || []).map((e) => effectText(e, view)).filter(Boolean).join("; ");
}

export function effectText(e, view) {
  if (!e || typeof e !== "object") return "";
  const n = e.amount;
  switch (e.do) {
    case "hits": return `${plural(n, "hit")} (less the armor)`;
    case "damage": return `lose ${n} health`;
    case "heal": return `regain ${n} health`;
    case "coins": return n >= 0 ? `gain ${plural(n, "coin")}` : `lose ${plural(-n, "coin")}`;
    case "karma": return n >= 0 ? `gain ${n} karma` : `lose ${-n} karma`;
    case "heads": return `gain ${plural(n, "head")}`;
    case "influence": return n >= 0 ? `the Shōgun's influence rises by ${n}` : `the Shōgun's influence falls by ${-n}`;
    case "delayed": return "delayed (the activation ends)";
    case "gain_item": return "draw an item from the market deck";
    case "discard_item": return `return ${itemName(e.item)} to the market`;
    case "test": {
      const trait = e.trait ? `, passed at once with the ${pretty(e.trait)} trait` : "";
      return `${pretty(e.attribute)} test (${e.difficulty})${trait}: on a success ${effectsText(e.success, view) || "nothing happens"}, on a failure ${effectsText(e.failure, view) || "nothing happens"}`;
    }
    case "choice": return `a decision: ${(e.options || []).map((o) => `“${o.label}”`).join(" or ")}`;
    case "spawn": return spawnText(e.enemy || {});
    case "capture": return `${locName(e.location)} is captured`;
    case "raze": return `${locName(e.location)} is razed`;
    case "mark": return `the campaign sheet records “${markName(e.mark)}”`;
    case "discover": return `${locName(e.location)} is discovered`;
    case "remove_card": return "this card leaves the campaign";
    case "add_travel_events": return (e.codes || []).length > 1 ? `travel events ${e.codes.join(", ")} join the deck` : `travel event ${(e.codes || []).join("")} joins the deck`;
    case "remove_travel_events": return (e.codes || []).length > 1 ? `travel events ${e.codes.join(", ")} leave the deck` : `travel event ${(e.codes || []).join("")} leaves the deck`;
    case "all": return `every character: ${effectsText(e.effects, view)}`;
    case "bless": return `gain ${plural(n || 1, "blessed token")}`;
    case "gain_token": return `gain ${tokenName(e.token, view)}`;
    case "lose_token": return `lose ${tokenName(e.token, view)}`;
    case "if": return `if ${requirementText(e.has, view)}: ${effectsText(e.then, view) || "nothing happens"}; otherwise ${effectsText(e.else, view) || "nothing happens"}`;
    case "place_mission": return `a new mission is placed${e.location ? ` at ${locName(e.location)}` : ""}`;
    case "complete_mission": return "the mission is completed";
    case "fail_mission": return "the mission fails";
    case "unlock_kami": return `the Kami ${(kami(e.kami) || {}).name || pretty(e.kami)} is unlocked`;
    case "movement": return `+${plural(n, "movement point")} during a travel`;
    case "combat_bonus": return `+${n} to combat tests`;
    default: return pretty(e.do);
  }
}

/** A carried mission or event token: named by the view's book once shown there (or by the pack, for
 * the tokens the cards themselves name). */
export function token(id, view) {
  const shown = view && view.book && view.book.tokens && view.book.tokens[id];
  return shown || (adv().act1 && adv().act1.tokens && adv().act1.tokens[id]) || null;
}

export function tokenName(id, view) {
  const t = token(id, view);
  return t ? t.name : pretty(id);
}

/** A campaign-sheet mark by its name in the act's content. */
export function markName(id) {
  const marks = (adv().act1 && adv().act1.marks) || {};
  return marks[id] || pretty(id);
}

export function requirementText(req, view) {
  const r = req || {};
  const parts = [];
  if (r.mark) parts.push(`the campaign sheet records “${markName(r.mark)}”`);
  if (r.token) parts.push(`the character carries ${tokenName(r.token, view)}`);
  if (r.coins) parts.push(`the character has ${plural(r.coins, "coin")}`);
  if (r.trait) parts.push(`the character has the ${pretty(r.trait)} trait`);
  return parts.join(" and ") || "the condition is met";
}

export function spawnText(en) {
  const at = en.at === "here" ? "here" : `at ${locName(en.at)}`;
  const target = en.target ? targetText(null, en) : "holding its ground";
  return `a ${String(pretty(en.type)).toLowerCase()} appears ${at}, ${target}${en.combat ? ` (combat test ${en.combat})` : ""}`;
}

export function servicesText(services) {
  return (services || []).map((s) => (SERVICES[s] ? SERVICES[s].word : pretty(s))).join(", ");
}

// -- the legal commands in words -----------------------------------------------------------------------

export function travelPoints(view, cid, group, fox) {
  const chars = view.characters || {};
  const ch = chars[cid];
  if (!ch) return null;
  const members = [cid, ...(group || [])].map((c) => chars[c]).filter(Boolean);
  if ((group || []).length) return 3 + Math.min(...members.map((m) => (m.attributes || {}).dexterity || 0));
  return 3 + ((ch.attributes || {}).dexterity || 0) + (fox ? 1 : 0); // Nine-tailed fox, when activated
}

/** The level 1 Kami skills that apply by themselves ("always active", "You always succeed"); the
 * others are activated for 1 action point, once per phase. */
export const SELF_ACTING_KAMI = ["amatsumikaboshi", "izanami"];

/** A level 1 Kami skill activated with an action: its own action point, once this phase. */
const KAMI_COST = "1 more action point, once this phase";

export function names(list) {
  const parts = (list || []).map(charName);
  if (parts.length < 2) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

export function commandLabel(ctx, cmd) {
  const { view } = ctx;
  const a = cmd.args || {};
  const flow = view.flow || {};
  const active = flow.active;
  const who = active ? charName(active) : "";
  const me = active && view.characters ? view.characters[active] : null;
  const shop = view.shop || flow.shop || {};
  switch (cmd.type) {
    case "choose_weapon": return `${charName(a.character)} takes the ${weaponText(a.weapon, view.blue_die)}`;
    case "choose_kami": {
      const k = kami(a.kami);
      const ability = kamiAbility(a.kami);
      return `${charName(a.character)} follows ${k ? k.name : pretty(a.kami)}${ability ? `: ${ability.name}, “${ability.text}”` : ""}`;
    }
    case "answer_group": {
      const p = flow.proposal || {};
      return a.agree ? `Agree: travel together${p.character ? ` with ${charName(p.character)}` : ""}` : "Refuse: stay behind";
    }
    case "change_kami": {
      const offer = (view.unlocked_kami || []).find((o) => !o.decided) || {};
      const k = kami(offer.kami);
      const name = k ? k.name : offer.kami ? pretty(offer.kami) : "the unlocked Kami";
      return a.character ? `${charName(a.character)} takes ${name} as Kami (keeping the affinity)` : `Nobody takes ${name}: every character keeps their Kami`;
    }
    case "port":
      if (a.kami) return `Use the port with Healing Wave: regain ${me ? me.level : "your level in"} health (2 action points: the port and the Kami skill, once this phase)`;
      return "Use the port (1 action point)";
    case "activate_enemy": {
      const en = (view.enemies || {})[a.enemy] || {};
      return `Move the ${enemyName(a.enemy).toLowerCase()} next (at ${locName(en.location)}, ${targetText(view, en)})`;
    }
    case "choose_path": {
      const tie = flow.tie || {};
      return `The ${tie.enemy ? enemyName(tie.enemy).toLowerCase() : "enemy"} ends its move at ${locName(a.to)}`;
    }
    case "activate": {
      const ch = (view.characters || {})[a.character] || {};
      return `Activate ${charName(a.character)} (at ${locName(ch.location)})`;
    }
    case "travel": {
      const mp = travelPoints(view, active, a.group, a.kami);
      const points = mp === null ? "" : ` with ${plural(mp, "movement point")}`;
      if ((a.group || []).length) return `Travel together with ${names(a.group)}${points} (each companion's own activation loses 1 action point)`;
      if (a.kami) return `Travel with Nine-tailed fox${points} (+1 movement point; ${KAMI_COST})`;
      return `Travel${points}`;
    }
    case "exert": return "Exert: spend 1 action point for 1 more movement point";
    case "move": {
      const kind = routeKind(me && me.location, a.to);
      return `Go to ${locName(a.to)} (${kind === "path" ? "dangerous path" : "imperial road"}, 1 movement point)`;
    }
    case "sail": return `Sail to ${locName(a.to)} (3 movement points and 10 coins)`;
    case "guided_by_the_waves": return `Guided by the Waves: sail to ${locName(a.to)} (3 movement points and 1 action point, no coins, once this phase)`;
    case "end_travel": return `Stop travelling at ${locName(me && me.location)}`;
    case "attack": {
      const en = (view.enemies || {})[a.enemy] || {};
      const helpers = a.helpers || [];
      const weapon = me && me.equipped ? equipment(me.equipped) : null;
      const roll = weapon ? `roll ${diceText(weapon.strong || weapon.fast, view.blue_die)} + power ${(me.attributes || {}).power || 0}` : "no weapon: power only";
      const blade = a.kami ? ` + 1 (Sharpened Blade: ${KAMI_COST})` : "";
      return `Attack the ${enemyName(a.enemy).toLowerCase()}: combat test ${en.combat ?? "?"}, ${roll}${blade}${helpers.length ? `, with ${names(helpers)} joining (each loses 1 action point of their own activation)` : ""}`;
    }
    case "work": return "Work in the city (gain 2 coins)";
    case "camp": return "Camp (regain 1 health)";
    case "end_activation": return `End ${who}'s activation`;
    case "interact_mission": return `Reveal the mission token at ${locName(me && me.location)}`;
    case "interact_clan": return `Resolve ${who}'s clan token of “${missionTitle(view, a.mission)}”`;
    case "interact_personal": {
      const pm = personalDoc(view, active);
      return `Personal mission: ${pm ? `${pm.title} (${pm.objective})` : "complete it here"}`;
    }
    case "interact_sanctuary": {
      const steps = Math.floor((a.karma || 0) / 3);
      const holy = a.kami ? `, and regain up to 3 health with The Holy One (${KAMI_COST})` : "";
      return a.karma ? `Pray at the sanctuary: spend ${a.karma} karma for +${steps} Kami affinity${holy}` : `Pray at the sanctuary without spending karma${holy}`;
    }
    case "interact_special": return `Explore ${locName(me && me.location)} (special location)`;
    case "inn": return `Rest at the inn (10 coins, regain ${me ? me.level + 2 : "level + 2"} health)`;
    case "blacksmith": return "Visit the blacksmith (1 action point: buy, sell, repair)";
    case "market": return "Visit the market (1 action point: reveal 3 cards, buy, sell, sell heads)";
    case "buy": {
      if (shop.kind === "blacksmith") {
        const card = equipment(a.card) || {};
        const stats = card.slot === "armor" ? `armor ${card.armor}` : `combat tests roll ${diceText(card.strong || card.fast, view.blue_die)}`;
        return `Buy ${card.name || pretty(a.card)} for ${card.cost} coins (level ${card.level}, ${stats})`;
      }
      const card = item(a.card) || {};
      return `Buy ${card.name || pretty(a.card)} for ${card.cost} coins`;
    }
    case "sell": {
      const card = shop.kind === "blacksmith" ? equipment(a.card) : item(a.card);
      const coins = card && Number.isInteger(card.cost) ? ` for ${Math.floor(card.cost / 2)} coins` : "";
      return `Sell ${card ? card.name : pretty(a.card)}${coins}`;
    }
    case "repair":
      return a.kami ? "Repair the armor free with Master Blacksmith (1 action point, once this phase)" : "Repair the armor (10 coins)";
    case "sell_heads": {
      const coins = me ? 10 * (me.heads || 0) + 30 * (me.boss_heads || 0) : null;
      return `Sell ${who}'s heads${coins !== null ? ` for ${coins} coins` : ""}`;
    }
    case "leave": return `Leave the ${shop.kind || "shop"}`;
    case "give": {
      const giver = (view.characters || {})[a.from] || {};
      const what = a.what === "coins" ? plural(a.amount, "coin") : a.what === "heads" ? plural(a.amount, "head")
        : a.what === "boss_heads" ? plural(a.amount, "boss head")
        : a.what === "armor" ? `the ${equipmentName(giver.armor)} (their armor)` : token(a.what, view) ? tokenName(a.what, view)
          : equipment(a.what) ? `the ${equipmentName(a.what)}` : itemName(a.what);
      return `${charName(a.from)} gives ${charName(a.to)} ${what}`;
    }
    case "share_information": return `Tell ${charName(a.character)} about “${missionTitle(view, a.mission)}” (they place their clan tokens)`;
    case "omamori": return `Jirōbō's omamori: tell ${charName(a.character)} about “${missionTitle(view, a.mission)}” wherever they are (once this phase)`;
    case "use_item": {
      const card = item(a.item);
      const text = card && card.text ? card.text.replace(/\.$/, "") : "";
      return `Use ${itemName(a.item)}${text ? ` (${text[0].toLowerCase()}${text.slice(1)})` : ""}`;
    }
    case "swap_weapon": {
      const other = me ? (me.weapons || []).find((w) => w !== me.equipped) : null;
      return other ? `Swap weapons: take up the ${equipmentName(other)}` : "Swap weapons";
    }
    case "choose": {
      const opt = view.choice && view.choice.options && view.choice.options[a.option];
      return opt ? opt.label : `Option ${Number(a.option) + 1}`;
    }
    case "lose_attribute": return `Lose 1 point of ${pretty(a.attribute).toLowerCase()}`;
    default: return fallbackLabel(cmd);
  }
}

/** Any other command, in words: its name and arguments (locations and characters by name). */
export function fallbackLabel(cmd) {
  const parts = Object.entries(cmd.args || {}).map(([k, v]) => {
    const word = (x) => (locInfo(x) ? locName(x) : ORDER.includes(x) ? charName(x) : item(x) ? itemName(x) : equipment(x) ? equipmentName(x) : pretty(x));
    const value = Array.isArray(v) ? (v.length ? v.map(word).join(", ") : "none") : typeof v === "object" && v ? Object.values(v).map(word).join(", ") : word(v);
    return `${pretty(k).toLowerCase()} ${value}`;
  });
  return `${pretty(cmd.type)}${parts.length ? ` (${parts.join("; ")})` : ""}`;
}

// -- map geometry --------------------------------------------------------------------------------------

export function routes() {
  return (adv().map && adv().map.routes) || [];
}

export function routeKind(a, b) {
  const r = routes().find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
  return r ? r.kind : null;
}
