"""What every generated page shares: language, footnotes, and the header with data version and YAML links."""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.publication import Publication
from kb.site.facts import Footnotes
from kb.site.labels import L, date, value_label
from kb.site.md import esc, link_or_text, pick
from kb.text import Text


@dataclass
class Ctx:
    """One page being written in one language."""

    data: dict
    lang: str
    pub: Publication  # where the pages link to (kb.publication): the repository at the data version
    prefix: str = "c"
    notes: Footnotes = field(init=False)

    def __post_init__(self):
        self.notes = Footnotes(self.data, self.lang, prefix=self.prefix,
                               pub=self.pub if isinstance(self.pub, Publication) else None)

    def repo_link(self, label: str, path: str) -> str:
        """`label` linked to `path` of the repository at the data version; the label alone where unset."""
        return link_or_text(label, self.pub.repo_link(path))

    @staticmethod
    def front(description: str, hide_toc: bool = False) -> str:
        """The page's front matter: its description (the meta description) and whether the table of contents
        is hidden (the matrices need the page's full width)."""
        import json

        lines = ["---", f"description: {json.dumps(description, ensure_ascii=False)}"]
        if hide_toc:
            lines += ["hide:", "  - toc"]
        return "\n".join(lines + ["---", ""])

    def pick(self, text: dict | None) -> str:
        """Escaped catalog text in this page's language."""
        return esc(pick(text, self.lang))

    def file_label(self, path: str) -> str:
        """What a file or folder of the repository holds, in the reader's words (never a file name or id):
        a card's name, a method's name, 'Karten (13)', 'Quellen', 'Regeln' …"""
        path = path.removeprefix("catalog/")
        stem = path.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0]
        if not stem:  # the whole catalog folder (the change page's)
            return Text("all facts", "Alle Angaben")(self.lang)
        if path.startswith("cards/") and stem in self.data["cards"]:
            return esc(self.data["cards"][stem]["short_name"])
        if path.startswith("methods/") and stem in self.data["methods"]:
            return method_name(self.data, stem, self.lang)
        if path.startswith("releases/") and stem in self.data["releases"]:
            return esc(self.data["releases"][stem].get("name") or stem.replace("-", " "))
        words = {"cards": Text("cards", "Karten"), "methods": Text("methods", "Methoden"),
                 "releases": Text("releases", "Releases"), "sources": Text("sources", "Quellen"),
                 "platform-support": Text("platform support", "Plattformunterstützung"), "rules": Text("rules", "Regeln"),
                 "cli": Text("command line", "Kommandozeile"), "check": Text("check rules", "Prüfregeln")}
        return words.get(stem, Text(stem.replace("-", " ")))(self.lang)

    def yaml_link(self, file: str) -> str:
        """Link to a catalog file (relative to catalog/) in the repository, labelled with what it holds."""
        return self.repo_link(self.file_label(file), f"catalog/{file}")

    def _yaml_links(self, files: list[str]) -> list[str]:
        """One link per file; a folder with more than three of the files is linked once, with their number."""
        folders: dict[str, list[str]] = {}
        for f in files:
            folders.setdefault(f.rpartition("/")[0], []).append(f)
        out, done = [], set()
        for f in files:
            folder = f.rpartition("/")[0]
            if folder and len(folders[folder]) > 3:
                if folder not in done:
                    done.add(folder)
                    label = f"{self.file_label(folder + '/')} ({len(folders[folder])})"
                    out.append(self.repo_link(label, f"catalog/{folder}/"))
            else:
                out.append(self.yaml_link(f))
        return out

    def header(self, files: list[str], repo_paths: tuple[str, ...] = (), text: str | None = None) -> str:
        """The info box every generated page starts with: data version, verified date, the files behind it
        (`files` relative to catalog/, `repo_paths` relative to the repository)."""
        d = self.data
        title = f"{L('data_version', self.lang)} {d['data_version']} · {L('verified', self.lang)} {date(d['verified'], self.lang)}"
        lines = [f'!!! info gpukb-stamp "{title}"', ""]
        text = text or Text("This page is generated from our data.", "Diese Seite wird aus unseren Daten erzeugt.")(self.lang)
        links = self._yaml_links(files)
        links += [self.repo_link(self.file_label(p), p) for p in repo_paths]
        if links and self.pub.repo_link(""):
            text += f" {L('yaml', self.lang)}: " + ", ".join(links)
        lines.append(f"    {text}")
        return "\n".join(lines)

    def report_link(self, subject: str, fact: str, short: bool = False) -> str:
        """A link to report a problem with a fact: the issue form, pre-filled with what it is about (`subject`,
        e.g. the card's name), the fact (a catalog path such as 'cards/l4 mig') and the data version. The
        path is in the link only, never in the page's text."""
        from urllib.parse import quote

        base = self.pub.issue_form()
        if not base:
            return ""
        version = self.data["data_version"]
        title = Text(f"Problem with a fact: {subject}", f"Fehler in den Angaben: {subject}")(self.lang)
        body = Text(f"About: {subject}\nFact: {fact}\nData version: {version}\n\nWhat is wrong, and where is it right?\n", f"Betrifft: {subject}\nAngabe: {fact}\nDatenversion: {version}\n\nWas stimmt nicht, und wo steht es richtig?\n")(self.lang)
        url = f"{base}{'&' if '?' in base else '?'}title={quote(title, safe='')}&body={quote(body, safe='')}"
        title = Text("Report a problem with this fact", "Fehler in dieser Angabe melden")(self.lang)
        if short:  # a table row: a small sign, named for screen readers
            return f'[⚑]({url}){{ .gpukb-report title="{title}" aria-label="{title}" }}'
        return f'[{Text("Report a problem", "Fehler melden")(self.lang)}]({url}){{ .gpukb-report title="{title}" }}'

    def fact(self, entity: str, path: str, fmt=None, note: bool = True) -> str:
        """A fact's value in words with its footnotes, its note (unless `note` is false: for tables that
        explain their values elsewhere) and any source that disagrees."""
        node, refs = self.notes.fact_refs(entity, path)
        fmt = fmt or (lambda v: esc(value_label(v, self.lang)))
        out = fmt(node["value"]) + refs
        if note and node.get("note"):
            out += f" ({self.pick(node['note'])})"
        if node.get("inferred"):  # shown wherever the value is, tables included
            out += f" ({L('inferred', self.lang)}: {self.pick(node['inferred'])})"
        for i, claim in enumerate(node.get("disputed_by", [])):
            claim_refs = self.notes.refs(claim["cite"], entity, f"{path}.disputed_by[{i}]")
            out += f"; {L('disputed', self.lang)}: {fmt(claim['value'])}{claim_refs} ({self.pick(claim['note'])})"
        return out

    def footer(self) -> str:
        notes = self.notes.render()
        return f"\n\n{notes}\n" if notes else "\n"


def method_name(data: dict, method_id: str, lang: str) -> str:
    """A method's display name, escaped (the id where the catalog has no file for it)."""
    method = data["methods"].get(method_id)
    return esc(pick(method["name"], lang)) if method else esc(method_id)
