// Reads {pack, cases: [{view, command}], effects: [[...]]} as JSON on stdin and prints, for each
// case, the label harakiri_adventure_words.js gives the command and whether a known sentence
// (not the fallback) made it; then each effect list in words. Run by test_adventure_words.py.
import { readFileSync } from "node:fs";

const words = await import(process.argv[2]);
const input = JSON.parse(readFileSync(0, "utf8"));
words.content.pack = input.pack;
const labels = input.cases.map(({ view, command }) => {
  const label = words.commandLabel({ view, doc: {} }, command);
  return { type: command.type, args: command.args, label, known: label !== words.fallbackLabel(command) };
});
const effects = input.effects.map((list) => words.effectsText(list));
process.stdout.write(JSON.stringify({ labels, effects }));
