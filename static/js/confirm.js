// A step that the same page cannot undo (the draw, a round's release, a forfeit, a
// withdrawal) asks first: a form with data-confirm shows its question, in the page's
// words, and is sent only on OK. htmx's own forms say it with hx-confirm instead.
// Without JavaScript the form is sent as it always was: the server still refuses
// what the rules refuse.
(() => {
  "use strict";

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
})();
