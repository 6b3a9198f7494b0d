// The auction's tap pad on the score page (docs/auction.md): each button adds a call
// to the auction's text field, which stays the record; without JavaScript the pad
// stays hidden and the field is typed. The page is swapped by htmx after each save,
// so the pad is wired by one listener on the document.
(function () {
  "use strict";

  function next(text, call) {
    text = text.replace(/\s+$/, "");
    if (call === "back") {
      return text.replace(/(^[AB]:|\s*\S)$/, "").replace(/\s+$/, "");
    }
    if (call === "A:" || call === "B:") {
      return call + " " + text.replace(/^[AB]:\s*/, "");
    }
    // A digit joins the digits before it, a trump letter the number before it.
    if (/^[0-9]$/.test(call) && /[0-9]$/.test(text)) return text + call;
    if (/^[CDHSN]$/.test(call) && /[0-9]$/.test(text)) return text + call;
    return text ? text + " " + call : call;
  }

  function show(root) {
    root.querySelectorAll(".auction-pad[hidden]").forEach((pad) => {
      pad.hidden = false;
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest(".auction-pad [data-call]");
    if (!button) return;
    const pad = button.closest(".auction-pad");
    const field = document.getElementById(pad.dataset.for);
    if (!field) return;
    field.value = next(field.value, button.dataset.call);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
  document.addEventListener("DOMContentLoaded", () => show(document));
  document.addEventListener("htmx:afterSwap", (event) => show(event.target));
})();
