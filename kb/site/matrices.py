"""Tables of engine answers: the card × GPU Operator release MIG matrix with numbered condition notes,
and the card × method matrix. Verdicts come from the engine's export, never from this module."""

from __future__ import annotations

import re

from kb import versions
from kb.site.md import code, esc, link, table
from kb.site.page import Ctx

VERDICT_WORD = {
    "yes": ("Ja", "Yes"), "conditional": ("Bedingt", "Conditional"),
    "unconfirmed": ("Unbestätigt", "Unconfirmed"), "no": ("Nein", "No"),
}


def verdict_badge(ctx: Ctx, verdict: str, **where: str) -> str:
    """The verdict as a coloured word; data attributes name the answer (card id, column) for tests and readers.
    `where` values are ids and versions from the engine's inputs (slugs, digits and dots)."""
    de, en = VERDICT_WORD[verdict]
    attrs = "".join(f' data-{k}="{v}"' for k, v in where.items() if re.fullmatch(r"[a-z0-9.-]+", v))
    return f'<span class="gpukb-verdict gpukb-v-{verdict}" data-verdict="{verdict}"{attrs}>{ctx.t(de, en)}</span>'


class Notes:
    """Numbered notes under a matrix: each distinct condition once, with the rule and its sources."""

    def __init__(self, ctx: Ctx, rules_page: str):
        self.ctx = ctx
        self.rules_page = rules_page
        self.items: list[tuple[str, str, str]] = []  # (key, group, markdown)

    def number(self, answer: dict, condition: dict, group: str = "") -> int:
        """The note's number (a new one for a condition not seen yet); `group` is a heading to file it under."""
        text = condition["text"][self.ctx.lang]
        key = f"{condition['rule']}|{text}"
        for i, (k, _, _) in enumerate(self.items, 1):
            if k == key:
                return i
        reason = next((r for r in answer["reasons"] if r["rule"] == condition["rule"]), None)
        rule = condition["rule"]
        rule_link = link(self.ctx.t("Regel", "Rule") + " " + rule, f"{self.rules_page}#{rule.lower()}")
        md = f"{esc(text)} ({rule_link})"
        if reason:
            md += self._sources(reason.get("citations", []))
        self.items.append((key, group, md))
        return len(self.items)

    def _sources(self, cites: list[dict]) -> str:
        seen, parts = set(), []
        for c in cites:
            k = (c["source"], c["quote"])
            if k in seen:
                continue
            seen.add(k)
            title = self.ctx.data["sources"].get(c["source"], {}).get("title", c["source"])
            q = f"„{esc(c['quote'])}“" if self.ctx.lang == "de" else f"“{esc(c['quote'])}”"
            parts.append(f"{link(esc(title), c['url'])}: {q}")
        return (" — " + "; ".join(parts)) if parts else ""

    def render(self) -> str:
        """The notes in number order; a group heading wherever the group changes."""
        out, last = [], None
        for i, (_, group, md) in enumerate(self.items, 1):
            if group and group != last:
                out += ["" if out else None, f"### {group}", ""]
                last = group
            out.append(f"{i}. {md}")
        return "\n".join(line for line in out if line is not None).replace("\n\n\n", "\n\n")


def _by_question(export: dict, question: str) -> list[dict]:
    return [a for a in export["answers"] if a["question"] == question]


