"""kb.text.pick: every Text inside a value (dicts, lists, tuples, any depth) replaced by its words in one language."""

from __future__ import annotations

from kb.text import Text, pick


def test_pick_replaces_every_text_at_any_depth_and_keeps_the_rest():
    value = {"t": Text("yes", "ja"), "plain": {"en": "a", "de": "b"}, "three": {"en": 1, "de": 2, "fr": 3},
             "other": {"en": "a", "x": "b"}, "deep": [(Text("n", "m"), None, 1.5, True), {"k": [{"en": [1], "de": [2]}]}],
             "leaf": "text", "n": 7}
    assert pick(value, "de") == {"t": "ja", "plain": "b", "three": {"en": 1, "de": 2, "fr": 3},
                                 "other": {"en": "a", "x": "b"}, "deep": [["m", None, 1.5, True], {"k": [[2]]}],
                                 "leaf": "text", "n": 7}
    assert pick(value, "fr")["t"] == "yes"  # a language we do not write: the first one's words
    assert pick(("a", Text("x", "y")), "de") == ["a", "y"]  # tuples become lists, as JSON has them
    assert pick(Text("x", "y"), "en") == "x" and pick("s", "de") == "s" and pick(None, "de") is None
    copy = pick(value, "en")
    assert copy["three"] is not value["three"] and copy["other"] is not value["other"]  # new containers

    class Name(str):
        pass

    name = Name("L4")
    assert pick({"n": name}, "de")["n"] is name


def test_format_gives_each_language_its_words_and_takes_plain_values_as_they_are():
    """Text.format: a Text or an {en, de} dict (a Text read back from JSON) among the values gives each language its
    own words, as positional or named value; text, numbers, true/false and None go into both languages as they are
    (formatted once per language without looking into them). Fails with plain values looked into, or a dict taken
    for a plain value."""
    t = Text("{0} {n} {v} {none}", "{0} {n} {v} {none}")
    assert t.format(2, n=1.5, v=True, none=None) == {"en": "2 1.5 True None", "de": "2 1.5 True None"}
    both = Text("{0}: {w}", "{0}: {w}")
    assert both.format(Text("yes", "ja"), w={"en": "listed", "de": "gelistet"}) == \
        {"en": "yes: listed", "de": "ja: gelistet"}
    assert both.format("x", w=Text("a", "b")) == {"en": "x: a", "de": "x: b"}
    assert type(t.format(1, n=1, v=1, none=1)) is Text
    assert Text("{a}").format(a="ä").de == "ä" and Text("{a}", "{a}!").map(lambda s, lang: s + lang) == \
        {"en": "{a}en", "de": "{a}!de"}


def test_words_are_texts_not_de_en_pairs():
    """Issue 9: one Text(en, de) type — no `ctx.t(de, en)` picker (135 uses in kb/site had one), no function that
    takes a German and an English string (`say(en, de)`: `_problem`, `refused`, `_layout_error` …), no (en, de)
    unpacking and no `"…" if lang == "de" else "…"` over words. Exempt: kb/text.py itself and the modules that choose
    a language's formats (kb/wording.py: dates and quotation marks, kb/style.py, kb/docs_hooks.py: the per-language
    markup titles and file names)."""
    import ast
    from pathlib import Path

    from kb.site.page import Ctx

    assert not hasattr(Ctx, "t")
    root = Path(__file__).resolve().parent.parent
    exempt = {"kb/text.py", "kb/wording.py", "kb/style.py", "kb/docs_hooks.py"}
    pickers = []
    for path in sorted((root / "kb").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel in exempt:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.Lambda)):
                names = {a.arg for a in node.args.args + node.args.kwonlyargs}
                if {"de", "en"} <= names:
                    pickers.append(f"{rel}:{node.lineno}")
            elif isinstance(node, ast.Attribute) and node.attr == "t" and isinstance(node.ctx, ast.Load):
                pickers.append(f"{rel}:{node.lineno} .t")
            elif isinstance(node, ast.IfExp) and _on_lang(node.test) and all(_words(b) for b in (node.body, node.orelse)):
                pickers.append(f"{rel}:{node.lineno} if lang")  # "Andere" if lang == "de" else "Other"
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) and \
                    sorted(getattr(e, "id", "") for e in node.targets[0].elts) == ["de", "en"]:
                pickers.append(f"{rel}:{node.lineno} en, de =")
    assert pickers == []


def _on_lang(test) -> bool:
    """`lang == "de"`, `ctx.lang != "en"` …"""
    import ast

    return isinstance(test, ast.Compare) and any(
        isinstance(side, (ast.Name, ast.Attribute)) and (getattr(side, "id", None) or getattr(side, "attr", None)) == "lang"
        for side in (test.left, *test.comparators))


def _words(node) -> bool:
    """Words for people: a text or f-string (a path such as "en/" is not)."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return not node.value.endswith("/") and node.value not in ("de", "en")
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Tuple) and all(_words(e) for e in node.elts))
