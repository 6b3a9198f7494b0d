// A form sent by htmx that the server could not answer (5xx: while the database is
// down every page answers 503, tournament/unavailable.py) says so beside the form,
// in the page's words (the body's data-server-failed), instead of nothing: htmx
// swaps no error answer. The score page's own forms say more and keep a deal in the
// queue (static/js/score/); a part that polls keeps what it shows until its next poll.
(() => {
  "use strict";

  const said = new WeakMap(); // the element that sent → its alert

  function formOf(elt) {
    if (!(elt instanceof Element)) return null;
    return elt instanceof HTMLFormElement ? elt : elt.closest("form");
  }

  document.addEventListener("htmx:responseError", (event) => {
    const { xhr, elt } = event.detail;
    const form = formOf(elt);
    if (!xhr || xhr.status < 500 || !form || form.closest("#score-app")) return;
    let alert = said.get(elt);
    if (!alert || !alert.isConnected) {
      alert = document.createElement("p");
      alert.className = "flash error";
      alert.setAttribute("role", "alert");
      elt.insertAdjacentElement("afterend", alert);
      said.set(elt, alert);
    }
    const words = document.body.dataset.serverFailed || "";
    alert.textContent = words.replace("{status}", String(xhr.status));
  });

  // Answered at last: the alert goes.
  document.addEventListener("htmx:afterRequest", (event) => {
    const alert = event.detail.successful && said.get(event.detail.elt);
    if (!alert) return;
    alert.remove();
    said.delete(event.detail.elt);
  });
})();
