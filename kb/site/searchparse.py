"""The search plugin's page parsing, with the same result in a fraction of the time.

mkdocs-material's search plugin splits every page's HTML into sections (a heading and the text after it) with a
subclass of `html.parser.HTMLParser` whose callbacks compare elements through Python-level `__eq__`/`__hash__`
and intersect sets on every tag and text. On our table pages that was ≈ 2.7 s CPU of the ≈ 13.5 s a build with
generation skipped took. Here:

- the HTML is cut into text, start tags and end tags by one regular expression (re.split) that accepts only
  plain markup (tag and attribute names of letters, digits and dashes, quoted attribute values, no comment, no
  script or style); a page with anything else is read by `HTMLParser` itself, which calls the same callbacks;
- the callbacks do what material's do, on tag names: material's elements compare by tag name, so its set of
  skipped elements is a set of tag names and "an element in the context" is "its tag name in the context".

The sections are the same (checked on the whole site: search/search_index.json byte for byte; tests in
tests/test_site_build.py compare with material's own parser on every built page's content).
"""

from __future__ import annotations

import re
from html import escape, unescape

from material.plugins.search.plugin import Element, Parser, SearchIndex, Section, void

_NAME = r"[a-zA-Z][a-zA-Z0-9-]*"
_WS = r"[ \t\n\r\f]"  # HTML's white space (HTMLParser ends a tag name at these only, not at any Unicode space)
#: an attribute: a name, and a value in double or single quotes or none (an unquoted value: left to HTMLParser)
_ATTR = re.compile(rf"{_WS}+([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:{_WS}*={_WS}*(?:\"([^\"]*)\"|'([^']*)'))?")
_ATTRS = rf"(?:{_WS}+[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:{_WS}*={_WS}*(?:\"[^\"]*\"|'[^']*'))?)*"  # the same, no groups
_TAG = re.compile(
    rf"<({_NAME})({_ATTRS}){_WS}*(/?)>"  # start tag (self-closing with '/')
    rf"|</({_NAME}){_WS}*>"  # end tag
)
#: elements whose content HTMLParser reads as raw text (and, in newer Pythons, a few more): left to it
_RAW = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
                  "plaintext"})
DATA, START, END = 0, 1, 2
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


#: tags whose attributes the callbacks read (a heading's id and its own attributes, a permalink's class); any
#: other tag's attributes matter only where they exclude it from the search
_ATTRS_READ = frozenset(_HEADINGS | {"a"})


def _attributes(tag: str, raw: str) -> list[tuple[str, str | None]]:
    """The attributes as HTMLParser reports them (names lower case, values unescaped), or none where they decide
    nothing: a tag other than a heading or a link without data-search-exclude or linenodiv."""
    if not raw:
        return []
    if tag not in _ATTRS_READ and "&" not in raw:
        low = raw.lower()
        if "data-search-exclude" not in low and "linenodiv" not in low:
            return []
    pairs = []
    for a in _ATTR.finditer(raw):
        name, double, single = a.groups()
        value = double if double is not None else single
        if value and "&" in value:
            value = unescape(value)
        pairs.append((name.lower(), value))
    return pairs


def tokens(html: str) -> list[tuple] | None:
    """(DATA, text) / (START, tag, attrs) / (END, tag) as HTMLParser (convert_charrefs) reports them to material's
    callbacks (attributes that decide nothing left out), or None where the HTML is not plain markup."""
    parts = _TAG.split(html)  # text, then per tag: start tag's name, attributes, "/", end tag's name, then text
    out = []
    append = out.append
    for i in range(0, len(parts), 5):
        text = parts[i]
        if text:
            if "<" in text:
                return None  # something the expression does not read (a comment, a bare "<", an unquoted value, …)
            append((DATA, unescape(text) if "&" in text else text))
        if i + 1 == len(parts):
            break
        tag = parts[i + 1]
        if tag is not None:
            tag = tag.lower()
            if tag in _RAW:
                return None
            append((START, tag, _attributes(tag, parts[i + 2])))
            if parts[i + 3]:
                append((END, tag))
        else:
            append((END, parts[i + 4].lower()))
    return out


