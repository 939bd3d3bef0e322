"""The questions `gpukb ask` answers; one module per question.

    answer(question, **inputs) -> answer dict (see CONTRIBUTING.md, "Engine API")
    export_all()               -> {"data_version", "verified", "hash", "answers": [...]}

Each question module has resolve(index, **raw) -> inputs, defaults(index) -> [inputs, …] (the
matrix: every card × known operator release), facts(asker, inputs) -> [fact, …] and
fold(asker, inputs, conclusions) -> answer. Every answer comes from the engine; only the compiled catalog
and rule base are cached (kb.catalog.compiled).
"""

from __future__ import annotations

import importlib

from kb.errors import UnusableInput
from kb.text import Text

QUESTIONS = ("mig", "methods", "resource", "strategy", "dra", "recommend")


def module(question: str):
    if question not in QUESTIONS:
        raise UnusableInput(Text(f"unknown question {question!r}; known: {', '.join(QUESTIONS)}",
                                 f"unbekannte Frage {question!r}; bekannt: {', '.join(QUESTIONS)}"), suggestions=list(QUESTIONS))
    return importlib.import_module(f"kb.questions.{question}")


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
    def _key(question: str, inputs: dict):
        return question, tuple(sorted((k, repr(v)) for k, v in inputs.items()))

    def answer(self, question: str, inputs: dict) -> dict:
        return self.answer_many(question, [inputs])[0]

    def answer_many(self, question: str, inputs_list: list[dict]) -> list[dict]:
        from kb.engine import evaluate_many

        mod = module(question)
        todo = [i for i in inputs_list if self._key(question, i) not in self._memo]
        if todo and self._problems.get(question):
            from kb.errors import RuleBaseInvalid

            raise RuleBaseInvalid(self._problems[question])
        if todo:
            fact_lists = [mod.facts(self, inputs) for inputs in todo]
            results = evaluate_many(question, fact_lists, engine=self.engine, data=self.data, rules=self.rules)
            for inputs, conclusions in zip(todo, results):
                self._memo[self._key(question, inputs)] = mod.fold(self, inputs, conclusions)
        return [self._memo[self._key(question, i)] for i in inputs_list]


def resolve(question: str, index: dict, **raw) -> dict:
    """Normalised inputs (resolved card ids, known versions); kb.errors.UnusableInput for unusable input."""
    return module(question).resolve(index, **raw)


def answer(question: str, *, engine: str = "durable", **raw) -> dict:
    """The answer to one question, from the engine on the catalog and rule base in use (reading only the
    parts of the compiled catalog and the rules the question needs)."""
    from kb.catalog.compiled import load_data, load_rule_base

    parts, questions = needs(question)
    rules, problems = load_rule_base(questions=questions)
    asker = Asker(load_data(parts=parts), engine=engine, rules=rules, problems=problems)
    return asker.answer(question, resolve(question, asker.index, **raw))


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
    asker = Asker(data, engine=engine, rules=rules)
    out = []
    for question in QUESTIONS:
        mod = module(question)
        out += asker.answer_many(question, mod.defaults(asker.index))
    return out


__all__ = ["QUESTIONS", "Asker", "answer", "export_all", "compute_all", "resolve", "module", "needs"]
