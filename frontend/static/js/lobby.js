// Keeps the home page's and the lobby's lists fresh (the open tables, the live matches to watch):
// every region with a data-refresh-url re-fetches its server-rendered fragment every few seconds
// while the tab is visible, and swaps it in when its version (match ids plus what the list shows:
// seats filled, spectators) changed, unless the user is interacting with it.

const REFRESH_MS = window.KamizaLobbyRefreshMs || 5000;
const regions = [...document.querySelectorAll("[data-refresh-url]")];

function currentVersion(region) {
  const node = region.querySelector("[data-version]");
  return node ? node.dataset.version : null;
}

async function refresh(region) {
  if (document.visibilityState !== "visible") return;
  if (region.contains(document.activeElement) && document.activeElement !== document.body) return;
  try {
    const resp = await fetch(region.dataset.refreshUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!resp.ok) return;
    const tpl = document.createElement("template");
    tpl.innerHTML = await resp.text(); // our own server's escaped template output
    const fresh = tpl.content.querySelector("[data-version]");
    if (fresh && fresh.dataset.version !== currentVersion(region)) region.replaceChildren(tpl.content);
  } catch {
    /* offline for a moment: try again next tick */
  }
}

if (regions.length) setInterval(() => regions.forEach(refresh), REFRESH_MS);
