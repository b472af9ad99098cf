// The lobby's "Invitations for you": re-reads the server-rendered list every few seconds while the
// tab is visible and swaps it in when it changed (a new invitation, one taken back, a seat taken),
// unless the player is using its buttons. The section shows only while there is an invitation.

const REFRESH_MS = window.KamizaLobbyRefreshMs || 5000;
const section = document.getElementById("invitations");
const region = document.getElementById("invitations-region");

function version(root) {
  const node = root.querySelector("[data-version]");
  return node ? node.dataset.version : null;
}

async function refresh() {
  if (document.visibilityState !== "visible") return;
  if (region.contains(document.activeElement) && document.activeElement !== document.body) return;
  try {
    const resp = await fetch(section.dataset.refreshUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!resp.ok) return;
    const tpl = document.createElement("template");
    tpl.innerHTML = await resp.text(); // our own server's escaped template output
    const fresh = tpl.content.querySelector("[data-version]");
    if (!fresh || fresh.dataset.version === version(region)) return;
    section.hidden = Number(fresh.dataset.count) === 0;
    region.replaceChildren(tpl.content);
  } catch {
    /* offline for a moment: try again next tick */
  }
}

if (section && region) setInterval(refresh, REFRESH_MS);
