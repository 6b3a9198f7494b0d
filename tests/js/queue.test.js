// The offline queue's rules and its sending, without a browser (node --test tests/js/).
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");

const queue = require("../../static/js/score/queue.js");
const { sender } = require("../../static/js/score/send.js");
const { FakeServer, memoryStore, auctionOf } = require("./fake_server.js");

// The page's word list as an English page has it: the sentence, filled.
const t = (english, values) => english.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));

function form(values) {
  return { action: "deal", number: "10", declarer: "A", value: "30", trump: "spades", level: "none", taken: "34", version: "3", ...values };
}

test("an entry keeps the bidder and the auction it was saved with", () => {
  const entry = queue.entryFromValues(form({ bidder: "Johny Oommen", auction: " A: 30S P P P P P " }), [[1, "A", 28, "clubs", "none", 30]]);
  assert.equal(entry.kind, "deal");
  assert.deepEqual(entry.body, {
    number: 10, declarer: "A", value: 30, trump: "spades", level: "none", taken: 34,
    bidder: "Johny Oommen", auction: "A: 30S P P P P P",
  });
  assert.equal(entry.base, 3);
  assert.deepEqual(entry.seen, [[1, "A", 28, "clubs", "none", 30]]);
  assert.deepEqual(queue.entryFromValues(form({ declarer: "", taken: "" })), { missing: ["declarer", "taken"] });
  assert.equal(queue.entryFromValues({ action: "delete" }), null);
});

test("the queue's line names the bidder when there is one, and only then", () => {
  const entry = queue.entryFromValues(form({ bidder: "Johny Oommen" }));
  assert.equal(queue.describe(entry, t), "Deal 10: A bid 30 ♠, took 34 (bidder: Johny Oommen)");
  const plain = queue.entryFromValues(form({ level: "doubled" }));
  assert.equal(queue.describe(plain, t), "Deal 10: A bid 30 ♠ doubled, took 34");
  const penalty = { kind: "penalty", body: { deal: 2, offender: "B", kind: "kallakali" } };
  assert.equal(queue.describe(penalty, t), "Penalty in deal 2: kallakali by B");
});

test("the next number follows the sheet and the deals waiting, not penalties", () => {
  assert.equal(queue.nextNumber([], []), 1);
  const seen = [[1], [2], [3]];
  assert.equal(queue.nextNumber(seen, []), 4);
  assert.equal(queue.nextNumber(seen, [{ kind: "deal", body: { number: 6 } }, { kind: "penalty", body: { deal: 9 } }]), 7);
});

test("a corrected entry keeps its place, waits again, and is a new request", () => {
  const refused = {
    id: 4, match: 7, kind: "deal", key: "old", state: "refused", message: "no", made: 1,
    ...queue.entryFromValues(form({ bidder: "Biju" })),
  };
  const fresh = queue.entryFromValues(form({ number: "11", bidder: "Johny Oommen", version: "5" }), [[1]]);
  const back = queue.corrected(refused, fresh, "new");
  assert.equal(back.id, 4);
  assert.equal(back.state, "waiting");
  assert.equal(back.key, "new");
  assert.equal(back.message, undefined);
  assert.equal(back.body.number, 11);
  assert.equal(back.body.bidder, "Johny Oommen");
  assert.equal(back.base, 5);
  assert.deepEqual(back.seen, [[1]]);
  // A change to a deal stays a change to the deal it was opened on.
  const change = { ...refused, kind: "deal-replace", original: { number: 10 } };
  const changed = queue.corrected(change, fresh, "newer");
  assert.equal(changed.kind, "deal-replace");
  assert.equal(changed.body.number, 10);
  assert.deepEqual(changed.original, { number: 10 });
});

test("the form's values for a correction are every field saved", () => {
  const entry = queue.entryFromValues(form({ bidder: "Johny Oommen", auction: "A: 30S P P P P P" }));
  assert.deepEqual(queue.formValues(entry), {
    number: "10", declarer: "A", value: "30", trump: "spades", level: "none", taken: "34",
    bidder: "Johny Oommen", auction: "A: 30S P P P P P",
  });
});

