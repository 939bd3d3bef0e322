/* gpukb: tables on every page.
 * - A table wider than its container scrolls inside it (the theme's wrapper); the line under it that says so
 *   (p.gpukb-scroll-cue, written by the build after every table: kb/docs_hooks.py) is shown where it is wider.
 * - The filter above the card list and the matrices (kb/site/matrices.py filter_form, hidden without
 *   JavaScript) shows the rows of one family, with one verdict, or whose card name contains a text. */
(function () {
  "use strict";
  var de = (document.documentElement.lang || "de").slice(0, 2) === "de";
  var SHOWN = de ? function (n, all) { return n + " von " + all + " Karten"; }
                 : function (n, all) { return n + " of " + all + " cards"; };

  // Every width read first, then the attributes: one style and layout pass for the whole page. Reading a width after
  // each change made the browser lay the page out again for every table (the rules reference has hundreds: seconds
  // of CPU on a phone before the page answered a tap); inserting the cues here restyled the whole article once more
  // at every load (the build writes them now).
  function cues() {
    var wraps = Array.prototype.slice.call(document.querySelectorAll(".md-typeset__scrollwrap"));
    var overflows = wraps.map(function (wrap) {
      var inner = wrap.querySelector(".md-typeset__table") || wrap;
      return wrap.scrollWidth > wrap.clientWidth + 1 || inner.scrollWidth > wrap.clientWidth + 1;
    });
    wraps.forEach(function (wrap, i) {
      if (overflows[i]) {
        wrap.setAttribute("data-gpukb-overflows", "");
      } else {
        wrap.removeAttribute("data-gpukb-overflows");
      }
    });
  }

  function tablesAfter(form) {
    var out = [];
    var article = form.closest("article") || document;
    var seen = false;
    article.querySelectorAll(".gpukb-filter, table").forEach(function (el) {
      if (el === form) { seen = true; return; }
      if (el.classList && el.classList.contains("gpukb-filter")) { seen = false; return; }
      if (seen && el.tagName === "TABLE" && el.querySelector("[data-card]")) out.push(el);
    });
    return out;
  }

  function filter(form) {
    var families = JSON.parse(form.getAttribute("data-families") || "{}");
    var fam = form.querySelector('[data-filter="family"]');
    var verdict = form.querySelector('[data-filter="verdict"]');
    var text = form.querySelector('[data-filter="text"]');
    var output = form.querySelector("output");
    var tables = tablesAfter(form);

    function apply() {
      var f = fam ? fam.value : "", v = verdict ? verdict.value : "";
      var t = text ? text.value.trim().toLowerCase() : "";
      var shown = 0, all = 0;
      tables.forEach(function (table) {
        var visible = 0;
        table.querySelectorAll("tbody tr").forEach(function (row) {
          var cell = row.querySelector("[data-card]");
          if (!cell) return;
          all += 1;
          var card = cell.getAttribute("data-card");
          var ok = (!f || families[card] === f) &&
                   (!v || row.querySelector('[data-verdict="' + v + '"]') !== null) &&
                   (!t || row.cells[0].textContent.toLowerCase().indexOf(t) >= 0 || card.indexOf(t) >= 0);
          if (ok) { row.removeAttribute("data-gpukb-hidden"); shown += 1; visible += 1; }
          else row.setAttribute("data-gpukb-hidden", "");
        });
        var wrap = table.closest(".md-typeset__scrollwrap") || table;
        var heading = wrap.previousElementSibling;
        wrap.hidden = visible === 0;
        if (heading && /^H[2-3]$/.test(heading.tagName)) heading.hidden = visible === 0;
      });
      if (output) output.textContent = SHOWN(shown, all);
      cues();
    }
    [fam, verdict, text].forEach(function (el) { if (el) el.addEventListener("input", apply); });
    form.hidden = false;
    apply();
  }

  function init() {
    document.querySelectorAll(".gpukb-filter[hidden]").forEach(filter);
    cues();
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(function () { setTimeout(init, 0); });
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
  window.addEventListener("resize", cues);
})();
