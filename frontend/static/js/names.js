// How pages name things, shared by the table, its boards and panels.

/** A seat's player name, said once (as the server's identities.seat_label): a bot's own name ("Bot 2")
 * already says it is a bot, so " (bot)" is added only to a bot whose name does not. */
export function seatLabel(s) {
  if (!s) return null;
  const name = String(s.username || "");
  return s.bot && !/bot/i.test(name) ? `${name} (bot)` : name;
}
