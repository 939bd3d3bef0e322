/* gpukb "ask" page: the six questions of `gpukb ask`, answered from answers the rule engine computed when
 * the site was built (kb/site/askdata.py), without a server.
 *
 * - Data: data/shared.json (releases, card names, DRA, recommendations without a card, the node part of
 *   the MIG strategy) and data/cards/<id>.json per card, beside the page (the href of #gpukb-ask-data).
 * - A typed driver or Kubernetes version is mapped onto the interval of the catalog's versions it falls
 *   into; the answer of that interval is a template whose slots (U+E000 name U+E001) take the typed value.
 * - The strategy answer is put together from the engine's conclusions about the node and about each GPU,
 *   as kb.questions.strategy.fold does (its rules each match one fact; the build checks that).
 * - The page's state lives in the URL (q, card, operator, driver, k8s, profile, strategy, time-slicing,
 *   mps, rename-by-default, mig-enabled, gpu, workload, feature, isolation): a link shows the same answer.
 *   Each question asked in the form is an entry of the browser's history: back and forward show the question
 *   before and after (popstate reads the address again, as a load of it would).
 * - Everything from the data is put into the page with textContent, never as HTML; links only for
 *   http(s) URLs.
 */
(function () {
  "use strict";

  var OPEN = "\ue000", CLOSE = "\ue001";
  var SLOT = /\ue000([a-z0-9_-]+)\ue001/g;
  var RANK = { yes: 0, conditional: 1, unconfirmed: 2, no: 3 };
  var FILLER = { nvidia: 1, blackwell: 1, edition: 1, gpu: 1 };
  var QUESTIONS = ["mig", "methods", "resource", "strategy", "dra", "recommend"];
  var MAX_REPLICAS = BigInt("9223372036854775807");

  var WORDS = {
    de: {
      why: "Warum", conditions: "Bedingungen", details: "Details", sources: "Quellen", rule: "Regel", translation: "Übersetzung",
      loading: "Antworten werden geladen …", failed: "Die Antworten konnten nicht geladen werden.",
      stamp: "Datenversion {v} · geprüft am {d}", link: "Link zu dieser Antwort", copied: "Link kopiert",
      none: "keine Angabe", noCard: "ohne Karte", gpu: "GPU {n}", add: "GPU hinzufügen", remove: "entfernen",
      layout: "MIG-Layout", noMig: "ohne MIG",
      emptyCard: "der Kartenname ist leer",
      unknownCard: "unbekannte Karte {name}", didYouMean: " – meinten Sie: {list}",
      ambiguousCard: "{name} passt auf mehrere Karten: {list}",
      fitsOne: "{name} passt auf mehrere Karten, die übrigen Angaben nur auf {card}: nennen Sie sie",
      answersDiffer: "{name} passt auf mehrere Karten mit unterschiedlichen Antworten – {list}; nennen Sie eine davon",
      sameForAll: "{name} passt auf {n} Karten ({list}); die Antwort ist für alle gleich. ",
      severalCards: "{name} nennt mehrere Karten: {list}; fragen Sie je Aufruf nach einer Karte",
      badOperator: "GPU Operator {v} ist kein Release, das wir kennen; bekannt: {known}",
      severalOps: "GPU Operator {v} passt auf mehrere Releases: {list}; nennen Sie das Patch-Release",
      badDriver: "{v} ist keine Treiberversion (z. B. 575.57.08)",
      badK8s: "{v} ist keine Kubernetes-Version (z. B. 1.34.2)",
      k8sMissing: "sagen Sie, welche Kubernetes-Version der Cluster hat (z. B. 1.34.2)",
      k8sMinor: "Kubernetes {minor} ohne Patch-Release lässt sich nicht beantworten: NVIDIAs DRA-Treiber braucht {min} oder neuer; geben Sie an, welches {minor}.x der Cluster hat",
      badReplicas: "Replikate müssen eine ganze Zahl unter 2^63 sein, nicht {v}",
      fewReplicas: "Replikate müssen mindestens {min} sein, nicht {v}: Das Device-Plugin lehnt eine geteilte Ressource mit weniger ab („number of replicas must be >= {min}“) und startet nicht",
      bothSharing: "wählen Sie entweder Time-Slicing oder MPS",
      nothing: "sagen Sie, was der Pod bekommt: ein MIG-Profil, Time-Slicing oder MPS",
      strategyNeedsProfile: "die MIG-Strategie braucht ein MIG-Profil",
      renameNeedsSharing: "renameByDefault braucht Time-Slicing oder MPS",
      noProfiles: "Die {name} hat keine MIG-Profile",
      badProfile: "unbekanntes MIG-Profil {p} für die {name}; bekannt: {known}",
      migEnabled: "„MIG aktiviert“ passt nicht zur {name}: Sie steht nicht auf NVIDIAs Liste der MIG-fähigen GPUs",
      noGpus: "nennen Sie die GPUs des Nodes (einmal je GPU)",
      layoutIncomplete: "unvollständiges MIG-Layout", layoutProfile: "unbekanntes MIG-Profil {p} für die {name}",
      layoutTail: " in {spec}; Profile der {name}: {known}; Layouts: all-<Profil>, <Profil>,<Profil>,… oder none",
      noneProfiles: "keine (die Karte hat keine MIG-Profile)",
      fitsCount: "{spec} passt nicht auf eine {name}: {n} × {p}, die Karte fasst höchstens {max}",
      fitsSlices: "{spec} passt nicht auf eine {name}: Die Profile brauchen {used} Compute-Slices, die Karte hat {total}",
      badInstall: "unbekannte Installationsart des DRA-Treibers {v}; bekannt: operator, standalone",
      badDraDriver: "unbekanntes Release des eigenständigen DRA-Treibers {v}; bekannt: {known}",
      draDriverManaged: "Ein Release des DRA-Treibers gibt es nur für den eigenständig installierten Treiber; der vom GPU Operator verwaltete ist der seines Releases (wählen Sie „eigenständig“ oder kein Release)",
      badWorkload: "wählen Sie einen Workload", missing: "Für diese Auswahl gibt es keine Antwort."
    },
    en: {
      why: "Why", conditions: "Conditions", details: "Details", sources: "Sources", rule: "Rule", translation: "German original; our translation",
      loading: "Loading answers …", failed: "The answers could not be loaded.",
      stamp: "Data version {v} · verified as of {d}", link: "Link to this answer", copied: "Link copied",
      none: "not given", noCard: "no card", gpu: "GPU {n}", add: "Add a GPU", remove: "remove",
      layout: "MIG layout", noMig: "no MIG",
      emptyCard: "the card name is empty",
      unknownCard: "unknown card {name}", didYouMean: " — did you mean: {list}",
      ambiguousCard: "{name} fits several cards: {list}",
      fitsOne: "{name} fits several cards and the other inputs only {card}: name it",
      answersDiffer: "{name} fits several cards whose answers differ — {list}; name one of them",
      sameForAll: "{name} fits {n} cards ({list}); the answer is the same for all of them. ",
      severalCards: "{name} names several cards: {list}; ask about one card at a time",
      badOperator: "GPU Operator {v} is not a release we know; known releases: {known}",
      severalOps: "GPU Operator {v} fits several releases: {list}; name the patch release",
      badDriver: "{v} is not a driver version (e.g. 575.57.08 or 580.82)",
      badK8s: "{v} is not a Kubernetes version (e.g. 1.34.2)",
      k8sMissing: "say which Kubernetes version the cluster runs (e.g. 1.34.2)",
      k8sMinor: "Kubernetes {minor} without a patch release cannot be answered: NVIDIA's DRA driver needs {min} or newer; say which {minor}.x the cluster runs",
      badReplicas: "replicas must be a whole number below 2^63, not {v}",
      fewReplicas: "replicas must be at least {min}, not {v}: the device plugin refuses a shared resource with fewer (\"number of replicas must be >= {min}\") and does not start",
      bothSharing: "choose one of time-slicing and MPS",
      nothing: "say what the pod gets: a MIG profile, time-slicing or MPS",
      strategyNeedsProfile: "the MIG strategy needs a MIG profile",
      renameNeedsSharing: "renameByDefault needs time-slicing or MPS",
      noProfiles: "{name} has no MIG profiles",
      badProfile: "unknown MIG profile {p} for {name}; known: {known}",
      migEnabled: "“MIG enabled” does not fit {name}: it is not on NVIDIA's list of MIG-capable GPUs",
      noGpus: "name the node's GPUs (once per GPU)",
      layoutIncomplete: "incomplete MIG layout", layoutProfile: "unknown MIG profile {p} for {name}",
      layoutTail: " in {spec}; profiles of {name}: {known}; layouts: all-<profile>, <profile>,<profile>,… or none",
      noneProfiles: "none (the card has no MIG profiles)",
      fitsCount: "{spec} does not fit on one {name}: {n} × {p}, but the card holds at most {max}",
      fitsSlices: "{spec} does not fit on one {name}: its profiles need {used} compute slices, the card has {total}",
      badInstall: "unknown way to install the DRA driver {v}; known: operator, standalone",
      badDraDriver: "unknown standalone DRA driver release {v}; known: {known}",
      draDriverManaged: "A release of the DRA driver names the driver installed on its own; the driver the GPU Operator manages is the one of its release (choose “on its own” or no release)",
      badWorkload: "choose a workload", missing: "There is no answer for this choice."
    }
  };

  function lang() {
    return (document.documentElement.lang || "de").slice(0, 2) === "en" ? "en" : "de";
  }

  function say(key, values) {
    return String(WORDS[lang()][key]).replace(/\{([a-z]+)\}/g, function (m, k) {
      return values && values[k] !== undefined ? String(values[k]) : m;
    });
  }

  function Problem(message) { this.message = message; }

  function shown(text) {  // kb.versions.shown: 'L5' in English, „L5“ in German
    text = String(text);
    text = text.length <= 60 ? text : text.slice(0, 60) + "…";
    return lang() === "de" ? "„" + text + "“" : "'" + text + "'";
  }

  // ---------------------------------------------------------------- versions (kb/versions.py)

  var VERSION = /^\s*[vV]?(\d+(?:\.\d+){0,3})\s*$/;

  function parseVersion(text) {
    var m = VERSION.exec(String(text));
    if (!m) return null;
    var parts = m[1].split(".").map(function (p) { return parseInt(p, 10); });
    if (parts.some(function (p) { return p > 999; })) return null;
    return { text: m[1], parts: parts };
  }

  function key4(parts) { return (parts.concat([0, 0, 0, 0])).slice(0, 4); }

  function cmp(a, b) {
    for (var i = 0; i < 4; i++) { if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1; }
    return 0;
  }

  function classify(key, classes) {
    for (var i = 0; i < classes.length; i++) {
      var c = classes[i];
      if (c.at) { if (cmp(key, c.at) === 0) return i; continue; }
      if ((!c.above || cmp(key, c.above) > 0) && (!c.below || cmp(key, c.below) < 0)) return i;
    }
    return -1;
  }

  function operator(data, text) {
    var known = data.ops;
    if (text === null || text === undefined || String(text).trim() === "") return known[0];
    var v = parseVersion(text);
    if (!v) throw new Problem(say("badOperator", { v: shown(text), known: known.join(", ") }));
    if (v.parts.length < 3) {
      var prefix = known.filter(function (op) {
        var p = key4(parseVersion(op).parts);
        return v.parts.every(function (x, i) { return p[i] === x; });
      });
      if (prefix.length === 1) return prefix[0];
      if (prefix.length > 1) throw new Problem(say("severalOps", { v: v.parts.join("."), list: prefix.join(", ") }));
    }
    var wanted = key4(v.parts);
    for (var i = 0; i < known.length; i++) {
      if (cmp(key4(parseVersion(known[i]).parts), wanted) === 0) return known[i];
    }
    throw new Problem(say("badOperator", { v: v.parts.join("."), known: known.join(", ") }));
  }

  function driver(text) {
    var v = parseVersion(text);
    if (!v || v.parts.length < 2) throw new Problem(say("badDriver", { v: shown(text) }));
    return v;
  }

  function kubernetes(data, text) {
    if (text === null || text === undefined || String(text).trim() === "") throw new Problem(say("k8sMissing"));
    var v = parseVersion(text);
    if (!v || v.parts.length < 2 || v.parts.length > 3) throw new Problem(say("badK8s", { v: shown(text) }));
    var normal = v.parts.concat([0]).slice(0, 3);
    var min = data.dra_min_kubernetes ? parseVersion(data.dra_min_kubernetes) : null;
    if (min && v.parts.length === 2 && v.parts[0] === min.parts[0] && v.parts[1] === min.parts[1] &&
        cmp(key4(v.parts), key4(min.parts)) < 0) {
      throw new Problem(say("k8sMinor", { minor: normal.slice(0, 2).join("."), min: data.dra_min_kubernetes }));
    }
    return { text: normal.join("."), parts: normal };
  }

  function replicas(text, min) {
    var m = /^\s*([+-]?)(\d+)\s*$/.exec(String(text));
    var n = m ? BigInt(m[1] === "-" ? "-" + m[2] : m[2]) : null;
    if (n === null || n > MAX_REPLICAS) throw new Problem(say("badReplicas", { v: shown(text) }));
    if (n < BigInt(min)) throw new Problem(say("fewReplicas", { v: n.toString(), min: min }));
    return n.toString();
  }

  // ---------------------------------------------------------------- card names (kb/catalog/names.py)

  function normalise(name) {
    var s = String(name).normalize("NFKC").toLowerCase().replace(/[\s\-_/.,()]+/g, "");
    return s.indexOf("nvidia") === 0 && s.length > 6 ? s.slice(6) : s;
  }

  function wordsOf(name) {
    var found = String(name).normalize("NFKC").toLowerCase().match(/[a-z]+|\d+/g) || [];
    var out = {};
    found.forEach(function (w) { if (!FILLER[w]) out[w] = 1; });
    return out;
  }

  // tokens with a letter glued to a model number ("a10g", "l40s"): another product than the number without it
  function gluedOf(name) {
    var text = String(name).normalize("NFKC").toLowerCase().replace(/[^a-z0-9]+/g, " ");
    var out = {};
    (text.match(/[a-z]*\d+[a-z]+/g) || []).forEach(function (g) { out[g] = 1; });
    return out;
  }

  // a run of letters and digits as typed: the words a slip misspells; one longer than RUN_MAX is none
  var RUN_MAX = 40;
  function runsOf(name) { return String(name).normalize("NFKC").toLowerCase().match(/[a-z0-9]+/g) || []; }
  // letters O typed for zeros after a digit: "a1oo" → "a100"
  function digitsForO(run) { return run.replace(/(\d)(o+)/g, function (m, d, o) { return d + "0".repeat(o.length); }); }

  // a PCI device id as the driver and lspci write it: "0x2335", "2335", "0x233510DE", "10de:2335" → "pci:2335"
  function pciKey(name) {
    var m = String(name).trim().match(/^(?:0x|10de:)?([0-9a-f]{4})(?:10de)?$/i);
    return m && /\d/.test(m[1]) ? "pci:" + m[1].toLowerCase() : null;
  }

  function subset(a, b) { return Object.keys(a).every(function (k) { return b[k]; }); }
  function size(a) { return Object.keys(a).length; }
  function same(a, b) { return size(a) === size(b) && subset(a, b); }
  function union(a, b) { var out = {}; [a, b].forEach(function (x) { Object.keys(x).forEach(function (k) { out[k] = 1; }); }); return out; }

  var CONNECTORS = { or: 1, and: 1, oder: 1, und: 1, vs: 1, versus: 1 };
  var SPLIT = /\s*(?:[,;&]|\b(?:or|and|oder|und|vs\.?|versus)\b)\s*/i;

  // the Python resolver's steps (kb/catalog/names.py): exact name (a node label without its -SHARED/-MIG suffix),
  // the words of one name in any order, a name naming several cards (refused), a part of names (ambiguous or "did
  // you mean"), else "did you mean" the closest names or the names the typed words hold — never a guess
  function nameIndex(data) {
    var ix = { exact: {}, wordsets: [], glued: {}, vocab: {}, qualifiers: {}, byId: {}, runs: {} };
    data.cards.forEach(function (c) {
      ix.byId[c.id] = c;
      ix.glued[c.id] = ix.glued[c.id] || {};
      ix.vocab[c.id] = ix.vocab[c.id] || {};
      ix.qualifiers[c.id] = ix.qualifiers[c.id] || {};
      c.names.forEach(function (n) {
        (ix.exact[normalise(n)] = ix.exact[normalise(n)] || {})[c.id] = 1;
        var ws = wordsOf(n);
        if (size(ws)) { ix.wordsets.push([ws, c.id]); ix.vocab[c.id] = union(ix.vocab[c.id], ws); }
        var g = gluedOf(n);
        ix.glued[c.id] = union(ix.glued[c.id], g);
        ix.glued[c.id][normalise(n)] = 1;
        ix.qualifiers[c.id] = union(ix.qualifiers[c.id], g);
        runsOf(n).forEach(function (r) { if (r.length <= RUN_MAX) ix.runs[r] = 1; });
      });
      (c.pci || []).forEach(function (dev) {
        var k = pciKey(dev);
        if (k) (ix.exact[k] = ix.exact[k] || {})[c.id] = 1;
      });
    });
    return ix;
  }

  function qualified(quals, typed, suffixed) {
    return Object.keys(quals).some(function (g) { var m = g.match(/\d+/); return typed[m[0]] && !suffixed[g]; });
  }

  // a node label's suffixes: "-SHARED" (time-slicing or MPS renamed the resource), "-MIG-<profile>" (mixed strategy)
  var LABEL_SUFFIX = /(?:-SHARED|-MIG-\d+g\.\d+gb(?:[+-][a-z.]+)*(?:-SHARED)?)$/i;

  function productName(label) { return String(label).trim().replace(LABEL_SUFFIX, ""); }

  // { ids, ambiguous, several } — ids empty: nothing fits
  function lookup(ix, name) {
    var key = normalise(name);
    if (!key) return { ids: [] };
    var hits = Object.keys(ix.exact[key] || {});
    if (!hits.length) hits = Object.keys(ix.exact[pciKey(name) || ""] || {});
    if (!hits.length && productName(name) !== String(name).trim()) {
      name = productName(name);  // a GPU Feature Discovery label with its -MIG-… or -SHARED suffix
      key = normalise(name);
      hits = Object.keys(ix.exact[key] || {});
    }
    var typed = wordsOf(name), suffixed = gluedOf(name);
    if (!hits.length && size(typed)) {
      var eq = {};
      ix.wordsets.forEach(function (e) { if (same(e[0], typed) && subset(suffixed, ix.glued[e[1]])) eq[e[1]] = 1; });
      hits = Object.keys(eq);
    }
    if (hits.length === 1) return { ids: hits };
    if (hits.length > 1) {
      var plain = hits.filter(function (id) { return ix.byId[id].plain; });
      return plain.length === 1 ? { ids: plain } : { ids: hits.sort(), ambiguous: true };
    }
    var several = severalOf(ix, name, typed, suffixed);
    if (several.length) return { ids: several, ambiguous: true, several: true };
    var partial = {};
    if (size(typed)) {
      ix.wordsets.forEach(function (e) { if (subset(typed, e[0]) && size(typed) < size(e[0])) partial[e[1]] = 1; });
    }
    var ids = Object.keys(partial).sort();
    var plainIds = ids.filter(function (id) { return !qualified(ix.qualifiers[id], typed, suffixed); });
    ids = plainIds.length ? plainIds : ids;
    if (ids.length) return { ids: ids, ambiguous: ids.length > 1, partial: true };
    ids = closeCards(ix, key);
    if (!ids.length) ids = within(ix, typed);
    if (!ids.length) ids = respelled(ix, name);
    return { ids: ids, partial: true };
  }

  // the cards the name would name (or be close to) with each run in no card name read as the closest run that is
  // (a letter O after a digit as a zero; difflib's ratio >= 0.7, the larger run on a tie): [] where none changes
  function respelled(ix, name) {
    var typed = runsOf(name), changed = false;
    var fixed = typed.map(function (run) {
      if (ix.runs[run] || run.length > RUN_MAX) return run;
      var zeros = digitsForO(run);
      var best = ix.runs[zeros] ? zeros : closestRun(ix, zeros);
      if (best === null || best === run) return run;
      changed = true;
      return best;
    });
    return changed ? lookup(ix, fixed.join(" ")).ids : [];
  }

  // difflib.get_close_matches(run, runs, n=1, cutoff=0.7)[0], or null
  function closestRun(ix, run) {
    var b = Array.from(run), b2j = {}, best = null, bestScore = -1;
    b.forEach(function (c, j) { (b2j[c] = b2j[c] || []).push(j); });
    Object.keys(ix.runs).forEach(function (x) {
      var a = Array.from(x), total = a.length + b.length;
      var score = total ? 2.0 * matched(a, b, b2j) / total : 1.0;
      if (score >= 0.7 && (score > bestScore || (score === bestScore && x > best))) { best = x; bestScore = score; }
    });
    return best;
  }

  // "did you mean": the cards of the (at most five) names closest to the typed one, as Python's
  // difflib.get_close_matches(key, names, n=5, cutoff=0.6) finds them; at most three cards
  function closeCards(ix, key) {
    var b = Array.from(key), scored = [];
    // (difflib's "autojunk" for texts of 200 characters or more changes nothing here: no card name is long enough
    // for such a text to reach 0.6)
    var b2j = {};
    b.forEach(function (c, j) { (b2j[c] = b2j[c] || []).push(j); });
    Object.keys(ix.exact).forEach(function (x) {
      var a = Array.from(x), total = a.length + b.length;
      var score = total ? 2.0 * matched(a, b, b2j) / total : 1.0;
      if (score >= 0.6) scored.push([score, x]);
    });
    scored.sort(function (p, q) { return q[0] - p[0] || (q[1] > p[1] ? 1 : q[1] < p[1] ? -1 : 0); });
    var out = [];
    scored.slice(0, 5).forEach(function (s) {
      Object.keys(ix.exact[s[1]]).sort().forEach(function (id) { if (out.indexOf(id) < 0) out.push(id); });
    });
    return out.slice(0, 3);
  }

  // how many characters a and b have in common: difflib.SequenceMatcher's matching blocks, summed
  function matched(a, b, b2j) {
    var queue = [[0, a.length, 0, b.length]], total = 0;
    while (queue.length) {
      var q = queue.pop(), alo = q[0], ahi = q[1], blo = q[2], bhi = q[3];
      var besti = alo, bestj = blo, bestsize = 0, j2len = {};
      for (var i = alo; i < ahi; i++) {
        var next = {}, js = b2j[a[i]] || [];
        for (var n = 0; n < js.length; n++) {
          var j = js[n];
          if (j < blo) continue;
          if (j >= bhi) break;
          var k = next[j] = (j2len[j - 1] || 0) + 1;
          if (k > bestsize) { besti = i - k + 1; bestj = j - k + 1; bestsize = k; }
        }
        j2len = next;
      }
      while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) { besti--; bestj--; bestsize++; }
      while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize++;
      if (bestsize) {
        total += bestsize;
        if (alo < besti && blo < bestj) queue.push([alo, besti, blo, bestj]);
        if (besti + bestsize < ahi && bestj + bestsize < bhi) queue.push([besti + bestsize, ahi, bestj + bestsize, bhi]);
      }
    }
    return total;
  }

  // cards one of whose names the typed words hold ("H100 SXM5 80GB HBM3" holds "H100 SXM5 80GB"), the longest
  // name first; at most three
  function within(ix, typed) {
    var held = ix.wordsets.filter(function (e) { return subset(e[0], typed); }).map(function (e) { return [size(e[0]), e[1]]; });
    held.sort(function (p, q) { return q[0] - p[0] || (p[1] < q[1] ? -1 : p[1] > q[1] ? 1 : 0); });
    var out = [];
    held.forEach(function (h) { if (out.indexOf(h[1]) < 0) out.push(h[1]); });
    return out.slice(0, 3);
  }

  function severalOf(ix, name, typed, suffixed) {
    var parts = String(name).split(SPLIT).filter(function (p) { return p && p.trim(); });
    var found = {};
    if (parts.length > 1) {
      for (var i = 0; i < parts.length; i++) {
        var r = lookup(ix, parts[i]);
        if (!r.ids.length || (r.partial && !r.ambiguous)) return [];
        r.ids.forEach(function (id) { found[id] = 1; });
      }
      return size(found) > 1 ? Object.keys(found).sort() : [];
    }
    var best = {};
    ix.wordsets.forEach(function (e) {
      if (subset(e[0], typed) && (!best[e[1]] || size(e[0]) > size(best[e[1]]))) best[e[1]] = e[0];
    });
    var keep = Object.keys(best).filter(function (c) {
      return !Object.keys(best).some(function (d) { return subset(best[c], best[d]) && size(best[c]) < size(best[d]); });
    });
    if (keep.length < 2) return [];
    var vocab = CONNECTORS, glue = {};
    keep.forEach(function (c) { vocab = union(vocab, ix.vocab[c]); glue = union(glue, ix.glued[c]); });
    return subset(typed, vocab) && subset(suffixed, glue) ? keep.sort() : [];
  }

  var indexed = { data: null, ix: null };  // the names of the one catalog the page loaded, indexed once

  function resolveCard(data, name) {
    if (String(name).trim() === "") throw new Problem(say("emptyCard"));
    if (indexed.data !== data) indexed = { data: data, ix: nameIndex(data) };
    var ix = indexed.ix;
    var list = function (ids) {
      // a card by its name, in the order found; its id only where two of them share a name (kb.questions.base.card_id)
      var shorts = ids.map(function (id) { return ix.byId[id].short; });
      return ids.map(function (id, i) {
        var s = shorts[i];
        return shorts.indexOf(s) === shorts.lastIndexOf(s) ? s : s + " (" + id + ")";
      }).join("; ");
    };
    var r = lookup(ix, name);
    if (r.ids.length === 1 && !r.partial) return r.ids[0];
    if (r.several) throw new Problem(say("severalCards", { name: shown(name), list: list(r.ids) }));
    if (r.ambiguous) {  // ask() answers once where every card it fits gets the same answer (as the CLI)
      var p = new Problem(say("ambiguousCard", { name: shown(name), list: list(r.ids) }));
      p.fits = r.ids.slice().sort();
      p.typed = name;
      throw p;
    }
    var unknown = new Problem(say("unknownCard", { name: shown(name) }) + (r.ids.length ? say("didYouMean", { list: list(r.ids) }) : ""));
    unknown.suggested = r.ids.slice();
    throw unknown;
  }

  // ---------------------------------------------------------------- answers

  function fill(text, values) {
    return String(text).replace(SLOT, function (m, name) { return values[name] !== undefined ? values[name] : m; });
  }

  // a template filled in; what it says of the asked release (values.operator) comes from the shared file's
  // `releases`: the versions its components ship and the citations of its own entry (kb/site/askbatch.py)
  function answerOf(shared, table, index, values) {
    var a = table.answers[index];
    if (!a) throw new Problem(say("missing"));
    var release = values.operator ? shared.releases[values.operator] : null;
    if (release) {
      var all = {};
      Object.keys(release.values).forEach(function (k) { all[k] = release.values[k]; });
      Object.keys(values).forEach(function (k) { all[k] = values[k]; });
      values = all;
    }
    function cites(j) {
      var c = table.cites[j];
      if (c.release === undefined) return [c];
      if (!release) throw new Problem(say("missing"));
      return release.cites[c.release].map(function (k) { return shared.cites[k]; });
    }
    return {
      verdict: a.verdict, summary: fill(a.summary, values),
      conditions: a.conditions.map(function (c) { return fill(c, values); }),
      reasons: a.reasons.map(function (i) {
        var r = table.reasons[i];
        return { rule: r.rule, text: fill(r.text, values),
          cites: r.cites.reduce(function (out, j) { return out.concat(cites(j)); }, []) };
      }),
      details: a.details.map(function (d) { return fill(d, values); })
    };
  }

  // what follows from a replica count, as kb.questions.resource.facts builds it (kb.site.askdata.derived; the
  // build checks that the facts agree), shown as the engine shows a number (an integer float without ".0")
  function pyRound1(x) {
    // Python's round(x, 1): the exact binary value, a tie to the even digit (ties only where 4x is whole)
    if (Number.isInteger(x * 4) && (x * 20) % 2 === 1) {
      var q = Math.floor(x * 10);
      return (q % 2 === 0 ? q : q + 1) / 10;
    }
    return Number(x.toFixed(1));
  }

  function derived(n, info, op) {
    var count = BigInt(n);
    var out = { operator: op, replicas: count.toString(), client_thread_percentage: (BigInt(100) / count).toString() };
    if (info.memory_gb) out.client_memory_gb = String(pyRound1(info.memory_gb / Number(count)));
    return out;
  }

  // what follows from a MIG profile's name, as kb.site.askdata.profile_derived gives it (one resource template stands
  // for a card's plain profiles, and one for its variants, where one is shared; the build checks that their facts
  // differ only so)
  function migResource(profile) { return "nvidia.com/" + ("mig-" + profile).replace(/\+/g, "."); }

  function profileValues(profile, info, values) {
    var variant = (info.variants || {})[profile];
    var base = variant && profile.slice(-variant.length) === variant ? profile.slice(0, -variant.length) : profile;
    values.profile = profile;
    values.own_resource = values.mig_resource = migResource(profile);
    values.base_profile = base;
    values.base_resource = migResource(base);
    values.profile_count = String(info.counts[profile]);
    return values;
  }

  function cardGroup(card, op) {
    var g = card.ops[op];
    if (g === undefined) throw new Problem(say("missing"));
    return card.groups[g];
  }

  function driverClass(card, typed) {
    if (!typed) return 0;
    var i = classify(key4(typed.parts), card.classes);
    if (i < 0) throw new Problem(say("missing"));
    return i + 1;
  }

  var ASK = {
    mig: function (s, ctx) {
      var card = ctx.card(s.card), op = operator(ctx.shared, s.operator);
      var drv = s.driver ? driver(s.driver) : null;
      var group = cardGroup(card, op);
      return answerOf(ctx.shared, card, group.mig[driverClass(card, drv)], { operator: op, driver: drv ? drv.text : "" });
    },
    methods: function (s, ctx) {
      var card = ctx.card(s.card), info = ctx.info(s.card), op = operator(ctx.shared, s.operator);
      var drv = s.driver ? driver(s.driver) : null;
      if (s["mig-enabled"] && info.mig_status === "not-listed") throw new Problem(say("migEnabled", { name: info.short }));
      var row = cardGroup(card, op).methods[driverClass(card, drv)];
      return answerOf(ctx.shared, card, row[s["mig-enabled"] ? 1 : 0], { operator: op, driver: drv ? drv.text : "" });
    },
    resource: function (s, ctx) {
      var info = ctx.info(s.card);
      var ts = s["time-slicing"], mps = s.mps;
      if (ts && mps) throw new Problem(say("bothSharing"));
      if (!s.profile && !ts && !mps) throw new Problem(say("nothing"));
      if (s.strategy && !s.profile) throw new Problem(say("strategyNeedsProfile"));
      if (s["rename-by-default"] && !ts && !mps) throw new Problem(say("renameNeedsSharing"));
      var n = ts || mps ? replicas(ts || mps, ctx.shared.min_replicas) : null;
      var profile = "";
      if (s.profile) {
        if (!info.profiles.length) throw new Problem(say("noProfiles", { name: info.short }));
        profile = info.profiles.filter(function (p) { return p.toLowerCase() === String(s.profile).trim().toLowerCase(); })[0];
        if (!profile) throw new Problem(say("badProfile", { p: shown(s.profile), name: info.short, known: info.profiles.join(", ") }));
      }
      var card = ctx.card(s.card), op = operator(ctx.shared, s.operator);
      var mode = ts ? "time-slicing" : mps ? "mps" : "mig";
      var cls = n === null ? "" : String(bigClass(BigInt(n), ctx.shared.replica_classes));
      var key = [profile, profile ? (s.strategy || "single") : "", mode, s["rename-by-default"] ? "1" : "0", cls].join("|");
      var at = card.resource_combos.indexOf(key);
      if (at < 0) throw new Problem(say("missing"));
      var values = n === null ? { operator: op } : derived(n, info, op);
      return answerOf(ctx.shared, card, cardGroup(card, op).resource[at], profile ? profileValues(profile, info, values) : values);
    },
    dra: function (s, ctx) {
      var data = ctx.shared, op = operator(data, s.operator);
      var k8s = kubernetes(data, s.k8s);
      var feature = s.feature || "whole-gpu";
      var f = data.features.map(function (x) { return x.id; }).indexOf(feature);
      if (f < 0) throw new Problem(say("missing"));
      var install = s.install;
      if (install && data.installs.indexOf(install) < 0) throw new Problem(say("badInstall", { v: shown(install) }));
      var release = s["dra-driver"] ? String(s["dra-driver"]).trim().replace(/^v/, "") : "";
      if (release) {  // a standalone release: its own requirements, gates and plugins (kb.questions.dra)
        if (install === "operator") throw new Problem(say("draDriverManaged"));
        if (data.dra_drivers.indexOf(release) < 0) {
          throw new Problem(say("badDraDriver", { v: shown(release), known: data.dra_drivers.join(", ") }));
        }
      }
      var managed = !!data.dra_min_operator && cmp(key4(parseVersion(op).parts), key4(parseVersion(data.dra_min_operator).parts)) >= 0;
      if (!install) install = managed ? "operator" : "standalone";
      var c = classify(key4(k8s.parts), data.k8s_classes);
      // [0]: the asked operator release manages the DRA driver, [1]: it does not (askdata.py)
      if (release) return answerOf(data, data, data.dra_release[release][managed ? 0 : 1][f][c], { operator: op, k8s: k8s.text });
      return answerOf(data, data, data.dra[op][f][data.installs.indexOf(install)][c], { operator: op, k8s: k8s.text });
    },
    recommend: function (s, ctx) {
      var data = ctx.shared;
      if (!s.workload) throw new Problem(say("badWorkload"));
      var key = s.workload + "|" + (s.isolation === "required" ? "required" : "");
      if (!s.card) {
        if (data.recommend[key] === undefined) throw new Problem(say("missing"));
        return answerOf(data, data, data.recommend[key], {});
      }
      var card = ctx.card(s.card), at = card.recommend_combos.indexOf(key);
      if (at < 0) throw new Problem(say("missing"));
      return answerOf(data, card, card.recommend[at], { operator: data.ops[0] });
    },
    strategy: function (s, ctx) { return strategyAnswer(s, ctx); }
  };

  // ---------------------------------------------------------------- strategy (kb/questions/strategy.py)

  var NO_MIG = { none: 1, whole: 1, disabled: 1, "all-disabled": 1 };

  function parseGpu(ctx, spec) {
    var at = String(spec).indexOf(":");
    var name = at < 0 ? String(spec) : String(spec).slice(0, at);
    var layout = at < 0 ? "" : String(spec).slice(at + 1).trim();
    var id = ctx.resolve(name), info = ctx.infoById(id);
    var known = info.profiles;
    var fail = function (head) {
      return new Problem(head + say("layoutTail", { spec: shown(spec), name: info.short,
        known: known.length ? known.join(", ") : say("noneProfiles") }));
    };
    if (at < 0 || NO_MIG[layout.toLowerCase()]) return { card: id, profiles: [] };
    var every = layout.toLowerCase().indexOf("all-") === 0;
    var wanted = (every ? layout.slice(4) : layout).split(",").map(function (p) { return p.trim(); });
    if (!layout || wanted.some(function (p) { return !p; }) || (every && wanted.length !== 1)) {
      throw fail(say("layoutIncomplete"));
    }
    var profiles = wanted.map(function (p) {
      var found = known.filter(function (k) { return k.toLowerCase() === p.toLowerCase(); })[0];
      if (!found) throw fail(say("layoutProfile", { p: shown(p), name: info.short }));
      return found;
    });
    if (!every) {
      var seen = {};
      profiles.forEach(function (p) {
        if (seen[p]) return;
        seen[p] = 1;
        var n = profiles.filter(function (x) { return x === p; }).length;
        if (n > info.counts[p]) throw new Problem(say("fitsCount", { spec: shown(spec), name: info.short, n: n, p: p, max: info.counts[p] }));
      });
      var slices = function (p) { var h = p.split("g.")[0]; return /^\d+$/.test(h) ? parseInt(h, 10) : 0; };
      var total = Math.max.apply(null, Object.keys(info.counts).map(function (p) { return slices(p) * info.counts[p]; }));
      var used = profiles.reduce(function (sum, p) { return sum + slices(p); }, 0);
      if (used > total) throw new Problem(say("fitsSlices", { spec: shown(spec), name: info.short, used: used, total: total }));
    }
    return { card: id, profiles: profiles };
  }

  function bigClass(n, classes) {
    for (var i = 0; i < classes.length; i++) {
      var c = classes[i];
      if (c.at !== undefined) { if (n === BigInt(c.at)) return i; continue; }
      if ((c.above === null || n > BigInt(c.above)) && (c.below === null || n < BigInt(c.below))) return i;
    }
    return -1;
  }

  function countClass(n, classes) {
    for (var i = 0; i < classes.length; i++) {
      var c = classes[i];
      if (c.at !== undefined) { if (n === c.at) return i; continue; }
      if ((c.above === null || n > c.above) && (c.below === null || n < c.below)) return i;
    }
    return -1;
  }

  function strategyAnswer(s, ctx) {
    var data = ctx.shared, node = data.strategy;
    var specs = (s.gpu || []).filter(function (g) { return String(g).trim() !== ""; });
    if (!specs.length) throw new Problem(say("noGpus"));
    var gpus = specs.map(function (g) { return parseGpu(ctx, g); });
    var op = operator(data, s.operator);
    var drv = s.driver ? driver(s.driver) : null;
    var nodeDriver = drv ? classify(key4(drv.parts), node.driver_classes) + 1 : 0;
    return ctx.loadCards(gpus.map(function (g) { return g.card; })).then(function () {
      var used = {};
      gpus.forEach(function (g) { g.profiles.forEach(function (p) { used[p] = 1; }); });
      var distinct = Object.keys(used).sort();
      var migGpus = gpus.filter(function (g) { return g.profiles.length; }).length;
      var counts = { mig_gpus: migGpus, whole_gpus: gpus.length - migGpus, distinct_profiles: distinct.length };
      var nodeKey = [op, nodeDriver].concat(["mig_gpus", "whole_gpus", "distinct_profiles"].map(function (p) {
        return countClass(counts[p], node.classes[p]);
      })).join("|");
      var values = { profiles: distinct.join(", "), profile: distinct.length === 1 ? distinct[0] : "",
        operator: op, driver: drv ? drv.text : "",
        gpus: String(gpus.length), mig_gpus: String(counts.mig_gpus), whole_gpus: String(counts.whole_gpus),
        distinct_profiles: String(counts.distinct_profiles) };
      var parts = (node.nodes[nodeKey] || []).map(function (i) {
        return { part: data.parts[i], table: data, pos: 0, values: values };
      });
      gpus.forEach(function (g, n) {
        var card = ctx.card(g.card), kind = (g.profiles.length ? "1" : "0") + (migGpus ? "1" : "0");
        cardGroup(card, op).strategy[driverClass(card, drv) + "|" + kind].forEach(function (i) {
          parts.push({ part: card.parts[i], table: card, pos: n + 1,
            values: { index: String(n + 1), gpu_profiles: g.profiles.join(", ") } });
        });
      });
      // the engine's order: by rule, then by the position of the matched fact
      parts.sort(function (a, b) { return a.part.rule < b.part.rule ? -1 : a.part.rule > b.part.rule ? 1 : a.pos - b.pos; });
      var verdict = parts.length ? parts.reduce(function (v, p) {
        return RANK[p.part.verdict] > RANK[v] ? p.part.verdict : v;
      }, "yes") : node.none.verdict;
      var strategy = parts.some(function (p) { return p.part.strategy === "mixed"; }) ? "mixed" : "single";
      var conditions = [], seen = {};
      if (verdict !== "no") {
        parts.forEach(function (p) {
          if (p.part.condition && !seen[fill(p.part.condition_en, p.values)]) {
            seen[fill(p.part.condition_en, p.values)] = 1;
            conditions.push(fill(p.part.condition, p.values));
          }
        });
      }
      var reasons = parts.map(function (p, i) { return { p: p, i: i }; }).sort(function (a, b) {
        var d = RANK[b.p.part.verdict] - RANK[a.p.part.verdict];
        if (d) return d;
        return a.p.part.rule < b.p.part.rule ? -1 : a.p.part.rule > b.p.part.rule ? 1 : a.i - b.i;
      }).map(function (x) {
        return { rule: x.p.part.rule, text: fill(x.p.part.text, x.p.values),
          cites: x.p.part.cites.map(function (j) { return x.p.table.cites[j]; }) };
      });
      return { verdict: verdict, summary: node.summaries[strategy + "|" + verdict], conditions: conditions,
        reasons: reasons, details: [fill(node.detail, { strategy: strategy })] };
    });
  }

  // ---------------------------------------------------------------- rendering

  function el(tag, attrs, content) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (content !== undefined) node.textContent = content;
    return node;
  }

  function safeUrl(url) {
    return /^https?:\/\//i.test(String(url || "")) ? String(url) : null;
  }

  function render(out, answer, shared, rulesPage) {
    out.textContent = "";
    var verdict = el("p", { "class": "gpukb-verdict gpukb-v-" + answer.verdict, "data-verdict": answer.verdict },
      shared.verdicts[answer.verdict] || answer.verdict);
    out.appendChild(verdict);
    out.appendChild(el("p", { "class": "gpukb-ask-summary" }, answer.summary));
    var numbers = {}, notes = [];
    answer.reasons.forEach(function (r) {
      r.cites.forEach(function (c) {
        var k = JSON.stringify(c);
        if (!numbers[k]) { notes.push(c); numbers[k] = notes.length; }
      });
    });
    if (answer.reasons.length) {
      out.appendChild(el("h2", {}, say("why")));
      var ul = el("ul", { "class": "gpukb-ask-reasons" });
      answer.reasons.forEach(function (r) {
        var li = el("li");
        li.appendChild(el("span", {}, r.text + " "));
        r.cites.forEach(function (c) {
          var n = numbers[JSON.stringify(c)];
          li.appendChild(el("a", { href: "#gpukb-src-" + n, "class": "gpukb-ask-ref" }, "[" + n + "]"));
        });
        li.appendChild(document.createTextNode(" "));
        if (rulesPage && /^[A-Z]+-[0-9]+$/.test(r.rule)) {
          var a = el("a", { href: rulesPage + "#" + r.rule.toLowerCase(), "class": "gpukb-ask-rule" });
          a.appendChild(el("code", {}, r.rule));
          li.appendChild(a);
        } else {
          li.appendChild(el("code", {}, r.rule));
        }
        ul.appendChild(li);
      });
      out.appendChild(ul);
    }
    if (answer.conditions.length) {
      out.appendChild(el("h2", {}, say("conditions")));
      var ol = el("ul", { "class": "gpukb-ask-conditions" });
      answer.conditions.forEach(function (c) { ol.appendChild(el("li", {}, c)); });
      out.appendChild(ol);
    }
    if (answer.details.length) {
      out.appendChild(el("h2", {}, say("details")));
      out.appendChild(el("pre", { "class": "gpukb-ask-details" }, answer.details.join("\n")));
    }
    if (notes.length) {
      out.appendChild(el("h2", {}, say("sources")));
      var src = el("ol", { "class": "gpukb-ask-sources" });
      notes.forEach(function (c, i) {
        var li = el("li", { id: "gpukb-src-" + (i + 1) });
        var url = safeUrl(c.url);
        var title = c.title + (c.section ? ", " + c.section : "");
        li.appendChild(url ? el("a", { href: url, rel: "noopener" }, title) : el("span", {}, title));
        li.appendChild(document.createTextNode(": "));
        li.appendChild(el("q", c.translation ? { lang: "de" } : {}, c.quote));
        if (c.translation) {  // a German quote on an English page: our translation beside it (askdata.py)
          li.appendChild(document.createTextNode(" (" + say("translation") + ": "));
          li.appendChild(el("q", { "class": "gpukb-translation" }, c.translation));
          li.appendChild(document.createTextNode(")"));
        }
        src.appendChild(li);
      });
      out.appendChild(src);
    }
  }

  function problem(out, message) {
    out.textContent = "";
    out.appendChild(el("p", { "class": "gpukb-ask-problem", role: "alert" }, message));
  }

  // ---------------------------------------------------------------- the form and the URL

  var FIELDS = ["card", "operator", "driver", "k8s", "profile", "strategy", "time-slicing", "mps", "workload",
    "feature", "install", "dra-driver", "isolation", "mig-enabled", "rename-by-default"];
  var SHOWN = {
    mig: ["card", "operator", "driver"],
    methods: ["card", "operator", "driver", "mig-enabled"],
    resource: ["card", "operator", "profile", "strategy", "sharing", "replicas", "rename-by-default"],
    strategy: ["gpus", "operator", "driver"],
    dra: ["operator", "k8s", "feature", "install", "dra-driver"],
    recommend: ["workload", "card", "isolation"]
  };

  // mkdocs-material opens its search for a "q" in the address (and drops it when the search closes): a
  // script before material's (overrides/main.html) takes the ask page's "q" out of the address and keeps it
  // in window.__gpukbAskQuestion; the page puts it back once it shows the answer
  var question = window.__gpukbAskQuestion || null;

  function readUrl() {
    var params = new URLSearchParams(location.search);
    var s = { q: question || params.get("q") || "mig", gpu: params.getAll("gpu") };
    question = null;  // only the loaded address lacks it: the page writes it back with the answer
    if (QUESTIONS.indexOf(s.q) < 0) s.q = "mig";
    FIELDS.forEach(function (f) { var v = params.get(f); if (v !== null) s[f] = v; });
    ["mig-enabled", "rename-by-default"].forEach(function (f) { s[f] = s[f] === "1" || s[f] === "true"; });
    return s;
  }

  // push: a question the reader asked (a new history entry where the address changes); else the address is
  // corrected in place (the loaded one, or one reached by back and forward)
  function writeUrl(s, push) {
    var params = new URLSearchParams();
    params.set("q", s.q);
    var used = SHOWN[s.q];
    FIELDS.forEach(function (f) {
      var show = used.indexOf(f) >= 0 || (f === "time-slicing" || f === "mps") && used.indexOf("sharing") >= 0;
      if (!show) return;
      if (f === "mig-enabled" || f === "rename-by-default") { if (s[f]) params.set(f, "1"); return; }
      if (s[f] !== undefined && s[f] !== null && String(s[f]) !== "") params.set(f, s[f]);
    });
    if (s.q === "strategy") (s.gpu || []).forEach(function (g) { if (String(g).trim()) params.append("gpu", g); });
    var url = location.pathname + "?" + params.toString();
    if (push && url !== location.pathname + location.search) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
    return location.href;
  }

  function Ctx(shared, base) {
    var self = this;
    this.shared = shared;
    this.cards = {};
    this.byId = {};
    shared.cards.forEach(function (c) { self.byId[c.id] = c; });
    this.resolve = function (name) { return resolveCard(shared, name); };
    this.infoById = function (id) { return self.byId[id]; };
    this.info = function (name) { return self.byId[self.resolve(name === undefined ? "" : name)]; };
    this.card = function (name) {
      var id = self.byId[name] ? name : self.resolve(name === undefined ? "" : name);
      if (!self.cards[id]) throw new Problem(say("missing"));
      return self.cards[id];
    };
    this.loadCards = function (ids) {
      return Promise.all(ids.filter(function (id) { return !self.cards[id]; }).map(function (id) {
        return fetch(base + "cards/" + encodeURIComponent(id) + ".json")
          .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
          .then(function (d) { self.cards[id] = d; });
      }));
    };
  }

  function ask(s, ctx) {
    var needsCard = ["mig", "methods", "resource"].indexOf(s.q) >= 0 || (s.q === "recommend" && s.card);
    if (needsCard) {
      var id;
      try {
        id = ctx.resolve(s.card === undefined ? "" : s.card);
      } catch (e) {
        if (!(e instanceof Problem) || !e.fits) throw e;
        return oneForAll(s, ctx, e);
      }
      return ctx.loadCards([id]).then(function () { return ASK[s.q](Object.assign({}, s, { card: id }), ctx); });
    }
    return Promise.resolve(ASK[s.q](s, ctx));
  }

  // a name that fits several cards, as kb.questions.one_for_all: one answer naming them all where every card
  // gets the same answer (verdict, reasons, conditions, details — the card's own names taken out); else the
  // CLI's refusal listing the cards with their verdicts. The other inputs may fit only some of the cards.
  function oneForAll(s, ctx, problem) {
    var short = function (id) { return ctx.byId[id].short; };
    var typed = String(problem.typed);  // as the CLI writes it (shown as text, never as markup)
    return ctx.loadCards(problem.fits).then(function () {
      var fits = [], first = null;
      problem.fits.forEach(function (id) {
        try { fits.push([id, ASK[s.q](Object.assign({}, s, { card: id }), ctx)]); }
        catch (e) { if (!(e instanceof Problem)) throw e; first = first || e; }
      });
      if (!fits.length) throw first;
      if (fits.length === 1) throw new Problem(say("fitsOne", { name: typed, card: short(fits[0][0]) }));
      var gist = function (id, a) {
        var c = ctx.byId[id];
        var names = [id, c.short, c.name].filter(Boolean).sort(function (x, y) { return y.length - x.length; });
        var plain = function (t) { names.forEach(function (n) { t = String(t).split(n).join("{card}"); }); return t; };
        return JSON.stringify([a.verdict, a.reasons.map(function (r) { return [r.rule, plain(r.text)]; }),
          a.conditions.map(plain), a.details]);
      };
      var gists = fits.map(function (f) { return gist(f[0], f[1]); });
      if (gists.some(function (g) { return g !== gists[0]; })) {
        var list = fits.map(function (f) {
          var v = ctx.shared.verdicts[f[1].verdict] || f[1].verdict;
          return short(f[0]) + ": " + v.charAt(0).toLowerCase() + v.slice(1);
        }).join("; ");
        throw new Problem(say("answersDiffer", { name: typed, list: list }));
      }
      var answer = Object.assign({}, fits[0][1]);
      answer.cards = fits.map(function (f) { return f[0]; });
      var every = answer.cards.map(short).join(" / ");
      answer.summary = say("sameForAll", { name: typed, n: fits.length, list: answer.cards.map(short).join(", ") }) +
        String(answer.summary).split(short(answer.cards[0])).join(every);
      return answer;
    });
  }

  function setup(root, shared, base, rulesPage) {
    var ctx = new Ctx(shared, base);
    var form = root.querySelector("form");
    var out = root.querySelector("#gpukb-ask-answer");
    var state = readUrl();
    var q = form.elements.q, card = form.elements.card, op = form.elements.operator;
    shared.cards.forEach(function (c) { card.appendChild(el("option", { value: c.id }, c.short)); });
    shared.ops.forEach(function (v) { op.appendChild(el("option", { value: v }, v)); });
    shared.workloads.forEach(function (w) { form.elements.workload.appendChild(el("option", { value: w.id }, w.name)); });
    shared.features.forEach(function (f) { form.elements.feature.appendChild(el("option", { value: f.id }, f.name)); });
    shared.dra_drivers.forEach(function (v) { form.elements["dra-driver"].appendChild(el("option", { value: v }, v)); });
    var noCard = el("option", { value: "" }, say("noCard"));
    var gpuList = root.querySelector("#gpukb-ask-gpus");
    var gpuTemplate = root.querySelector("#gpukb-ask-gpu-template");
    root.querySelector("#gpukb-ask-stamp").textContent = say("stamp", { v: shared.data_version, d: shared.verified_text });

    function addGpu(spec) {
      var row = gpuTemplate.content.firstElementChild.cloneNode(true);
      var sel = row.querySelector("select"), layout = row.querySelector("input");
      shared.cards.forEach(function (c) { sel.appendChild(el("option", { value: c.id }, c.short)); });
      var at = String(spec || "").indexOf(":");
      var name = at < 0 ? String(spec || "") : String(spec).slice(0, at);
      try { if (name) sel.value = ctx.resolve(name); } catch (e) { /* shown when asked */ }
      if (name && sel.value !== name && !ctx.byId[name]) row.setAttribute("data-typed", name);
      layout.value = at < 0 ? "" : String(spec).slice(at + 1);
      row.querySelector("button").addEventListener("click", function () { row.remove(); update(true); });
      sel.addEventListener("change", function () { row.removeAttribute("data-typed"); update(true); });
      layout.addEventListener("change", function () { update(true); });
      gpuList.appendChild(row);
      numberGpus();
    }

    function numberGpus() {
      Array.prototype.forEach.call(gpuList.children, function (row, i) {
        row.querySelector(".gpukb-ask-gpu-n").textContent = say("gpu", { n: i + 1 });
      });
    }

    function fromForm() {
      var s = { q: q.value };
      var typedCard = card.getAttribute("data-typed");
      s.card = typedCard || card.value;
      ["operator", "driver", "k8s", "profile", "strategy", "workload", "feature", "install", "dra-driver"].forEach(function (f) {
        s[f] = form.elements[f].value;
      });
      s.operator = op.getAttribute("data-typed") || s.operator;
      var sharing = form.elements.sharing.value, n = form.elements.replicas.value;
      if (sharing === "time-slicing") s["time-slicing"] = n;
      if (sharing === "mps") s.mps = n;
      s.isolation = form.elements.isolation.checked ? "required" : "";
      s["mig-enabled"] = form.elements["mig-enabled"].checked;
      s["rename-by-default"] = form.elements["rename-by-default"].checked;
      s.gpu = Array.prototype.map.call(gpuList.children, function (row) {
        var name = row.getAttribute("data-typed") || row.querySelector("select").value;
        var layout = row.querySelector("input").value.trim();
        return layout ? name + ":" + layout : name;
      });
      return s;
    }

    function toForm(s) {
      form.reset();  // what the address does not say is what a load of it shows
      Array.prototype.slice.call(form.querySelectorAll("option[data-typed]")).forEach(function (o) { o.remove(); });
      q.value = s.q;
      if (s.q === "recommend" && !card.querySelector('option[value=""]')) card.insertBefore(noCard, card.firstChild);
      if (s.q !== "recommend" && noCard.parentNode) noCard.remove();
      card.removeAttribute("data-typed");
      if (s.card !== undefined) {
        var id = null;
        try { id = s.card === "" ? "" : ctx.resolve(s.card); } catch (e) {
          // a name that fits no card or several: shown as typed (not as the list's first card) beside the answer
          card.setAttribute("data-typed", s.card);
          card.appendChild(el("option", { value: s.card, "data-typed": "" }, String(s.card)));
          id = s.card;
        }
        if (id !== null) card.value = id;
      } else if (s.q === "recommend") {
        card.value = "";
      }
      op.value = s.operator ? (function () {
        try { return operator(shared, s.operator); } catch (e) {  // a release the page does not know: shown as typed
          op.appendChild(el("option", { value: s.operator, "data-typed": "" }, String(s.operator)));
          return s.operator;
        }
      })() : shared.ops[0];
      if (s.operator && op.value !== s.operator) op.setAttribute("data-typed", s.operator); else op.removeAttribute("data-typed");
      ["driver", "k8s", "workload", "feature", "install"].forEach(function (f) { if (s[f] !== undefined) form.elements[f].value = s[f]; });
      var dd = form.elements["dra-driver"], rel = s["dra-driver"] === undefined ? "" : String(s["dra-driver"]).trim();
      if (rel && !Array.prototype.some.call(dd.options, function (o) { return o.value === rel; })) dd.appendChild(el("option", { value: rel, "data-typed": "" }, rel));
      dd.value = rel;  // a typed release the page does not know stays, so the answer says why
      fillProfiles(s.profile);
      form.elements.strategy.value = s.strategy || "";
      form.elements.sharing.value = s["time-slicing"] ? "time-slicing" : s.mps ? "mps" : "";
      form.elements.replicas.value = s["time-slicing"] || s.mps || form.elements.replicas.value || "4";
      form.elements.isolation.checked = s.isolation === "required";
      form.elements["mig-enabled"].checked = !!s["mig-enabled"];
      form.elements["rename-by-default"].checked = !!s["rename-by-default"];
      gpuList.textContent = "";
      (s.gpu && s.gpu.length ? s.gpu : [card.value || shared.cards[0].id]).forEach(addGpu);
      showFields(s.q);
    }

    function fillProfiles(wanted) {
      var sel = form.elements.profile, info = ctx.byId[card.value];
      sel.textContent = "";
      sel.appendChild(el("option", { value: "" }, say("none")));
      (info ? info.profiles : []).forEach(function (p) { sel.appendChild(el("option", { value: p }, p)); });
      if (wanted !== undefined) {
        var hit = (info ? info.profiles : []).filter(function (p) { return p.toLowerCase() === String(wanted).toLowerCase(); })[0];
        if (hit) sel.value = hit;
        else if (wanted) { sel.appendChild(el("option", { value: wanted, "data-typed": "" }, wanted)); sel.value = wanted; }
      }
    }

    function showFields(question) {
      Array.prototype.forEach.call(root.querySelectorAll("[data-field]"), function (node) {
        var field = node.getAttribute("data-field");
        node.hidden = field !== "q" && SHOWN[question].indexOf(field) < 0;
      });
    }

    var asked = 0;
    function update(push) {
      var s = fromForm();
      showFields(s.q);
      root.removeAttribute("data-answered");  // until this question's answer is shown
      var link = writeUrl(s, push === true);
      root.querySelector("#gpukb-ask-link").setAttribute("href", link);
      var mine = ++asked;
      var done = function () { if (mine === asked) root.setAttribute("data-answered", location.search); };
      var result;
      try {
        result = ask(s, ctx);
      } catch (e) {
        if (!(e instanceof Problem)) throw e;
        problem(out, e.message);
        done();
        return;
      }
      result.then(function (answer) {
        if (mine !== asked) return;
        render(out, answer, shared, rulesPage);
        done();
      }, function (e) {
        if (mine !== asked) return;
        problem(out, e instanceof Problem ? e.message : say("failed"));
        done();
      });
    }

    form.addEventListener("change", function (e) {
      if (e.target === card) { card.removeAttribute("data-typed"); fillProfiles(); }
      if (e.target === op) op.removeAttribute("data-typed");
      if (e.target === q) {
        if (q.value === "recommend" && !card.querySelector('option[value=""]')) card.insertBefore(noCard, card.firstChild);
        if (q.value !== "recommend" && noCard.parentNode) { noCard.remove(); if (!card.value) card.value = shared.cards[0].id; }
      }
      update(true);
    });
    form.addEventListener("submit", function (e) { e.preventDefault(); update(true); });
    root.querySelector("#gpukb-ask-add").addEventListener("click", function () { addGpu(card.value); update(true); });
    root.querySelector("#gpukb-ask-copy").addEventListener("click", function () {
      var button = this;
      var done = function () { button.textContent = say("copied"); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(location.href).then(done, function () {});
      }
    });
    window.addEventListener("popstate", function () { toForm(readUrl()); update(); });
    toForm(state);
    root.hidden = false;
    update();
  }

  function start() {
    var root = document.getElementById("gpukb-ask");
    var link = document.getElementById("gpukb-ask-data");
    var rules = document.getElementById("gpukb-ask-rules");
    if (!root || !link) return;
    var rulesPage = rules ? rules.href.split("#")[0] : null;
    var base = link.href.replace(/[^/]*$/, "");
    var out = root.querySelector("#gpukb-ask-answer");
    out.textContent = say("loading");
    root.hidden = false;
    fetch(link.href)
      .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
      .then(function (shared) { setup(root, shared, base, rulesPage); })
      .catch(function (e) { problem(out, say("failed")); if (window.console) console.warn(e); });
  }

  // the page's script API for tests: the answer for a state, as the page would show it
  window.gpukbAsk = { normalise: normalise, classify: classify };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