def mig_matrix_page(ctx: Ctx, export: dict, card_page, rules_page: str) -> str:
    """Card × GPU Operator release: the MIG verdict without a driver given, conditions as numbered notes."""
    data = ctx.data
    answers = {(a["inputs"]["card"], a["inputs"]["operator"]): a
               for a in _by_question(export, "mig") if not a["inputs"].get("driver")}
    operators = sorted({op for _, op in answers}, key=versions.key, reverse=True)
    notes = Notes(ctx, rules_page)
    rows = []
    for cid, card in data["cards"].items():
        row = [link(esc(card["short_name"]), card_page(cid))]
        for op in operators:
            a = answers.get((cid, op))
            if a is None:
                raise KeyError(f"the engine exported no MIG answer for {cid} with GPU Operator {op}")
            cell = verdict_badge(ctx, a["verdict"], card=cid, operator=op)
            nums = [notes.number(a, c, esc(card["short_name"])) for c in a.get("conditions", [])]
            if nums:
                cell += " <sup>" + ", ".join(str(n) for n in nums) + "</sup>"
            row.append(cell)
        rows.append(row)
    files = [data["files"][f"cards/{cid}"] for cid in data["cards"]]
    if "releases/gpu-operator" in data["files"]:
        files.append(data["files"]["releases/gpu-operator"])
    out = [f"# {ctx.t('MIG je Karte und GPU-Operator-Release', 'MIG per card and GPU Operator release')}", "",
           ctx.header(files), "",
           ctx.t("Die Antwort der Regel-Engine auf „Kann die Karte MIG mit diesem Release nutzen?“, ohne Angabe "
                 "des Treibers (`gpukb ask mig KARTE --operator RELEASE`). Hochgestellte Zahlen verweisen auf "
                 "die Bedingungen unter der Tabelle.",
                 "The rule engine's answer to “can the card run MIG with this release?”, without a driver given "
                 "(`gpukb ask mig CARD --operator RELEASE`). Superscript numbers refer to the conditions below "
                 "the table."), "",
           table([ctx.t("Karte", "Card"), *(f"GPU Operator {code(op)}" for op in operators)], rows), ""]
    if notes.items:
        out += [f"## {ctx.t('Bedingungen', 'Conditions')}", "", notes.render(), ""]
    return "\n".join(out).rstrip("\n") + ctx.footer()


METHOD_ORDER = ["whole", "mig", "time-slicing", "mps", "vm-passthrough", "vgpu", "dra"]


def method_matrix_page(ctx: Ctx, export: dict, card_page, rules_page: str) -> str:
    """Card × sharing method with the newest GPU Operator release: the engine's verdict per method
    (details.methods of the `methods` question); a card's conditions as numbered notes."""
    data = ctx.data
    answers = [a for a in _by_question(export, "methods") if not a["inputs"].get("driver")
               and not a["inputs"].get("mig_enabled")]
    if not answers:
        raise KeyError("the engine exported no answers to the methods question")
    newest = max({a["inputs"]["operator"] for a in answers}, key=versions.key)
    by_card = {a["inputs"]["card"]: a for a in answers if a["inputs"]["operator"] == newest}
    methods = [m for m in METHOD_ORDER if m in data["methods"]]
    notes = Notes(ctx, rules_page)
    rows = []
    for cid, card in data["cards"].items():
        a = by_card.get(cid)
        if a is None:
            raise KeyError(f"the engine exported no methods answer for {cid} with GPU Operator {newest}")
        row = [link(esc(card["short_name"]), card_page(cid))]
        for m in methods:
            if m not in a["details"]["methods"]:
                raise KeyError(f"the methods answer for {cid} has no verdict for {m}")
            row.append(verdict_badge(ctx, a["details"]["methods"][m], card=cid, method=m))
        nums = [notes.number(a, c, esc(card["short_name"])) for c in a.get("conditions", [])]
        row.append(", ".join(str(n) for n in nums) if nums else "—")
        rows.append(row)
    files = [data["files"][f"cards/{cid}"] for cid in data["cards"]] + [data["files"][f"methods/{m}"] for m in methods]
    names = [esc(data["methods"][m]["name"][ctx.lang]) for m in methods]
    out = [f"# {ctx.t('Methoden je Karte', 'Methods per card')}", "", ctx.header(files), "",
           ctx.t(f"Die Antwort der Regel-Engine auf „Welche Methoden gehen auf der Karte?“ mit GPU Operator "
                 f"{newest}, ohne Angabe des Treibers (`gpukb ask methods KARTE`). Die letzte Spalte verweist "
                 f"auf die Bedingungen unter der Tabelle.",
                 f"The rule engine's answer to “which methods work on the card?” with GPU Operator {newest}, "
                 f"without a driver given (`gpukb ask methods CARD`). The last column refers to the conditions "
                 f"below the table."), "",
           table([ctx.t("Karte", "Card"), *names, ctx.t("Bedingungen", "Conditions")], rows), ""]
    if notes.items:
        out += [f"## {ctx.t('Bedingungen', 'Conditions')}", "", notes.render(), ""]
    return "\n".join(out).rstrip("\n") + ctx.footer()
