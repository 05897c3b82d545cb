#!/usr/bin/env node
// A starter bot for Saloon, in JavaScript (node, no packages).
//
// It speaks the JSON-lines bot protocol (docs/bot-protocol.md):
//   start  -> remember the game and seat
//   decide -> answer {"action": INDEX}, an index into "legal"
//   end    -> the game is over
//
// It chooses pseudo-randomly but deterministically (a hash of the decision it is asked), so the
// same game always gets the same moves and tournaments reproduce exactly. Replace choose() with
// your own strategy. Log with console.error (stderr), never console.log: anything on stdout that
// is not a reply is a fault.
//
// Two ways to run it:
//   - on stdin/stdout, started by Saloon: "cmd:node examples/bots/starter_bot.js" as a bot of
//     saloon simulate, saloon play or a tournament;
//   - over SSH, at a table of a Saloon server:
//       node examples/bots/starter_bot.js --ssh NAME@HOST:PORT [--table CODE] [--seat N] [--game GAME]
//     The bot runs "ssh -T -p PORT NAME@HOST bot ..." itself and speaks the protocol over that
//     process's stdin/stdout (no FIFO needed). --identity FILE and --ssh-option OPTION
//     (repeatable) are passed to ssh as -i and -o. The exit code is ssh's: 0 after a finished game.
"use strict";

const readline = require("readline");
const { spawn } = require("child_process");

const DEFAULT_PORT = 2222; // the port of "saloon serve" when --ssh names none

// FNV-1a: a small, stable string hash.
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// The index of the action to play; legal holds actions like {"type": "robbery", "card": 7, ...}.
function choose(view, legal, seat, line) {
  // An example rule: rob a Safe (a "robbery" action) whenever one is legal.
  let candidates = legal.map((action, i) => i).filter((i) => legal[i].type === "robbery");
  if (candidates.length === 0) candidates = legal.map((action, i) => i);
  return candidates[hash(line) % candidates.length];
}

// Answer the server's messages, read from the stream input; send(text) writes one reply line.
function play(input, send) {
  const lines = readline.createInterface({ input, terminal: false });
  lines.on("line", (line) => {
    const message = JSON.parse(line);
    if (message.type === "start") {
      console.error(`starter bot: playing ${message.game} at seat ${message.seat}`);
    } else if (message.type === "decide") {
      const index = choose(message.view, message.legal, message.seat, line);
      send(JSON.stringify({ action: index }) + "\n");
    } else if (message.type === "end") {
      console.error(`starter bot: ranks ${JSON.stringify(message.outcome.ranks)}`);
    }
  });
}

function usage(message) {
  console.error(`starter_bot.js: error: ${message}`);
  console.error(
    "usage: node starter_bot.js [--ssh NAME@HOST:PORT [--table CODE [--seat N]] [--game GAME] " +
      "[--identity FILE] [--ssh-option OPTION ...]]",
  );
  process.exit(2);
}

// The options as {ssh, table, seat, game, identity, sshOptions}; usage() on anything wrong.
function parseArguments(argv) {
  const options = { sshOptions: [] };
  const names = { "--ssh": "ssh", "--table": "table", "--seat": "seat", "--game": "game", "--identity": "identity" };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (!(flag in names) && flag !== "--ssh-option") usage(`unknown argument ${JSON.stringify(flag)}`);
    if (i + 1 >= argv.length) usage(`${flag} needs a value`);
    const value = argv[++i];
    if (flag === "--ssh-option") options.sshOptions.push(value);
    else options[names[flag]] = value;
  }
  if (options.seat !== undefined && !/^\d+$/.test(options.seat)) usage(`--seat must be a number, not ${options.seat}`);
  if (options.ssh === undefined) {
    const extra = ["table", "seat", "game", "identity"].some((key) => options[key] !== undefined);
    if (extra || options.sshOptions.length) usage("--table, --seat, --game, --identity and --ssh-option need --ssh");
  } else if (options.seat !== undefined && options.table === undefined) {
    usage("--seat needs --table");
  }
  return options;
}

// The ssh command line (program and arguments) for --ssh NAME@HOST[:PORT].
function sshCommand(options) {
  const target = options.ssh;
  const at = target.indexOf("@");
  const name = target.slice(0, at);
  const address = target.slice(at + 1);
  if (at <= 0 || !address) usage(`--ssh ${JSON.stringify(target)}: expected NAME@HOST:PORT`);
  let host = address;
  let port = String(DEFAULT_PORT);
  if (address.startsWith("[")) {
    const close = address.indexOf("]");
    host = address.slice(1, close < 0 ? undefined : close);
    if (close >= 0 && address.length > close + 1) port = address.slice(close + 1).replace(/^:/, "");
  } else if (address.split(":").length === 2) {
    [host, port] = address.split(":");
  }
  if (!host || !/^\d+$/.test(port) || +port < 1 || +port > 65535) {
    usage(`--ssh ${JSON.stringify(target)}: expected NAME@HOST:PORT with a port from 1 to 65535`);
  }
  const args = ["-T", "-p", port];
  if (options.identity !== undefined) args.push("-i", options.identity);
  for (const option of options.sshOptions) args.push("-o", option);
  args.push(`${name}@${host}`, "bot");
  if (options.table !== undefined) args.push("--table", options.table);
  if (options.seat !== undefined) args.push("--seat", options.seat);
  if (options.game !== undefined) args.push("--game", options.game);
  return args;
}

const options = parseArguments(process.argv.slice(2));
if (options.ssh === undefined) {
  play(process.stdin, (text) => process.stdout.write(text));
} else {
  const ssh = spawn("ssh", sshCommand(options), { stdio: ["pipe", "pipe", "inherit"] });
  ssh.stdin.on("error", () => {}); // the server closed the session: ssh's exit code says why
  ssh.on("error", (error) => {
    console.error(`starter bot: cannot run ssh: ${error.message}`);
    process.exit(127);
  });
  ssh.on("close", (code) => process.exit(code === null ? 1 : code)); // after its output is read
  play(ssh.stdout, (text) => ssh.stdin.write(text));
}
