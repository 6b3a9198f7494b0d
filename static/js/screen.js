// The venue screen fits its window (docs/desk.md): when a view's names, wrapped, make
// it taller than the screen, its type shrinks step by step (the --fit factor of
// static/css/screen.css) until it fits; a name is never cut. Run on load, after each
// turn htmx swaps in, and when the window changes size.
(function () {
  "use strict";
  function fit() {
    var screen = document.getElementById("screen");
    if (!screen) return;
    var scale = 1;
    screen.style.setProperty("--fit", "1");
    while (scale > 0.5 && screen.scrollHeight > screen.clientHeight + 1) {
      scale -= 0.05;
      screen.style.setProperty("--fit", scale.toFixed(2));
    }
  }
  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSettle", fit);
  window.addEventListener("resize", fit);
})();
