// Keeps the lobby's open-matches table fresh: re-fetches the server-rendered fragment every few
// seconds while the tab is visible, and swaps it in when its version (match ids + seqs) changed,
// unless the user is interacting with it.

const REFRESH_MS = window.KamizaLobbyRefreshMs || 5000;
const region = document.getElementById("open-matches-region");

function currentVersion() {
  const node = region.querySelector("[data-version]");
  return node ? node.dataset.version : null;
}

async function refresh() {
  if (document.visibilityState !== "visible") return;
  if (region.contains(document.activeElement) && document.activeElement !== document.body) return;
  try {
    const resp = await fetch(region.dataset.refreshUrl, { credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!resp.ok) return;
    const tpl = document.createElement("template");
    tpl.innerHTML = await resp.text(); // our own server's escaped template output
    const fresh = tpl.content.querySelector("[data-version]");
    if (fresh && fresh.dataset.version !== currentVersion()) region.replaceChildren(tpl.content);
  } catch {
    /* offline for a moment: try again next tick */
  }
}

if (region) setInterval(refresh, REFRESH_MS);
