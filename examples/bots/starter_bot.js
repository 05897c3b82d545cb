#!/usr/bin/env node
// A starter bot for Saloon, in JavaScript (node, no packages).
//
// It speaks the JSON-lines bot protocol (docs/bot-protocol.md) on stdin/stdout:
//   start  -> remember the game and seat
//   decide -> answer {"action": INDEX}, an index into "legal"
//   end    -> the game is over
//
// It chooses pseudo-randomly but deterministically (a hash of the decision it is asked), so the
// same game always gets the same moves and tournaments reproduce exactly. Replace choose() with
// your own strategy. Log with console.error (stderr), never console.log: anything on stdout that
// is not a reply is a fault.
//
// Run it in a tournament with "cmd:node examples/bots/starter_bot.js".
"use strict";

const readline = require("readline");

// FNV-1a: a small, stable string hash.
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// The index of the action to play; legal holds actions like {"type": "discard", "card": 7}.
function choose(view, legal, seat, line) {
  // An example rule: never pick a "pass" if anything else is legal.
  let candidates = legal.map((action, i) => i).filter((i) => legal[i].type !== "pass");
  if (candidates.length === 0) candidates = legal.map((action, i) => i);
  return candidates[hash(line) % candidates.length];
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    console.error(`starter bot: playing ${message.game} at seat ${message.seat}`);
  } else if (message.type === "decide") {
    const index = choose(message.view, message.legal, message.seat, line);
    process.stdout.write(JSON.stringify({ action: index }) + "\n");
  } else if (message.type === "end") {
    console.error(`starter bot: ranks ${JSON.stringify(message.outcome.ranks)}`);
  }
});
