"""Answer templates for the static ask page: the engine's answers with the typed values left open.

The ask page answers any driver, Kubernetes version and replica count a visitor types, without a server.
Answers change only where the catalog draws a line (a minimum driver, the DRA driver's minimum Kubernetes),
so the page needs one answer per interval between those lines, with the typed value filled in where the
answer quotes it. This module computes such answers with the real engine:

- A *sentinel* stands for the version to be filled in: a version written with zero-padded parts
  ('00580.00082.00007' has the key of 580.82.7 but occurs in no catalog text). Questions compare versions by key only, so a sentinel decides like the version it stands for.
- `template()` turns an answer computed with sentinels into a template: every sentinel in its text becomes
  a slot `\ue000name\ue001` the page fills with the visitor's value.
- A number the rules compare (a replica count) cannot be a sentinel: its classes lie between the numbers the
  rules compare it with (`number_classes`); each class is computed with two numbers of it, the rules must
  decide alike for both, and the fact properties that differ (the count, what follows from it) become slots.
- A template leaves out the facts each reason read (what `gpukb ask --explain` adds).
- Requests whose facts are equal except for properties holding a sentinel that no rule condition or
  citation reads share one engine run and one fold (`Templates.answer_many`): the GPU Operator release
  and the driver then cost a fact build each, not an engine session each.
- *Releases share templates*: what an answer says of the GPU Operator release it is asked about is filled in
  by the page from a small table per release (kb.site.askdata `releases`): the release itself (slot
  `operator`), the version each component of it ships (slot `component-<name>`, e.g. the device plugin's
  version RES-006 quotes) and the citations of a catalog entry of the release itself (a cite `{"release": key}`,
  e.g. RES-006's `releases/gpu-operator#releases[{operator}].components[device-plugin]`). Requests of two
  releases whose facts are equal but for those values, and that fire the same rules, get one template object.

The page's answers are tested against `gpukb ask` (tests/test_site_ask.py): every template filled in
for every exported input, and a sample of typed versions around every line.
"""

from __future__ import annotations

import hashlib
import json
import re

from kb import versions
from kb.engine.syntax import required_constants
from kb.questions import Asker
from kb.text import Text

OPEN, CLOSE = "\ue000", "\ue001"
_MAX = (999, 999, 999, 999)
#: what the facts a template is written from hold instead of a value of the asked release (no catalog text holds it)
TOKEN_OPEN, TOKEN_CLOSE = "\ue002", "\ue003"
RELEASE = TOKEN_OPEN + "operator" + TOKEN_CLOSE
#: the driver asked about, where classes of drivers are compared (kb.site.askdata.driver_classes)
DRIVER = TOKEN_OPEN + "driver" + TOKEN_CLOSE


def component_slot(component: str) -> str:
    """The slot of the version a component of the asked release ships ('component-device-plugin')."""
    return f"component-{component}"


def component_token(component: str) -> str:
    return TOKEN_OPEN + component_slot(component) + TOKEN_CLOSE


def slot(name: str) -> str:
    return f"{OPEN}{name}{CLOSE}"


#: the width of a sentinel's parts, one per kind of version, so that two sentinels never look alike
WIDTH = {"operator": 4, "driver": 5, "k8s": 6}


def padded(key: tuple[int, ...], parts: int = 4, kind: str = "operator") -> str:
    """A version with the given key, written so that no catalog text contains it: '0580.0082.0007.0000'
    (each kind of version padded to its own width)."""
    return ".".join(f"{p:0{WIDTH[kind]}d}" for p in (tuple(key) + (0, 0, 0, 0))[:parts])


def _minus(key: tuple[int, ...]) -> tuple[int, ...] | None:
    """The largest 4-part key below `key` (None below 0.0.0.0)."""
    k = list(key)
    for i in range(3, -1, -1):
        if k[i] > 0:
            k[i] -= 1
            return tuple(k[:i + 1] + [999] * (3 - i))
    return None


def _plus(key: tuple[int, ...]) -> tuple[int, ...] | None:
    """The smallest 4-part key above `key` (None above 999.999.999.999)."""
    k = list(key)
    for i in range(3, -1, -1):
        if k[i] < 999:
            k[i] += 1
            return tuple(k[:i + 1] + [0] * (3 - i))
    return None


def intervals(thresholds: list[str]) -> list[dict]:
    """The classes a typed version falls into: below the first line, at each line, between two lines, above
    the last. Each class: {"below": key or None, "at": key or None, "above": key or None, "rep": key} —
    `at` for a point class, `above`/`below` the open bounds of an interval; `rep` a version inside it."""
    keys = sorted({versions.key(t) for t in thresholds})
    out = []
    lower = None
    for k in keys:
        inner = _plus(lower) if lower is not None else (0, 0, 0, 0)
        upper = _minus(k)
        if inner is not None and upper is not None and inner <= upper:
            out.append({"above": lower, "below": k, "rep": upper})
        out.append({"at": k, "rep": k})
        lower = k
    inner = _plus(lower) if lower is not None else (0, 0, 0, 0)
    if inner is not None:
        out.append({"above": lower, "below": None, "rep": inner})
    return out


def classify(key: tuple[int, ...], classes: list[dict]) -> int:
    """The index of the class a version key falls into (the page does the same in ask.js)."""
    for i, c in enumerate(classes):
        if "at" in c:
            if c["at"] == key:
                return i
        elif (c["above"] is None or key > c["above"]) and (c["below"] is None or key < c["below"]):
            return i
    raise ValueError(f"no class for {key}")


# ---------------------------------------------------------------- templates

def _walk(value, fn):
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {k: _walk(v, fn) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_walk(v, fn) for v in value]
    return value


#: (sentinel, slot name) pairs → their `_filler` (the same few sets of sentinels come back for every template)
_FILLERS: dict[tuple, object] = {}


def _filler(sentinels: dict[str, str]):
    """A function writing each sentinel of a text as its slot: one str.replace per sentinel, the longest first.
    That is the substitution of one expression matching any of them, since no sentinel occurs in another or in a
    slot (sentinels are digits, dots and private-use characters; slots hold letters and dashes)."""
    names = tuple(sentinels.items())
    found = _FILLERS.get(names)
    if found is None:
        if len(_FILLERS) > 10_000:
            _FILLERS.clear()
        found = _FILLERS[names] = _make_filler(sentinels)
    return found


