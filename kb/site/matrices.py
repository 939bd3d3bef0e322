"""Tables of engine answers: the card × GPU Operator release MIG matrix and the card × method matrix, with
the answers' conditions as numbered notes. Verdicts come from the engine's export, never from this module."""

from __future__ import annotations

import html
import re

from kb import versions
from kb.questions import words
from kb.site.md import code, esc, link, quote_html, table, translation_html
from kb.wording import quoted, title_text, translated, translation_text
from kb.site.page import Ctx
from kb.text import Text

#: hides the table of contents: the matrices need the page's full width
WIDE = "---\nhide:\n  - toc\n---\n\n"


def verdict_word(verdict: str, lang: str) -> str:
    """The verdict as a cell or badge shows it: "Bedingt", "Unconfirmed"."""
    return words.capital(words.VERDICT[verdict][lang])


def verdict_badge(ctx: Ctx, verdict: str, **where: str) -> str:
    """The verdict as a coloured word; data attributes name the answer (card id, column) for tests and readers.
    `where` values are ids and versions from the engine's inputs (slugs, digits, dots; lists space-separated)."""
    attrs = "".join(f' data-{k}="{v}"' for k, v in where.items() if re.fullmatch(r"[a-z0-9.-]+( [a-z0-9.-]+)*", v))
    return (f'<span class="gpukb-verdict gpukb-v-{verdict}" data-verdict="{verdict}"{attrs}>'
            f"{verdict_word(verdict, ctx.lang)}</span>")


class Notes:
    """The conditions under a matrix, one numbered note per rule. A note lists the rule's distinct condition
    texts; each text names the cards it applies to (unless it names its one card itself) and its sources."""

    def __init__(self, ctx: Ctx, rules_page: str, card_page):
        self.ctx = ctx
        self.rules_page = rules_page
        self.card_page = card_page
        self.rules: dict[str, dict] = {}  # rule id -> {"title", "texts": {text: {"cards": [...], "cites": [...]}}}

    def number(self, answer: dict, condition: dict, card_id: str) -> int:
        """The number of the condition's rule (a new one for a rule not seen yet)."""
        rule = condition["rule"]
        reason = next((r for r in answer.get("reasons", []) if r["rule"] == rule), None)
        note = self.rules.setdefault(rule, {"title": reason["title"][self.ctx.lang] if reason else None, "texts": {}})
        item = note["texts"].setdefault(condition["text"][self.ctx.lang], {"cards": [], "cites": []})
        if card_id not in item["cards"]:
            item["cards"].append(card_id)
        for c in reason.get("citations", []) if reason else []:
            if all((c["source"], c["quote"]) != (k["source"], k["quote"]) for k in item["cites"]):
                item["cites"].append(c)
        return list(self.rules).index(rule) + 1

    def numbers(self, answer: dict, card_id: str) -> list[int]:
        return sorted({self.number(answer, c, card_id) for c in answer.get("conditions", [])})

    def _item(self, text: str, item: dict) -> str:
        """'Text. Gilt für A, B. Quellen: …' (the cards left out where the text names its one card)."""
        cards = self.ctx.data["cards"]
        out = [esc(text)]
        if len(cards) > 1 and set(item["cards"]) == set(cards):
            out.append(Text("Applies to every card.", "Gilt für alle Karten.")(self.ctx.lang))
        elif not (len(item["cards"]) == 1 and cards[item["cards"][0]]["short_name"] in text):
            who = ", ".join(link(esc(cards[c]["short_name"]), self.card_page(c)) for c in item["cards"])
            out.append(f"{Text('Applies to', 'Gilt für')(self.ctx.lang)} {who}.")
        if item["cites"]:
            quotes: dict[tuple, list[str]] = {}  # (source, url) -> quotes, each source once
            for c in item["cites"]:
                source = self.ctx.data["sources"].get(c["source"], {})
                foreign = source.get("language") if source.get("language") != self.ctx.lang else None
                q = quoted(quote_html(c["quote"], foreign), self.ctx.lang)
                if translated(c, self.ctx.lang, source):
                    q += translation_text(translation_html(c["translation"]), self.ctx.lang)
                quotes.setdefault((c["source"], c["url"]), []).append(q)
            parts = [f"{link(esc(title_text(self.ctx.data['sources'].get(src, {}).get('title', src), self.ctx.lang)), url)}: "
                     f"{', '.join(qs)}"
                     for (src, url), qs in quotes.items()]
            label = Text("Source", "Quelle")(self.ctx.lang) if len(parts) == 1 else Text("Sources", "Quellen")(self.ctx.lang)
            out.append(f"{label}: " + "; ".join(parts))
        return " ".join(out)

    def render(self) -> str:
        """The notes in number order: the rule's title and link, then its condition texts."""
        out = []
        for i, (rule, note) in enumerate(self.rules.items(), 1):
            rule_link = link(Text("Rule", "Regel")(self.ctx.lang) + " " + rule, f"{self.rules_page}#{rule.lower()}")
            head = f"{i}. " + (f"**{esc(note['title'])}** ({rule_link})" if note["title"] else rule_link)
            texts = list(note["texts"].items())
            if len(texts) == 1:
                out.append(f"{head}: {self._item(*texts[0])}")
            else:
                out += [head, ""] + [f"    - {self._item(text, item)}" for text, item in texts] + [""]
        return "\n".join(out).strip("\n")


