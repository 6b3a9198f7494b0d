// A property of the offline queue: whatever happens at the table (online, offline,
// answers lost, the page reloaded with its queue kept, entries refused and corrected,
// a second phone writing the same sheet and the scorer's choice on each clash), once
// everything is sent the server's sheet is what the scorer finally entered, field by
// field, bidder and auction included. Driven through the real queue and send modules
// against the fake server (fake_server.js), many seeds; a failure prints its seed and
// the sequence that led to it. SEEDS=2000 node --test tests/js/ searches longer.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const queue = require("../../static/js/score/queue.js");
const { sender } = require("../../static/js/score/send.js");
const { FakeServer, memoryStore, auctionOf, DEAL_FIELDS } = require("./fake_server.js");

const SEEDS = Number(process.env.SEEDS || 300);
const STEPS = 40;
const ROSTER = { A: ["Johny Oommen", "Anil"], B: ["Biju", "Mathew"] };
const TRUMPS = ["clubs", "diamonds", "hearts", "spades", "no_trump"];
const LEVELS = ["none", "none", "none", "doubled", "redoubled"];
const t = (english, values) => english.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));

// mulberry32: small, seeded, the same sequence on every machine.
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (low, high) => low + Math.floor(next() * (high - low + 1));
  return { next, int, pick: (list) => list[int(0, list.length - 1)], chance: (p) => next() < p };
}

// A deal the scorer means: values 28–40, so that no deal of the other phone's
// (41–56) is ever the same deal (the server would take it as a retry).
function meant(r, number) {
  const deal = {
    number, declarer: r.pick(["A", "B"]), value: r.int(28, 40), trump: r.pick(TRUMPS),
    level: r.pick(LEVELS), taken: r.int(0, 56), bidder: "", auction: "",
  };
  if (r.chance(0.6)) deal.bidder = r.pick(ROSTER[deal.declarer]);
  if (r.chance(0.4)) deal.auction = auctionOf(deal);
  return deal;
}

// What the scorer taps instead, now and then: a bidder of the other team, an auction
// of another contract, a number the match does not have.
function mistaken(r, deal, allowed) {
  const kind = r.int(0, 2);
  if (kind === 0) return { ...deal, bidder: r.pick(ROSTER[deal.declarer === "A" ? "B" : "A"]) };
  if (kind === 1) return { ...deal, auction: auctionOf({ ...deal, value: deal.value === 28 ? 29 : deal.value - 1 }) };
  return { ...deal, number: allowed + r.int(1, 5) };
}

const valuesOf = (deal, version) => ({
  action: "deal", number: String(deal.number), declarer: deal.declarer, value: String(deal.value),
  trump: deal.trump, level: deal.level, taken: String(deal.taken), bidder: deal.bidder,
  auction: deal.auction, version: String(version),
});

const fields = (deal) => Object.fromEntries([...DEAL_FIELDS, "bidder", "auction"].map((f) => [f, deal[f] || ""]));

