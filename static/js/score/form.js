// The score page's deal form, as the offline queue handles it: its values, blank
// for the next deal (nothing carried from the one before: no chip, no bidder, no
// auction), filled with a refused entry to correct it, and the deal number the scorer
// typed, which the page never changes (it suggests a number only into a form whose
// number nobody typed).
(function (root, make) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = make();
  } else {
    root.fiftysix = root.fiftysix || {};
    root.fiftysix.score = root.fiftysix.score || {};
    root.fiftysix.score.form = make();
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  const TEXTS = ["number", "value", "taken", "auction"];
  const CHIPS = ["declarer", "trump", "level", "bidder"];

  function valuesOf(form) {
    const out = {};
    for (const [name, value] of new FormData(form)) out[name] = value;
    return out;
  }

  const radios = (form, name) => form.querySelectorAll(`input[type=radio][name="${name}"]`);

  // The scorer typed the number (an input event), or the server sent the form back
  // with what was posted (data-typed, scoring/_score_app.html).
  const typed = (form) => "typed" in form.dataset;

  function noteTyped(event) {
    const field = event.target;
    if (field && field.name === "number" && field.form && field.form.id === "deal-form") {
      field.form.dataset.typed = "";
    }
  }

  // The next deal's number, into a new deal's form the scorer has not typed in.
  function suggest(form, number) {
    if (!form || typed(form) || !form.elements.number || valuesOf(form).replacing) return false;
    form.elements.number.value = String(number);
    return true;
  }

  // Refusals marked by the server on a form sent back, gone with what they marked.
  function unmark(form) {
    for (const marked of form.querySelectorAll(".invalid")) marked.classList.remove("invalid");
    for (const list of form.querySelectorAll(".errorlist")) list.remove();
  }

  // The next deal starts from nothing: every field empty, no chip chosen but the
  // level's "none" and the bidder's "Not recorded", the auction folded; the number
  // is the page's to suggest again.
  function blank(form) {
    for (const name of TEXTS) if (form.elements[name]) form.elements[name].value = "";
    for (const name of CHIPS) for (const input of radios(form, name)) input.checked = false;
    // As the server's own next form: level "none", bidder "Not recorded".
    const plain = form.querySelector('input[name="level"][value="none"]');
    if (plain) plain.checked = true;
    const unrecorded = form.querySelector('input[name="bidder"][value=""]');
    if (unrecorded) unrecorded.checked = true;
    const auction = form.querySelector("details.auction");
    if (auction) auction.open = false;
    unmark(form);
    delete form.dataset.typed;
    correcting(form, null);
  }

  // The form filled with `values` (queue.formValues): every text and every chip; a
  // bidder the form does not list stays unchosen, so that the scorer sees it is not.
  function fill(form, values) {
    for (const name of TEXTS) if (form.elements[name] && name in values) form.elements[name].value = values[name];
    for (const name of CHIPS) {
      if (!(name in values)) continue;
      for (const input of radios(form, name)) input.checked = values[name] !== "" && input.value === values[name];
    }
    const auction = form.querySelector("details.auction");
    if (auction && values.auction) auction.open = true;
    form.dataset.typed = "";
  }

  // What the scorer has put into a new deal's form, to be put back after the sheet
  // is read again under it (a send finished meanwhile); null when nothing was.
  function kept(form) {
    if (!form || valuesOf(form).replacing) return null;
    const values = valuesOf(form);
    const out = {};
    for (const name of TEXTS) out[name] = values[name] || "";
    for (const name of CHIPS) out[name] = values[name] || "";
    const touched = typed(form) || ["value", "taken", "auction", "declarer", "trump", "bidder"].some((n) => out[n])
      || out.level !== "none" || "correcting" in form.dataset;
    if (!touched) return null;
    if (!typed(form)) delete out.number;
    return { values: out, typed: typed(form), correcting: form.dataset.correcting || null };
  }

  function restore(form, was) {
    if (!form || !was || valuesOf(form).replacing) return;
    fill(form, was.values);
    if (!was.typed) delete form.dataset.typed;
    if (was.correcting) form.dataset.correcting = was.correcting;
  }

  // The form's label of each field named, as the page says it ("Declarer").
  function labelsOf(form, names) {
    return names.map((name) => {
      const field = form.elements[name];
      const one = field && (field.labels ? field : field[0]);
      if (one && one.type === "radio") {
        const legend = one.closest("fieldset") && one.closest("fieldset").querySelector("legend");
        if (legend) return legend.textContent.trim();
      }
      const label = one && one.labels && one.labels[0];
      return label ? label.textContent.trim() : name;
    });
  }

  // A form being used to correct a queued entry (its id), with the line that says so
  // and its Cancel; null ends it.
  function correcting(form, id, line) {
    const old = form.querySelector(".correcting");
    if (old) old.remove();
    if (id === null || id === undefined) {
      delete form.dataset.correcting;
      return;
    }
    form.dataset.correcting = String(id);
    if (line) {
      line.classList.add("correcting");
      form.prepend(line);
    }
  }

  return { valuesOf, typed, noteTyped, suggest, blank, fill, kept, restore, labelsOf, correcting };
});
