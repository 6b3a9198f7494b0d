// Every write sends the browser's CURRENT CSRF token (docs/security.md).
//
// The token written into a page when it loaded goes stale when the cookie changes
// under it: someone signs in or out in another tab of the same browser (Django
// rotates the token at login), or the cookies are cleared. A form sent with the old
// one is refused (403) and, sent by htmx, would be lost without a word. So:
// - at each htmx write, the token is read from the csrftoken cookie (not HttpOnly:
//   settings) and sent as X-CSRFToken, and a form's own csrfmiddlewaretoken field
//   (which Django reads first) is given the same; a plain form's field too, as it is sent;
// - an htmx write still refused with code csrf_failed (no cookie at all: the view
//   tournament/csrf.py answers htmx with JSON) fetches a fresh cookie with a GET of
//   the page and is sent again ONCE, the same request with the same Idempotency-Key
//   (a refused request did nothing, so nothing can be doubled);
// - refused again, it is handed to the page ("fiftysix:csrf-failed" on the element):
//   the score page keeps the deal in its queue and says so (static/js/score/).
(() => {
  "use strict";

  const COOKIE = "csrftoken"; // settings.CSRF_COOKIE_NAME

  function token() {
    for (const part of document.cookie.split(";")) {
      const [name, ...rest] = part.trim().split("=");
      if (name === COOKIE) return decodeURIComponent(rest.join("="));
    }
    // No cookie: the page's own (refused if stale, and then renewed below).
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (error) {
      return "";
    }
  }

  // A fresh cookie: any page of the site sets one when it has none (its forms carry
  // the token); this page's own address is one the visitor may open.
  async function renew() {
    try {
      await fetch(location.pathname + location.search, {
        credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" },
      });
    } catch (error) {
      return false;
    }
    return document.cookie.split(";").some((part) => part.trim().startsWith(COOKIE + "="));
  }

  // Whether a 403 is the CSRF check's (tournament/csrf.py, or the API's code).
  function refusedByCheck(status, text) {
    if (status !== 403) return false;
    try {
      const data = JSON.parse(text || "null");
      return !!data && data.code === "csrf_failed";
    } catch (error) {
      return false;
    }
  }

  const safe = (verb) => ["get", "head", "options"].includes(String(verb).toLowerCase());

  window.fiftysixCsrf = { token, renew, refusedByCheck };

  function freshFields(form) {
    const now = token();
    if (!now || !form) return;
    for (const field of form.querySelectorAll('input[name="csrfmiddlewaretoken"]')) field.value = now;
  }

  // A plain form: its field takes the token of now as it is sent.
  document.addEventListener("submit", (event) => {
    if (event.target instanceof HTMLFormElement) freshFields(event.target);
  }, true);

  document.addEventListener("htmx:configRequest", (event) => {
    if (safe(event.detail.verb)) return;
    const now = token();
    if (!now) return;
    event.detail.headers["X-CSRFToken"] = now;
    // The form's hidden field was read before this event: it is what Django checks
    // first, so it takes the current token too.
    const values = event.detail.formData || event.detail.parameters;
    if (values && typeof values.has === "function" && values.has("csrfmiddlewaretoken")) {
      values.set("csrfmiddlewaretoken", now);
    } else if (values && "csrfmiddlewaretoken" in values) {
      values.csrfmiddlewaretoken = now;
    }
  });

  // The request sent again answers its confirmation itself: the scorer said yes once.
  document.addEventListener("htmx:confirm", (event) => {
    const elt = event.detail.elt;
    if (elt && elt.dataset && elt.dataset.csrfRetry === "1") {
      event.preventDefault();
      event.detail.issueRequest(true);
    }
  });

  document.addEventListener("htmx:responseError", async (event) => {
    const { xhr, elt, requestConfig, target } = event.detail;
    if (!xhr || !elt || !requestConfig || safe(requestConfig.verb)) return;
    if (!refusedByCheck(xhr.status, xhr.responseText)) return;
    if (elt.dataset.csrfRetry === "1" || !(await renew())) {
      delete elt.dataset.csrfRetry;
      elt.dispatchEvent(new CustomEvent("fiftysix:csrf-failed", { bubbles: true, detail: { elt } }));
      return;
    }
    elt.dataset.csrfRetry = "1";
    freshFields(elt instanceof HTMLFormElement ? elt : elt.closest("form"));
    try {
      await window.htmx.ajax(requestConfig.verb.toUpperCase(), requestConfig.path, {
        source: elt, target: target || undefined,
      });
    } finally {
      // Sent again (answered or refused again): the next tap is a new request.
      delete elt.dataset.csrfRetry;
    }
  });
})();