async function play(seed) {
  const r = random(seed);
  const server = new FakeServer({ deals: 60, roster: ROSTER });
  const store = memoryStore(); // IndexedDB: kept through a reload
  const log = [];
  const expected = new Map(); // number → the deal the scorer finally means there
  const intent = new Map(); // queued entry id → the deal the scorer meant by it
  let online = true;
  let keys = 0;
  let lost = false; // the next write reaches the server, its answer does not reach the phone
  let page = server.sheet(); // what the page shows: its version and deals
  const seenRows = () => page.deals.map((d) => DEAL_FIELDS.map((f) => d[f]));

  const transport = async (request) => {
    if (!online) throw new TypeError("Failed to fetch");
    const answer = server.handle(request);
    if (lost && request.method !== "GET") {
      lost = false;
      throw new TypeError("the answer was lost");
    }
    return answer;
  };
  const make = () => sender({
    store, transport, api: server.api, language: "ml", t,
    online: () => online, newKey: () => `${seed}-${++keys}`,
    on: { reload: () => { page = server.sheet(); } },
  });
  let send = make();

  const steps = {
    async enter() {
      // The deal the table is at, as the scorer counts (and types) it.
      const number = expected.size ? Math.max(...expected.keys()) + 1 : 1;
      const deal = meant(r, number);
      const typed = r.chance(0.15) ? mistaken(r, deal, server.allowed) : deal;
      log.push(`enter ${JSON.stringify(typed)}${typed === deal ? "" : ` meaning ${JSON.stringify(deal)}`}`);
      const entry = queue.entryFromValues(valuesOf(typed, page.version), seenRows(), null);
      const id = await store.put({ ...entry, match: 7, key: `${seed}-${++keys}`, state: "waiting" });
      intent.set(id, deal);
      expected.set(deal.number, deal);
      await send.flush();
    },
    async network() {
      online = !online;
      log.push(online ? "online" : "offline");
      if (online) await send.flush();
    },
    async lose() {
      lost = true;
      log.push("the next answer is lost");
      await send.flush();
    },
    async reload() {
      log.push("reload");
      send = make(); // the page's state lost, its queue kept
      if (online) page = server.sheet();
      await send.flush();
    },
    async other() {
      // The second phone writes a deal the scorer entered, or is about to.
      const known = [...expected.keys()].filter((n) => n <= server.allowed);
      const numbers = [...known, known.length ? Math.max(...known) + 1 : 1];
      const number = r.pick(numbers);
      const deal = {
        number, declarer: r.pick(["A", "B"]), value: r.int(41, 56), trump: r.pick(TRUMPS),
        level: "none", taken: r.int(0, 56), bidder: "", auction: "",
      };
      if (r.chance(0.5)) deal.bidder = r.pick(ROSTER[deal.declarer]);
      log.push(`other phone ${JSON.stringify(deal)}`);
      server.otherWrites(deal);
      expected.set(number, deal);
    },
    async held() {
      const entry = (await store.entries()).find((e) => e.state !== "waiting");
      if (!entry) return;
      await decide(entry);
    },
  };

  // The scorer's answer to an entry held for a choice.
  async function decide(entry) {
    let mine = intent.get(entry.id);
    if (entry.state === "refused") {
      if (mine.number > server.allowed) {
        // Moved past the match's last deal ("next" behind a mistyped number): the
        // scorer types the deal the table is at.
        if (expected.get(mine.number) === mine) expected.delete(mine.number);
        const inRange = [...expected.keys()].filter((n) => n <= server.allowed);
        mine = { ...mine, number: inRange.length ? Math.max(...inRange) + 1 : 1 };
        intent.set(entry.id, mine);
        expected.set(mine.number, mine);
      }
      // Corrected in the deal form: what the scorer meant, on the page as it is.
      log.push(`correct ${entry.id} to ${JSON.stringify(mine)}`);
      const fresh = queue.entryFromValues(valuesOf(mine, page.version), seenRows(), null);
      await send.correct(entry, fresh);
      return;
    }
    const choices = entry.theirs ? ["next", "replace", "drop"] : ["same", "drop"];
    if (entry.kind !== "deal") choices.splice(choices.indexOf("next"), choices.includes("next") ? 1 : 0);
    const choice = r.pick(choices);
    if (!online) {
      log.push(`clash on ${entry.body.number}: no choice offline (the sheet cannot be read)`);
      return;
    }
    log.push(`clash on ${entry.body.number}: ${choice}`);
    const sheet = server.sheet();
    const theirs = sheet.deals.find((d) => d.number === entry.body.number);
    if (choice === "drop") {
      if (theirs) expected.set(entry.body.number, theirs);
      else expected.delete(entry.body.number);
    } else if (choice === "next") {
      const others = (await store.entries()).filter((e) => e.id !== entry.id && e.state !== "refused");
      const number = queue.nextNumber(sheet.deals.map((d) => [d.number]), others);
      if (theirs) expected.set(entry.body.number, theirs);
      const moved = { ...mine, number };
      expected.set(number, moved);
      intent.set(entry.id, moved);
    } else {
      expected.set(entry.body.number, mine);
    }
    assert.ok(await send.resolve(entry, choice));
  }

  const names = ["enter", "enter", "enter", "enter", "network", "lose", "reload", "other", "held"];
  try {
    for (let i = 0; i < STEPS; i += 1) await steps[r.pick(names)]();

    // Back online for good: everything goes, each held entry answered.
    log.push("online, to the end");
    online = true;
    lost = false;
    for (let round = 0; round < 200; round += 1) {
      await send.flush();
      const rows = await store.entries();
      if (!rows.length) break;
      if (rows[0].state === "waiting") continue;
      await decide(rows[0]);
    }
  } catch (error) {
    error.message += `; seed ${seed}; the sequence:\n  ${log.join("\n  ")}`;
    throw error;
  }
  return { server, store, expected, log };
}

test(`the sheet ends as the scorer meant it, over ${SEEDS} seeds`, async () => {
  for (let seed = 1; seed <= SEEDS; seed += 1) {
    const { server, store, expected, log } = await play(seed);
    const why = () => `seed ${seed}; the sequence:\n  ${log.join("\n  ")}`;
    assert.deepEqual(await store.entries(), [], `entries left in the queue; ${why()}`);
    const sheet = Object.fromEntries([...server.deals.values()].map((d) => [d.number, fields(d)]));
    const meantSheet = Object.fromEntries([...expected.values()].map((d) => [d.number, fields(d)]));
    assert.deepEqual(sheet, meantSheet, `the sheet is not what the scorer entered; ${why()}`);
    assert.deepEqual(server.reused, [], `a key was sent with another request; ${why()}`);
    for (const request of server.requests) {
      assert.equal(request.headers["Accept-Language"], "ml", `a request without the page's language; ${why()}`);
    }
  }
});
