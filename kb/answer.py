"""The answer contract's two outputs: JSON for one language, and short text with numbered footnotes.

An answer (kb.questions.answer) keeps every text in both languages ({en, de}); `localise` picks one
language for `gpukb ask --json --lang …`, `render_text` writes the human answer (`--explain` adds the
rules that fired and the facts they read).
"""

from __future__ import annotations

import json

from kb.questions import words
from kb.wording import citation_text, dash
from kb.text import Text, pick

LABELS = {
    "why": Text("Why", "Warum"), "conditions": Text("Conditions", "Bedingungen"),
    "details": Text("Details", "Details"), "sources": Text("Sources", "Quellen"),
    "rules": Text("Rules that apply", "Regeln, die greifen"), "read": Text("read", "liest"),
    "data": Text("Data version", "Datenversion"), "none": Text("none", "keine"),
    "disputes": Text("Sources disagree", "Quellen widersprechen sich"),
    "followed": Text("this answer follows it", "dieser Antwort zugrunde gelegt"),
}
INPUT_LABELS = {
    "card": Text("card", "Karte"), "operator": Text("GPU Operator", "GPU Operator"),
    "driver": Text("driver", "Treiber"), "k8s": Text("Kubernetes", "Kubernetes"),
    "gpus": Text("GPUs", "GPUs"), "mig_enabled": Text("MIG enabled", "MIG aktiviert"),
    "workload": Text("workload", "Workload"), "mig_strategy": Text("mig.strategy", "mig.strategy"),
    "rename_by_default": Text("renameByDefault", "renameByDefault"),
    "profile": Text("profile", "Profil"), "mode": Text("sharing", "Teilen per"),
    "replicas": Text("replicas", "Replikate"), "feature": Text("feature", "Funktion"),
    "isolation": Text("isolation", "Isolierung"), "install": Text("DRA driver", "DRA-Treiber"),
    "dra_driver": Text("DRA driver release", "Release des DRA-Treibers"),
}


#: labels of detail keys (keys not listed are shown with "_" as " ")
DETAIL_LABELS = {
    "mig_status": Text("MIG status", "MIG-Status"), "max_instances": Text("max instances", "Max. Instanzen"),
    "smallest_profile": Text("smallest profile", "Kleinstes Profil"), "profiles": Text("profiles", "Profile"),
    "prerequisites": Text("prerequisites", "Voraussetzungen"), "operator_listed": Text("on the operator's support list", "Auf der Supportliste des Operators"),
    "operator_min_driver": Text("operator's minimum driver", "Mindesttreiber laut Operator"), "min_driver": Text("minimum driver", "Mindesttreiber"),
    "min_vbios": Text("minimum vBIOS", "Mindest-vBIOS"), "display_mode_switch": Text("display-mode switch", "Umschaltung des Anzeigemodus"),
    "prerequisites_published": Text("prerequisites published", "Voraussetzungen veröffentlicht"),
    "written_confirmation": Text("get written confirmation", "Schriftlich bestätigen lassen"),
    "methods": Text("methods", "Methoden"), "mode": Text("sharing", "Teilen per"), "resource": Text("resource", "Ressource"),
    "labels": Text("node labels", "Node-Labels"), "replicas": Text("replicas", "Replikate"), "profile": Text("profile", "Profil"),
    "mig_strategy": Text("mig.strategy", "mig.strategy"), "strategy": Text("mig.strategy", "mig.strategy"), "feature": Text("feature", "Funktion"),
    "maturity": Text("maturity", "Reife"), "min_kubernetes": Text("minimum Kubernetes", "Mindestversion Kubernetes"),
    "driver_version": Text("DRA driver", "DRA-Treiber"), "operator_manages_dra": Text("operator manages the DRA driver", "Operator verwaltet den DRA-Treiber"),
    "ranking": Text("ranking", "Rangfolge"), "excluded": Text("ruled out", "Ausgeschlossen"),
    "why": Text("why", "Warum"), "risk": Text("risk for neighbours", "Risiko für Nachbarn"), "conditions": Text("conditions", "Bedingungen"),
    "install": Text("DRA driver", "DRA-Treiber"),
    "dra_driver": Text("DRA driver release", "Release des DRA-Treibers"),
}
#: detail keys whose values are catalog ids, shown in words
VALUE_WORDS = {"mig_status": words.MIG_STATUS, "maturity": words.MATURITY, "mode": words.MODE,
               "feature": words.DRA_FEATURE, "excluded": words.METHOD, "workload": words.WORKLOAD,
               "isolation": words.ISOLATION, "install": words.DRA_INSTALL}
#: detail keys whose values are maps with catalog ids as keys
KEY_WORDS = {"methods": words.METHOD}


def localise(answer: dict, lang: str) -> dict:
    """The answer with texts in one language (what `gpukb ask --json` prints)."""
    out = pick(answer, lang)
    out["lang"] = lang
    return out


