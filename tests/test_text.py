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
