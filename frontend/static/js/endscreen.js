// The end screen of a match: the seed reveal in one sentence with a "verify" link, the rematch
// (who has accepted, a button for a player who has not, then the way to the new match) and the
// way back to the lobby. Rematch news arrive over the socket ({"type": "rematch", ...}); after
// every (re)connect the status is read again from GET .../rematch/.

import { api, boot, currentDoc, el, isOver, isSeated, onRender, onSocket, playerName } from "./social.js";
import { errorText, rematchIntro, rematchSeatState } from "./words.js";

const root = document.getElementById("end-screen");
const $ = (id) => document.getElementById(id);

const end = {
  doc: currentDoc(),
  rematch: null, // the last status: {available, reason, accepted, waiting, match_id}
  sending: false,
  waited: false, // this page saw the rematch before it existed (only then are players taken to it)
  navigated: false,
  error: "",
};

function mySeat() {
  return isSeated(end.doc) ? end.doc.seat : null;
}

/** Whether the reader resigned this match (the one that ended it, or one the others played on from). */
function iResigned() {
  const me = mySeat();
  const match = end.doc.match || {};
  return me !== null && (match.resigned === me || (match.conceded || []).includes(me));
}

function seatLine(seat) {
  const doc = end.doc;
  const s = doc.match.seats[seat];
  const name = playerName(doc, seat) + (seat === mySeat() ? " (you)" : "");
  const accepted = end.rematch.accepted.includes(seat);
  const state = rematchSeatState({ bot: Boolean(s && s.bot), accepted, mine: seat === mySeat() });
  return el("li", { class: accepted ? "accepted" : "waiting", dataset: { seat: String(seat) } }, `${name}: ${state}`);
}

function renderRematch() {
  const box = $("rematch");
  const r = end.rematch;
  if (!r || end.doc.match.status !== "finished") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const parts = [el("h3", {}, "Rematch")];
  if (r.match_id) {
    const href = `/matches/${r.match_id}/`;
    parts.push(el("p", { class: "rematch-ready" }, "Everyone accepted: the rematch has started. ", el("a", { href, dataset: { testid: "rematch-link" } }, mySeat() !== null ? "Go to the rematch" : "Watch the rematch")));
    if (mySeat() !== null && end.waited && !end.navigated) {
      end.navigated = true;
      window.setTimeout(() => window.location.assign(href), 600);
    }
  } else if (!r.available) {
    end.waited = false;
    parts.push(el("p", { class: "muted" }, r.reason || "No rematch for this match."));
  } else {
    end.waited = true;
    parts.push(el("p", { class: "muted small" }, rematchIntro(iResigned())));
    parts.push(el("ul", { class: "rematch-seats" }, ...end.doc.match.seats.map((_, i) => seatLine(i))));
    const me = mySeat();
    if (me !== null && boot.user_id) {
      const accepted = r.accepted.includes(me);
      const label = accepted ? "You accepted: waiting for the others" : iResigned() ? "Offer a new match" : "Rematch";
      const button = el("button", { type: "button", class: accepted ? "" : "primary", disabled: accepted || end.sending, id: "rematch-button" }, label);
      button.addEventListener("click", accept);
      parts.push(button);
    }
  }
  if (end.error) parts.push(el("p", { class: "error", role: "alert" }, end.error));
  box.replaceChildren(...parts);
}

function renderSeed() {
  const box = $("seed-reveal");
  const seed = end.doc.match && end.doc.match.seed && end.doc.view !== null && end.doc.view !== undefined ? end.doc.match.seed : null;
  box.hidden = !seed; // a match abandoned before its start drew nothing from its seed
  if (!seed) return;
  box.replaceChildren(
    "The match's secret seed is now public: anyone can check that every shuffle and roll came from it. ",
    el("a", { href: `/matches/${boot.match_id}/verify/`, dataset: { testid: "verify-link" } }, "Verify"),
  );
}

function winnersText() {
  const winners = (end.doc.status && end.doc.status.winners) || [];
  if (!winners.length) return ": no winner";
  const names = winners.map((s) => playerName(end.doc, s) + (s === mySeat() ? " (you)" : ""));
  return `: ${names.join(" and ")} ${names.length > 1 ? "win" : "wins"}`;
}

function render() {
  if (!root) return;
  const over = isOver(end.doc);
  root.hidden = !over;
  if (!over) return;
  $("end-title").textContent = end.doc.match.status === "abandoned" ? "The match was abandoned" : `Game over${winnersText()}`;
  renderSeed();
  renderRematch();
}

async function loadStatus() {
  const res = await api("rematch/");
  if (res.ok) {
    end.rematch = res.body;
    render();
  }
}

async function accept() {
  end.sending = true;
  end.error = "";
  render();
  const res = await api("rematch/", { method: "POST" });
  end.sending = false;
  if (res.ok) end.rematch = res.body;
  else end.error = errorText(res.body, {}, "The rematch could not be accepted.");
  render();
}

function start() {
  if (!root) return;
  onRender((doc) => {
    const wasOver = isOver(end.doc);
    end.doc = doc;
    if (isOver(doc) && (!wasOver || !end.rematch)) loadStatus();
    else render();
  });
  onSocket((msg) => {
    if (msg.type === "rematch") {
      end.rematch = msg;
      render();
    } else if (msg.type === "hello" && isOver(end.doc)) {
      loadStatus();
    }
  });
  if (isOver(end.doc)) loadStatus();
  render();
}

window.KamizaEnd = end; // read-only, for the browser test
start();