test("a stale entry is judged against the sheet as the server would answer it", () => {
  const mine = queue.entryFromValues(form({ bidder: "Anil" }));
  const deal = { number: 10, declarer: "A", value: 30, trump: "spades", level: "none", taken: 34, bidder: null };
  assert.equal(queue.judge(mine, { deals: [] }).verdict, "send");
  assert.equal(queue.judge(mine, { deals: [deal] }).verdict, "done");
  const clash = queue.judge(mine, { deals: [{ ...deal, taken: 20 }] });
  assert.equal(clash.verdict, "clash");
  assert.equal(clash.theirs.taken, 20);
  const change = { ...mine, kind: "deal-replace", original: { ...deal, taken: 20 } };
  assert.equal(queue.judge(change, { deals: [{ ...deal, taken: 20 }] }).verdict, "send");
  assert.equal(queue.judge(change, { deals: [{ ...deal, taken: 21 }] }).verdict, "clash");
  assert.deepEqual(queue.judge(change, { deals: [] }), { verdict: "clash", theirs: null });
  assert.deepEqual(
    queue.changesSince([[1, "A", 28, "clubs", "none", 30], [2, "B", 30, "hearts", "none", 20]], { deals: [
      { number: 1, declarer: "A", value: 28, trump: "clubs", level: "none", taken: 31, bidder: "Anil" },
      { number: 3, declarer: "B", value: 29, trump: "no_trump", level: "none", taken: 29 },
    ] }, t),
    ["deal 1 changed to A bid 28 ♣, took 31 (bidder: Anil)", "deal 3 added (B bid 29 NT, took 29)", "deal 2 deleted"],
  );
});

test("saved as the next deal, a clashing entry takes no number of the entries behind it", () => {
  const entry = { id: 1, kind: "deal", key: "k", state: "clash", theirs: {}, body: { number: 5 } };
  const sheet = { version: 9, deals: [{ number: 5 }] };
  const behind = [{ id: 2, kind: "deal", body: { number: 6 } }];
  const moved = queue.retried(entry, "next", sheet, "k2", behind);
  assert.equal(moved.body.number, 7);
  assert.equal(moved.base, 9);
  assert.equal(moved.key, "k2");
  assert.equal(moved.theirs, undefined);
  assert.equal(queue.retried(entry, "again", sheet, "ignored", []).key, "k");
});

// The sending, against the fake server
// ----------------------------------------------------------------------------

function phone(server, { language = "ml", online = () => true } = {}) {
  const store = memoryStore();
  let keys = 0;
  const events = [];
  const send = sender({
    store, api: server.api, language, t, online,
    transport: async (request) => server.handle(request),
    headers: () => ({ Authorization: "Link abc" }),
    newKey: () => `key-${++keys}`,
    on: { notice: (text) => events.push(text), alert: (text) => events.push(text) },
  });
  return { store, send, events };
}

async function queued(store, server, values, key) {
  const entry = queue.entryFromValues(form({ version: String(server.version), ...values }), []);
  return store.put({ ...entry, key, state: "waiting" });
}

test("every request carries the page's language, its key and the link", async () => {
  const server = new FakeServer();
  const { store, send } = phone(server, { language: "ml" });
  await queued(store, server, { number: "1" }, "a");
  await queued(store, server, { number: "2", declarer: "B", bidder: "Johny Oommen" }, "b");
  await send.flush();
  await send.readSheet();
  assert.ok(server.requests.length >= 3);
  for (const request of server.requests) {
    assert.equal(request.headers["Accept-Language"], "ml");
    assert.equal(request.headers.Authorization, "Link abc");
  }
  assert.deepEqual(server.requests.filter((r) => r.method === "POST").map((r) => r.headers["Idempotency-Key"]), ["a", "b"]);
});

