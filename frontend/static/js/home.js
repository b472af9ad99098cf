// The home page: on a narrow screen the games' "How to play" lists start folded (a tap opens
// each), so the three games and the live matches fit a phone's first screens. Without JavaScript,
// or on a wide screen, they are open.

const narrow = window.matchMedia("(max-width: 700px)");
for (const box of document.querySelectorAll("details[data-open-wide]")) box.open = !narrow.matches;
