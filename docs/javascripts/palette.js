/* gpukb: the light/dark toggle in the header, in place of mkdocs-material's palette component (9.x), which
 * overrides/partials/palette.html keeps from mounting. The same behaviour: the palette saved by the reader
 * (material's "__palette" in localStorage, which material's inline script in the header applies before the page's
 * content is read), else the one whose media query matches (light or dark, as the system prefers); the toggle
 * shows the label of the other palette; a choice is saved for the next page; Enter on the toggle switches;
 * <meta name="theme-color"> and <meta name="color-scheme"> follow the header's colours.
 *
 * Why not material's: at EVERY page load its component set data-md-color-switching on <body> (material's
 * palette.css turns transitions off below it: a style pass over every element of the page), appended a
 * <meta name="color-scheme"> and set it (each a style pass over the whole page), read the header's computed style
 * in between and took the attribute off again in the next frame (one more pass) — more than half of the style
 * work of loading a large page (the rules reference: ~47,000 elements styled → ~24,000), on a reader's phone as
 * in the tests. This script changes <body> only where the palette differs from what it shows, and the head
 * already names the first palette's color scheme (overrides/main.html), so an unchanged palette costs nothing. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-gpukb-palette]");
  if (!form || typeof __md_get !== "function") return;
  var inputs = Array.prototype.slice.call(form.querySelectorAll("input"));
  var body = document.body;
  var KEYS = ["media", "scheme", "primary", "accent"];

  function meta(name) {
    var el = document.querySelector('meta[name="' + name + '"]');
    if (!el) {
      el = document.createElement("meta");
      el.name = name;
      document.head.appendChild(el);
    }
    return el;
  }
  var theme = meta("theme-color"), scheme = meta("color-scheme");

  function colours(input) {
    var color = {};
    KEYS.forEach(function (key) { color[key] = input.getAttribute("data-md-color-" + key); });
    return color;
  }

  function palette(index) {
    var color = colours(inputs[index]);
    if (color.media === "(prefers-color-scheme)") {  // "automatic": the light or the dark one, as the system says
      var light = matchMedia("(prefers-color-scheme: light)").matches;
      var match = form.querySelector(light ? "[data-md-color-media='(prefers-color-scheme: light)']"
                                           : "[data-md-color-media='(prefers-color-scheme: dark)']");
      if (match) color = colours(match);
    }
    return { index: index, color: color };
  }

  function apply(state) {
    var changed = KEYS.filter(function (key) { return body.getAttribute("data-md-color-" + key) !== state.color[key]; });
    // the body as built names scheme, primary and accent but no media: no style reads the media, so setting it
    // alone (a reader's first visit) is no change of colours and needs no pause of the transitions
    if (changed.some(function (key) { return key !== "media"; })) {
      body.setAttribute("data-md-color-switching", "");  // no transitions while the colours change
      requestAnimationFrame(function () { body.removeAttribute("data-md-color-switching"); });
    }
    changed.forEach(function (key) { body.setAttribute("data-md-color-" + key, state.color[key]); });
    inputs.forEach(function (input, i) {
      var label = input.nextElementSibling;
      if (label instanceof HTMLElement) label.hidden = state.index !== i;
    });
    __md_set("__palette", state);
    var header = document.querySelector("[data-md-component=header]");
    if (!header) return;
    var style = getComputedStyle(header);
    if (style.colorScheme && scheme.content !== style.colorScheme) scheme.content = style.colorScheme;
    var rgb = (style.backgroundColor.match(/\d+/g) || []).slice(0, 3);
    var hex = "#" + rgb.map(function (c) { return (+c).toString(16).padStart(2, "0"); }).join("");
    if (rgb.length === 3 && theme.content !== hex) theme.content = hex;
  }

  var saved = __md_get("__palette");
  var index = saved && typeof saved.index === "number" ? saved.index
    : inputs.findIndex(function (input) { return matchMedia(input.getAttribute("data-md-color-media")).matches; });
  var current = palette(Math.max(0, Math.min(index, inputs.length - 1)));
  apply(current);

  inputs.forEach(function (input, i) {
    input.addEventListener("change", function () { current = palette(i); apply(current); });
  });
  // an "automatic" palette follows the system while the page is open (for the others this changes nothing)
  var system = matchMedia("(prefers-color-scheme: light)");
  if (system.addEventListener) system.addEventListener("change", function () { current = palette(current.index); apply(current); });
  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var next = (current.index + 1) % inputs.length;
    inputs[next].click();
    inputs[next].focus();
  });
})();
