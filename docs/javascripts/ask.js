/* gpukb "ask" page: picks an answer the engine computed at build time out of a static JSON file.
 *
 * No server, no other host: the JSON sits beside the page (its URL is the href of the link
 * #gpukb-ask-data; rule ids link to the page of the link #gpukb-ask-rules). Everything taken from the
 * JSON is put into the page with textContent, never as HTML, so catalog text cannot inject markup or
 * script. Verdict words and the data stamp come worded from the JSON, as on the generated pages.
 */
(function () {
  "use strict";

  var LABELS = {
    de: {
      conditions: "Bedingungen", reasons: "Begründung", sources: "Quellen", rule: "Regel",
      none: "nicht angegeben", loading: "Antworten werden geladen …",
      missing: "Für diese Auswahl hat die Wissensdatenbank keine Antwort berechnet.",
      failed: "Die Antworten konnten nicht geladen werden."
    },
    en: {
      conditions: "Conditions", reasons: "Why", sources: "Sources", rule: "Rule",
      none: "not given", loading: "Loading answers …",
      missing: "The knowledge base computed no answer for this choice.",
      failed: "The answers could not be loaded.", version: "data version", verified: "verified as of"
    }
  };

  function lang() {
    return (document.documentElement.lang || "de").slice(0, 2) === "en" ? "en" : "de";
  }

  function text(value) {
    if (value === null || value === undefined) return "";
    if (typeof value === "object") return String(value[lang()] !== undefined ? value[lang()] : value.en || "");
    return String(value);
  }

  function el(tag, attrs, content) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function safeUrl(url) {
    return /^https:\/\//.test(String(url || "")) ? String(url) : null;
  }

  function option(select, value, label) {
    var o = el("option", { value: value }, label);
    select.appendChild(o);
  }

  function ruleLink(rule, L, rulesPage) {
    if (rulesPage && /^[A-Z]+-[0-9]+$/.test(rule)) {
      var a = el("a", { href: rulesPage + "#" + rule.toLowerCase(), title: L.rule + " " + rule });
      a.appendChild(el("code", {}, rule));
      return a;
    }
    return el("code", { title: L.rule }, rule);
  }

  function render(out, answer, L, data, rulesPage) {
    out.textContent = "";
    if (!answer) {
      out.appendChild(el("p", { "class": "gpukb-ask-missing" }, L.missing));
      return;
    }
    var verdict = el("p", { "class": "gpukb-verdict gpukb-v-" + answer.verdict, "data-verdict": answer.verdict },
      (data.verdicts || {})[answer.verdict] || answer.verdict);
    out.appendChild(verdict);
    out.appendChild(el("p", { "class": "gpukb-ask-summary" }, text(answer.summary)));
    var conditions = answer.conditions || [];
    if (conditions.length) {
      out.appendChild(el("h3", {}, L.conditions));
      var ol = el("ol", { "class": "gpukb-ask-conditions" });
      conditions.forEach(function (c) { ol.appendChild(el("li", {}, text(c))); });
      out.appendChild(ol);
    }
    var reasons = answer.reasons || [];
    if (reasons.length) {
      out.appendChild(el("h3", {}, L.reasons));
      var ul = el("ul", { "class": "gpukb-ask-reasons" });
      reasons.forEach(function (i) {
        var r = data.reasons[i];
        var li = el("li");
        li.appendChild(el("span", {}, text(r.text) + " "));
        li.appendChild(ruleLink(r.rule, L, rulesPage));
        var cites = r.citations || [];
        if (cites.length) {
          var src = el("ul", { "class": "gpukb-ask-sources" });
          cites.forEach(function (j) {
            var c = data.citations[j];
            var item = el("li");
            var url = safeUrl(c.url);
            var title = text(c.title);
            if (url) {
              item.appendChild(el("a", { href: url, rel: "noopener" }, title));
            } else {
              item.appendChild(el("span", {}, title));
            }
            if (c.quote) item.appendChild(el("q", {}, text(c.quote)));
            src.appendChild(item);
          });
          li.appendChild(src);
        }
        ul.appendChild(li);
      });
      out.appendChild(ul);
    }
  }

  function setup(root, data, rulesPage) {
    var L = LABELS[lang()];
    var card = root.querySelector("#gpukb-ask-card");
    var operator = root.querySelector("#gpukb-ask-operator");
    var driver = root.querySelector("#gpukb-ask-driver");
    var out = root.querySelector("#gpukb-ask-answer");
    data.cards.forEach(function (c) { option(card, c.id, c.name); });
    data.operators.forEach(function (v) { option(operator, v, v); });
    option(driver, "", L.none);
    data.drivers.forEach(function (v) { option(driver, v, v); });
    var stamp = root.querySelector("#gpukb-ask-stamp");
    stamp.textContent = data.stamp || "";
    function update() {
      var key = [card.value, operator.value, driver.value].join("|");
      render(out, data.answers[key], L, data, rulesPage);
      root.setAttribute("data-answered", key);
    }
    [card, operator, driver].forEach(function (s) { s.addEventListener("change", update); });
    update();
  }

  function start() {
    var root = document.getElementById("gpukb-ask");
    var link = document.getElementById("gpukb-ask-data");
    var rules = document.getElementById("gpukb-ask-rules");
    var rulesPage = rules ? rules.href.split("#")[0] : null;
    if (!root || !link) return;
    var L = LABELS[lang()];
    var out = root.querySelector("#gpukb-ask-answer");
    out.textContent = L.loading;
    fetch(link.href)
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (data) { setup(root, data, rulesPage); })
      .catch(function () { out.textContent = L.failed; });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
