"""Answer templates for the static ask page: the engine's answers with the typed values left open.

The ask page answers any driver, Kubernetes version and replica count a visitor types, without a server.
Answers change only where the catalog draws a line (a minimum driver, the DRA driver's minimum Kubernetes),
so the page needs one answer per interval between those lines, with the typed value filled in where the
answer quotes it. This module computes such answers with the real engine:

- A *sentinel* stands for the value to be filled in: a version written with zero-padded parts
  ('0580.0082.0007' has the key of 580.82.7 but occurs in no catalog text), or a replica count no text
  contains. Questions compare versions by key only, so a sentinel decides like the version it stands for.
- `template()` turns an answer computed with sentinels into a template: every sentinel in its text becomes
  a slot `\ue000name\ue001` the page fills with the visitor's value.
- A template leaves out the facts each reason read (what `gpukb ask --explain` adds).
- Requests whose facts are equal except for properties holding a sentinel that no rule condition or
  citation reads share one engine run and one fold (`Templates.answer_many`): the GPU Operator release
  and the driver then cost a fact build each, not an engine session each.

The page's answers are tested against `gpukb ask` (tests/test_site_ask.py): every template filled in
for every exported input, and a sample of typed versions around every line.
"""

from __future__ import annotations

import json
import re

from kb import versions
from kb.questions import Asker

OPEN, CLOSE = "\ue000", "\ue001"
#: a replica count no catalog text contains (checked in `Sentinels`)
REPLICAS = 987654321
_MAX = (999, 999, 999, 999)


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
    if value == REPLICAS and isinstance(value, int) and not isinstance(value, bool):
        return slot("replicas")
    return value


def template_value(value, sentinels: dict[str, str]):
    """Any value (text, list, mapping) with every sentinel string replaced by its slot."""
    if not sentinels:
        return value
    pattern = re.compile("|".join(re.escape(s) for s in sorted(sentinels, key=len, reverse=True)))
    return _walk(value, lambda s: pattern.sub(lambda m: slot(sentinels[m.group(0)]), s))


def template(answer: dict, sentinels: dict[str, str]) -> dict:
    """The answer with every sentinel string (value → slot name) replaced by its slot. Citations are the
    catalog's own text, which no sentinel occurs in: they are kept as they are."""
    if not sentinels:
        return answer
    pattern = re.compile("|".join(re.escape(s) for s in sorted(sentinels, key=len, reverse=True)))

    def one(s: str) -> str:
        return pattern.sub(lambda m: slot(sentinels[m.group(0)]), s)
    out = {k: _walk(v, one) for k, v in answer.items() if k != "reasons"}
    out["reasons"] = [{k: (v if k == "citations" else _walk(v, one)) for k, v in r.items()} for r in answer["reasons"]]
    return out


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


def read_props(rules: list[dict]) -> set[str]:
    """Every name a rule condition or citation of these rules reads (property names, and every text in a
    condition, which over-approximates references to other facts' properties)."""
    found: set[str] = set()

    def walk(node):
        if isinstance(node, dict):
            for k, v in node.items():
                if not k.startswith("$"):
                    found.add(k)
                walk(v)
        elif isinstance(node, (list, tuple)):
            for v in node:
                walk(v)
        elif isinstance(node, str):
            found.add(node)

    for rule in rules:
        for _alias, cond in rule["when"]:
            walk(cond)
        for ref in rule["cites"]:
            for name in re.findall(r"\{([A-Za-z_][A-Za-z0-9_.]*)\}", ref):
                found.add(name.rsplit(".", 1)[-1])
    return found


def _hashable(value):
    return json.dumps(value, sort_keys=True) if isinstance(value, (list, dict)) else value


def _key(question: str, inputs: dict) -> tuple:
    return question, tuple(sorted((k, _hashable(v)) for k, v in inputs.items()))


class TemplateAsker(Asker):
    """An Asker (the engine `gpukb ask` uses) that also computes answer templates. A sub-question that a
    question's facts ask (methods asks mig) is answered from the templates already computed for it."""

    def __init__(self, data: dict, *, engine: str = "durable", rules=None):
        super().__init__(data, engine=engine, rules=rules)
        self._read: dict[str, set[str]] = {}
        self._templates: dict = {}
        self._exact: dict = {}

    def _reads(self, question: str) -> set[str]:
        if question not in self._read:
            self._read[question] = read_props(self.rules[question])
        return self._read[question]

    def _exact_answer(self, key: str):
        found = self._exact.get(key)
        if isinstance(found, tuple):  # filled when first asked for: few are ever asked
            found = self._exact[key] = fill(*found)
        return found

    def answer_many(self, question: str, inputs_list: list[dict]) -> list[dict]:
        found = [self._exact_answer(_key(question, i)) for i in inputs_list]
        missing = [i for i, a in zip(inputs_list, found) if a is None]
        more = iter(super().answer_many(question, missing) if missing else [])
        return [a if a is not None else next(more) for a in found]

    def templates(self, question: str, requests: list[tuple[dict, dict[str, str]]]) -> list[dict]:
        """Templates for many requests of one question. A request is (inputs with sentinels, {sentinel: slot
        name}); requests whose facts differ only in sentinel-valued properties no rule reads share one
        engine run and one fold. Returns one template per request."""
        from kb.engine import evaluate_many
        from kb.questions import module

        mod = module(question)
        reads = self._reads(question)
        firsts: dict[str, tuple[int, list]] = {}
        keys = []
        for n, (inputs, sentinels) in enumerate(requests):
            facts = mod.facts(self, inputs)
            canon = tuple(tuple(sorted((k, (slot(sentinels[v]) if isinstance(v, str) and v in sentinels
                                            and k not in reads else v)) for k, v in f.items())) for f in facts)
            shown = tuple(sorted((k, (slot(sentinels[v]) if isinstance(v, str) and v in sentinels else _hashable(v)))
                                 for k, v in inputs.items()))
            key = (question, canon, shown)
            keys.append(key)
            if key not in self._templates and key not in firsts:
                firsts[key] = (n, facts)
        if firsts:
            todo = list(firsts.values())
            results = evaluate_many(question, [facts for _, facts in todo], engine=self.engine, data=self.data,
                                    rules=self.rules)
            for (n, _facts), conclusions in zip(todo, results):
                inputs, sentinels = requests[n]
                answer = mod.fold(self, inputs, conclusions)
                answer["reasons"] = [{k: v for k, v in r.items() if k != "facts"} for r in answer["reasons"]]
                self._templates[keys[n]] = template(answer, sentinels)
        out = [self._templates[k] for k in keys]
        for (inputs, sentinels), tmpl in zip(requests, out):
            values = {name: (REPLICAS if name == "replicas" else s) for s, name in sentinels.items()}
            self._exact.setdefault(_key(question, inputs), (tmpl, values))
        return out
