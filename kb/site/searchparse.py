"""The search plugin's page parsing, with the same result in a fraction of the time.

mkdocs-material's search plugin splits every page's HTML into sections (a heading and the text after it) with a
subclass of `html.parser.HTMLParser` whose callbacks compare elements through Python-level `__eq__`/`__hash__`
and intersect sets on every tag and text. On our table pages that was ≈ 2.7 s CPU of the ≈ 13.5 s a build with
generation skipped took. Here:

- the HTML is cut into text, start tags and end tags by one regular expression (re.split) that accepts only
  plain markup (tag and attribute names of letters, digits and dashes, quoted attribute values, no comment, no
  script or style); a page with anything else is read by `HTMLParser` itself;
- the callbacks do what material's do, on tag names: material's elements compare by tag name, so its set of
  skipped elements is a set of tag names and "an element in the context" is "its tag name in the context"; and
  they are done in one loop over the page's parts (`FastParser._run`) instead of a method call per tag and text
  (−35 % CPU over the site's pages, docs-dev/site-build.md, eighth round). HTMLParser's reports of a page that is
  not plain markup are collected in the same layout and go through the same loop.

The sections are the same (checked on the whole site: search/search_index.json byte for byte; tests in
tests/test_site_build.py compare with material's own parser on every built page's content).
"""

from __future__ import annotations

import re
from html import escape, unescape

from html.parser import HTMLParser

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


class _Permalink(str):
    """The tag name "a" of a permalink (`<a class="headerlink">`) in the parser's context: equal to "a", and marked
    so that the text of a heading can leave out what is inside one (material looks through the whole context)."""


def _plain(html: str) -> list | None:
    """The page cut by one expression: text, then per tag its start tag's name, attributes, "/", end tag's name, then
    text (re.split's groups); None where some text holds a "<" or an element is read as raw text (not plain markup)."""
    parts = _TAG.split(html)
    for text in parts[::5]:
        if "<" in text:
            return None  # something the expression does not read (a comment, a bare "<", an unquoted value, …)
    for tag in parts[1::5]:
        if tag is not None and tag.lower() in _RAW:
            return None
    return parts


class _Events:
    """What HTMLParser reports to material's callbacks, in the layout of `_plain` (texts already unescaped, the
    attributes as HTMLParser's list of pairs): for the pages that are not plain markup."""

    def __init__(self) -> None:
        self.parts: list = [""]

    def handle_data(self, data) -> None:
        if self.parts[-1]:
            self.parts += [None, None, None, None, ""]  # two texts in a row: a step that is no tag between them
        self.parts[-1] = data

    def handle_starttag(self, tag, attrs) -> None:
        self.parts += [tag, attrs, "", None, ""]

    def handle_startendtag(self, tag, attrs) -> None:
        self.parts += [tag, attrs, "/", None, ""]

    def handle_endtag(self, tag) -> None:
        self.parts += [None, None, None, tag, ""]


class _Collector(_Events, HTMLParser):
    def __init__(self) -> None:
        HTMLParser.__init__(self)  # convert_charrefs, as material's Parser
        _Events.__init__(self)


class FastParser(Parser):
    """material's Parser (same sections), its callbacks on tag names and done in one loop over the page's parts.

    The context holds tag names (a permalink's as `_Permalink`); `skip` holds tag names (material: elements that
    compare by tag name), `_open` how many elements of each tag name the context holds."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.skip = {"object", "script", "style"}
        self._open: dict[str, int] = {}
        self._permalinks = 0  # permalinks in the context

    def feed(self, data):
        if self.rawdata or self.context or self.data:
            raise ValueError("FastParser reads a page in one piece")  # material's index feeds each page once
        parts = _plain(data)
        if parts is None:
            events = _Collector()
            events.feed(data)
            events.close()
            self._run(events.parts, False)
        else:
            self._run(parts, True)

    def _run(self, parts: list, plain: bool) -> None:
        """material's handle_data, handle_starttag and handle_endtag for each text and tag of `parts` (`_plain`'s
        layout; `plain`: texts still escaped and attributes as written, as `_plain` gives them)."""
        context, opened, skip, keep, sections = self.context, self._open, self.skip, self.keep, self.data
        section, permalinks = self.section, self._permalinks
        last = len(parts) - 1
        i = 0
        while True:
            data = parts[i]
            if data and skip.isdisjoint(opened):  # handle_data (nothing where an element in the context is skipped)
                if plain and "&" in data:
                    data = unescape(data)
                pre = "pre" in opened
                if not pre:
                    data = data.replace("\n", " ") if not data.isspace() else " "
                if section is None:
                    section = Section(Element("hx"))
                    sections.append(section)
                if section.el.tag in opened:  # in the section's title
                    if not permalinks:
                        section.title.append(escape(data, quote=False))
                elif data.isspace():
                    text = section.text
                    if not text or not text[-1].isspace() or pre:
                        text.append(data)
                else:
                    section.text.append(escape(data, quote=False))
            if i == last:
                break
            tag = parts[i + 1]
            if tag is not None:  # handle_starttag
                if plain:
                    tag = tag.lower()
                if tag not in void:
                    raw = parts[i + 2]
                    attrs = dict(_attributes(tag, raw) if plain else raw) if raw else {}
                    if tag == "a" and attrs.get("class") == "headerlink":
                        context.append(_Permalink(tag))
                        permalinks += 1
                    else:
                        context.append(tag)
                    opened[tag] = opened.get(tag, 0) + 1
                    if tag in _HEADINGS and "id" in attrs:
                        depth = len(context)
                        if tag != "h1" and not sections:
                            section = Section(Element("hx"), depth)
                            sections.append(section)
                        section = Section(Element(tag, attrs), depth)
                        if sections:
                            section.id = attrs["id"]
                        sections.append(section)
                    if section is None:
                        section = Section(Element("hx"))
                        sections.append(section)
                    if "data-search-exclude" in attrs or attrs.get("class") == "linenodiv":
                        skip.add(tag)
                    elif tag in keep and skip.isdisjoint(opened):
                        (section.title if section.el.tag in opened else section.text).append(f"<{tag}>")
                end = tag if parts[i + 3] else None  # a self-closing tag ends here
            else:
                end = parts[i + 4]
                if plain and end is not None:
                    end = end.lower()
            if end is not None and context and context[-1] == end:  # handle_endtag
                depth = len(context)
                if section.depth > depth:
                    for earlier in reversed(sections):
                        if earlier.depth <= depth:
                            section.depth = float("inf")
                            section = earlier
                            break
                if type(context.pop()) is _Permalink:
                    permalinks -= 1
                if opened[end] == 1:
                    del opened[end]
                else:
                    opened[end] -= 1
                if end in skip:
                    if end not in ("script", "style", "object"):
                        skip.remove(end)
                elif end in keep and skip.isdisjoint(opened):
                    data = section.title if section.el.tag in opened else section.text
                    index = data.index(f"<{end}>")
                    for k in range(index + 1, len(data)):
                        if not data[k].isspace():
                            index = len(data)
                            break
                    if len(data) > index:
                        del data[index:]
                    else:
                        data.append(f"</{end}>")
            i += 5
        self.section, self._permalinks = section, permalinks


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