def _make_filler(sentinels: dict[str, str]):
    order = [(sentinel, slot(sentinels[sentinel])) for sentinel in sorted(sentinels, key=len, reverse=True)]
    marks = _cover([sentinel for sentinel, _ in order])

    def fill(text: str) -> str:
        for sentinel, filled in order:
            if sentinel in text:
                text = text.replace(sentinel, filled)
        return text
    # (most texts hold none: one that lacks every character of `marks` — each sentinel holds one of them: a padded
    # version a "0", a component's token its opening mark — holds no sentinel and is passed over at once)
    if not all(order_sentinel for order_sentinel, _ in order):
        return fill  # (an empty sentinel is in every text)
    if len(marks) == 1:
        (mark,) = marks

        def quick(text: str) -> str:
            return fill(text) if mark in text else text
        return quick
    if len(marks) == 2:
        first, second = marks

        def quick2(text: str) -> str:
            return fill(text) if first in text or second in text else text
        return quick2
    return fill


def _cover(sentinels: list[str]) -> list[str]:
    """A few characters such that each of `sentinels` holds at least one (the one held by most sentinels first)."""
    marks: list[str] = []
    left = [s for s in sentinels if s]
    while left:
        counts: dict[str, int] = {}
        for s in left:
            for c in set(s):
                counts[c] = counts.get(c, 0) + 1
        mark = max(sorted(counts), key=counts.__getitem__)
        marks.append(mark)
        left = [s for s in left if mark not in s]
    return marks


def template_value(value, sentinels: dict[str, str]):
    """Any value (text, list, mapping) with every sentinel string replaced by its slot."""
    if not sentinels:
        return value
    return _walk(value, _filler(sentinels))


def template(answer: dict, sentinels: dict[str, str], memo: dict | None = None) -> dict:
    """The answer with every sentinel string (value → slot name) replaced by its slot. Citations are the
    catalog's own text, which no sentinel occurs in (tests/test_site_ask.py): they come out as they are.
    The rest comes out as JSON would give it back (`_as_json`: mappings as dicts, tuples as lists); an answer
    holding anything else is replaced in its JSON text (sentinels hold digits, dots and private-use characters
    only, so no JSON escape can touch them) or, where it is no JSON, walked. `memo`: a dict kept for one set of
    sentinels, for the texts of conclusions many answers share (kb.engine.conclude: the same objects).
    """
    if not sentinels:
        return answer
    reasons = answer.get("reasons") if isinstance(answer, dict) else None
    cites = None
    if isinstance(reasons, list) and all(isinstance(r, dict) and "citations" in r for r in reasons):
        # the citations (half of an answer's text) come out as they are: no need to write and read them
        cites = [r["citations"] for r in reasons]
        answer = {**answer, "reasons": [{k: v for k, v in r.items() if k != "citations"} for r in reasons]}
    replace = _filler(sentinels)
    try:
        out = _as_json(answer, replace, {} if memo is None else memo)
    except _NotPlain:
        try:
            text = json.dumps(answer, ensure_ascii=False)
        except (TypeError, ValueError):
            out = _walk(answer, replace)
        else:
            out = json.loads(replace(text))
    if cites is not None:  # each reason as it was, its citations in their place
        out["reasons"] = [{k: (c if k == "citations" else r[k]) for k in old} for old, r, c in zip(reasons, out["reasons"], cites)]
    return out


class _NotPlain(Exception):
    """A value `_as_json` does not copy as JSON would."""


_SCALAR = (int, float, bool, type(None))


def _as_json(value, fill, seen: dict):
    """`json.loads(fill(json.dumps(value, ensure_ascii=False)))` where `value` holds only texts, whole and
    floating-point numbers, booleans, None, lists, tuples and mappings (dict, Text) with text keys; `fill` applied
    to every text and key (the same as to the JSON text: no sentinel spans two texts). Anything else raises
    _NotPlain (a subclass of these types included: JSON would write it its own way). A Text is copied once per
    object (`seen`: id → (the Text, its copy)): the copy is shared, as the Text was."""
    cls = value.__class__
    if cls is str:
        return fill(value)
    if cls is Text:
        found = seen.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        out = {fill(k): _as_json(v, fill, seen) for k, v in value.items()}  # (a Text's keys are texts)
        seen[id(value)] = (value, out)
        return out
    if cls is dict:
        out = {}
        for k, v in value.items():
            if k.__class__ is not str:
                raise _NotPlain(k)
            out[fill(k)] = _as_json(v, fill, seen)
        return out
    if cls is list or cls is tuple:
        return [_as_json(v, fill, seen) for v in value]
    if cls in _SCALAR:
        return value
    raise _NotPlain(value)


_SLOT = re.compile(re.escape(OPEN) + r"([a-z0-9_-]+)" + re.escape(CLOSE))


def fill(value, values: dict):
    """A template with its slots filled (the inverse of `template`, as the page does it); a text that is one
    slot only takes the value as it is (a replica count stays a number)."""
    def one(s: str):
        if OPEN not in s:
            return s
        whole = _SLOT.fullmatch(s)
        if whole:
            return values[whole.group(1)]
        return _SLOT.sub(lambda m: str(values[m.group(1)]), s)
    return _walk(value, one)


def _filled_answer(template: dict, values: dict) -> dict:
    """`fill(template, values)` of an answer template: its citations copied as they are (`template` keeps them out
    of the sentinels' replacement: they hold no slot), the rest filled."""
    reasons = template.get("reasons") if isinstance(template, dict) else None
    if not isinstance(reasons, list) or not all(isinstance(r, dict) and isinstance(r.get("citations"), list)
                                                for r in reasons):
        return fill(template, values)
    out = fill({k: v for k, v in template.items() if k != "reasons"}, values)
    out["reasons"] = [{k: ([dict(c) for c in v] if k == "citations" else fill(v, values)) for k, v in r.items()}
                      for r in reasons]
    return {k: out[k] for k in template}  # (the template's order of keys)


def number_classes(constants, lowest: int) -> list[dict]:
    """Classes of a whole number from `lowest` on, between the numbers rules compare it with: each compared
    number is a class ({"at": n}), the runs between them are classes ({"above": n|None, "below": n|None}).
    Each class has `reps`: one number ({"at"}) or two numbers inside it."""
    marks = sorted({int(c) for c in constants if int(c) >= lowest})
    out, start = [], lowest
    for c in marks + [None]:
        end = c - 1 if c is not None else None
        if end is None or start <= end:
            if end is not None and start == end:
                out.append({"at": start, "reps": [start]})
            else:
                out.append({"above": start - 1, "below": None if c is None else c, "reps": _two(start, end)})
        if c is not None:
            out.append({"at": c, "reps": [c]})
            start = c + 1
    return out


