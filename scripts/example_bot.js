#!/usr/bin/env node
// An example outside bot for neveryu in JavaScript (Node.js, no packages), written from
// docs/PROTOCOL.md and docs/BOTS.md: it connects, makes a table with the server's bots, plays one
// whole deal and exits 0 when the deal has ended (1 on an error, a closed connection or --timeout).
//
//     node scripts/example_bot.js --host 127.0.0.1 --port 7420 --variant verish
//     node scripts/example_bot.js --host 127.0.0.1 --port 7420 --table 1   (join table 1 and play)
//
// msgpack: the subset the protocol uses (nil, bool, int, str, array, map), below.
// Strategy: lay the truth when it holds the rank to claim (as many as allowed), else bluff with
// the fewest cards; declare none when it truly holds none; challenge a claim its hand proves
// false, or when it can do nothing else.
"use strict";
const net = require("net");
const crypto = require("crypto");

// -- msgpack, the protocol's subset ------------------------------------------------------------
function pack(v, out = []) {
  if (v === null || v === undefined) out.push(0xc0);
  else if (v === true || v === false) out.push(v ? 0xc3 : 0xc2);
  else if (typeof v === "number") {
    if (!Number.isInteger(v)) throw new Error("no floats on the wire");
    if (v >= 0 && v < 128) out.push(v);
    else if (v < 0 && v >= -32) out.push(v & 0xff);
    else if (v >= 0 && v <= 0xffffffff) out.push(0xce, ...u32(v));
    else if (v < 0 && v >= -0x80000000) out.push(0xd2, ...u32(v >>> 0));
    else throw new Error("integer out of range");
  } else if (typeof v === "string") {
    const b = Buffer.from(v, "utf8");
    if (b.length < 32) out.push(0xa0 | b.length);
    else if (b.length < 65536) out.push(0xda, b.length >> 8, b.length & 0xff);
    else out.push(0xdb, ...u32(b.length));
    for (const x of b) out.push(x);
  } else if (Array.isArray(v)) {
    if (v.length < 16) out.push(0x90 | v.length);
    else out.push(0xdc, v.length >> 8, v.length & 0xff);
    for (const x of v) pack(x, out);
  } else {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length < 16) out.push(0x80 | keys.length);
    else out.push(0xde, keys.length >> 8, keys.length & 0xff);
    for (const k of keys) { pack(k, out); pack(v[k], out); }
  }
  return out;
}
function u32(n) { return [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]; }

function unpack(buf) {
  let at = 0;
  const str = (n) => { const s = buf.toString("utf8", at, at + n); at += n; return s; };
  const arr = (n) => { const a = []; for (let i = 0; i < n; i++) a.push(item()); return a; };
  const map = (n) => { const m = {}; for (let i = 0; i < n; i++) { const k = item(); m[k] = item(); } return m; };
  function item() {
    const b = buf[at++];
    if (b < 0x80) return b;
    if (b >= 0xe0) return b - 256;
    if ((b & 0xe0) === 0xa0) return str(b & 0x1f);
    if ((b & 0xf0) === 0x90) return arr(b & 0x0f);
    if ((b & 0xf0) === 0x80) return map(b & 0x0f);
    let v;
    switch (b) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xcc: return buf[at++];
      case 0xcd: v = buf.readUInt16BE(at); at += 2; return v;
      case 0xce: v = buf.readUInt32BE(at); at += 4; return v;
      case 0xcf: v = Number(buf.readBigUInt64BE(at)); at += 8; return v;
      case 0xd0: v = buf.readInt8(at); at += 1; return v;
      case 0xd1: v = buf.readInt16BE(at); at += 2; return v;
      case 0xd2: v = buf.readInt32BE(at); at += 4; return v;
      case 0xd3: v = Number(buf.readBigInt64BE(at)); at += 8; return v;
      case 0xd9: return str(buf[at++]);
      case 0xda: v = buf.readUInt16BE(at); at += 2; return str(v);
      case 0xdb: v = buf.readUInt32BE(at); at += 4; return str(v);
      case 0xdc: v = buf.readUInt16BE(at); at += 2; return arr(v);
      case 0xdd: v = buf.readUInt32BE(at); at += 4; return arr(v);
      case 0xde: v = buf.readUInt16BE(at); at += 2; return map(v);
      case 0xdf: v = buf.readUInt32BE(at); at += 4; return map(v);
      default: throw new Error("not in the protocol's msgpack subset: 0x" + b.toString(16));
    }
  }
  const v = item();
  if (at !== buf.length) throw new Error("trailing bytes in a frame");
  return v;
}

