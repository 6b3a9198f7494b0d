// The score page's offline entry, wired (docs/links.md, "Offline score entry"): the
// queue's rules (queue.js), its storage (store.js), its sending (send.js) and the
// deal form (form.js) put to work on the page: its forms, htmx's events, the status
// line, the held entries' panels, the service worker and the page's offline copy.
//
// A deal or penalty saved while the phone is offline, or while earlier entries still
// wait, goes into the queue with its own Idempotency-Key, and is sent in order when
// the network is back. Awards and totals are the server's: nothing here scores.
(() => {
  "use strict";

  const root = document.getElementById("offline");
  const score = window.fiftysix && window.fiftysix.score;
  if (!root || !window.indexedDB || !score) return;
  const { queue, form: dealForm } = score;
  const MATCH = Number(root.dataset.match);
  const LINK_KEY = root.dataset.linkKey;
  const SCORE_URL = root.dataset.scoreUrl;
  const SAVED = "fiftysix-saved-" + MATCH;
  // The newest version of this sheet the server has answered this browser with: a
  // page that loads older than it (reloaded while an earlier page's send was under
  // way, which the new page's copy of the sheet was read before) reads the sheet again.
  const KNOWN = "fiftysix-version-" + MATCH;
  const PAGE_CACHE = "fiftysix-pages";
  // The page as the server sent it, before anything here changes it: its offline
  // copy when no service worker saw it arrive (the first visit), so that keeping it
  // does not fetch it a second time.
  const AS_SENT = "<!doctype html>\n" + document.documentElement.outerHTML;

  // The page's words for what the queue says (scoring/words.py OFFLINE_WORDS, in the
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

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  const store = score.store.queueOf(window.indexedDB, MATCH);
  let again = null;
  const sender = score.send.sender({
    store,
    transport: score.send.fetchTransport(window.fetch.bind(window)),
    api: root.dataset.api, // /api/v1/matches/<id>/
    // A refusal comes back in the page's language (the API's detail), each field
    // named by the form's own label or legend, not by the API's name.
    language: document.documentElement.lang,
    label(field) {
      const input = document.querySelector(`#score-app [name="${field}"], #score-app [name="penalty-${field}"]`);
      if (!input) return "";
      const named = input.closest("fieldset")
        ? input.closest("fieldset").querySelector("legend")
        : document.querySelector(`label[for="${input.id}"]`);
      return named ? named.textContent.trim() : "";
    },
    headers() {
      const out = {};
      if (LINK_KEY) out.Authorization = "Link " + LINK_KEY;
      // The token of now, not the page's: signing in in another tab changes it
      // (static/js/csrf.js).
      const token = window.fiftysixCsrf ? window.fiftysixCsrf.token() : "";
      if (token) out["X-CSRFToken"] = token;
      return out;
    },
    online: () => navigator.onLine,
    renewCsrf: () => (window.fiftysixCsrf ? window.fiftysixCsrf.renew() : Promise.resolve(false)),
    newKey,
    t,
    on: {
      saved,
      known,
      notice,
      alert: (text) => say(text, true),
      // The next try after a send that found the server down or unreachable: when
      // its Retry-After says, else 2, 4, 8 s… up to RETRY_MS (docs/reliability.md).
      retryIn(seconds) {
        if (again) clearTimeout(again);
        const ms = Math.min(Math.max(seconds, 1) * 1000, score.send.RETRY_MS);
        again = setTimeout(() => { again = null; sender.flush(); }, ms);
      },
      reload: reloadSheet,
      show,
    },
  });
  const flush = () => sender.flush();

  // The page and its deal form
  // ----------------------------------------------------------------------------

  function pageDeals() {
    const app = document.getElementById("score-app");
    try {
      return JSON.parse((app && app.dataset.deals) || "[]");
    } catch (error) {
      return [];
    }
  }

  function pageVersion() {
    const app = document.getElementById("score-app");
    return app ? Number(app.dataset.version) || 0 : 0;
  }

  const theForm = () => document.getElementById("deal-form");

  // A new deal's form is offered the number after the sheet's and the queue's, unless
  // the scorer typed one; a change's form keeps what the deal was when opened, to
  // tell later whether another device changed it meanwhile.
  async function prepareForm() {
    const form = theForm();
    if (!form) return;
    const v = dealForm.valuesOf(form);
    if (queue.whole(v.replacing)) {
      form.dataset.original = JSON.stringify(queue.asDeal(queue.DEAL_FIELDS.map((f) => v[f])));
      return;
    }
    const waiting = await store.entries();
    if (waiting.some((e) => e.kind === "deal")) dealForm.suggest(form, queue.nextNumber(pageDeals(), waiting));
    if (form.dataset.correcting) correctingLine(form, Number(form.dataset.correcting), waiting);
  }

  async function blankForm(form, entry) {
    if (entry.kind === "penalty") {
      form.reset();
      const details = form.closest("details");
      if (details) details.open = false;
      return;
    }
    if (entry.kind === "deal-replace" && !("correcting" in form.dataset)) return;
    dealForm.blank(form);
    dealForm.suggest(form, queue.nextNumber(pageDeals(), await store.entries()));
    const preview = document.getElementById("preview");
    if (preview) preview.textContent = t("The award is worked out by the server when the deal reaches it.");
    form.elements.number.focus();
  }

  function entryOf(form) {
    const v = dealForm.valuesOf(form);
    return queue.entryFromValues(v, pageDeals(), JSON.parse(form.dataset.original || "null"));
  }

  async function enqueue(form, key) {
    const entry = entryOf(form);
    if (!entry) return;
    if (entry.missing) {
      const prefix = dealForm.valuesOf(form).action === "penalty" ? "penalty-" : "";
      const fields = dealForm.labelsOf(form, entry.missing.map((name) => prefix + name)).join(", ");
      say(t("Fill in every field of the deal before saving: {fields}.", { fields }), true);
      return;
    }
    if (form.dataset.correcting) {
      await saveCorrection(form, entry);
      return;
    }
    Object.assign(entry, { match: MATCH, key: key || newKey(), state: "waiting", made: Date.now() });
    await store.put(entry);
    await blankForm(form, entry);
    say(t("{entry}: kept on this phone, waiting to send.", { entry: queue.describe(entry, t) }));
    await show();
    flush();
  }

  // Correcting a refused entry: the deal form holds its fields; saved, it goes back
  // to its place in the queue under a new key, and the form is blank again.
  async function correctIn(entry) {
    const form = theForm();
    if (!form) return;
    dealForm.blank(form);
    dealForm.fill(form, queue.formValues(entry));
    correctingLine(form, entry.id, [entry]);
    form.elements.number.focus({ preventScroll: true });
    form.scrollIntoView({ block: "nearest" });
  }

  function correctingLine(form, id, rows) {
    const entry = rows.find((e) => e.id === id);
    if (!entry) {
      dealForm.correcting(form, null);
      return;
    }
    const line = document.createElement("p");
    line.className = "notice";
    line.setAttribute("role", "status");
    line.append(t("Correcting {entry}: change what was refused, then save it; it goes back to its place in the queue.", { entry: queue.describe(entry, t) }) + " ");
    line.append(button(t("Cancel the correction"), () => {
      dealForm.blank(form);
      prepareForm();
    }));
    dealForm.correcting(form, id, line);
  }

  async function saveCorrection(form, fresh) {
    const id = Number(form.dataset.correcting);
    const entry = (await store.entries()).find((e) => e.id === id);
    if (!entry) {
      dealForm.correcting(form, null);
      return;
    }
    dealForm.blank(form);
    const back = queue.corrected(entry, fresh, newKey());
    say(t("{entry}: corrected, back in its place in the queue.", { entry: queue.describe(back, t) }));
    dealForm.suggest(form, queue.nextNumber(pageDeals(), await store.entries()));
    await sender.correct(entry, fresh);
  }

  // The page's offline copy
  // ----------------------------------------------------------------------------

  async function reloadSheet() {
    if (window.htmx) {
      // What the scorer is typing for the next deal stays: the sheet is read again
      // under it, not over it.
      const was = dealForm.kept(theForm());
      await window.htmx.ajax("GET", SCORE_URL, { target: "#score-app", swap: "outerHTML" });
      dealForm.restore(theForm(), was);
      await prepareForm();
    }
    keepPage();
  }

  function keepPage(html) {
    // The copy of this page that opens without a network: the page as it was sent,
    // or read again after a change of the sheet.
    if (!window.caches) return;
    const response = html
      ? Promise.resolve(new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } }))
      : fetch(location.pathname, { credentials: "same-origin" });
    caches.open(PAGE_CACHE)
      .then((cache) => response
        .then((answer) => (answer.ok && !answer.redirected ? cache.put(location.pathname, answer) : null)))
      .then(() => { root.dataset.kept = "yes"; })
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

  function button(label, act, danger) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = danger ? "small danger" : "small";
    b.textContent = label;
    b.addEventListener("click", act);
    return b;
  }

  function dropAsked(entry) {
    // Dropped, an entry is lost from this phone: asked first, in the page's words.
    if (!window.confirm(t("Drop {entry}? It will not be sent, and this phone forgets it.", { entry: queue.describe(entry, t) }))) return;
    const form = theForm();
    if (form && form.dataset.correcting === String(entry.id)) dealForm.blank(form);
    sender.resolve(entry, "drop").then(prepareForm);
  }

  function clashPanel(entry) {
    const panel = document.createElement("div");
    panel.className = "conflict";
    panel.setAttribute("role", "alert");
    const h = document.createElement("p");
    const strong = document.createElement("b");
    strong.textContent = t("Not sent: the sheet changed on another device.");
    h.append(strong);
    const theirs = document.createElement("p");
    theirs.textContent = entry.theirs
      ? t("On the sheet now, deal {number}: {deal}.", { number: entry.body.number, deal: queue.dealText(entry.theirs, t) })
      : t("On the sheet now, deal {number} is deleted.", { number: entry.body.number });
    const mine = document.createElement("p");
    mine.textContent = t("Yours, kept on this phone: {deal}.", { deal: queue.dealText(entry.body, t) });
    panel.append(h, theirs, mine);
    if (entry.changes && entry.changes.length) {
      const all = document.createElement("p");
      all.className = "muted";
      all.textContent = t("Every change from the other device: {changes}.", { changes: entry.changes.join("; ") });
      panel.append(all);
    }
    const choose = (choice) => () => sender.resolve(entry, choice);
    if (entry.kind === "deal") panel.append(button(t("Save mine as the next deal"), choose("next")));
    if (entry.theirs) panel.append(button(t("Replace deal {number} with mine", { number: entry.body.number }), choose("replace")));
    else panel.append(button(t("Enter mine as deal {number}", { number: entry.body.number }), choose("same")));
    panel.append(button(t("Keep the sheet's, drop mine"), choose("drop"), true));
    return panel;
  }

  async function show() {
    const rows = await store.entries();
    const list = document.getElementById("queue");
    const box = document.getElementById("conflicts");
    // A refusal below makes a green "kept on this phone" above it untrue: it goes.
    const app = document.getElementById("score-app");
    const flash = app && app.querySelector(":scope > .flash:not(.error)");
    if (flash && rows.some((e) => e.state !== "waiting")) flash.remove();
    list.replaceChildren();
    for (const old of box.querySelectorAll(".conflict")) old.remove();
    for (const entry of rows) {
      if (entry.state === "clash") {
        box.append(clashPanel(entry));
        continue;
      }
      const item = document.createElement("li");
      item.className = entry.state === "refused" ? "refused" : "waiting";
      item.dataset.entry = String(entry.id);
      item.textContent = entry.state === "refused"
        ? t("{entry}: refused by the server: {message}", { entry: queue.describe(entry, t), message: entry.message }) + " "
        : t("{entry}: waiting to send", { entry: queue.describe(entry, t) });
      if (entry.state === "refused") {
        // The choices on a line of their own, under the refusal they answer.
        const actions = document.createElement("div");
        actions.className = "actions";
        if (entry.kind !== "penalty" && theForm()) actions.append(button(t("Correct it"), () => correctIn(entry)));
        actions.append(button(t("Try again"), () => sender.resolve(entry, "again")), button(t("Drop it"), () => dropAsked(entry), true));
        item.append(actions);
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

  document.addEventListener("input", dealForm.noteTyped);

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
    // A correction goes back into the queue, in its place; so does anything saved
    // offline, or behind entries still waiting.
    if (navigator.onLine && root.dataset.waiting === "0" && !form.dataset.correcting) return;
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
    const form = theForm();
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
    show();
  });
  window.addEventListener("online", () => { show(); flush().then(freshen); });
  window.addEventListener("offline", () => show());
  setInterval(() => { if (root.dataset.waiting !== "0") flush(); }, score.send.RETRY_MS);

  if ("serviceWorker" in navigator && root.dataset.sw) {
    // A page the service worker answered was kept by it as it passed; a page it did
    // not see (the first visit) is kept as it was sent: either way, fetched once.
    const seen = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.register(root.dataset.sw, { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then(() => {
        if (seen) root.dataset.kept = "yes";
        else keepPage(AS_SENT);
      })
      .catch(() => {}); // without it the page still queues; it just cannot reopen offline
  }
  root.dataset.waiting = "0";
  // The form's next number first, then the queue: what the scorer sees at once is
  // the page ready for the next deal. A page older than what this browser was last
  // answered (a copy kept offline, or read before an earlier page's send) is read
  // again when online.
  prepareForm().then(show).then(flush).then(freshen);
})();