def _two(lo: int, hi: int | None) -> list[int]:
    """Two numbers in [lo, hi] with as many digits and no digit in common (2 and 3, 49 and 50)."""
    top = hi if hi is not None else lo + 10**6
    for x in range(lo, min(top, lo + 500) + 1):
        for y in range(x + 1, min(top, x + 5000) + 1):
            if len(str(y)) != len(str(x)):
                break
            if set(str(x)).isdisjoint(str(y)):
                return [x, y]
    raise ValueError(f"no two numbers to tell apart in [{lo}, {hi}]")


def read_props(rules: list[dict]) -> set[str]:
    """Every name a rule condition or citation of these rules reads (property names, and every text in a
    condition, which over-approximates references to other facts' properties)."""
    constant, joined = condition_props(rules)
    found = constant | joined
    for rule in rules:
        for ref in rule["cites"]:
            for name in re.findall(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}", ref):
                found.add(name.rsplit(".", 1)[-1])
    return found


def condition_props(rules: list[dict]) -> tuple[set[str], set[str]]:
    """(properties conditions compare with a constant, properties that only join two facts): the firing
    of a rule depends on the first's values and on which of the second's values are equal."""
    constant: set[str] = set()
    joined: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if k.startswith("$"):
                    walk(v)
                elif isinstance(v, dict) and len(v) == 1 and not next(iter(v)).startswith("$"):
                    (_alias, other), = v.items()
                    joined.update({k, other} if isinstance(other, str) else {k})
                else:
                    constant.add(k)
                    walk(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                walk(v)

    for rule in rules:
        for _alias, cond in rule["when"]:
            walk(cond)
    return constant, joined - constant


def matchable(rules: list[dict]):
    """A test whether a condition of `rules` may match a fact: one whose every required constant the fact holds
    (other comparisons are taken to hold). A fact no condition may match changes no rule's firing."""
    required = [required_constants(cond) for rule in rules for _alias, cond in rule["when"]]
    # (by the kind a condition requires: a fact is tested against the conditions of its own kind and those of none)
    by_kind: dict = {}
    for req in required:
        kind = req.get("kind") if isinstance(req.get("kind"), str) else None
        group = by_kind.setdefault(kind, [])
        if req not in group:
            group.append(req)
    anykind = by_kind.pop(None, [])

    def may_match(fact: dict) -> bool:
        kind = fact.get("kind")
        return any(_holds(req, fact) for req in (*by_kind.get(kind, ()), *anykind))
    return may_match


def _holds(required: dict, fact: dict) -> bool:
    """Whether `fact` holds every constant of `required` (kb.engine.syntax.required_constants)."""
    return all(fact.get(prop, _ABSENT) == constant for prop, constant in required.items())


_ABSENT = object()
_ORDER: dict = {}


def projection(facts: list[dict], constant: set[str], joined: set[str]) -> tuple:
    """What of `facts` the rules' conditions see: the values compared with constants, and for joined
    properties only which values are equal (numbered by first appearance)."""
    if not joined:
        # (no rule joins two facts: each fact's values of the compared properties in a fixed order, None where it
        # has none — a fact's values are never None —: equal where the rows above are equal, and quicker)
        order = _ORDER.get(id(constant))
        if order is None or order[0] is not constant:
            order = _ORDER[id(constant)] = (constant, sorted(constant))
        names = order[1]
        return tuple(tuple(map(f.get, names)) for f in facts)
    tokens: dict = {}
    out = []
    for f in facts:
        row = []
        for k in sorted(f):
            if k in constant:
                row.append((k, f[k]))
            elif k in joined:
                row.append((k, tokens.setdefault(_hashable(f[k]), len(tokens))))
        out.append(tuple(row))
    return tuple(out)


def _hashable(value):
    return json.dumps(value, sort_keys=True) if isinstance(value, (list, dict)) else value


def _inputs(inputs: dict) -> tuple:
    """The inputs as a hashable tuple in the order of their names (a list or mapping among them as its JSON)."""
    items = tuple(sorted(inputs.items()))
    try:
        hash(items)
    except TypeError:
        return tuple((k, _hashable(v)) for k, v in items)
    return items


def _key(question: str, inputs: dict) -> tuple:
    return question, _inputs(inputs)


def _mig_listed(asker, inputs: dict, render: list[dict]):
    from kb.questions.release import part

    return part("listed", asker.data, inputs["operator"], asker.data["cards"][inputs["card"]])


def _dra_fact(asker, inputs: dict, render: list[dict]) -> dict:
    """The request's fact as dra's fold builds it again: the one its template is written from (`render`, built by the
    same call: dra.facts reads the inputs and the catalog only)."""
    return render[0]


#: the questions whose fold writes the answer from its inputs and the conclusions only (kb/questions/<q>.py `fold`),
#: with what it reads besides (a function of the asker, the inputs and the facts the template is written from; mig's
#: details: whether the release's support list names the card; dra's fold builds its request's fact again and reads
#: it): their templates are shared by content (`TemplateAsker._content_key`): requests
#: whose templates read alike get one template object, and releases whose templates are all the same objects share one
#: group on the page. Not recommend: its fold asks other questions (shared by `_shared_key`: what decides a template but
#: the release).
CONTENT = {"mig": _mig_listed, "methods": None, "resource": None, "dra": _dra_fact}


class TemplateAsker(Asker):
    """An Asker (the engine `gpukb ask` uses) that also computes answer templates. A sub-question that a
    question's facts ask (methods asks mig) is answered from the templates already computed for it."""

    def __init__(self, data: dict, *, engine: str = "durable", rules=None):
        super().__init__(data, engine=engine, rules=rules)
        self._read: dict = {}
        self._templates: dict = {}
        self._exact: dict = {}
        #: sentinel → the version it stands for, as the catalog writes it (citations are looked up with it)
        self.real: dict[str, str] = {}
        #: templates shared by the releases (see the module's text), by what decides them but the release
        self._shared: dict = {}
        #: templates by what their text is written from (`_content_key`)
        self._content: dict = {}
        self._fillers: dict = {}
        #: per set of sentinels, the templates' copies of the Texts of conclusions (`template`'s memo)
        self._copies: dict = {}
        self._cite_keys: dict = {}
        #: the citations of a conclusion, one list per rule whose citations name no placeholder and one per resolved
        #: references (`_resolved_cites`): the same list in every template that cites them
        self._rule_cites: dict = {}
        self._resolved: dict = {}
        #: question → {projection of the facts: [(rule id, positions of the facts it matched)]}
        self._firings: dict = {}
        #: a citation of the release's own entry: its reference with RELEASE for the release → its key (a digest
        #: of the reference: the same in every process that computes templates)
        self.release_refs: dict[str, str] = {}
        #: operator sentinel → {component slot: the version the release ships}, as the facts had them
        self.release_values: dict[str, dict[str, str]] = {}
        self._tokens: dict[str, str] | None = None
        self._fill: dict[str, str] | None = None
        self._behaviour: dict = {}
        self._behaviour_classes: dict[str, int] = {}

    def _conditions(self, question: str) -> tuple[set[str], set[str]]:
        key = ("conditions", question)
        if key not in self._read:
            self._read[key] = condition_props(self.rules[question])
        return self._read[key]

    def _reads(self, question: str) -> set[str]:
        if question not in self._read:
            self._read[question] = read_props(self.rules[question])
        return self._read[question]

    def _exact_answer(self, key: str):
        found = self._exact.get(key)
        if isinstance(found, tuple):  # filled when first asked for: few are ever asked
            found = self._exact[key] = _filled_answer(*found)
        return found

    def answer(self, question: str, inputs: dict, *, cited: bool = True) -> dict:
        """As Asker.answer; an answer a template gives at once (what the facts of a question asking another read)."""
        found = self._exact_answer(_key(question, inputs))
        return found if found is not None else super().answer(question, inputs, cited=cited)

    def answer_many(self, question: str, inputs_list: list[dict], *, cited: bool = True) -> list[dict]:
        """As Asker.answer_many; an answer a template gives is the full one (with its citations) either way."""
        found = [self._exact_answer(_key(question, i)) for i in inputs_list]
        missing = [i for i, a in zip(inputs_list, found) if a is None]
        more = iter(super().answer_many(question, missing, cited=cited) if missing else [])
        return [a if a is not None else next(more) for a in found]

    def templates(self, question: str, requests: list[tuple], derived=None, alike: tuple | None = None,
                  by_facts: tuple = ()) -> list[dict]:
        """Templates for many requests of one question. A request is (inputs with sentinels, {sentinel: slot
        name}), or (inputs, sentinels, counted, varied) with `counted` None or, as described below, (input name, second
        value) for a number the rules compare, and `varied` None or (input name, second value, derive, the properties
        that differ for any other value: `check_varied`) for an input no rule's condition or citation reads whose
        template stands for every value of a class (a MIG profile: a group of a card's profiles, kb.site.askdata): the
        facts are built with both values too; what follows from the input (`derive(prop, value, fact)`, which the page
        computes the same way) becomes a slot, what differs otherwise stays where no rule reads it at all and is an
        error else (`_varied`). A request (inputs, sentinels, (input name, second value)) is one counted: for a
        number the rules compare (a replica
        count): the facts are built with both values; the properties that differ follow from the number and
        become slots (each must be one `derived` knows how to compute: derived(prop, value, fact) → the fact's
        value). Returns one template per request.

        The engine runs once per distinct *projection* of the facts on what the rules read (conditions and
        citations): requests whose facts agree there fire the same rules on the same facts. Each request's
        conclusions are then written from its own facts and folded with its own inputs, as the engine does.

        `alike` (keys, slot names): one key per request, the caller's word that requests with equal keys have equal
        facts but for the sentinels of those slots (kb.site.askdata.driver_classes): only the first of them is asked,
        the others get its template. No rule may read a property holding such a sentinel (checked on the facts of
        every request asked), so their templates are indeed equal.

        `by_facts` (slot names, the operator's): requests whose facts agree in what a rule that may fire for them can
        match (`_fact_class`), those slots' sentinels aside, get the first's template; their facts are built once
        (the first value of a number only). The same guard holds for those slots."""
        if by_facts:
            return self._templates_of(question, requests, derived, by_facts, by_facts=True)
        if alike is not None:
            keys, names = alike
            first: dict = {}
            reps = [first.setdefault(k, n) for n, k in enumerate(keys)]
            asked = [n for n, r in enumerate(reps) if r == n]
            got = dict(zip(asked, self._templates_of(question, [requests[n] for n in asked], derived, names)))
            out = [got[r] for r in reps]
            self._remember(question, requests, out)
            return out
        return self._templates_of(question, requests, derived)

    def _templates_of(self, question: str, requests: list[tuple], derived=None, open_slots: tuple = (),
                      by_facts: bool = False) -> list[dict]:
        from kb.engine import fire
        from kb.engine.conclude import conclude
        from kb.questions import module

        mod = module(question)
        constant, joined = self._conditions(question)
        by_id = {r["id"]: r for r in self.rules[question]}
        prepared = []  # (n, key, facts, render)
        projections: dict = {}
        classed: dict = {}  # (by_facts) class of the facts → the key of its first request
        own = []  # each request's inputs as `_inputs` writes them (made once per request)
        for n, request in enumerate(requests):
            inputs, sentinels = request[0], request[1]
            counted = len(request) > 2 and request[2] is not None
            varied = request[3][:2] if len(request) > 3 and request[3] is not None else None
            # the inputs decide the facts: the same inputs, the same template
            own.append(items := _inputs(inputs))
            key = (question, items, request[2] if counted else None, varied)
            if key in self._templates:
                prepared.append((n, key, None, None))
                continue
            facts = mod.facts(self, inputs)
            if by_facts:
                op = next(s for s, name in sentinels.items() if name == "operator")
                cls = self._fact_class(question, inputs, facts, op, (request[2] if counted else None, varied), items)
                first = classed.setdefault(cls, key)
                if first is not key:  # (its class's first request's template is its own)
                    prepared.append((n, first, None, None))
                    continue
                # (no condition reads the release's version: checked on the first of a class, whose other facts hold
                # it where the others' do; the behaviour facts once per release, `_fact_class`)
                self._unread(question, [f for f in facts if f.get("kind") != "behaviour"], [op], conditions=True)
            render = facts
            if counted:
                name, second = request[2]
                other = mod.facts(self, {**inputs, name: second})
                render = self._counted(question, facts, other, name, (inputs[name], second), derived)
            if varied:
                name, second, derive, varying = request[3]
                render = self._varied(question, render, facts, mod.facts(self, {**inputs, name: second}), name,
                                      (inputs[name], second), derive, varying)
            if open_slots and not by_facts:  # (by_facts: `_fact_class` checks)
                self._unread(question, facts, [s for s, name in sentinels.items() if name in open_slots])
            seen = projection(facts, constant, joined)
            projections.setdefault(seen, facts)
            prepared.append((n, key, seen, render))
        # the same projection, the same firings: kept across calls (cards) for the rules of this asker
        firings = self._firings.setdefault(question, {})
        todo = [(seen, facts) for seen, facts in projections.items() if seen not in firings]
        if todo:
            fired = fire(question, [facts for _, facts in todo], engine=self.engine, rules=self.rules)
            for (seen, facts), one in zip(todo, fired):
                firings[seen] = [(rid, [next(i for i, f in enumerate(facts) if f is m) for m in matched])
                                       for rid, matched in one]
        counted: dict = {}  # the last content key per inputs with the number as a slot: (render, firing, key)
        for n, key, seen, render in prepared:
            if seen is None or key in self._templates:
                continue
            inputs, sentinels = requests[n][0], requests[n][1]
            open_inputs = [r[0] for r in requests[n][2:4] if r is not None]  # (the number's, the varied input's)
            for name in open_inputs:
                inputs = {**inputs, name: slot(name)}
            op = next((s for s, name in sentinels.items() if name == "operator"), None)
            shared = content = resolved = None
            if question in CONTENT:
                # (two classes of the number with the same facts, the number a slot, firing alike: the same key)
                alike = _key(question, inputs) if open_inputs else None
                last = counted.get(alike)
                if last is not None and last[1] == firings[seen] and last[0] == render:
                    content = last[2]
                else:
                    content, resolved = self._content_key(question, inputs, render, firings[seen], sentinels, op,
                                                          own[n] if alike is None else alike[1])
                    if alike is not None:
                        counted[alike] = (render, firings[seen], content)
                found = self._content.get(content)
                if found is not None:  # an equal template written already
                    self._templates[key] = found
                    continue
            elif op is not None:
                shared = self._shared_key(question, inputs, render, firings[seen], op)
                if shared in self._shared:
                    self._templates[key] = self._shared[shared]
                    continue
            if op is not None:
                sentinels = {**sentinels, **self._components()}
            conclusions = []
            for n_fired, (rid, pos) in enumerate(firings[seen]):
                rule, matched = by_id[rid], tuple(render[i] for i in pos)
                if op is not None:  # (conclude reads the matched facts only)
                    matched = tuple(self._tokenised(matched, op))
                # (the rule's texts keep the sentinels and tokens, which become slots)
                written = conclude(rule, matched, self.data)
                if (self.real or op is not None) and any("{" in ref for ref in rule["cites"]):
                    if resolved is not None and resolved[n_fired] is not None:  # (what `_content_key` resolved)
                        written["cites"] = self._resolved_cites(rule, resolved[n_fired])
                    else:
                        written["cites"] = self._cites(rule, matched, op)
                elif not any("{" in ref for ref in rule["cites"]):
                    # (the same citations in every conclusion of the rule: one list, which the page's files render once)
                    written["cites"] = self._rule_cites.setdefault(rid, written["cites"])
                conclusions.append(written)
            answer = mod.fold(self, inputs, conclusions)
            answer["reasons"] = [{k: v for k, v in r.items() if k != "facts"} for r in answer["reasons"]]
            memo = self._copies.get(names := tuple(sentinels.items()))
            if memo is None:
                memo = self._copies[names] = {}
            self._templates[key] = template(answer, sentinels, memo)
            if shared is not None:
                self._shared[shared] = self._templates[key]
            if content is not None:
                self._content[content] = self._templates[key]
        out = [self._templates[key] for _n, key, _p, _r in prepared]
        self._remember(question, requests, out, own)
        return out

    def _remember(self, question: str, requests: list[tuple], out: list[dict], items: list | None = None) -> None:
        """Each request's answer (its template filled with its sentinels), for a question that asks `question` in
        turn (`answer_many`): filled when first asked for. `items`: each request's `_inputs` where made already."""
        fill = self._component_fill()
        for n, (request, tmpl) in enumerate(zip(requests, out)):
            key = (question, _inputs(request[0]) if items is None else items[n]) if len(request) == 2 else None
            if key is not None and key not in self._exact:
                # a sub-question's answer keeps the component tokens (they stand for the same in every release)
                self._exact[key] = (tmpl, {**fill, **{name: s for s, name in request[1].items()}})

    def _fact_class(self, question: str, inputs: dict, facts: list[dict], op: str, counted, items=None) -> tuple:
        """What decides the template of a request (`templates` by_facts) but the release's sentinel `op`: the inputs,
        every fact but the behaviour facts (whole), and of the behaviour facts (a release's, the same for each of its
        requests) those a condition of a rule that may fire can match (`matchable`), as `release.written` writes them.
        A rule may fire unless one of its conditions requires a `request` fact that the request fact cannot match
        (`required_constants`: its constants; other comparisons are taken to hold). A rule that fires matches only facts in the
        class: requests of one class fire the same rules on facts equal in value and get templates equal in content.
        No condition may read a property holding `op` (`_unread`, here for the behaviour facts, by `_templates_of` for
        the others): the release's own version is not classed."""
        from kb.questions import release

        rest = [f for f in facts if f.get("kind") != "behaviour"]
        found = self._read.get(("by_facts", question))
        if found is None:
            conds = [[(req.get("kind") == "request", req) for _alias, cond in rule["when"]
                      for req in (required_constants(cond),)] for rule in self.rules[question]]
            names = tuple(sorted({p for rule in conds for is_request, req in rule if is_request for p in req}))
            found = self._read["by_facts", question] = (conds, names, {})
        conds, names, mays = found
        request = [f for f in rest if f.get("kind") == "request"]
        # (which rules may fire follows from the request facts' values of the properties their conditions require)
        seen = tuple(tuple(f.get(p, _ABSENT) for p in names) for f in request)
        may = mays.get(seen)
        if may is None:
            may = mays[seen] = tuple(n for n, rule in enumerate(conds) if not any(
                is_request and not any(_holds(req, f) for f in request) for is_request, req in rule))
        memo = self.__dict__.setdefault("_fact_classes", {})
        text = memo.get((question, op, may))
        if text is None:
            behaviour = [f for f in facts if f.get("kind") == "behaviour"]
            self._unread(question, behaviour, [op], conditions=True)
            reqs = [req for n in may for _r, req in conds[n]]
            shipped = [f for f in behaviour if any(_holds(req, f) for req in reqs)]
            text = memo[question, op, may] = release.written("behaviour", shipped, op, token=RELEASE,
                                                             component_token=component_token)
        return repr((_inputs(inputs) if items is None else items, counted, rest)).replace(op, RELEASE), text

    def _unread(self, question: str, facts: list[dict], sentinels: list[str], conditions: bool = False) -> None:
        """No property a rule of `question` reads (conditions, citations) holds one of these sentinels. `conditions`:
        no property a condition reads (the release's version, which texts and citations of the release's own entry
        may read: the page fills it in, `_cites`)."""
        if conditions:
            reads = self._read.get(("condition_reads", question))
            if reads is None:
                reads = self._read["condition_reads", question] = frozenset().union(*self._conditions(question))
        else:
            reads = self._reads(question)
        # (one search per sentinel in the texts of the read properties; the offender looked for only where one is)
        read = [f[k] for f in facts for k in reads.intersection(f)]
        text = "\x00".join([v for v in read if v.__class__ is str])
        if not any(s in text for s in sentinels):
            return
        for f in facts:
            for k, v in f.items():
                if k in reads and v.__class__ is str and any(s in v for s in sentinels) and \
                        self._may_read(question, f, k, conditions, sentinels):
                    raise KeyError(f"a {question} rule reads {k}, which holds a version the ask page leaves open "
                                   f"({v}): its classes of versions would merge answers that differ")

    def _may_read(self, question: str, fact: dict, prop: str, conditions: bool, sentinels: list[str]) -> bool:
        """Whether a rule of `question` that may match `fact` (a condition whose required constants it holds, those on
        a property holding one of `sentinels` taken to hold: a sentinel stands for every version of its class) reads
        `prop` in a condition or (unless `conditions`) a citation: a driver exception's `driver`, which a citation
        reads, is not the card fact's `driver`, the version asked about."""
        key = ("rule_props", question, conditions)
        per_rule = self._read.get(key)
        if per_rule is None:
            per_rule = self._read[key] = [
                ([required_constants(cond) for _alias, cond in rule["when"]],
                 set().union(*condition_props([rule])) if conditions else read_props([rule]))
                for rule in self.rules[question]]
        left_open = {k for k, v in fact.items() if v.__class__ is str and any(s in v for s in sentinels)}
        return any(prop in props and any(all(fact.get(k, _ABSENT) == constant for k, constant in req.items()
                                             if k not in left_open) for req in reqs)
                   for reqs, props in per_rule)

    def forget_templates(self) -> None:
        """Drop the templates and answers computed so far (one card's, once its files are written); what the
        releases share (release cites, component versions) is kept."""
        self._templates.clear()
        self._exact.clear()
        self._shared.clear()
        self._content.clear()
        self._cite_keys.clear()
        self._copies.clear()
        self._memo.clear()
        self.__dict__.pop("_strategy_gpu", None)

    # -- releases sharing templates

    def _components(self) -> dict[str, str]:
        """{component token: its slot} for every component whose version-bound behaviour the facts carry."""
        if self._tokens is None:
            from kb.questions import behaviour

            self._tokens = {component_token(c): component_slot(c) for c, _s in behaviour.versioned_statements(self.data)}
            read = json.dumps([[r.get("when"), r.get("then"), r.get("cites")] for rules in self.rules.values() for r in rules])
            if "inherited_from" in read:  # left out of the facts templates are written from (`_tokenised`)
                raise KeyError("a rule reads inherited_from, which the ask page leaves out of the templates' facts")
        return self._tokens

    def component_tokens(self) -> dict[str, str]:
        """{component token: its slot} (`_components`)."""
        return self._components()

    def _component_fill(self) -> dict[str, str]:
        if self._fill is None:
            self._fill = {name: token for token, name in self._components().items()}
        return self._fill

    def _tokenised(self, facts: list[dict], op: str) -> list[dict]:
        """The facts with the component versions of the release (behaviour facts) as tokens; the versions are
        recorded per release (`release_values`)."""
        out = []
        for f in facts:
            if f.get("kind") == "behaviour" and "version" in f:
                f = dict(f)
                token = component_token(f["component"])
                if token not in self._components():
                    raise KeyError(f"behaviour fact of an unknown component {f['component']!r}")
                known = self.release_values.setdefault(op, {}).setdefault(component_slot(f["component"]), f["version"])
                if known != f["version"]:
                    raise ValueError(f"two versions of {f['component']} for one release: {known}, {f['version']}")
                f["version"] = token
                f.pop("inherited_from", None)  # which older release listed the version: no rule reads it
            out.append(f)
        return out

    def _real_facts(self, facts: tuple) -> tuple:
        """The facts with each value that is a sentinel replaced by the version it stands for."""
        real = self.real
        out = []
        for f in facts:
            changed = {k: real[v] for k, v in f.items() if v.__class__ is str and v in real}
            out.append({**f, **changed} if changed else f)
        return tuple(out)

    def _release_cite(self, ref: str) -> dict:
        """The cite standing for a citation of the release's own entry (`ref` with RELEASE for the release)."""
        key = self.release_refs.get(ref)
        if key is None:
            key = "r" + hashlib.blake2b(ref.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()
            if key in self.release_refs.values():
                raise ValueError(f"two release citations with one key {key}: {ref}")
            self.release_refs[ref] = key
        return {"release": key}

    def _cites(self, rule: dict, render: tuple, op: str | None) -> list[dict]:
        """The citations of a conclusion, as kb.engine.conclude writes them: looked up by the real versions (a
        catalog list is selected by "26.3.3", not by its sentinel); a reference that names the asked release
        itself becomes a release cite the page fills in."""
        from kb.engine.conclude import cited_fact
        from kb.engine.conclude import fill as fill_ref

        real = self._real_facts(render)
        out: list[dict] = []
        for ref in rule["cites"]:
            optional, bare = ref.endswith("?"), ref.rstrip("?")
            if op is not None and "{" in bare:
                shown = fill_ref(rule, render, bare)
                if TOKEN_OPEN in shown:
                    raise KeyError(f"{rule['file']}: cites {ref} with a component's version; the ask page cannot fill it in")
                if op in shown:
                    out.append(self._release_cite(shown.replace(op, RELEASE) + ("?" if optional else "")))
                    continue
            filled = fill_ref(rule, real, bare)
            found = cited_fact(self.data, filled, optional, rule["file"])
            out += [dict(c) for c in found if c not in out]
        return out

    def release_cites(self, key: str, op: str) -> list[dict]:
        """The citations release cite `key` stands for under GPU Operator release `op` (the real version), as
        kb.engine.conclude finds them; the page shows them where the release cite stands. Such an entry may not
        carry a condition or a dispute (the page could not show them)."""
        from kb.engine.conclude import cited_fact, fact_conditions, resolve_disputes

        ref = next(r for r, k in self.release_refs.items() if k == key)
        optional = ref.endswith("?")
        filled = ref.rstrip("?").replace(RELEASE, op)
        found = cited_fact(self.data, filled, optional)
        if not found:
            return []
        if fact_conditions(self.data, filled) or resolve_disputes(self.data, filled):
            raise KeyError(f"{filled} carries a condition or a dispute, which the ask page cannot show per release")
        return [dict(c) for c in found]

    def _shared_key(self, question: str, inputs: dict, render: list[dict], firing: list, op: str) -> tuple:
        """What decides a template but the release: the other inputs, the facts it is written from with the
        release's sentinel as RELEASE and the components' versions as tokens, and the rules that fired on which
        facts. (The behaviour facts, the bulk, are compared with those of the release's first request and
        counted by their class: releases whose tokenised behaviour facts are equal share a class.)"""
        behaviour = [f for f in render if f.get("kind") == "behaviour"]
        first = self._behaviour.get((op, question))
        if first is None or first[0] != behaviour:
            text = json.dumps(self._tokenised(behaviour, op), sort_keys=True, ensure_ascii=False).replace(op, RELEASE)
            first = (behaviour, self._behaviour_classes.setdefault(text, len(self._behaviour_classes)))
            self._behaviour.setdefault((op, question), first)
        rest = [None if f.get("kind") == "behaviour" else f for f in render]
        # (a repr is the content: the same facts written in another order only miss a share)
        text = repr([{k: v for k, v in inputs.items() if k != "operator"}, rest]).replace(op, RELEASE)
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).digest()  # kept small
        return question, digest, first[1], tuple((rid, tuple(pos)) for rid, pos in firing)

    def _content_key(self, question: str, inputs: dict, render: list[dict], firing: list, sentinels: dict[str, str],
                     op: str | None, items: tuple | None = None) -> tuple:
        """What the text of a template of `question` (one of CONTENT) is written from: the inputs and, per rule that
        fired in order, the values of the placeholders its texts, details and cites name (as `conclude` reads them:
        the components' versions as their tokens), the citations `_cites` looks up and whether its reason repeats
        an earlier one (kb.questions.base.reasons) — every sentinel written as its slot — and what the question's
        fold reads besides (CONTENT). Requests with equal keys get templates equal in content: one is written, the
        others are copies. Two driver classes or releases whose answers read the same values share one this way
        where their facts differ in what no fired rule's text reads (the bulk of the methods and resource
        templates)."""
        from kb.engine.conclude import _lookup
        from kb.engine.conclude import fill as fill_ref

        by_id = self._rule_reads(question)
        cited = bool(self.real or op is not None)
        rows, cites, resolved = [], [], []
        seen: list = []
        rids: set = set()
        for rid, pos in firing:
            rule, names, version, placeholders = by_id[rid]
            raw = tuple(render[i] for i in pos)
            matched = None  # (the facts as conclude gets them: built only where needed)
            if version:  # a behaviour fact's version is a token
                matched = tuple(map(self._token_fact, raw))
            values = tuple([(n, (v := _lookup(rule, matched or raw, n)).__class__.__name__, v) for n in names])
            repeat = None
            if rid in rids:  # (a rule fired twice: is the reason the same, facts and all?)
                matched = matched or tuple(map(self._token_fact, raw))
                repeat = next((j for j, (r, m) in enumerate(seen) if r == rid and tuple(map(self._token_fact, m)) == matched),
                              None)
            rids.add(rid)
            seen.append((rid, raw))
            rows.append((rid, values, repeat))
            resolved.append(None)
            if cited and placeholders:
                matched = matched or tuple(map(self._token_fact, raw))
                # (what _cites looks up follows from the placeholders' values: once per rule and values)
                # (and the versions the sentinels among them stand for: `real` may be told another writing later)
                memo, shown_as = (rid, values, op), tuple(self.real.get(v) for _n, _t, v in values if isinstance(v, str))
                try:
                    found = self._cite_keys.get(memo)
                except TypeError:  # a list among the values
                    memo = found = None
                if found is not None and found[0] == shown_as:
                    found = found[1]
                else:
                    found = []
                    real = self._real_facts(matched)
                    for ref in rule["cites"]:
                        bare = ref.rstrip("?")
                        if op is not None and "{" in bare:
                            shown = fill_ref(rule, matched, bare)
                            if TOKEN_OPEN in shown:
                                raise KeyError(f"{rule['file']}: cites {ref} with a component's version; the ask page "
                                               "cannot fill it in")
                            if op in shown:
                                found.append(("release", shown.replace(op, RELEASE), ref))
                                continue
                        found.append(("real", fill_ref(rule, real, bare), ref))
                    found = tuple(found)
                    if memo is not None:
                        self._cite_keys[memo] = (shown_as, found)
                cites += found
                resolved[-1] = found
        names = tuple(sorted(sentinels.items()))
        fill = self._fillers.get(names)
        if fill is None:
            fill = self._fillers[names] = _filler(sentinels)
        text = fill(repr((list(_inputs(inputs) if items is None else items), rows)))
        extra = CONTENT[question]
        return (question, text, repr(cites), cited, None if extra is None else fill(repr(extra(self, inputs, render)))), resolved

    def _resolved_cites(self, rule: dict, resolved: tuple) -> list[dict]:
        """What `_cites` gives for the references `_content_key` resolved for a firing of `rule` (("release", the
        reference with RELEASE for the release, as written) or ("real", the reference with the real versions, as
        written) per citation): one list per resolved references, the same object for each conclusion citing them."""
        from kb.engine.conclude import cited_fact

        out = self._resolved.get(resolved)
        if out is None:
            out = []
            for kind, filled, ref in resolved:
                optional = ref.endswith("?")
                if kind == "release":
                    out.append(self._release_cite(filled + ("?" if optional else "")))
                else:
                    out += [dict(c) for c in cited_fact(self.data, filled, optional, rule["file"]) if c not in out]
            self._resolved[resolved] = out
        return out

    def _rule_reads(self, question: str) -> dict:
        """Rule id → (the rule, the placeholder names conclude fills, whether one is a version, whether a citation
        has a placeholder)."""
        from kb.engine.conclude import _rule_info

        key = ("rule_reads", question)
        if key not in self._read:
            self._read[key] = {r["id"]: (r, names, any(n.rsplit(".", 1)[-1] == "version" for n in names),
                                         any("{" in ref for ref in r["cites"]))
                               for r in self.rules[question] for names in (_rule_info(r)[1],)}
        return self._read[key]

    def _token_fact(self, f: dict) -> dict:
        """A fact as `_tokenised` writes it (a behaviour fact's version as its component's token)."""
        if f.get("kind") == "behaviour" and "version" in f:
            f = {k: v for k, v in f.items() if k != "inherited_from"}
            f["version"] = component_token(f["component"])
        return f

    def check_varied(self, question: str, inputs: dict, name: str, values: list, derive) -> frozenset:
        """The facts of `inputs` with each of `values` as input `name` differ from those with the first only as
        `_varied` allows, and what follows from the first follows from each of them alike (raises ValueError else):
        one template, `name` and what follows from it slots, stands for every value. Returns the properties that
        differ between the first value's facts and any other's (`_varied` checks them for every request, not only
        where its two values differ)."""
        from kb.questions import module

        mod = module(question)
        first = mod.facts(self, {**inputs, name: values[0]})
        varying: set = set()
        for value in values[1:]:
            other = mod.facts(self, {**inputs, name: value})
            self._varied(question, first, first, other, name, (values[0], value), derive)
            varying |= {k for a, b in zip(first, other) if a is not b for k in a if a[k] != b[k]}
        return frozenset(varying)

    def _varied(self, question: str, render: list[dict], facts: list[dict], other: list[dict], name: str,
                values: tuple, derive, varying: frozenset = frozenset()) -> list[dict]:
        """`render` (the facts a template is written from) with every property that follows from input `name` as a
        slot: where `derive(prop, value, fact)` gives it for the first value (`facts`) it must give it for the second
        (`other`) too, and no condition or citation may read it (the page computes it so); a property that differs
        between the two otherwise (or for another value: `varying`) is written as the slot of what follows from the
        input that it equals for both (a variant's resource: its own or its plain profile's), or stays where no rule
        reads it at all (not even a text), and is an error else. (A condition or citation of a rule that cannot match
        the fact does not count: `_may_read`; a MIG profile's own citation, under mig.strategy single or mixed without
        sharing, keeps those requests apart.)"""
        if len(facts) != len(other) or any(a.keys() != b.keys() for a, b in zip(facts, other)):
            raise ValueError(f"the facts differ in shape for two values of {name}: {values}")
        memo = self._read.get(("varied", question))
        if memo is None:  # (what the rules' texts show; the properties whose values decide what rule may match)
            shown = {n.rsplit(".", 1)[-1] for _rule, names, _v, _c in self._rule_reads(question).values() for n in names}
            decide = tuple(sorted({p for rule in self.rules[question] for _alias, cond in rule["when"]
                                   for p in required_constants(cond)}))
            memo = self._read["varied", question] = (shown, decide, {})
        shown, decide, seen = memo

        def may_read(fact: dict, prop: str) -> bool:
            key = (prop, tuple([fact.get(p, _ABSENT) for p in decide]))
            found = seen.get(key)
            if found is None:
                found = seen[key] = self._may_read(question, fact, prop, False, [])
            return found
        out = []
        for row, a, b in zip(render, facts, other):
            if a is b or a == b and varying.isdisjoint(a):
                out.append(row)
                continue
            row = dict(row)
            for k in a:
                found = derive(k, values[0], a)
                if found is not None and found == a[k]:  # (equal for the two values or not: it follows from the input)
                    if derive(k, values[1], b) != b[k]:
                        raise ValueError(f"the ask page computes {k} for {name} {values[1]} as "
                                         f"{derive(k, values[1], b)!r}, the facts have {b[k]!r}")
                    if may_read(a, k):
                        raise ValueError(f"a {question} rule reads {k}, which follows from {name}: the ask page "
                                         "cannot class it")
                    row[k] = slot(k)
                elif (a[k] != b[k] or k in varying) and (k in shown or may_read(a, k)):
                    # (a value the page computes under another name: a variant's resource, its own or its plain
                    # profile's as the release's device plugin has it)
                    alias = next((p for p in getattr(derive, "props", ()) if p != k and derive(p, values[0], a) == a[k]
                                  and derive(p, values[1], b) == b[k]), None)
                    if alias is not None and not may_read(a, k):
                        row[k] = slot(alias)
                        continue
                    raise ValueError(f"the ask page does not know how {k} follows from {name} "
                                     f"({name} {values[0]}: {a[k]!r}, {values[1]}: {b[k]!r})")
            out.append(row)
        return out

    def _counted(self, question: str, facts: list[dict], other: list[dict], name: str, values: tuple,
                 derived) -> list[dict]:
        """The facts with the number and every property that follows from it (what `derived` computes) as
        slots; any other property that differs between the two numbers' facts is an error, and so is a rule
        that reads a property following from the number (the classes only know the number's own lines)."""
        if len(facts) != len(other) or any(a.keys() != b.keys() for a, b in zip(facts, other)):
            raise ValueError(f"the facts differ in shape for two values of {name}: {values}")
        props = getattr(derived, "props", None)  # the only properties `derived` computes, where it says so
        out = []
        for a, b in zip(facts, other):
            if props is not None and props.isdisjoint(a):  # nothing follows from the number: all must be equal
                if a != b:
                    k = next(k for k in a if a[k] != b[k])
                    raise ValueError(f"the ask page does not know how {k} follows from {name} "
                                     f"({name} {values[0]}: {a[k]!r}, {values[1]}: {b[k]!r})")
                out.append(a)  # (the facts a template is written from are read, never changed)
                continue
            row = dict(a)
            for k in a:
                if props is not None:
                    follows = k in props
                else:
                    follows = derived is not None and derived(k, values[0], a) is not None
                if follows:
                    for value, fact in zip(values, (a, b)):
                        if derived(k, value, fact) != fact[k]:
                            raise ValueError(f"the ask page computes {k} for {name} {value} as "
                                             f"{derived(k, value, fact)!r}, the facts have {fact[k]!r}")
                    if k != name and k in self._reads(question):
                        raise ValueError(f"a {question} rule reads {k}, which follows from {name}: the ask page "
                                         "cannot class it")
                    row[k] = slot(k)
                elif a[k] != b[k]:
                    raise ValueError(f"the ask page does not know how {k} follows from {name} "
                                     f"({name} {values[0]}: {a[k]!r}, {values[1]}: {b[k]!r})")
            out.append(row)
        return out