def family(data: dict, card_id: str, lang: str) -> tuple[str, str]:
    """(key, label) of the card's family in lists: its group where the catalog has one, else its architecture."""
    card = data["cards"][card_id]
    if card.get("group"):
        label = getattr(words, "GROUP", {}).get(card["group"], {}).get(lang, card["group"])
        return card["group"], label
    arch = (card.get("architecture") or {}).get("value")
    if not arch:
        return "other", Text("Other", "Andere")(lang)
    return re.sub(r"[^a-z0-9]+", "-", str(arch).lower()).strip("-"), str(arch)


def filter_form(ctx: Ctx, card_ids: list[str], verdicts: bool = True) -> str:
    """The filter above a table of cards (by family, by verdict, by name), hidden until the page's script
    (docs/javascripts/tables.js) wires it up: without JavaScript the whole table shows. Rows are found by
    their cells' data-card; the families of the cards travel in data-families."""
    import json

    fams: dict[str, str] = {}
    of: dict[str, str] = {}
    for cid in card_ids:
        key, label = family(ctx.data, cid, ctx.lang)
        fams.setdefault(key, label)
        of[cid] = key
    every = Text("all", "alle")(ctx.lang)
    parts = [f'<div class="gpukb-filter" hidden data-families="{html.escape(json.dumps(of), quote=True)}">']
    if len(fams) > 1:
        options = "".join(f'<option value="{html.escape(k)}">{html.escape(v)}</option>' for k, v in fams.items())
        parts.append(f'<label>{Text("Family", "Familie")(ctx.lang)} <select data-filter="family"><option value="">{every}</option>'
                     f'{options}</select></label>')
    if verdicts:
        options = "".join(f'<option value="{v}">{html.escape(verdict_word(v, ctx.lang))}</option>' for v in words.VERDICT)
        parts.append(f'<label>{Text("Verdict", "Urteil")(ctx.lang)} <select data-filter="verdict"><option value="">{every}</option>'
                     f'{options}</select></label>')
    parts.append(f'<label>{Text("Card", "Karte")(ctx.lang)} <input type="search" data-filter="text" size="14"></label>')
    parts.append('<output aria-live="polite"></output></div>')
    return "".join(parts)


def row_head(ctx: Ctx, card_id: str, card_page, subject: str, parts: str) -> str:
    """The first cell of a card's row: its name, linked to its page, and a link to report a problem with the
    row (`subject`: what the row shows; `parts`: the parts of the card's catalog entry its answers read, the
    report's fact path)."""
    card = ctx.data["cards"][card_id]
    name = link(esc(card["short_name"]), card_page(card_id))
    report = ctx.report_link(f"{card['name']}, {subject}", f"cards/{card_id} {parts}", short=True)
    return f"{name} {report}" if report else name


def _by_question(export: dict, question: str) -> list[dict]:
    return [a for a in export["answers"] if a["question"] == question]


