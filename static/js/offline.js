// Score entry that survives a dropped connection (docs/links.md).
//
// A deal or penalty saved while the phone is offline, or while earlier entries
// still wait, goes into a queue kept in the browser (IndexedDB) with its own
// Idempotency-Key, and is sent to the API in order when the network is back. The
// server answers a repeated key with what the first request made, so nothing is
// doubled. When the sheet changed meanwhile on another device (409 stale_version),
// the sheet is read again: an entry that clashes with it waits, shown beside the
// sheet's version, until the scorer chooses; nothing is overwritten silently.
// Awards and totals are the server's: this file scores nothing.
(() => {
  "use strict";

  const root = document.getElementById("offline");
  if (!root || !window.indexedDB) return;
  const MATCH = Number(root.dataset.match);
  const API = root.dataset.api; // /api/v1/matches/<id>/
  const LINK_KEY = root.dataset.linkKey;
  const SCORE_URL = root.dataset.scoreUrl;
  const SAVED = "fiftysix-saved-" + MATCH;
  // The newest version of this sheet the server has answered this browser with: a
  // page that loads older than it (reloaded while an earlier page's send was under
  // way, which the new page's copy of the sheet was read before) reads the sheet again.
  const KNOWN = "fiftysix-version-" + MATCH;
  const PAGE_CACHE = "fiftysix-pages";
  const RETRY_MS = 15000;
  const DEAL_FIELDS = ["number", "declarer", "value", "trump", "level", "taken"];
  const TRUMPS = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠", no_trump: "NT" };

  // The page's words for what this file says (scoring/words.py OFFLINE_WORDS, in the
  // page's language); a sentence missing there is shown in English.
  const WORDS = JSON.parse((document.getElementById("offline-words") || {}).textContent || "{}");
  function t(english, values) {
    const text = WORDS[english] || english;
    return text.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));
  }
  // A time as the pages write it: in the tournament's zone, not the phone's, on the
  // 24-hour clock, with the zone named as the server names it ("14:05:09 EST"): a
  // locale's own format would put an English "AM" or "PM" on a Malayalam page.
  const ZONE = root.dataset.timeZone;
  const ZONE_LABEL = root.dataset.zoneLabel || "";
  function clock(at) {
    const when = new Date(at);
    let hms = [when.getHours(), when.getMinutes(), when.getSeconds()];
    try {
      const parts = new Intl.DateTimeFormat("en-GB", {
        timeZone: ZONE, hourCycle: "h23", hour: "2-digit", minute: "2-digit", second: "2-digit",
      }).formatToParts(when);
      const part = (type) => Number(parts.find((p) => p.type === type).value);
      hms = [part("hour"), part("minute"), part("second")];
    } catch (error) {
      // an unknown zone or no Intl: the phone's own clock, unnamed
      return hms.map((n) => String(n).padStart(2, "0")).join(":");
    }
    const text = hms.map((n) => String(n).padStart(2, "0")).join(":");
    return ZONE_LABEL ? text + " " + ZONE_LABEL : text;
  }
  const LEVELS = { doubled: t("doubled"), redoubled: t("redoubled") };
  const PENALTIES = {
    out_of_turn: t("out of turn"), cardinal_rule: t("cardinal rule"), kallakali: t("kallakali"),
    constraining_hand: t("constraining hand"), conduct: t("conduct"),
  };

  // The queue: one object store, entries in the order they were made
  // ----------------------------------------------------------------------------

  let opened = null;
  function database() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const request = indexedDB.open("fiftysix-queue", 1);
        request.onupgradeneeded = () => {
          const store = request.result.createObjectStore("entries", { keyPath: "id", autoIncrement: true });
          store.createIndex("match", "match");
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    }
    return opened;
  }

  function transact(mode, work) {
    return database().then((db) => new Promise((resolve, reject) => {
      const tx = db.transaction("entries", mode);
      const request = work(tx.objectStore("entries"));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    }));
  }

  const entries = () =>
    transact("readonly", (store) => store.index("match").getAll(MATCH))
      .then((rows) => rows.sort((a, b) => a.id - b.id));
  const store = (entry) => transact("readwrite", (s) => s.put(entry));
  const drop = (id) => transact("readwrite", (s) => s.delete(id));

  // Entries from the page's forms
  // ----------------------------------------------------------------------------

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  const whole = (text) => (text === "" || text == null ? null : Number(text));

  function valuesOf(form) {
    const out = {};
    for (const [name, value] of new FormData(form)) out[name] = value;
    return out;
  }

  function pageDeals() {
    const app = document.getElementById("score-app");
    try {
      return JSON.parse((app && app.dataset.deals) || "[]");
    } catch (error) {
      return [];
    }
  }

  function entryOf(form) {
    const v = valuesOf(form);
    const seen = pageDeals();
    if (v.action === "deal") {
      const body = {
        number: whole(v.number), declarer: v.declarer || "", value: whole(v.value),
        trump: v.trump || "", level: v.level || "none", taken: whole(v.taken),
        bidder: v.bidder || "", auction: v.auction || "",
      };
      const missing = DEAL_FIELDS.filter((f) => body[f] === null || body[f] === "");
      if (missing.length) return { missing };
      const replacing = whole(v.replacing);
      return {
        kind: replacing ? "deal-replace" : "deal", number: body.number, body,
        base: whole(v.version), seen,
        original: replacing ? JSON.parse(form.dataset.original || "null") : null,
      };
    }
    if (v.action === "penalty") {
      const body = {
        deal: whole(v["penalty-deal"]), offender: v["penalty-offender"] || "",
        kind: v["penalty-kind"] || "", note: v["penalty-note"] || "",
      };
      if (v["penalty-points"]) body.points = whole(v["penalty-points"]);
      if (body.deal === null || !body.offender || !body.kind) return { missing: ["deal", "offender", "kind"] };
      return { kind: "penalty", body, base: whole(v["penalty-version"]), seen };
    }
    return null;
  }

  function describe(entry) {
    const b = entry.body;
    if (entry.kind === "penalty") {
      return t("Penalty in deal {deal}: {kind} by {offender}", { deal: b.deal, kind: PENALTIES[b.kind] || b.kind, offender: b.offender });
    }
    return entry.kind === "deal-replace"
      ? t("Change to deal {number}: {deal}", { number: b.number, deal: dealText(b) })
      : t("Deal {number}: {deal}", { number: b.number, deal: dealText(b) });
  }

  function dealText(d) {
    const values = { declarer: d.declarer, value: d.value, trump: TRUMPS[d.trump] || d.trump, taken: d.taken };
    if (LEVELS[d.level]) return t("{declarer} bid {value} {trump} {level}, took {taken}", { ...values, level: LEVELS[d.level] });
    return t("{declarer} bid {value} {trump}, took {taken}", values);
  }

  function asDeal(row) { // [number, declarer, value, trump, level, taken] or a dict
    if (!row) return null;
    if (Array.isArray(row)) return Object.fromEntries(DEAL_FIELDS.map((f, i) => [f, row[i]]));
    return Object.fromEntries(DEAL_FIELDS.map((f) => [f, row[f]]));
  }

  const sameDeal = (a, b) => !!a && !!b && DEAL_FIELDS.every((f) => String(a[f]) === String(b[f]));

  // The next deal's number after those on the sheet and those waiting: bookkeeping,
  // not a rule (the server refuses a number the match does not have).
  async function nextNumber() {
    const numbers = pageDeals().map((row) => row[0]);
    for (const e of await entries()) if (e.kind === "deal") numbers.push(e.body.number);
    return numbers.length ? Math.max(...numbers) + 1 : 1;
  }

  async function prepareForm() {
    const form = document.getElementById("deal-form");
    if (!form) return;
    const v = valuesOf(form);
    if (whole(v.replacing)) {
      // An edit: what the deal was when the scorer opened it, to tell later
      // whether another device changed it meanwhile.
      form.dataset.original = JSON.stringify(asDeal(DEAL_FIELDS.map((f) => v[f])));
      return;
    }
    const waiting = (await entries()).some((e) => e.kind === "deal");
    if (waiting && form.elements.number) form.elements.number.value = await nextNumber();
  }

  async function clearForm(form, entry) {
    if (entry.kind === "penalty") {
      form.reset();
      const details = form.closest("details");
      if (details) details.open = false;
      return;
    }
    if (entry.kind === "deal-replace") return;
    for (const name of ["value", "taken"]) if (form.elements[name]) form.elements[name].value = "";
    for (const name of ["declarer", "trump"]) {
      for (const input of form.querySelectorAll(`input[name="${name}"]`)) input.checked = false;
    }
    const plain = form.querySelector('input[name="level"][value="none"]');
    if (plain) plain.checked = true;
    form.elements.number.value = await nextNumber();
    const preview = document.getElementById("preview");
    if (preview) preview.textContent = t("The award is worked out by the server when the deal reaches it.");
    form.elements.number.focus();
  }

  async function enqueue(form, key) {
    const entry = entryOf(form);
    if (!entry) return;
    if (entry.missing) {
      say(t("Fill in every field of the deal before saving: {fields}.", { fields: entry.missing.join(", ") }), true);
      return;
    }
    Object.assign(entry, { match: MATCH, key: key || newKey(), state: "waiting", made: Date.now() });
    await store(entry);
    await clearForm(form, entry);
    say(t("{entry}: kept on this phone, waiting to send.", { entry: describe(entry) }));
    await show();
    flush();
  }

  // Sending
  // ----------------------------------------------------------------------------

  function headers(key) {
    const out = { "Content-Type": "application/json", Accept: "application/json" };
    if (key) out["Idempotency-Key"] = key;
    if (LINK_KEY) out.Authorization = "Link " + LINK_KEY;
    // The token of now, not the page's: signing in in another tab changes it
    // (static/js/csrf.js).
    const token = window.fiftysixCsrf ? window.fiftysixCsrf.token() : "";
    if (token) out["X-CSRFToken"] = token;
    return out;
  }

  function messageOf(data) {
    if (!data || typeof data !== "object") return t("The server refused it.");
    if (data.detail) return data.detail;
    return Object.entries(data).map(([field, problems]) =>
      `${field}: ${Array.isArray(problems) ? problems.join(" ") : JSON.stringify(problems)}`).join("; ");
  }

  // A session's write refused by the CSRF check (the cookie went: cleared, or
  // another tab signed in or out) did nothing: a fresh cookie, and the same request
  // with the same key once more; refused again, the entry waits and the page says so.
  async function send(entry, version) {
    const first = await sendOnce(entry, version);
    if (!first.csrf || !window.fiftysixCsrf || !(await window.fiftysixCsrf.renew())) return first;
    return sendOnce(entry, version);
  }

  async function sendOnce(entry, version) {
    const address = entry.kind === "penalty" ? API + "penalties/"
      : entry.kind === "deal" ? API + "deals/" : `${API}deals/${entry.body.number}/`;
    let response;
    try {
      response = await fetch(address, {
        method: entry.kind === "deal-replace" ? "PUT" : "POST",
        headers: headers(entry.key),
        credentials: "same-origin",
        body: JSON.stringify({ ...entry.body, version }),
      });
    } catch (error) {
      misses += 1;
      return { network: true, after: Math.min(2 ** misses, RETRY_MS / 1000) };
    }
    misses = 0;
    let data = null;
    try { data = await response.json(); } catch (error) { data = null; }
    if (response.ok) return { ok: true, version: data && typeof data.version === "number" ? data.version : null };
    if (response.status === 409 && data && data.code === "stale_version") return { stale: true };
    if (response.status === 403 && data && data.code === "csrf_failed") return { csrf: true };
    if (response.status >= 500 || response.status === 429 || response.status === 408) {
      // A part of the server is down (a 503 says for how long, in Retry-After): the
      // entry waits, and is sent again then, not at the next minute's try.
      const after = Number(response.headers.get("Retry-After"));
      return { network: true, after: after > 0 ? after : 2 };
    }
    return { refused: true, message: messageOf(data) };
  }

  async function readSheet() {
    try {
      const response = await fetch(API, { headers: headers(""), credentials: "same-origin" });
      return response.ok ? await response.json() : null;
    } catch (error) {
      return null;
    }
  }

  // What a stale entry meets on the sheet now: "done" (the sheet has it already),
  // "send" (nothing of the sheet's is in its way) or "clash".
  function judge(entry, sheet) {
    if (entry.kind === "penalty") return { verdict: "send" };
    const theirs = asDeal(sheet.deals.find((d) => d.number === entry.body.number));
    if (sameDeal(theirs, entry.body)) return { verdict: "done", theirs };
    if (entry.kind === "deal") return theirs ? { verdict: "clash", theirs } : { verdict: "send" };
    return sameDeal(theirs, entry.original) ? { verdict: "send" } : { verdict: "clash", theirs };
  }

  // The deals another device added, changed or deleted after this page's copy.
  function changesSince(seen, sheet) {
    const before = new Map((seen || []).map((row) => [row[0], asDeal(row)]));
    const now = new Map(sheet.deals.map((d) => [d.number, asDeal(d)]));
    const lines = [];
    for (const [n, d] of now) {
      if (!before.has(n)) lines.push(t("deal {number} added ({deal})", { number: n, deal: dealText(d) }));
      else if (!sameDeal(before.get(n), d)) lines.push(t("deal {number} changed to {deal}", { number: n, deal: dealText(d) }));
    }
    for (const n of before.keys()) if (!now.has(n)) lines.push(t("deal {number} deleted", { number: n }));
    return lines;
  }

  // The next try after a send that found the server down or unreachable: when its
  // Retry-After says, else 2, 4, 8 s… up to RETRY_MS (docs/reliability.md).
  let misses = 0;
  let again = null;
  function tryAgainIn(seconds) {
    if (again) clearTimeout(again);
    const ms = Math.min(Math.max(seconds, 1) * 1000, RETRY_MS);
    again = setTimeout(() => { again = null; flush(); }, ms);
  }

  let flushing = false;
  async function flush() {
    if (flushing || !navigator.onLine) return;
    flushing = true;
    let sent = 0;
    let moved = false; // the sheet changed elsewhere: show the server's

    try {
      const after = {}; // base version → the version after this phone's own sends
      for (const entry of await entries()) {
        if (entry.state !== "waiting") break; // in order: the rest waits behind it
        let result = await send(entry, after[entry.base] ?? entry.base);
        if (result.stale) {
          moved = true;
          const sheet = await readSheet();
          if (!sheet) break;
          const { verdict, theirs } = judge(entry, sheet);
          const changes = changesSince(entry.seen, sheet);
          if (verdict === "done") {
            await drop(entry.id);
            sent += 1;
            continue;
          }
          if (verdict === "clash") {
            Object.assign(entry, { state: "clash", theirs, changes });
            await store(entry);
            break;
          }
          if (changes.length) notice(t("While this phone was offline, another device changed the sheet: {changes}. {entry} did not clash with it and was sent after it; nothing was overwritten.", { changes: changes.join("; "), entry: describe(entry) }));
          after[entry.base] = sheet.version;
          result = await send(entry, sheet.version);
        }
        if (result.ok) {
          if (result.version !== null) {
            after[entry.base] = result.version;
            known(result.version);
          }
          await drop(entry.id);
          sent += 1;
          saved();
          continue;
        }
        if (result.csrf) {
          // Kept, never dropped: sent when the page is reloaded (or at the next try).
          say(t("Not saved: this page's security check expired. Reload the page; your entry is kept and will be sent."), true);
          break;
        }
        if (result.network) { tryAgainIn(result.after); break; } // again soon
        if (result.stale) break; // again later
        Object.assign(entry, { state: "refused", message: result.message });
        await store(entry);
        break;
      }
    } finally {
      flushing = false;
    }
    if (sent || moved) await reloadSheet();
    await show();
  }

  async function reloadSheet() {
    if (window.htmx) {
      await window.htmx.ajax("GET", SCORE_URL, { target: "#score-app", swap: "outerHTML" });
    }
    keepPage();
  }

  function keepPage() {
    // The copy of this page that opens without a network.
    if (!window.caches) return;
    caches.open(PAGE_CACHE)
      .then((cache) => fetch(location.pathname, { credentials: "same-origin" })
        .then((response) => (response.ok && !response.redirected ? cache.put(location.pathname, response) : null)))
      .catch(() => {});
  }

  // What the scorer sees
  // ----------------------------------------------------------------------------

  function announce(said) {
    // The answer to a save, said again by #save-said (role=status, outside the
    // swapped sheet); emptied first, so that the same words twice are read twice.
    const region = document.getElementById("save-said");
    if (!region || !said) return;
    region.textContent = "";
    setTimeout(() => { region.textContent = said.textContent.trim(); }, 50);
  }

  function saved() {
    localStorage.setItem(SAVED, String(Date.now()));
  }

  function pageVersion() {
    const app = document.getElementById("score-app");
    return app ? Number(app.dataset.version) || 0 : 0;
  }

  const knownVersion = () => Number(localStorage.getItem(KNOWN) || 0);

  function known(version) {
    if (version > knownVersion()) localStorage.setItem(KNOWN, String(version));
  }

  // What the server answered last is what the page shows now: kept exactly, so that a
  // sheet whose versions went back (a restored backup) is not read again forever.
  function shown() {
    localStorage.setItem(KNOWN, String(pageVersion()));
  }

  async function freshen() {
    if (navigator.onLine && knownVersion() > pageVersion()) await reloadSheet();
  }

  function say(text, bad) {
    const app = document.getElementById("score-app");
    if (!app) return;
    let flash = app.querySelector(":scope > .flash");
    if (!flash) {
      flash = document.createElement("p");
      app.prepend(flash);
    }
    // A failure interrupts (role=alert); the rest is said politely.
    flash.setAttribute("role", bad ? "alert" : "status");
    flash.className = bad ? "flash error" : "flash";
    flash.textContent = text;
  }

  function notice(text) {
    const box = document.getElementById("conflicts");
    const p = document.createElement("p");
    p.className = "notice changed";
    p.textContent = text;
    box.prepend(p);
  }

  function button(label, act) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "small";
    b.textContent = label;
    b.addEventListener("click", act);
    return b;
  }

  async function resolve(entry, choice) {
    if (choice === "drop") {
      await drop(entry.id);
    } else {
      // Sent again on top of the sheet as it is now, under a new key: a new request.
      const sheet = await readSheet();
      if (!sheet) {
        say(t("The server cannot be reached: choose again when this phone is back online."), true);
        return;
      }
      const retry = { ...entry, state: "waiting", key: newKey(), base: sheet.version };
      retry.seen = sheet.deals.map((d) => DEAL_FIELDS.map((f) => d[f]));
      for (const stale of ["theirs", "changes", "message", "now"]) delete retry[stale];
      if (choice === "next") {
        const numbers = sheet.deals.map((d) => d.number);
        retry.body = { ...entry.body, number: numbers.length ? Math.max(...numbers) + 1 : 1 };
        retry.kind = "deal";
      } else if (choice === "same") {
        retry.kind = "deal";
      } else if (choice === "replace") {
        retry.kind = "deal-replace";
        retry.original = entry.theirs;
      } else if (choice === "again") {
        retry.key = entry.key; // the same request: its key guards against a double
      }
      await store(retry);
    }
    await show();
    flush();
  }

  async function show() {
    const rows = await entries();
    const list = document.getElementById("queue");
    const box = document.getElementById("conflicts");
    list.replaceChildren();
    for (const old of box.querySelectorAll(".conflict")) old.remove();
    for (const entry of rows) {
      if (entry.state === "clash") {
        const panel = document.createElement("div");
        panel.className = "conflict";
        panel.setAttribute("role", "alert");
        const h = document.createElement("p");
        const strong = document.createElement("b");
        strong.textContent = t("Not sent: the sheet changed on another device.");
        h.append(strong);
        const theirs = document.createElement("p");
        theirs.textContent = entry.theirs
          ? t("On the sheet now, deal {number}: {deal}.", { number: entry.body.number, deal: dealText(entry.theirs) })
          : t("On the sheet now, deal {number} is deleted.", { number: entry.body.number });
        const mine = document.createElement("p");
        mine.textContent = t("Yours, kept on this phone: {deal}.", { deal: dealText(entry.body) });
        panel.append(h, theirs, mine);
        if (entry.changes && entry.changes.length) {
          const all = document.createElement("p");
          all.className = "muted";
          all.textContent = t("Every change from the other device: {changes}.", { changes: entry.changes.join("; ") });
          panel.append(all);
        }
        if (entry.kind === "deal") panel.append(button(t("Save mine as the next deal"), () => resolve(entry, "next")));
        if (entry.theirs) panel.append(button(t("Replace deal {number} with mine", { number: entry.body.number }), () => resolve(entry, "replace")));
        else panel.append(button(t("Enter mine as deal {number}", { number: entry.body.number }), () => resolve(entry, "same")));
        panel.append(button(t("Keep the sheet's, drop mine"), () => resolve(entry, "drop")));
        box.append(panel);
        continue;
      }
      const item = document.createElement("li");
      item.className = entry.state === "refused" ? "refused" : "waiting";
      item.textContent = entry.state === "refused"
        ? t("{entry}: refused by the server: {message}", { entry: describe(entry), message: entry.message }) + " "
        : t("{entry}: waiting to send", { entry: describe(entry) });
      if (entry.state === "refused") {
        item.append(button(t("Try again"), () => resolve(entry, "again")), button(t("Drop it"), () => resolve(entry, "drop")));
      }
      list.append(item);
    }
    const line = document.getElementById("net-status");
    const waiting = rows.length;
    const held = rows.filter((e) => e.state !== "waiting").length;
    line.classList.toggle("offline", !navigator.onLine);
    line.querySelector(".net").textContent = navigator.onLine
      ? t("Online")
      : t("Offline: entries are kept on this phone and sent when the network is back");
    line.querySelector(".waiting").textContent = waiting === 0
      ? t("nothing waiting to send")
      : (waiting === 1 ? t("1 entry waiting to send") : t("{count} entries waiting to send", { count: waiting }))
        + (held ? " " + t("({count} held for your choice below)", { count: held }) : "");
    const at = Number(localStorage.getItem(SAVED) || 0);
    line.querySelector(".saved").textContent = at
      ? t("last saved {time}", { time: clock(at) })
      : t("nothing saved from this device yet");
    root.dataset.waiting = String(waiting);
  }

  // Wiring
  // ----------------------------------------------------------------------------

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.closest("#score-app")) return;
    const action = form.elements.action && form.elements.action.value;
    if (action !== "deal" && action !== "penalty") {
      if (!navigator.onLine) {
        event.preventDefault();
        event.stopPropagation();
        say(t("Deleting and the toss need the network: do it again when this phone is back online."), true);
      }
      return;
    }
    form.dataset.key = newKey(); // htmx sends it (htmx:configRequest below)
    if (navigator.onLine && root.dataset.waiting === "0") return;
    // Offline, or behind entries still waiting: into the queue, in order.
    event.preventDefault();
    event.stopPropagation();
    enqueue(form, form.dataset.key);
  }, true);

  document.body.addEventListener("htmx:configRequest", (event) => {
    const form = event.detail.elt;
    if (form instanceof HTMLFormElement && form.dataset.key && event.detail.verb === "post") {
      event.detail.headers["Idempotency-Key"] = form.dataset.key;
    }
  });

  document.body.addEventListener("htmx:sendError", (event) => {
    // The connection failed under the request: it may or may not have arrived, and
    // its key makes sending it again safe.
    const form = event.detail.elt;
    if (form instanceof HTMLFormElement && form.closest("#score-app")) {
      const action = form.elements.action && form.elements.action.value;
      if (action === "deal" || action === "penalty") {
        enqueue(form, form.dataset.key);
        return;
      }
    }
    if (event.detail.elt && event.detail.elt.id !== "preview") {
      say(t("That needs the network (opening a deal to change it, deleting, the toss): try again when this phone is back online."), true);
    }
  });

  const entryForm = (elt) => {
    const form = elt instanceof HTMLFormElement ? elt : elt && elt.closest && elt.closest("form");
    if (!form || !form.closest("#score-app")) return null;
    return form;
  };
  const actionOf = (form) => form.elements.action && form.elements.action.value;

  // Refused by the CSRF check even after a fresh cookie (static/js/csrf.js): a deal
  // or penalty goes into the queue under its key (never lost, never doubled), and the
  // page says why; a delete or the toss is not done, and the page says so.
  document.body.addEventListener("fiftysix:csrf-failed", async (event) => {
    const form = entryForm(event.detail && event.detail.elt);
    if (!form) return;
    const action = actionOf(form);
    if (action === "deal" || action === "penalty") {
      await enqueue(form, form.dataset.key);
      say(t("Not saved: this page's security check expired. Reload the page; your entry is kept and will be sent."), true);
      return;
    }
    say(t("Not done: this page's security check expired. Reload the page and do it again."), true);
  });

  // Any other failed answer is said, never swallowed: a server error (500, 502,
  // 503: the database may be down) is like being offline for a deal or penalty, which
  // waits in the queue under its key and is sent again; any other refusal is shown,
  // the form keeping what was typed. Only the form's own sending is queued, as for
  // a lost connection above: the award's preview, or Cancel, inside the deal's form
  // queues nothing (while the database is down, each field typed asks a preview).
  document.body.addEventListener("htmx:responseError", (event) => {
    const { xhr, elt } = event.detail;
    if (!xhr || !(elt instanceof Element) || !elt.closest("#score-app")) return;
    if (window.fiftysixCsrf && window.fiftysixCsrf.refusedByCheck(xhr.status, xhr.responseText)) return; // csrf.js
    const form = entryForm(elt);
    const action = elt === form ? actionOf(form) : null;
    if (xhr.status >= 500 || xhr.status === 429 || xhr.status === 408) {
      if (elt.id === "preview") {
        elt.textContent = t("The award is worked out by the server when the deal reaches it.");
        return;
      }
      if (action === "deal" || action === "penalty") {
        enqueue(form, form.dataset.key).then(() =>
          say(t("The server could not save it now (error {status}): it is kept on this phone and sent again shortly.", { status: xhr.status }), true));
        return;
      }
      say(t("Not done: the server could not do it now (error {status}). Try again in a moment.", { status: xhr.status }), true);
      return;
    }
    if (!form) return;
    say(t("Not saved: the server refused it (error {status}). Reload the page and try again.", { status: xhr.status }), true);
  });

  document.body.addEventListener("sheetSaved", () => { saved(); show(); keepPage(); });
  // Whether the keyboard was inside the sheet when htmx replaced it: a swap takes the
  // focused element away, and the focus would fall to the top of the page.
  let focusInApp = false;
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if (!event.detail.target || event.detail.target.id !== "score-app") return;
    focusInApp = event.detail.target.contains(document.activeElement);
  });
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (!event.detail.target || event.detail.target.id !== "score-app") return;
    if (navigator.onLine) shown();
    prepareForm();
    // After a deal's save the keyboard stays in the form: at the next deal's first
    // field, or at the first field the server refused; and the answer beside the
    // button is read out by the page's own live region, which a swap does not
    // replace (a region that arrives with its words is not announced): nobody
    // starts over at the top of the page.
    const sent = event.detail.requestConfig && event.detail.requestConfig.elt;
    const form = document.getElementById("deal-form");
    const fromForm = sent && sent.id === "deal-form";
    const lost = !document.activeElement || document.activeElement === document.body;
    if (form && (fromForm || (focusInApp && lost))) {
      const refused = form.querySelector(".invalid input, .invalid select, .invalid textarea");
      const field = refused || form.elements.number;
      if (field) {
        field.focus({ preventScroll: true });
        field.scrollIntoView({ block: "nearest" });
      }
    }
    // The sheet's last deal saved: the form gives way to the words that every deal
    // is on the sheet; the keyboard goes there, not to the page's top.
    const done = document.getElementById("deal-done");
    if (!form && done && fromForm) done.focus({ preventScroll: true });
    focusInApp = false;
    if (fromForm) announce(document.querySelector("#save-state .said"));
  });
  document.body.addEventListener("htmx:afterSettle", () => prepareForm());
  window.addEventListener("online", () => { show(); flush().then(freshen); });
  window.addEventListener("offline", () => show());
  setInterval(() => { if (root.dataset.waiting !== "0") flush(); }, RETRY_MS);

  if ("serviceWorker" in navigator && root.dataset.sw) {
    navigator.serviceWorker.register(root.dataset.sw, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then(() => { if (navigator.onLine) keepPage(); })
      .catch(() => {}); // without it the page still queues; it just cannot reopen offline
  }
  root.dataset.waiting = "0";
  // The form's next number first, then the queue: what the scorer sees at once is
  // the page ready for the next deal. A page older than what this browser was last
  // answered (a copy kept offline, or read before an earlier page's send) is read
  // again when online.
  prepareForm().then(show).then(flush).then(freshen);
})();
