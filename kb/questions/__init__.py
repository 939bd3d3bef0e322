"""The questions `gpukb ask` answers; one module per question.

    answer(question, **inputs) -> answer dict (see CONTRIBUTING.md, "Engine API")
    export_all()               -> {"data_version", "verified", "hash", "answers": [...]}

The questions are the rule base's folders that have a module here (`questions()`). A question module
declares TITLE (Text), HELP ("English", "Deutsch" as a Text; `gpukb ask <question> --help`), PARAMS
(kb.questions.base.Param: the command's arguments and options), DATA (the parts of the compiled catalog it
reads), USES (the questions it asks in turn), and has resolve(index, **raw) -> inputs, defaults(index) ->
[inputs, …] (the matrix: every card × known operator release), facts(asker, inputs) -> [fact, …] and
fold(asker, inputs, conclusions) -> answer. Every answer comes from the engine; only the compiled catalog
and rule base are cached (kb.catalog.compiled).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import os
from pathlib import Path

from kb.errors import UnusableInput
from kb.text import Text


def questions(rules_root=None) -> tuple[str, ...]:
    """The questions: the folders of the rule base (`rules_root`, default the one in use) that have a module
    kb/questions/<question>.py, each after the questions it asks (USES). `check` is gpukb check's."""
    found = _found(rules_root)
    ordered: list[str] = []

    def add(q: str, path: tuple = ()) -> None:
        if q in ordered or q in path or q not in found:
            return
        for used in importlib.import_module(f"kb.questions.{q.replace('-', '_')}").USES:
            add(used, path + (q,))
        ordered.append(q)

    for q in found:
        add(q)
    return tuple(ordered)


_FOUND: dict = {}