def _columns(operators: list[str], signature) -> list[list[str]]:
    """Adjacent releases (newest first) whose column would be the same, as one group each."""
    groups: list[list[str]] = []
    for op in operators:
        if groups and signature(groups[-1][0]) == signature(op):
            groups[-1].append(op)
        else:
            groups.append([op])
    return groups


def mig_matrix_page(ctx: Ctx, export: dict, card_page, rules_page: str) -> str:
    """Card × GPU Operator release: the MIG verdict without a driver given, conditions as numbered notes.
    Adjacent releases for which every card gets the same verdict and conditions share one column."""
    data = ctx.data
    answers = {(a["inputs"]["card"], a["inputs"]["operator"]): a
               for a in _by_question(export, "mig") if not a["inputs"].get("driver")}
    operators = sorted({op for _, op in answers}, key=versions.key, reverse=True)

    def answer(cid: str, op: str) -> dict:
        if (cid, op) not in answers:
            raise KeyError(f"the engine exported no MIG answer for {cid} with GPU Operator {op}")
        return answers[(cid, op)]

    def signature(op: str) -> list:
        return [(answer(cid, op)["verdict"], [(c["rule"], c["text"]) for c in answer(cid, op).get("conditions", [])])
                for cid in data["cards"]]

    groups = _columns(operators, signature)
    notes = Notes(ctx, rules_page, card_page)
    rows = []
    subject = Text("MIG table", "MIG-Tabelle")(ctx.lang)
    for cid, card in data["cards"].items():
        row = [row_head(ctx, cid, card_page, subject, "mig")]  # (`ask mig` reads the card's mig part)
        for group in groups:
            a = answer(cid, group[0])
            cell = verdict_badge(ctx, a["verdict"], card=cid, operators=" ".join(group))
            nums = notes.numbers(a, cid)
            if nums:
                cell += " <sup>" + ", ".join(str(n) for n in nums) + "</sup>"
            row.append(cell)
        rows.append(row)
    heads = [f"GPU Operator {code(g[0])}" if len(g) == 1 else f"GPU Operator {code(g[-1])} – {code(g[0])}"
             for g in groups]
    files = [data["files"][f"cards/{cid}"] for cid in data["cards"]]
    if "releases/gpu-operator" in data["files"]:
        files.append(data["files"]["releases/gpu-operator"])
    out = [f"# {Text('MIG per card and GPU Operator release', 'MIG je Karte und GPU-Operator-Release')(ctx.lang)}", "",
           ctx.header(files), "",
           Text("Our answer to “can the card run MIG with this release?”, without a driver given "
                 "(with your driver: [ask the knowledge base](ask.md)). Releases for which every card gets the same answer "
                 "share a column. Superscript numbers refer to the conditions below the table.", "Unsere Antwort auf „Kann die Karte MIG mit diesem Release nutzen?“, ohne Angabe des Treibers "
                 "(mit Ihrem Treiber: [Fragen Sie die Wissensdatenbank](ask.md)). Releases, für die jede Karte dieselbe "
                 "Antwort bekommt, teilen sich eine Spalte. Hochgestellte Zahlen verweisen auf die Bedingungen "
                 "unter der Tabelle.")(ctx.lang), "",
           filter_form(ctx, list(data["cards"])), "", table([Text("Card", "Karte")(ctx.lang), *heads], rows), ""]
    merged = [g for g in groups if len(g) > 1]
    if merged:
        spans = "; ".join(f"{code(g[-1])} – {code(g[0])}: " + ", ".join(code(op) for op in reversed(g)) for g in merged)
        out += [Text(f"The columns cover these releases: {spans}.", f"Die Spalten umfassen diese Releases: {spans}.")(ctx.lang), ""]
    if notes.rules:
        out += [f"## {Text('Conditions', 'Bedingungen')(ctx.lang)}", "", notes.render(), ""]
    return WIDE + "\n".join(out).rstrip("\n") + ctx.footer()


METHOD_ORDER = ["whole", "mig", "time-slicing", "mps", "vm-passthrough", "vgpu", "dra"]


def _method_head(name: str) -> str:
    """A column head: the method's name without its explanation in parentheses ('MPS (CUDA Multi-Process
    Service)' → 'MPS'), the full name as the tooltip."""
    short = re.sub(r"\s*\([^)]*\)$", "", name)
    if not short or short == name:
        return esc(name)
    return f'<span title="{html.escape(name, quote=True)}">{esc(short)}</span>'


