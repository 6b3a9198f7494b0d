// The offline queue's sending (docs/links.md, "Sending"): the waiting entries go to
// the API in the order they were made, each with its Idempotency-Key and the version
// the phone saw plus its own sends; the first one held (a clash, a refusal, the
// network) holds every entry behind it.
//
// What it works with is handed to it: the queue's storage (store.js, or one in
// memory), the transport (fetch, or a fake server), whether the phone is online, the
// page's language and what the page does with what happens (`on`). So the same code
// runs on the page and under Node's test runner against a fake server (tests/js/).
(function (root, make) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = make(require("./queue.js"));
  } else {
    root.fiftysix = root.fiftysix || {};
    root.fiftysix.score = root.fiftysix.score || {};
    root.fiftysix.score.send = make(root.fiftysix.score.queue);
  }
})(typeof self !== "undefined" ? self : this, function (queue) {
  "use strict";

  const RETRY_MS = 15000; // the longest wait between two tries (docs/reliability.md)
  const MOVED = ["stale_version", "deal_number_taken", "no_such_deal"];

  // fetch as the sender's transport: an answer ({status, data, retryAfter}) for every
  // answer the server gives, a rejection when none came (the network).
  function fetchTransport(fetch) {
    return async ({ method, url, headers, body }) => {
      const response = await fetch(url, {
        method, headers, credentials: "same-origin",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      let data = null;
      try { data = await response.json(); } catch (error) { data = null; }
      return { status: response.status, data, retryAfter: Number(response.headers.get("Retry-After")) || 0 };
    };
  }

  // options: store {entries, put, drop}; transport; api ("/api/v1/matches/<id>/");
  // language (the page's, sent as Accept-Language so that a refusal comes back in
  // it); headers() (the Link key, the CSRF token of now); online(); renewCsrf()
  // (a fresh cookie; true when had); newKey(); t (the page's words); label(field)
  // (a field as the page's form names it, for a refusal); and on: {
  // saved(), known(version), notice(text), alert(text), retryIn(seconds),
  // reload() (the sheet read again and shown), show() }.
  function sender(options) {
    const { store, transport, api, language, t } = options;
    const on = options.on || {};
    const call = (name, ...args) => (on[name] ? on[name](...args) : undefined);
    let misses = 0;
    let flushing = false;

    function headers(key) {
      const out = { "Content-Type": "application/json", Accept: "application/json" };
      if (language) out["Accept-Language"] = language;
      if (key) out["Idempotency-Key"] = key;
      return { ...out, ...(options.headers ? options.headers() : {}) };
    }

    function addressOf(entry) {
      if (entry.kind === "penalty") return { method: "POST", url: api + "penalties/" };
      if (entry.kind === "deal") return { method: "POST", url: api + "deals/" };
      return { method: "PUT", url: `${api}deals/${entry.body.number}/` };
    }

    async function sendOnce(entry, version) {
      const { method, url } = addressOf(entry);
      let answer;
      try {
        answer = await transport({ method, url, headers: headers(entry.key), body: { ...entry.body, version } });
      } catch (error) {
        misses += 1;
        return { network: true, after: Math.min(2 ** misses, RETRY_MS / 1000) };
      }
      misses = 0;
      const { status, data } = answer;
      if (status >= 200 && status < 300) {
        // Saved only when the site says so: every write's answer is JSON with the
        // sheet's new version. A 2xx without it came from something in between (a
        // proxy that cut a slow upload answers an empty 200): not saved, so the
        // entry is sent again, with its key, and a write that did land is answered
        // as it was.
        if (!data || typeof data.version !== "number") {
          misses += 1;
          return { network: true, after: Math.min(2 ** misses, RETRY_MS / 1000) };
        }
        return { ok: true, version: data.version };
      }
      // The sheet moved under the entry: an older version, or (sent on top of this
      // phone's own sends) its deal number taken or its deal gone meanwhile. Either
      // way the sheet is read and the entry judged against it: nothing of the
      // sheet's is overwritten without the scorer's choice.
      if (status === 409 && data && MOVED.includes(data.code)) return { stale: true };
      if (status === 403 && data && data.code === "csrf_failed") return { csrf: true };
      if (status >= 500 || status === 429 || status === 408) {
        // A part of the server is down (a 503 says for how long, in Retry-After):
        // the entry waits, and is sent again then, not at the next minute's try.
        return { network: true, after: answer.retryAfter > 0 ? answer.retryAfter : 2 };
      }
      return { refused: true, message: queue.messageOf(data, t, options.label) };
    }

    // A session's write refused by the CSRF check (the cookie went: cleared, or
    // another tab signed in or out) did nothing: a fresh cookie, and the same request
    // with the same key once more; refused again, the entry waits and the page says so.
    async function send(entry, version) {
      const first = await sendOnce(entry, version);
      if (!first.csrf || !options.renewCsrf || !(await options.renewCsrf())) return first;
      return sendOnce(entry, version);
    }

    async function readSheet() {
      try {
        const answer = await transport({ method: "GET", url: api, headers: headers("") });
        return answer.status === 200 ? answer.data : null;
      } catch (error) {
        return null;
      }
    }

    // Every waiting entry in order, until one is held. Says what it did: how many
    // were sent, and whether the sheet had changed elsewhere.
    async function flush() {
      if (flushing || !options.online()) return { sent: 0, moved: false, busy: flushing };
      flushing = true;
      let sent = 0;
      let moved = false; // the sheet changed elsewhere: show the server's
      try {
        const after = {}; // base version → the version after this phone's own sends
        for (const entry of await store.entries()) {
          if (entry.state !== "waiting") break; // in order: the rest waits behind it
          let result = await send(entry, after[entry.base] ?? entry.base);
          if (result.stale) {
            moved = true;
            const sheet = await readSheet();
            if (!sheet) break;
            const { verdict, theirs } = queue.judge(entry, sheet);
            const changes = queue.changesSince(entry.seen, sheet, t);
            if (verdict === "done") {
              await store.drop(entry.id);
              sent += 1;
              continue;
            }
            if (verdict === "clash") {
              await store.put({ ...entry, state: "clash", theirs, changes });
              break;
            }
            if (changes.length) {
              call("notice", t("While this phone was offline, another device changed the sheet: {changes}. {entry} did not clash with it and was sent after it; nothing was overwritten.", { changes: changes.join("; "), entry: queue.describe(entry, t) }));
            }
            after[entry.base] = sheet.version;
            result = await send(entry, sheet.version);
          }
          if (result.ok) {
            if (result.version !== null) {
              after[entry.base] = result.version;
              call("known", result.version);
            }
            await store.drop(entry.id);
            sent += 1;
            call("saved");
            continue;
          }
          if (result.csrf) {
            // Kept, never dropped: sent when the page is reloaded (or at the next try).
            call("alert", t("Not saved: this page's security check expired. Reload the page; your entry is kept and will be sent."));
            break;
          }
          if (result.network) { call("retryIn", result.after); break; } // again soon
          if (result.stale) break; // again later
          await store.put({ ...entry, state: "refused", message: result.message });
          break;
        }
      } finally {
        flushing = false;
      }
      if (sent || moved) await call("reload");
      await call("show");
      return { sent, moved, busy: false };
    }

    // The scorer's choice for a held entry: "drop", or sent again as queue.retried
    // says. False when the sheet could not be read (the choice waits).
    async function resolve(entry, choice) {
      if (choice === "drop") {
        await store.drop(entry.id);
      } else {
        const sheet = await readSheet();
        if (!sheet) {
          call("alert", t("The server cannot be reached: choose again when this phone is back online."));
          return false;
        }
        const key = choice === "again" ? entry.key : options.newKey();
        const others = (await store.entries()).filter((e) => e.id !== entry.id);
        await store.put(queue.retried(entry, choice, sheet, key, others));
      }
      await call("show");
      await flush();
      return true;
    }

    // A refused entry corrected by the scorer (`fresh`: queue.entryFromValues of the
    // corrected form): back in its place, waiting, under a new key.
    async function correct(entry, fresh) {
      const back = queue.corrected(entry, fresh, options.newKey());
      await store.put(back);
      await call("show");
      await flush();
      return back;
    }

    return { flush, resolve, correct, readSheet, headers };
  }

  return { sender, fetchTransport, RETRY_MS };
});