class FastParser(Parser):
    """material's Parser (same sections), its callbacks working on tag names."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.skip = {"object", "script", "style"}  # tag names (material: elements that compare by tag name)
        self._open: dict[str, int] = {}  # tag name → how many of the context's elements have it (none: absent)

    def feed(self, data):
        events = tokens(data) if not self.rawdata else None  # a page comes in one piece
        if events is None:
            return super().feed(data)
        data, start, end = self.handle_data, self.handle_starttag, self.handle_endtag
        for event in events:
            kind = event[0]
            if kind == DATA:
                data(event[1])
            elif kind == START:
                start(event[1], event[2])
            else:
                end(event[1])

    def _skipping(self) -> bool:
        return not self.skip.isdisjoint(self._open)

    def _in_title(self) -> bool:
        return self.section.el.tag in self._open

    def handle_starttag(self, tag, attrs):
        if tag in void:
            return
        attrs = dict(attrs)
        el = Element(tag, attrs)
        self.context.append(el)
        self._open[tag] = self._open.get(tag, 0) + 1

        if tag in _HEADINGS:
            depth = len(self.context)
            if "id" in attrs:
                if tag != "h1" and not self.data:
                    self.section = Section(Element("hx"), depth)
                    self.data.append(self.section)
                self.section = Section(el, depth)
                if self.data:
                    self.section.id = attrs["id"]
                self.data.append(self.section)

        if not self.section:
            self.section = Section(Element("hx"))
            self.data.append(self.section)

        if "data-search-exclude" in attrs or attrs.get("class") == "linenodiv":
            self.skip.add(tag)
            return

        if tag in self.keep and not self._skipping():
            (self.section.title if self._in_title() else self.section.text).append(f"<{tag}>")

    def handle_endtag(self, tag):
        if not self.context or self.context[-1].tag != tag:
            return

        if self.section.depth > len(self.context):
            for section in reversed(self.data):
                if section.depth <= len(self.context):
                    self.section.depth = float("inf")
                    self.section = section
                    break

        el = self.context.pop()
        if self._open[tag] == 1:
            del self._open[tag]
        else:
            self._open[tag] -= 1
        if tag in self.skip:
            if tag not in ("script", "style", "object"):
                self.skip.remove(tag)
            return

        if tag in self.keep and not self._skipping():
            data = self.section.title if self._in_title() else self.section.text
            index = data.index(f"<{tag}>")
            for i in range(index + 1, len(data)):
                if not data[i].isspace():
                    index = len(data)
                    break
            if len(data) > index:
                del data[index:]
            else:
                data.append(f"</{tag}>")
        del el

    def handle_data(self, data):
        if self._skipping():
            return

        pre = "pre" in self._open
        if not pre:
            data = data.replace("\n", " ") if not data.isspace() else " "

        if not self.section:
            self.section = Section(Element("hx"))
            self.data.append(self.section)

        section = self.section
        if self._in_title():
            if not any(el.tag == "a" and el.attrs.get("class") == "headerlink" for el in self.context):
                section.title.append(escape(data, quote=False))
        elif data.isspace():
            if not section.text or not section.text[-1].isspace():
                section.text.append(data)
            elif pre:
                section.text.append(data)
        else:
            section.text.append(escape(data, quote=False))


class FastSearchIndex(SearchIndex):
    """material's SearchIndex reading pages with FastParser."""

    def add_entry_from_context(self, page):
        search = page.meta.get("search") or {}
        if search.get("exclude"):
            return
        parser = FastParser()
        parser.feed(page.content)
        parser.close()
        for section in parser.data:
            if not section.is_excluded():
                self.create_entry_for_section(section, page.toc, page.url, page)


def install(config) -> bool:
    """Let the search plugin of this build read pages with FastParser (its index is made anew in every language's
    on_config); False where there is no material search index to speed up."""
    done = False
    for plugin in config.plugins.values():
        index = getattr(plugin, "search_index", None)
        if type(index) is SearchIndex:
            index.__class__ = FastSearchIndex
            done = True
    return done
