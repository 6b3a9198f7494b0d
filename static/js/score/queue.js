// The offline queue's rules (docs/links.md, "Offline score entry"): what an entry is,
// how it is described, what it meets on the sheet after a stale version, the next
// deal's number, and what a refused entry becomes when the scorer corrects it.
//
// Pure: no DOM, no storage, no network, and no rule of the game (awards and totals
// are the server's). Loaded by the score page as a classic script (window.fiftysix.
// score.queue) and by Node's test runner (module.exports): tests/js/.
(function (root, make) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = make();
  } else {
    root.fiftysix = root.fiftysix || {};
    root.fiftysix.score = root.fiftysix.score || {};
    root.fiftysix.score.queue = make();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // What makes a deal the same deal, for the server too (locking.DEAL_FIELDS): the
  // bidder and the auction are the deal's extras, sent and shown but not compared.
  const DEAL_FIELDS = ["number", "declarer", "value", "trump", "level", "taken"];
  const EXTRAS = ["bidder", "auction"];
  const TRUMPS = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠", no_trump: "NT" };
  // What an entry holds only while it is held (a clash, a refusal): a corrected or
  // retried entry starts without them.
  const HELD = ["theirs", "changes", "message", "now"];

  const whole = (text) => (text === "" || text == null ? null : Number(text));

  // An entry from a form's values ({name: value}, as FormData gives them): a deal,
  // a change to a deal, or a penalty; { missing: [names] } when a field needed is
  // empty; null for any other form. `seen` is the sheet's deals as the page shows
  // them ([number, declarer, value, trump, level, taken] each), `original` the deal
  // being changed as the scorer opened it.
  function entryFromValues(v, seen, original) {
    if (v.action === "deal") {
      const body = {
        number: whole(v.number), declarer: v.declarer || "", value: whole(v.value),
        trump: v.trump || "", level: v.level || "none", taken: whole(v.taken),
        bidder: v.bidder || "", auction: (v.auction || "").trim(),
      };
      const missing = DEAL_FIELDS.filter((f) => body[f] === null || body[f] === "");
      if (missing.length) return { missing };
      const replacing = whole(v.replacing);
      return {
        kind: replacing ? "deal-replace" : "deal", body,
        base: whole(v.version), seen: seen || [],
        original: replacing ? original || null : null,
      };
    }
    if (v.action === "penalty") {
      const body = {
        deal: whole(v["penalty-deal"]), offender: v["penalty-offender"] || "",
        kind: v["penalty-kind"] || "", note: v["penalty-note"] || "",
      };
      if (v["penalty-points"]) body.points = whole(v["penalty-points"]);
      if (body.deal === null || !body.offender || !body.kind) return { missing: ["deal", "offender", "kind"] };
      return { kind: "penalty", body, base: whole(v["penalty-version"]), seen: seen || [] };
    }
    return null;
  }

  // A refused entry corrected by the scorer: the same entry (its id, so its place in
  // the queue) with what the form now says, waiting again under a new key (a new
  // request: the refused one did nothing). A change to a deal stays a change to the
  // deal it was opened on.
  function corrected(entry, fresh, key) {
    const out = { ...entry, body: fresh.body, base: fresh.base, seen: fresh.seen, state: "waiting", key };
    for (const name of HELD) delete out[name];
    if (entry.kind === "deal-replace") out.body = { ...fresh.body, number: entry.body.number };
    return out;
  }

  // An entry held by a clash or a refusal, sent again on top of the sheet as it is
  // now (`sheet`: the API's), as the scorer chose: "next" (as the deal after the
  // sheet's last and the queue's `others`, so that no entry behind it is taken its
  // number), "same" (as the number it has, gone from the sheet meanwhile), "replace"
  // (over the sheet's deal of that number), "again" (the same request).
  function retried(entry, choice, sheet, key, others) {
    const out = { ...entry, state: "waiting", key, base: sheet.version };
    out.seen = sheet.deals.map((d) => DEAL_FIELDS.map((f) => d[f]));
    for (const name of HELD) delete out[name];
    if (choice === "next") {
      // A refused entry's number may be the very mistake it waits to have corrected.
      const seen = sheet.deals.map((d) => [d.number]);
      const waiting = (others || []).filter((e) => e.state !== "refused");
      out.body = { ...entry.body, number: nextNumber(seen, waiting) };
      out.kind = "deal";
    } else if (choice === "same") {
      out.kind = "deal";
    } else if (choice === "replace") {
      out.kind = "deal-replace";
      out.original = entry.theirs;
    } else if (choice === "again") {
      out.key = entry.key; // the same request: its key guards against a double
    }
    return out;
  }

  function asDeal(row) { // [number, declarer, value, trump, level, taken] or a dict
    if (!row) return null;
    if (Array.isArray(row)) return Object.fromEntries(DEAL_FIELDS.map((f, i) => [f, row[i]]));
    const deal = Object.fromEntries(DEAL_FIELDS.map((f) => [f, row[f]]));
    for (const name of EXTRAS) if (row[name]) deal[name] = row[name];
    return deal;
  }

  const sameDeal = (a, b) => !!a && !!b && DEAL_FIELDS.every((f) => String(a[f]) === String(b[f]));

  // A deal in words: "A bid 30 ♠, took 34", with its level and its bidder when it
  // has them. `t` is the page's word list (its English sentence in, the page's out).
  function dealText(d, t) {
    const levels = { doubled: t("doubled"), redoubled: t("redoubled") };
    const values = { declarer: d.declarer, value: d.value, trump: TRUMPS[d.trump] || d.trump, taken: d.taken };
    const text = levels[d.level]
      ? t("{declarer} bid {value} {trump} {level}, took {taken}", { ...values, level: levels[d.level] })
      : t("{declarer} bid {value} {trump}, took {taken}", values);
    return d.bidder ? t("{deal} (bidder: {bidder})", { deal: text, bidder: d.bidder }) : text;
  }

  function describe(entry, t) {
    const b = entry.body;
    if (entry.kind === "penalty") {
      const kinds = {
        out_of_turn: t("out of turn"), cardinal_rule: t("cardinal rule"), kallakali: t("kallakali"),
        constraining_hand: t("constraining hand"), conduct: t("conduct"),
        lead_out_of_turn: t("lead out of turn"), review: t("incomplete review"),
      };
      return t("Penalty in deal {deal}: {kind} by {offender}", { deal: b.deal, kind: kinds[b.kind] || b.kind, offender: b.offender });
    }
    return entry.kind === "deal-replace"
      ? t("Change to deal {number}: {deal}", { number: b.number, deal: dealText(b, t) })
      : t("Deal {number}: {deal}", { number: b.number, deal: dealText(b, t) });
  }

  // What a stale entry meets on the sheet now: "done" (the sheet has it already, as
  // the server would answer a retry), "send" (nothing of the sheet's is in its way)
  // or "clash" (with `theirs`, the sheet's deal of that number, or null if deleted).
  function judge(entry, sheet) {
    if (entry.kind === "penalty") return { verdict: "send" };
    const theirs = asDeal(sheet.deals.find((d) => d.number === entry.body.number));
    if (sameDeal(theirs, entry.body)) return { verdict: "done", theirs };
    if (entry.kind === "deal") return theirs ? { verdict: "clash", theirs } : { verdict: "send" };
    return sameDeal(theirs, entry.original) ? { verdict: "send" } : { verdict: "clash", theirs };
  }

  // The deals another device added, changed or deleted after the page's copy `seen`.
  function changesSince(seen, sheet, t) {
    const before = new Map((seen || []).map((row) => [row[0], asDeal(row)]));
    const now = new Map(sheet.deals.map((d) => [d.number, asDeal(d)]));
    const lines = [];
    for (const [n, d] of now) {
      if (!before.has(n)) lines.push(t("deal {number} added ({deal})", { number: n, deal: dealText(d, t) }));
      else if (!sameDeal(before.get(n), d)) lines.push(t("deal {number} changed to {deal}", { number: n, deal: dealText(d, t) }));
    }
    for (const n of before.keys()) if (!now.has(n)) lines.push(t("deal {number} deleted", { number: n }));
    return lines;
  }

  // The next deal's number after those on the sheet (`seen` rows) and those waiting:
  // bookkeeping, not a rule (the server refuses a number the match does not have).
  function nextNumber(seen, entries) {
    const numbers = (seen || []).map((row) => row[0]);
    for (const e of entries || []) if (e.kind === "deal") numbers.push(e.body.number);
    return numbers.length ? Math.max(...numbers) + 1 : 1;
  }

  // The form's values for an entry being corrected: every field it was saved with.
  function formValues(entry) {
    const b = entry.body;
    return {
      number: String(b.number), declarer: b.declarer, value: String(b.value), trump: b.trump,
      level: b.level || "none", taken: String(b.taken), bidder: b.bidder || "", auction: b.auction || "",
    };
  }

  // The API's refusal in a line: its `detail`, or each field's problems, each field
  // named as the page names it (`label`: the form's own words; else the API's name).
  function messageOf(data, t, label) {
    if (!data || typeof data !== "object") return t("The server refused it.");
    if (data.detail) return data.detail;
    return Object.entries(data).map(([field, problems]) =>
      `${(label && label(field)) || field}: ${Array.isArray(problems) ? problems.join(" ") : JSON.stringify(problems)}`).join("; ");
  }

  return {
    DEAL_FIELDS, EXTRAS, TRUMPS, whole, entryFromValues, corrected, retried, asDeal, sameDeal,
    dealText, describe, judge, changesSince, nextNumber, formValues, messageOf,
  };
});