def _found(rules_root=None) -> list[str]:
    """Rule base folders with a question module (sorted; nothing imported). Remembered per folder while its
    stats (mtime, inode) stay the same: a folder added or removed changes them."""
    root = os.fspath(rules_root) if rules_root else _rules_root(os.environ.get("GPUKB_RULES") or "")
    try:
        st = os.stat(root)
    except OSError:
        return []
    key = (root, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    found = _FOUND.get(key)
    if found is None:
        try:
            folders = sorted(e.name for e in os.scandir(root) if e.is_dir())
        except OSError:
            return []
        here = os.path.dirname(__file__)
        found = [q for q in folders if q.replace("-", "_").isidentifier() and q not in ("base", "words")
                 and os.path.isfile(os.path.join(here, f"{q.replace('-', '_')}.py"))]
        if len(_FOUND) > 64:
            _FOUND.clear()
        _FOUND[key] = found
    return list(found)


@functools.lru_cache(maxsize=64)
def _rules_root(env: str) -> str:
    """os.fspath(kb.catalog.compiled.rules_dir()) for $GPUKB_RULES `env` (a Path made once per value: `_found` runs
    for every answer rendered)."""
    from kb.catalog.compiled import ROOT

    return os.fspath(Path(env or ROOT / "rules"))


def is_question(name: str) -> bool:
    """Is `name` a question (a rule base folder with a question module)? Imports nothing."""
    return name in _found()


def module(question: str):
    """The module of a question; UnusableInput (with the known ones) for a name that is none."""
    if question not in _found():
        known = questions()
        raise UnusableInput(Text(f"unknown question {question!r}; known: {', '.join(known)}",
                                 f"unbekannte Frage {question!r}; bekannt: {', '.join(known)}"), suggestions=list(known))
    return importlib.import_module(f"kb.questions.{question.replace('-', '_')}")


#: input values whose type and value are the input (`Asker._key`)
_PLAIN_INPUTS = frozenset((str, int, bool, type(None)))


class Asker:
    """Answers questions on one compiled catalog with one engine; remembers answers it gave."""

    def __init__(self, data: dict, *, engine: str = "durable", rules=None, problems=None):
        """`rules` ({question: [compiled rule]}) and `problems` (of rule files, by question) default to the
        rule base in use."""
        self.data = data
        self.engine = engine
        if rules is None:
            from kb.engine.rules import rule_base

            self.rules, self._problems = rule_base()
        else:
            self.rules, self._problems = rules, problems or {}
        self._index = data.get("index")
        self._memo: dict = {}

    @property
    def index(self) -> dict:
        """Names and versions for resolving inputs (kb.questions.base.make_index; the compiled catalog
        carries it as its part `index`)."""
        if self._index is None:
            from kb.questions.base import make_index

            self._index = make_index(self.data)
        return self._index

    @staticmethod
    def _key(question: str, inputs: dict, cited: bool = True):
        """The memo's key of an answer: equal for equal inputs in any order, with values of the same types (true
        is not 1). Text, whole numbers, true/false and None (the matrix's inputs) as (name, type, value), in a
        set; other values (a list of node GPUs; a float: -0.0 == 0.0) as their repr, sorted by name."""
        values = inputs.values()
        if _PLAIN_INPUTS.issuperset(map(type, values)):
            return question, frozenset(zip(inputs, map(type, values), values)), cited
        return question, tuple(sorted((k, repr(v)) for k, v in inputs.items())), cited

    def answer(self, question: str, inputs: dict, *, cited: bool = True) -> dict:
        """The answer to `question` for resolved `inputs`. `cited=False` is for a question that reads another's
        verdict or details: the same engine run, verdict, reasons and details, but no citation or dispute is
        looked up (its reasons cite nothing) — the full answer where it was given already."""
        if not cited:
            return self._memo.get(self._key(question, inputs)) or self.answer_many(question, [inputs], cited=False)[0]
        return self.answer_many(question, [inputs])[0]

    def answer_many(self, question: str, inputs_list: list[dict], *, cited: bool = True) -> list[dict]:
        keys = [self._key(question, i, cited) for i in inputs_list]
        memo = self._memo
        if all(k in memo for k in keys):
            return [memo[k] for k in keys]
        from kb.engine import evaluate_many

        mod = module(question)
        todo = [(i, k) for i, k in zip(inputs_list, keys) if k not in memo]
        if todo and self._problems.get(question):
            from kb.errors import RuleBaseInvalid

            raise RuleBaseInvalid(self._problems[question])
        if todo:
            with bulk() if len(todo) > 50 else contextlib.nullcontext():
                fact_lists = [mod.facts(self, inputs) for inputs, _k in todo]
                results = evaluate_many(question, fact_lists, engine=self.engine, data=self.data, rules=self.rules,
                                        cited=cited)
                for (inputs, key), conclusions in zip(todo, results):
                    self._memo[key] = mod.fold(self, inputs, conclusions)
        return [memo[k] for k in keys]


@contextlib.contextmanager
def bulk():
    """Many answers at once: Python's cyclic garbage collector paused meanwhile. Answers are trees of dicts
    and lists (no cycles: reference counting frees them), but each collection walks every object alive —
    the catalog, the rules, the answers so far — which cost about a third of the matrix's time."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            settle()
            gc.enable()


def settle() -> None:
    """Move every object the collector tracks to its oldest generation without walking them (gc.freeze, then
    gc.unfreeze: two list splices). After `bulk`, what was made meanwhile and lives on — answers, parsed data, in
    millions — is still young: the first allocation after the collector runs again would walk all of it at once
    (≈ 0.25 s of the answer matrix's 2.6 s). In the oldest generation it is walked only by full collections, as it
    would be once it had survived the young ones; a reference cycle among it (durable-rules' own closures: ≈ 23,000
    objects a matrix) is freed by the next of those, as before. What the process froze before is thawed too (it
    joins the oldest generation): freeze again afterwards where that matters (kb/docs_hooks.py)."""
    gc.freeze()
    gc.unfreeze()


def resolve(question: str, index: dict, **raw) -> dict:
    """Normalised inputs (resolved card ids, known versions); kb.errors.UnusableInput for unusable input."""
    return module(question).resolve(index, **raw)


def answer(question: str, *, engine: str = "durable", **raw) -> dict:
    """The answer to one question, from the engine on the catalog and rule base in use (reading only the
    parts of the compiled catalog and the rules the question needs). The cyclic garbage collector is paused
    meanwhile (`bulk`): one answer allocates a bounded amount — the parts read, the facts, the answer — and each
    collection would walk all of it again (~2 % of a `gpukb ask`)."""
    with bulk():
        return _answer(question, engine, raw)


def _answer(question: str, engine: str, raw: dict) -> dict:
    from kb.catalog.compiled import load_data, load_rule_base

    from kb.questions.base import AmbiguousCard

    parts, questions = needs(question)
    rules, problems = load_rule_base(questions=questions)
    asker = Asker(load_data(parts=parts), engine=engine, rules=rules, problems=problems)
    try:
        inputs = resolve(question, asker.index, **raw)
    except AmbiguousCard as exc:
        return one_for_all(question, asker, raw, exc)
    return asker.answer(question, inputs)


def _gist(answer: dict, card: dict | None = None) -> tuple:
    """What makes two answers the same apart from the card's name: verdict, the rules behind reasons and
    conditions and their words (the card's own names taken out), and the details."""
    names = sorted({n for n in (card or {}).get("names", ()) if n}, key=len, reverse=True)

    def plain(text: str) -> str:
        for n in names:
            text = text.replace(n, "{card}")
        return text

    return (answer["verdict"], tuple((r["rule"], plain(r["text"]["en"])) for r in answer["reasons"]),
            tuple((c["rule"], plain(c["text"]["en"])) for c in answer["conditions"]), repr(answer["details"]))


def one_for_all(question: str, asker: Asker, raw: dict, exc) -> dict:
    """A name that fits several cards: one answer naming them all where every card gets the same answer;
    otherwise UnusableInput (exit 2) listing the cards with their verdicts. A part of a name is still never
    guessed into one card: the cards are the ones the name fits (kb.catalog.names)."""
    from kb.questions.words import VERDICT

    def naming(cid: str) -> dict | None:
        """The inputs with the card `cid` for the name: a card argument, or a node's GPU (`--gpu NAME[:LAYOUT]`,
        every GPU of that name)."""
        out, found = dict(raw), False
        for k, v in raw.items():
            if isinstance(v, str) and v == exc.name:
                out[k], found = cid, True
            elif isinstance(v, (list, tuple)):
                items = []
                for item in v:
                    if isinstance(item, str) and item.partition(":")[0] == exc.name:
                        item, found = cid + item[len(exc.name):], True
                    items.append(item)
                out[k] = items
        return out if found else None

    if naming(exc.candidates[0]) is None:
        raise exc
    from kb.terminal import safe

    typed = safe(str(exc.name), keep_newlines=False)  # the name as typed, shown: no control character obeyed
    fits, first_error = [], None
    for cid in exc.candidates:  # the other inputs may fit only some of the cards (a MIG profile of one size)
        try:
            fits.append((cid, resolve(question, asker.index, **naming(cid))))
        except UnusableInput as error:
            first_error = first_error or error
    if not fits:
        raise first_error
    if len(fits) == 1:  # the other inputs fit one card only: still no guess, say which cards the name fits
        raise UnusableInput(Text(f"{typed} fits several cards and the other inputs only "
                                 f"{asker.index['cards'][fits[0][0]]['short_name']}: name it",
                                 f"{typed} passt auf mehrere Karten, die übrigen Angaben nur auf "
                                 f"{asker.index['cards'][fits[0][0]]['short_name']}: nennen Sie sie"),
                            suggestions=[fits[0][0]])
    exc.candidates = [cid for cid, _ in fits]
    answers = [asker.answer(question, inputs) for _, inputs in fits]
    cards = asker.index["cards"]
    own = {c: {"names": (c, cards[c]["short_name"], cards[c]["name"])} for c in exc.candidates}
    gists = [_gist(a, own[c]) for c, a in zip(exc.candidates, answers)]
    if len(set(gists)) > 1:
        en = "; ".join(f"{cards[c]['short_name']}: {VERDICT[a['verdict']]['en']}" for c, a in zip(exc.candidates, answers))
        de = "; ".join(f"{cards[c]['short_name']}: {VERDICT[a['verdict']]['de']}" for c, a in zip(exc.candidates, answers))
        if len({a["verdict"] for a in answers}) == 1:  # same verdict, other reasons or details (profiles, …)
            differ = sorted({k for a in answers for k in a["details"] if a["details"].get(k) != answers[0]["details"].get(k)}
                            | ({"reasons"} if len({g[1:3] for g in gists}) > 1 else set()))
            from kb.answer import DETAIL_LABELS

            labels = {**DETAIL_LABELS, "reasons": Text("reasons", "Begründungen")}
            label = lambda d, lang: labels[d](lang) if d in labels else d.replace("_", " ")  # noqa: E731
            en += f" (the answers differ in: {', '.join(label(d, 'en') for d in differ)})"
            de += f" (die Antworten unterscheiden sich in: {', '.join(label(d, 'de') for d in differ)})"
        raise UnusableInput(Text(f"{typed} fits several cards whose answers differ — {en}; name one of them",
                                 f"{typed} passt auf mehrere Karten mit unterschiedlichen Antworten – {de}; nennen "
                                 f"Sie eine davon"), suggestions=exc.candidates)
    names = ", ".join(cards[c]["short_name"] for c in exc.candidates)
    first = dict(answers[0])
    first["cards"] = list(exc.candidates)
    one, every = cards[exc.candidates[0]]["short_name"], " / ".join(cards[c]["short_name"] for c in exc.candidates)
    first["summary"] = {
        "en": f"{typed} fits {len(answers)} cards ({names}); the answer is the same for all of them. "
              + first["summary"]["en"].replace(one, every),
        "de": f"{typed} passt auf {len(answers)} Karten ({names}); die Antwort ist für alle gleich. "
              + first["summary"]["de"].replace(one, every)}
    return first


def export_all(*, engine: str = "durable") -> dict:
    """Every answer of the matrix (card × known operator release × question, default inputs)."""
    from kb.catalog.compiled import input_key, load_data

    data = load_data()
    return {"data_version": data["data_version"], "verified": data["verified"], "hash": input_key(),
            "answers": compute_all(data, engine=engine)}


def needs(question: str) -> tuple[set, set]:
    """(parts of the compiled catalog, questions) that answering `question` reads, its sub-questions'
    included: each question module declares them (`DATA`, `USES`); the inputs' index is always read."""
    mod = module(question)
    data, questions = set(mod.DATA) | {"index"}, {question}
    for used in mod.USES:
        more_data, more_questions = needs(used)
        data |= more_data
        questions |= more_questions
    return data, questions


def compute_all(data: dict, *, engine: str = "durable", rules=None) -> list[dict]:
    """Compute the whole matrix without any cache (dependencies first: methods reuse mig answers)."""
    return Matrix(data, engine=engine, rules=rules).answers()


class Matrix:
    """The answer matrix, computed question by question as asked for, each question once (one Asker: what a
    question asks of another is answered once too). `answers()` is compute_all's list; `answers(("mig", …))` the
    part of it for those questions, in the same order. The site build computes the questions its pages show first
    and the rest in the forked process that writes the JSON API (kb/docs_hooks.py)."""

    def __init__(self, data: dict, *, engine: str = "durable", rules=None):
        self.asker = Asker(data, engine=engine, rules=rules)
        self._done: dict[str, list[dict]] = {}

    def answers(self, which=None) -> list[dict]:
        """The answers to `which` (question names; None: every question), in compute_all's order."""
        out = []
        with bulk():
            for question in questions():
                if which is None or question in which:
                    if question not in self._done:
                        self._done[question] = self.asker.answer_many(question, module(question).defaults(self.asker.index))
                    out += self._done[question]
        return out


__all__ = ["questions", "is_question", "Asker", "bulk", "settle", "answer", "export_all", "compute_all", "Matrix", "resolve", "module", "needs"]