def _footnotes(answer: dict):
    """Number each distinct citation once, in order of appearance: (each cited object's number by its id —
    equal citations share one —, the notes as (content key, citation))."""
    numbers: dict = {}
    by_object: dict[int, int] = {}
    notes: list[tuple] = []
    cited = [c for reason in answer["reasons"] for c in reason["citations"]]
    cited += [c for d in answer.get("disputes", ()) for v in d["values"] for c in v["citations"]]
    for cite in cited:
        if id(cite) in by_object:
            continue
        key = _content(cite)
        if key not in numbers:
            numbers[key] = len(notes) + 1
            notes.append((key, cite))
        by_object[id(cite)] = numbers[key]
    return by_object, notes


def _content(cite: dict):
    """A citation's content as a key: its items with their types (true is not 1), or its JSON where a value is not
    hashable."""
    try:
        key = tuple(sorted((k, v.__class__, v) for k, v in cite.items()))
        hash(key)
        return key
    except TypeError:
        return json.dumps(cite, sort_keys=True)


#: a citation's text by (its content, language): the same few hundred citations back thousands of answers
_CITATION_TEXT: dict = {}


def _citation_line(key, cite: dict, lang: str) -> str:
    found = _CITATION_TEXT.get((key, lang))
    if found is None:
        if len(_CITATION_TEXT) > 20_000:
            _CITATION_TEXT.clear()
        url = f" {cite['url']}" if cite.get("url") else ""
        found = _CITATION_TEXT[(key, lang)] = f"{citation_text(cite, lang)}{url}"
    return found


def _dispute_lines(answer: dict, numbers: dict, lang: str) -> list[str]:
    """One line per disputed fact: each value with its sources, the one the answer follows marked, the notes."""
    out = []
    for dispute in answer.get("disputes", ()):
        field = dispute["fact"].rsplit(".", 1)[-1].rsplit("#", 1)[-1]
        label = words.word(words.FACT_LABEL, field, lang) if field in words.FACT_LABEL else field.replace("_", " ")
        parts = []
        for v in dispute["values"]:
            part = f"{_show(v['value'], lang)} {_marks(v, numbers)}"
            if v["followed"]:
                part += f" ({LABELS['followed'](lang)})"
            parts.append(part)
        notes = " ".join(v["note"][lang] for v in dispute["values"] if v.get("note"))
        out.append(f"  - {label}: {f' {dash(lang)} '.join(parts)}" + (f". {notes}" if notes else ""))
    return out


def _marks(item: dict, numbers: dict) -> str:
    """The footnote marks of a reason's (or a disputed value's) citations (`numbers`: _footnotes')."""
    return "".join(f"[{numbers[id(c)]}]" for c in item["citations"])


def _label(key: str, lang: str) -> str:
    label = DETAIL_LABELS.get(key)
    return label(lang) if label else key.replace("_", " ")


def _empty(value) -> bool:
    return value is None or (isinstance(value, (list, dict, str)) and not value)


def _ranking_lines(ranking: list[dict], lang: str, indent: str) -> list[str]:
    """`recommend`'s ranking: one numbered method per entry with its verdict, why, risk and conditions."""
    lines = []
    for i, entry in enumerate(ranking, 1):
        lines.append(f"{indent}{i}. {words.word(words.METHOD, entry['method'], lang)}: "
                     f"{words.VERDICT[entry['verdict']][lang]}")
        for key in ("why", "risk", "conditions"):
            if not _empty(entry.get(key)):
                lines.append(f"{indent}   {_label(key, lang)}: {_show(entry[key], lang, sep=' ')}")
    return lines


def _detail_lines(value, lang: str, indent: str, keys: dict | None = None) -> list[str]:
    value = pick(value, lang)
    lines = []
    for key, item in value.items():
        if _empty(item):
            continue
        label = words.word(keys, key, lang) if keys else _label(key, lang)
        if key == "ranking" and isinstance(item, list):
            lines.append(f"{indent}{label}:")
            lines += _ranking_lines(item, lang, indent + "  ")
        elif isinstance(item, dict):
            lines.append(f"{indent}{label}:")
            lines += _detail_lines(item, lang, indent + "  ", KEY_WORDS.get(key))
        else:
            lines.append(f"{indent}{label}: {_show(item, lang, VALUE_WORDS.get(key))}")
    return lines


def _show(value, lang: str = "en", table: dict | None = None, sep: str = ", ") -> str:
    if isinstance(value, bool):
        return words.TRUTH[value][lang]
    if isinstance(value, list):
        return sep.join(_show(v, lang, table) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_show(v, lang)}" for k, v in value.items())
    if table is not None:
        return words.word(table, value, lang)
    if value in words.VERDICT:
        return words.VERDICT[value][lang]
    return str(value)


