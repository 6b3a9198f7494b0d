// An in-memory stand-in for the API of one match's sheet, as the offline queue meets
// it (scoring/sheets/entry_apis.py, services.py, locking.py), answering the sender's
// transport ({method, url, headers, body} → {status, data, retryAfter}). Its rules,
// in the real order:
// - an Idempotency-Key seen before is answered with what its request made (200: the
//   deal as it is now, or the sheet when it has gone), whatever the version;
// - a POST of a deal the sheet has already (the same number, declarer, value, trump,
//   level and taken: locking.DEAL_FIELDS) is answered the same way (a retry);
// - a version other than the sheet's: 409 stale_version;
// - the deal's values (number 1 to `deals`, value 28–56, taken 0–56, a side, a trump,
//   a level): 400 keyed by field; a bidder who is not one of the declaring team's
//   players, an auction that is not the deal's: 400 keyed by field;
// - POST on a number taken: 409 deal_number_taken; PUT on a number missing: 409
//   no_such_deal; PUT whose body names another number: 400;
// - otherwise written, the version one more, the key kept: 201 (POST), 200 (PUT).
"use strict";

const DEAL_FIELDS = ["number", "declarer", "value", "trump", "level", "taken"];
const TRUMP_LETTERS = { clubs: "C", diamonds: "D", hearts: "H", spades: "S", no_trump: "N" };
const LEVEL_CALLS = { none: "", doubled: " X", redoubled: " X XX" };

// The one auction this fake takes for a deal: the declarer leads and wins at once
// (the real checker reads any auction that ends on the deal's contract; this one
// only needs to tell the deal's auction from another's).
function auctionOf(deal) {
  return `${deal.declarer}: ${deal.value}${TRUMP_LETTERS[deal.trump]}${LEVEL_CALLS[deal.level]} P P P P P`;
}

function memoryStore() {
  const rows = new Map();
  let last = 0;
  const copy = (value) => JSON.parse(JSON.stringify(value));
  return {
    async entries() { return [...rows.values()].sort((a, b) => a.id - b.id).map(copy); },
    async get(id) { return rows.has(id) ? copy(rows.get(id)) : undefined; },
    async put(entry) {
      const row = copy(entry);
      if (row.id === undefined) row.id = ++last;
      last = Math.max(last, row.id);
      rows.set(row.id, row);
      return row.id;
    },
    async drop(id) { rows.delete(id); },
  };
}

class FakeServer {
  constructor({ match = 7, deals = 99, roster = { A: ["Johny Oommen", "Anil"], B: ["Biju", "Mathew"] } } = {}) {
    this.api = `/api/v1/matches/${match}/`;
    this.allowed = deals;
    this.roster = roster;
    this.version = 1;
    this.deals = new Map();
    this.keys = new Map(); // Idempotency-Key → {number, body} of the request that wrote
    this.requests = [];
    this.reused = []; // a key sent again with another body: two requests under one key
  }

  sheet() {
    const deals = [...this.deals.values()].sort((a, b) => a.number - b.number)
      .map((d) => ({ ...d, bidder: d.bidder || null, auction: d.auction || null }));
    return { version: this.version, deals };
  }

  answer(status, data) {
    return { status, data, retryAfter: 0 };
  }

  dealAnswer(number, status) {
    const deal = this.deals.get(number);
    if (!deal) return this.answer(200, this.sheet());
    return this.answer(status, { ...deal, bidder: deal.bidder || null, auction: deal.auction || null, version: this.version });
  }

