"""kb/site/jinjacache.py: a template is compiled once for both languages' environments, again when it changed."""

from __future__ import annotations

import jinja2

from kb.site.jinjacache import MemoryBytecodeCache


def test_second_environment_reuses_the_code_and_a_changed_template_is_compiled_again(monkeypatch):
    compiled = []
    original = jinja2.Environment.compile

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        compiled.append(name)
        return original(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", compile)
    cache = MemoryBytecodeCache()

    def render(source: str) -> str:
        # a FileSystemLoader-like loader: the source has a file name (jinja caches only templates that have one)
        loader = jinja2.FunctionLoader(lambda name: (source, f"/theme/{name}", lambda: True))
        env = jinja2.Environment(loader=loader, bytecode_cache=cache)
        return env.get_template("page.html").render(lang="de")

    assert render("{{ lang }}: {{ 1 + 1 }}") == "de: 2"
    assert render("{{ lang }}: {{ 1 + 1 }}") == "de: 2"
    assert compiled == ["page.html"]  # the second environment used the cached code
    assert render("{{ lang }}! {{ 2 + 2 }}") == "de! 4"
    assert compiled == ["page.html", "page.html"]