// -- the connection: frames out and in ---------------------------------------------------------
function args() {
  const a = { host: "127.0.0.1", port: 7420, variant: "verish", name: "example-js", bot: null, timeout: 600, table: null };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i += 2) a[argv[i].replace(/^--/, "")] = argv[i + 1];
  a.port = Number(a.port);
  a.timeout = Number(a.timeout);
  return a;
}

const DEAL_EVENTS = new Set(("deal_started turn set_laid none_declared set_held set_returned window_closed " +
  "challenge_void challenged believed set_revealed pile_taken pile_discarded quads_discarded quads_declined " +
  "quads_window_opened quads_window_closed stock_drawn timed_out player_out deal_ended").split(" "));

function main() {
  const opt = args();
  const sock = net.connect(opt.port, opt.host);
  let inbox = Buffer.alloc(0);
  let nextId = 0;
  const replies = new Map(); // request id -> callback of its reply
  const me = { seat: null, hand: [], legal: null, turn: null, last: null, decks: 1, inBatch: false,
    waiting: null, tried: new Set(), plain: false, minor: 0 };
  const fail = (why) => { console.error("example bot: " + why); process.exit(1); };
  setTimeout(() => fail("the deal did not end in time"), opt.timeout * 1000).unref();
  let idle = null;

  function request(t, fields, onReply) {
    const id = ++nextId;
    const body = Buffer.from(pack({ t, id, ...fields }));
    const head = Buffer.alloc(4);
    head.writeUInt32BE(body.length);
    sock.write(Buffer.concat([head, body]));
    if (onReply) replies.set(id, onReply);
    return id;
  }
  const call = (t, fields) => new Promise((ok, no) => request(t, fields, (m) =>
    m.t === "error" ? no(new Error(`${t}: ${m.code}: ${m.msg}`)) : ok(m)));

  sock.on("error", (e) => fail(e.message));
  sock.on("close", () => fail("the server closed the connection"));
  sock.on("data", (chunk) => {
    inbox = Buffer.concat([inbox, chunk]);
    while (inbox.length >= 4) {
      const n = inbox.readUInt32BE(0);
      if (n < 1 || n > 1048576) fail("bad frame length " + n);
      if (inbox.length < 4 + n) break;
      const msg = unpack(inbox.subarray(4, 4 + n));
      inbox = inbox.subarray(4 + n);
      if (idle) idle.refresh();
      receive(msg);
    }
  });

  function receive(msg) {
    if (msg.t === "error" && msg.fatal) fail(`fatal error ${msg.code}: ${msg.msg}`);
    if (msg.re !== undefined && msg.re !== null) {
      const cb = replies.get(msg.re);
      replies.delete(msg.re);
      if (cb) cb(msg);
      return;
    }
    if (msg.t === "seed_committed") { // fair deal 2: our share of the shuffle, at once
      request("contribute", { deal_no: msg.deal_no, contribution: crypto.randomBytes(32).toString("hex") });
      return;
    }
    if (msg.seq === undefined) return;
    observe(msg);
    if (msg.t === "deal_ended") {
      console.log("the deal is over: " + (msg.winner !== null ? `seat ${msg.winner} won` : `seat ${msg.loser} lost`));
      process.exit(0);
    }
    act(msg.t === "legal" || msg.t === "state");
  }

  function observe(ev) {
    const t = ev.t, mine = ev.seat === me.seat;
    me.inBatch = DEAL_EVENTS.has(t) || (me.inBatch && t !== "legal" && t !== "state");
    if (t === "deal_started") {
      me.hand = (ev.hand || []).slice();
      me.decks = ev.deck.startsWith("2x") ? 2 : 1;
      console.log(`deal ${ev.deal_no}: your hand: ${me.hand.slice().sort().join(" ")}`);
    } else if (t === "legal") {
      me.legal = ev; me.tried.clear(); me.plain = false;
    } else if (t === "state") {
      me.hand = (ev.hand || []).slice(); me.legal = ev.legal;
    } else if (t === "turn") {
      me.turn = ev.seat;
    } else if (t === "set_laid" || t === "none_declared") {
      me.last = [ev.rank, ev.count || 0];
      if (mine) for (const c of ev.cards || []) me.hand.splice(me.hand.indexOf(c), 1);
    } else if ((t === "pile_taken" || t === "stock_drawn") && mine && ev.cards) {
      me.hand.push(...ev.cards);
    } else if (t === "quads_discarded" && mine) {
      for (const r of ev.ranks || []) for (let k = 0; k < 4; k++) me.hand.splice(me.hand.findIndex((c) => c[0] === r), 1);
    } else if (t === "set_revealed") {
      console.log(`  set ${ev.set_no} of seat ${ev.seat}: claimed ${ev.count} x ${ev.rank}: ${ev.claim_true ? "true" : "false"}`);
    }
  }

  function held(rank) { return me.hand.filter((c) => c[0] === rank).length; }

  function choose() {
    const legal = me.legal || {}, lay = legal.lay, challenge = legal.challenge;
    if (me.plain && lay && me.hand.length >= lay.min)
      return ["lay", { cards: me.hand.slice().sort().slice(0, lay.min), rank: lay.ranks[0], count: lay.count_min ?? undefined }];
    if (legal.discard_quads && legal.discard_quads.length) return ["discard_quads", { ranks: legal.discard_quads }];
    if (legal.decline_quads) return ["decline_quads", {}]; // verish: no quads to discard; the next set need not wait
    const impossible = me.last && me.last[1] + held(me.last[0]) > 4 * me.decks;
    const stuck = me.turn === me.seat && !lay && (legal.believe === null || legal.believe === undefined);
    if (challenge !== null && challenge !== undefined && (stuck || impossible)) return ["challenge", { set_no: challenge }];
    if (!lay && me.turn === me.seat && legal.believe !== null && legal.believe !== undefined)
      return ["believe", { set_no: legal.believe }];
    if (legal.declare_none !== null && legal.declare_none !== undefined && held(legal.declare_none) === 0)
      return ["declare_none", {}];
    if (!lay) return null;
    const cards = me.hand.slice().sort();
    const rank = lay.ranks.reduce((a, r) => (held(r) > held(a) ? r : a), lay.ranks[0]);
    const chosen = cards.filter((c) => c[0] === rank).slice(0, lay.max);
    for (const c of cards) if (chosen.length < lay.min && !chosen.includes(c)) chosen.push(c);
    if (chosen.length < lay.min) return null; // our hand is not what the server thinks: wait
    const fields = { cards: chosen, rank };
    if (lay.count_min !== null && lay.count_min !== undefined)
      fields.count = Math.min(Math.max(chosen.length, lay.count_min), lay.count_max);
    return ["lay", fields];
  }

  function act(fresh) {
    const complete = !(me.minor >= 1 && me.inBatch); // no event of the deal after the legal (PROTOCOL.md §6)
    if (me.waiting !== null || !me.legal || !complete || !(fresh || me.plain)) return;
    const action = choose();
    if (!action || me.tried.has(JSON.stringify(action))) return;
    me.tried.add(JSON.stringify(action));
    me.waiting = request(action[0], action[1], (reply) => {
      me.waiting = null;
      if (reply.t === "ok") me.legal = null; // out of date: wait for the next legal
      else { console.log(`  (refused: ${reply.code}: ${reply.msg})`); me.plain = true; act(false); }
    });
  }

  (async () => {
    const welcome = await call("hello", { proto: [1, 1], client: { name: "example_bot.js", version: "1" }, name: opt.name });
    me.minor = welcome.minor || 0;
    console.log(`connected to ${welcome.server.name} (protocol ${welcome.proto}.${me.minor})`);
    idle = setTimeout(function ping() { request("ping", {}); idle.refresh(); }, welcome.heartbeat_ms);
    idle.unref();
    if (opt.table) { // a seat kept for it at a table (neveryu arena): take it, and the table starts
      const joined = await call("join_table", { table: Number(opt.table) });
      me.seat = joined.seat;
      console.log(`table ${opt.table}: you at seat ${me.seat}`);
      await call("ready", { ready: true });
      return;
    }
    const variants = (await call("variants", {})).variants;
    const v = variants.find((x) => x.name === opt.variant);
    if (!v) fail(`no variant ${opt.variant}`);
    const seats = Math.min(Math.max(v.players[0], 3), v.players[1]);
    const bot = opt.bot || (welcome.bots || [null])[0];
    const joined = await call("create_table", { variant: opt.variant, seats, bots: Array(seats - 1).fill(bot), deals: 1 });
    me.seat = joined.seat;
    console.log(`table ${joined.table.id}: ${opt.variant}, you at seat ${me.seat} with ${seats - 1} bots`);
    await call("ready", { ready: true });
    await call("start", {});
  })().catch((e) => fail(e.message));
}

main();
