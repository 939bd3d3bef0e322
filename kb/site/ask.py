"""The "ask" page: a form over answers the engine computed at build time, shipped as a static JSON file."""

from __future__ import annotations

import json

from kb import versions
from kb.engine.syntax import VERDICTS
from kb.site.labels import L, date
from kb.site.matrices import verdict_word
from kb.site.page import Ctx

JSON_NAME = "ask-answers.json"


def _key(card: str, operator: str, driver: str | None) -> str:
    return f"{card}|{operator}|{driver or ''}"


def _text(value, lang: str):
    return value[lang] if isinstance(value, dict) and set(value) == {"en", "de"} else value


def payload(data: dict, answers: list[dict], lang: str) -> dict:
    """What the page's script reads: the choices and, per card|operator|driver, the answer to show.

    `answers` are engine answers (only those to the MIG question are used); their text stays text (the
    script never parses it as HTML). Reasons and citations repeat across answers, so each is stored
    once (`reasons`, `citations`) and answers refer to them by index. Citations get the source's title.
    The verdict words and the data stamp are worded as on the generated pages.
    """
    out: dict = {"data_version": data["data_version"], "verified": data["verified"], "answers": {},
                 "reasons": [], "citations": [],
                 "verdicts": {v: verdict_word(v, lang) for v in VERDICTS},
                 "stamp": f"{L('data_version', lang)} {data['data_version']} · "
                          f"{L('verified', lang)} {date(data['verified'], lang)}"}
    index: dict = {}

    def intern(table: str, item: dict) -> int:
        key = (table, json.dumps(item, sort_keys=True, ensure_ascii=False))
        if key not in index:
            index[key] = len(out[table])
            out[table].append(item)
        return index[key]

    cards, operators, drivers = set(), set(), set()
    for a in answers:
        if a["question"] != "mig":
            continue
        inputs = a["inputs"]
        card, operator, driver = inputs["card"], inputs["operator"], inputs.get("driver")
        cards.add(card)
        operators.add(operator)
        if driver:
            drivers.add(driver)
        reasons = []
        for r in a.get("reasons", []):
            cites = [intern("citations", {"title": data["sources"].get(c["source"], {}).get("title", c["source"]),
                                          "url": c["url"], "quote": c["quote"]}) for c in r.get("citations", [])]
            reasons.append(intern("reasons", {"rule": r["rule"], "text": _text(r["text"], lang), "citations": cites}))
        out["answers"][_key(card, operator, driver)] = {
            "verdict": a["verdict"],
            "summary": _text(a["summary"], lang),
            "conditions": [_text(c["text"], lang) for c in a.get("conditions", [])],
            "reasons": reasons,
        }
    out["cards"] = [{"id": cid, "name": data["cards"][cid]["short_name"]} for cid in data["cards"] if cid in cards]
    out["operators"] = sorted(operators, key=versions.key, reverse=True)
    out["drivers"] = sorted(drivers, key=versions.key)
    return out


def ask_page(ctx: Ctx) -> str:
    """The form; ask.js fills it from the JSON linked as #gpukb-ask-data."""
    t = ctx.t
    files = ["sources.yaml", *(ctx.data["files"][f"cards/{cid}"] for cid in ctx.data["cards"])]
    return "\n".join([
        f"# {t('Fragen: MIG auf einer Karte', 'Ask: MIG on a card')}",
        "",
        ctx.header(files),
        "",
        t("Wählen Sie Karte, Release des GPU Operators und, wenn Sie ihn kennen, den Treiber. Die Antwort hat "
          "die Regel-Engine beim Bau dieser Seite berechnet, dieselbe, die `gpukb ask mig` verwendet. Jede "
          "Begründung nennt ihre Regel und ihre Quellen; alle Regeln erklärt die "
          "[Regelreferenz](rules.md){ #gpukb-ask-rules }.",
          "Pick a card, a GPU Operator release and, where you know it, the driver. The answer was computed "
          "when this site was built, by the same rule engine `gpukb ask mig` uses. Each reason names its rule "
          "and its sources; the [rule reference](rules.md){ #gpukb-ask-rules } explains every rule."),
        "",
        '<div id="gpukb-ask" markdown="0">',
        '<div class="gpukb-ask-form">',
        f'<label for="gpukb-ask-card">{t("Karte", "Card")} <select id="gpukb-ask-card"></select></label>',
        f'<label for="gpukb-ask-operator">{t("GPU Operator", "GPU Operator")} <select id="gpukb-ask-operator"></select></label>',
        f'<label for="gpukb-ask-driver">{t("Treiber", "Driver")} <select id="gpukb-ask-driver"></select></label>',
        "</div>",
        '<div id="gpukb-ask-answer" aria-live="polite"></div>',
        '<p id="gpukb-ask-stamp"></p>',
        "</div>",
        "",
        f"[{t('Alle Antworten als JSON', 'All answers as JSON')}]({JSON_NAME}){{ #gpukb-ask-data }}",
    ]) + ctx.footer()