def _input(key: str, value, lang: str, names: dict | None = None) -> str:
    label = INPUT_LABELS[key](lang) if key in INPUT_LABELS else key.replace("_", " ")
    names = names or {}
    if key == "gpus":
        none = Text("no MIG", "ohne MIG")(lang)
        return label + " " + " + ".join(f"{names.get(g['card'], g['card'])} ({', '.join(g['profiles']) or none})"
                                        for g in value)
    if value is True:
        return label
    if key == "card" and value in names:
        return f"{label} {names[value]}"
    return f"{label} {_show(value, lang, VALUE_WORDS.get(key))}"


def card_names(answer: dict) -> dict:
    """Card id → the name a reader knows, from the facts the answer's rules read (the card's short name); the
    catalog's names where no rule read the card."""
    names = {f["card"]: f["name"] for r in answer.get("reasons", ()) for f in r.get("facts", ())
             if isinstance(f.get("card"), str) and isinstance(f.get("name"), str)}
    wanted = ({answer["inputs"].get("card")} | {g.get("card") for g in answer["inputs"].get("gpus") or ()}
              | set(answer.get("cards") or ()))
    if any(c and c not in names for c in wanted):
        try:
            from kb.catalog.compiled import load_data

            cards = load_data(parts=("cards",))["cards"]
            names.update({c: cards[c]["short_name"] for c in wanted if c in cards and c not in names})
        except Exception:  # noqa: BLE001 - without the catalog the id is shown, as before
            pass
    return names


def _fact_line(fact: dict) -> str:
    rest = ", ".join(f"{k}={'true' if v is True else 'false' if v is False else v}" for k, v in fact.items() if k != "kind")
    return f"{fact['kind']}({rest})"


def _title(question: str) -> Text:
    """The question's title (its module's TITLE; the question's name where it has none)."""
    from kb.questions import module

    try:
        return module(question).TITLE
    except Exception:  # noqa: BLE001 - an answer of a question this rule base does not have: its name
        return Text(question)


def _headline(answer: dict, lang: str) -> str:
    """The answer's word after its title: the verdict ('ja', 'bedingt' …); for a ranking, its first method
    ('Empfehlung: MPS', never 'Empfehlung: ja'), or that nothing fits."""
    ranking = answer.get("details", {}).get("ranking")
    if isinstance(ranking, list):
        if not ranking:
            return Text("nothing fits", "nichts passt")(lang)
        first = words.word(words.METHOD, ranking[0]["method"], lang)
        if ranking[0].get("verdict") not in (None, "yes"):
            first += f" ({words.VERDICT[ranking[0]['verdict']][lang]})"
        return first
    return words.VERDICT[answer["verdict"]][lang]


def render_text(answer: dict, lang: str = "en", explain: bool = False) -> str:
    """The short human answer: heading, summary, reasons with footnotes, conditions, details, sources."""
    t = lambda key: LABELS[key](lang)  # noqa: E731
    names = card_names(answer)
    shown = dict(answer["inputs"])
    if answer.get("cards"):  # one answer for every card a name fits: the card (or the node's GPU) is each of them
        names = {**names, answer["cards"][0]: " / ".join(names.get(c, c) for c in answer["cards"])}
    inputs = ", ".join(_input(k, v, lang, names) for k, v in shown.items() if v is not False and not _empty(v))
    title = _title(answer["question"])(lang)
    lines = [f"{title} ({inputs}): {_headline(answer, lang)}", answer["summary"][lang], ""]
    numbers, notes = _footnotes(answer)
    if answer["reasons"]:
        lines.append(f"{t('why')}:")
        for reason in answer["reasons"]:
            lines.append(f"  - {reason['text'][lang]} {_marks(reason, numbers)}".rstrip())
    if answer["conditions"]:
        lines.append(f"{t('conditions')}:")
        lines += [f"  - {c['text'][lang]}" for c in answer["conditions"]]
    if answer.get("disputes"):
        lines += [f"{t('disputes')}:", *_dispute_lines(answer, numbers, lang)]
    details = _detail_lines(answer["details"], lang, "  ")
    if details:
        lines += [f"{t('details')}:", *details]
    if explain:
        lines.append(f"{t('rules')}:")
        if not answer["reasons"]:
            lines.append(f"  {t('none')}")
        for reason in answer["reasons"]:
            verdict = words.VERDICT.get(reason.get("verdict"), {}).get(lang, reason.get("verdict"))
            lines.append(f"  {reason['rule']} {reason['title'][lang]} → {verdict}")
            lines += [f"    {t('read')}: {_fact_line(f)}" for f in reason["facts"]]
    if notes:
        lines.append(f"{t('sources')}:")
        for i, (key, cite) in enumerate(notes, 1):
            lines.append(f"  [{i}] {_citation_line(key, cite, lang)}")
    lines.append(f"{t('data')}: {answer['data_version']}")
    return "\n".join(lines)