  // The checks of deal_check and deal_extras: each problem keyed by its field.
  problems(body) {
    const out = {};
    const int = (v) => Number.isInteger(v);
    if (!int(body.number) || body.number < 1 || body.number > this.allowed) out.number = [`deal ${body.number}: this match has deals 1 to ${this.allowed}.`];
    if (!["A", "B"].includes(body.declarer)) out.declarer = ["Choose the team that won the bidding."];
    if (!int(body.value) || body.value < 28 || body.value > 56) out.value = ["the contract is 28 to 56."];
    if (!(body.trump in TRUMP_LETTERS)) out.trump = ["not a trump."];
    if (!(body.level in LEVEL_CALLS)) out.level = ["not a level."];
    if (!int(body.taken) || body.taken < 0 || body.taken > 56) out.taken = ["taken is 0 to 56."];
    if (Object.keys(out).length) return out;
    if (body.bidder && !(this.roster[body.declarer] || []).includes(body.bidder)) {
      out.bidder = [`${body.bidder} did not play for the declaring team ${body.declarer} in this match.`];
    }
    if (body.auction && body.auction !== auctionOf(body)) out.auction = ["the auction does not end on this deal's contract."];
    return Object.keys(out).length ? out : null;
  }

  replayed(key, body) {
    const done = this.keys.get(key);
    if (!done) return null;
    const { version, ...was } = done.body;
    const { version: now, ...asked } = body;
    if (JSON.stringify(was) !== JSON.stringify(asked)) this.reused.push({ key, was, asked });
    return this.dealAnswer(done.number, 200);
  }

  write(body, key) {
    const deal = Object.fromEntries(DEAL_FIELDS.map((f) => [f, body[f]]));
    deal.bidder = body.bidder || "";
    deal.auction = body.auction || "";
    this.deals.set(deal.number, deal);
    this.version += 1;
    if (key) this.keys.set(key, { number: deal.number, body });
    return deal;
  }

  // Another device at the same table, writing with the sheet's current version.
  otherWrites(deal) {
    const body = { bidder: "", auction: "", ...deal, version: this.version };
    const exists = this.deals.has(deal.number);
    const method = exists ? "PUT" : "POST";
    const url = exists ? `${this.api}deals/${deal.number}/` : `${this.api}deals/`;
    const answer = this.handle({ method, url, headers: {}, body }, { other: true });
    if (answer.status >= 300) throw new Error(`the other device was refused: ${JSON.stringify(answer)}`);
  }

  handle({ method, url, headers = {}, body }, { other = false } = {}) {
    if (!other) this.requests.push({ method, url, headers: { ...headers } });
    const key = headers["Idempotency-Key"] || "";
    if (method === "GET" && url === this.api) return this.answer(200, this.sheet());
    const put = url.match(/deals\/(\d+)\/$/);
    if (method === "POST" && url === `${this.api}deals/`) {
      const again = key && this.replayed(key, body);
      if (again) return again;
      const same = [...this.deals.values()].find((d) => DEAL_FIELDS.every((f) => d[f] === body[f]));
      if (same && !this.problems({ ...body, bidder: "", auction: "" })) return this.dealAnswer(same.number, 200);
      if (body.version !== this.version) return this.stale(body.version);
      const wrong = this.problems(body);
      if (wrong) return this.answer(400, wrong);
      if (this.deals.has(body.number)) {
        return this.answer(409, { code: "deal_number_taken", detail: `deal ${body.number} is already on the sheet.`, field: "number" });
      }
      this.write(body, key);
      return this.dealAnswer(body.number, 201);
    }
    if (method === "PUT" && put && url.startsWith(this.api)) {
      const number = Number(put[1]);
      const again = key && this.replayed(key, body);
      if (again) return again;
      if (body.version !== this.version) return this.stale(body.version);
      if (body.number !== undefined && body.number !== number) {
        return this.answer(400, { number: [`the address names deal ${number}; renumber by deleting.`] });
      }
      const wrong = this.problems({ ...body, number });
      if (wrong) return this.answer(400, wrong);
      if (!this.deals.has(number)) {
        return this.answer(409, { code: "no_such_deal", detail: `there is no deal ${number} on this sheet.`, field: "number" });
      }
      this.write({ ...body, number }, key);
      return this.dealAnswer(number, 200);
    }
    return this.answer(404, { detail: "Not found.", code: "not_found" });
  }

  stale(version) {
    return this.answer(409, {
      code: "stale_version", current_version: this.version, version,
      detail: `The sheet changed since you read it (you sent version ${version}; it is now version ${this.version}).`,
    });
  }
}

module.exports = { FakeServer, memoryStore, auctionOf, DEAL_FIELDS };