def _method_of(answer: dict, condition: dict, methods: list[str]) -> str:
    """The method a condition qualifies: the one method fact its rule matched ('' where there is none)."""
    reason = next((r for r in answer.get("reasons", []) if r["rule"] == condition["rule"]), {})
    found = {f["method"] for f in reason.get("facts", []) if f.get("kind") == "method"}
    return found.pop() if len(found) == 1 and next(iter(found)) in methods else ""


def method_matrix_page(ctx: Ctx, export: dict, card_page, rules_page: str) -> str:
    """Card × sharing method with the newest GPU Operator release: the engine's verdict per method
    (details.methods of the `methods` question). Conditions are numbered notes, referred to from the cell
    of the method their rule concluded about (from the card's name where the rule names no one method)."""
    data = ctx.data
    answers = [a for a in _by_question(export, "methods") if not a["inputs"].get("driver")
               and not a["inputs"].get("mig_enabled")]
    if not answers:
        raise KeyError("the engine exported no answers to the methods question")
    newest = max({a["inputs"]["operator"] for a in answers}, key=versions.key)
    by_card = {a["inputs"]["card"]: a for a in answers if a["inputs"]["operator"] == newest}
    methods = [m for m in METHOD_ORDER if m in data["methods"]]
    notes = Notes(ctx, rules_page, card_page)
    rows = []
    for cid, card in data["cards"].items():
        a = by_card.get(cid)
        if a is None:
            raise KeyError(f"the engine exported no methods answer for {cid} with GPU Operator {newest}")
        by_method: dict[str, list[int]] = {}  # method id ('' = the card as a whole) -> note numbers
        for c in a.get("conditions", []):
            by_method.setdefault(_method_of(a, c, methods), []).append(notes.number(a, c, cid))

        def sup(key: str) -> str:
            nums = sorted(set(by_method.get(key, [])))
            return f" <sup>{', '.join(map(str, nums))}</sup>" if nums else ""

        # (`ask methods` reads the card's operator_support part and its MIG answer: the mig part)
        row = [row_head(ctx, cid, card_page, Text("methods table", "Methoden-Tabelle")(ctx.lang),
                        "mig, operator_support") + sup("")]
        for m in methods:
            if m not in a["details"]["methods"]:
                raise KeyError(f"the methods answer for {cid} has no verdict for {m}")
            row.append(verdict_badge(ctx, a["details"]["methods"][m], card=cid, method=m) + sup(m))
        rows.append(row)
    files = [data["files"][f"cards/{cid}"] for cid in data["cards"]] + [data["files"][f"methods/{m}"] for m in methods]
    heads = [_method_head(data["methods"][m]["name"][ctx.lang]) for m in methods]
    out = [f"# {Text('Methods per card', 'Methoden je Karte')(ctx.lang)}", "", ctx.header(files), "",
           Text(f"Our answer to “which methods work on the card?” with GPU Operator {newest}, "
                 f"without a driver given (with your driver: [ask the knowledge base](ask.md)). Superscript numbers refer to the "
                 f"conditions below the table; what sets the methods apart is on the page "
                 f"[Properties of the methods](methods.md).", f"Unsere Antwort auf „Welche Methoden gehen auf der Karte?“ mit GPU Operator "
                 f"{newest}, ohne Angabe des Treibers (mit Ihrem Treiber: [Fragen Sie die Wissensdatenbank](ask.md)). Hochgestellte Zahlen "
                 f"verweisen auf die Bedingungen unter der Tabelle; was die Methoden unterscheidet, steht auf "
                 f"der Seite "
                 f"[Eigenschaften der Methoden](methods.md).")(ctx.lang), "",
           filter_form(ctx, list(data["cards"])), "", table([Text("Card", "Karte")(ctx.lang), *heads], rows), ""]
    if notes.rules:
        out += [f"## {Text('Conditions', 'Bedingungen')(ctx.lang)}", "", notes.render(), ""]
    return WIDE + "\n".join(out).rstrip("\n") + ctx.footer()
