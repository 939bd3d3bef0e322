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