test("a refused entry holds those behind it; corrected, it is sent in its place, then they are", async () => {
  const server = new FakeServer();
  const { store, send } = phone(server);
  // Deal 10 by B names A's player: refused. Deals 11 and 12 wait behind it.
  const id = await queued(store, server, { number: "10", declarer: "B", bidder: "Johny Oommen" }, "a");
  await queued(store, server, { number: "11" }, "b");
  await queued(store, server, { number: "12", bidder: "Anil", auction: auctionOf({ declarer: "A", value: 30, trump: "spades", level: "none" }) }, "c");
  await send.flush();
  let rows = await store.entries();
  assert.deepEqual(rows.map((e) => e.state), ["refused", "waiting", "waiting"]);
  assert.match(rows[0].message, /^bidder: Johny Oommen did not play for the declaring team B/);
  assert.equal(server.deals.size, 0);

  const fresh = queue.entryFromValues(form({ number: "10", declarer: "B", bidder: "Biju", version: String(server.version) }), []);
  const back = await send.correct(rows[0], fresh);
  assert.equal(back.id, id);
  assert.notEqual(back.key, "a");
  rows = await store.entries();
  assert.deepEqual(rows, []);
  assert.deepEqual([...server.deals.keys()], [10, 11, 12]);
  assert.equal(server.deals.get(10).bidder, "Biju");
  assert.equal(server.deals.get(11).bidder, "");
  assert.equal(server.deals.get(12).auction, "A: 30S P P P P P");
  const posted = server.requests.filter((r) => r.method === "POST").map((r) => r.headers["Idempotency-Key"]);
  assert.deepEqual(posted, ["a", back.key, "b", "c"]);
});

test("a deal number taken on top of this phone's own sends is a clash to choose, not a refusal", async () => {
  const server = new FakeServer();
  const { store, send } = phone(server);
  await queued(store, server, { number: "5" }, "a");
  await queued(store, server, { number: "6" }, "b");
  server.otherWrites({ number: 6, declarer: "B", value: 50, trump: "hearts", level: "none", taken: 10 });
  await send.flush();
  const rows = await store.entries();
  assert.equal(rows.length, 1);
  assert.equal(rows[0].state, "clash");
  assert.equal(rows[0].theirs.value, 50);
  await send.resolve(rows[0], "next");
  assert.deepEqual(await store.entries(), []);
  assert.deepEqual([...server.deals.keys()].sort((a, b) => a - b), [5, 6, 7]);
  assert.equal(server.deals.get(7).value, 30);
  assert.equal(server.deals.get(6).value, 50);
});

test("an empty 2xx from something in between is not a save: the entry is sent again with its key", async () => {
  // A proxy that cut a slow upload answers an empty 200 (Debian's Caddy does): the
  // first time before the site saw the deal, the second after the site saved it.
  const server = new FakeServer();
  const store = memoryStore();
  let cut = 0;
  const send = sender({
    store, api: server.api, language: "en", t, online: () => true,
    transport: async (request) => {
      if (request.method === "POST" && cut === 0) { cut += 1; return { status: 200, data: null, retryAfter: 0 }; }
      if (request.method === "POST" && cut === 1) { cut += 1; await server.handle(request); return { status: 200, data: null, retryAfter: 0 }; }
      return server.handle(request);
    },
    headers: () => ({}),
    newKey: () => "fresh",
    on: {},
  });
  await queued(store, server, { number: "1" }, "a");
  await send.flush();
  assert.equal(server.deals.size, 0);
  assert.deepEqual((await store.entries()).map((e) => e.state), ["waiting"]);
  await send.flush(); // the site saves it; the answer is cut again
  assert.equal(server.deals.size, 1);
  assert.deepEqual((await store.entries()).map((e) => e.state), ["waiting"]);
  await send.flush(); // the same key: the site answers the save it made
  assert.deepEqual(await store.entries(), []);
  assert.equal(server.deals.size, 1);
  const keys = server.requests.filter((r) => r.method === "POST").map((r) => r.headers["Idempotency-Key"]);
  assert.deepEqual(keys, ["a", "a"]);
});

test("offline, nothing is sent and nothing is lost", async () => {
  const server = new FakeServer();
  let online = false;
  const { store, send } = phone(server, { online: () => online });
  await queued(store, server, { number: "1" }, "a");
  await send.flush();
  assert.equal(server.requests.length, 0);
  online = true;
  await send.flush();
  assert.equal(server.deals.size, 1);
});

test("a refusal names each field as the page's form names it, else as the API does", () => {
  const refused = { bidder: ["Paulose Mathew did not play for the declaring team A."], taken: ["too many"] };
  const label = (field) => ({ bidder: "വിളിച്ചയാൾ" })[field] || "";
  assert.equal(
    queue.messageOf(refused, t, label),
    "വിളിച്ചയാൾ: Paulose Mathew did not play for the declaring team A.; taken: too many",
  );
  assert.equal(queue.messageOf({ detail: "stale", code: "stale_version" }, t, label), "stale");
  assert.equal(queue.messageOf(null, t), "The server refused it.");
});
