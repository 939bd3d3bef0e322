"""The answer contract's two outputs: JSON for one language, and short text with numbered footnotes.

An answer (kb.questions.answer) keeps every text in both languages ({en, de}); `localise` picks one
language for `gpukb ask --json --lang …`, `render_text` writes the human answer (`--explain` adds the
rules that fired and the facts they read).
"""

from __future__ import annotations

import json

from kb.questions import words

QUESTION_TITLE = {
    "mig": {"en": "MIG", "de": "MIG"},
    "methods": {"en": "Sharing methods", "de": "Sharing-Methoden"},
    "resource": {"en": "Resource request", "de": "Ressourcenanforderung"},
    "strategy": {"en": "MIG strategy", "de": "MIG-Strategie"},
    "dra": {"en": "DRA", "de": "DRA"},
    "recommend": {"en": "Recommendation", "de": "Empfehlung"},
}
LABELS = {
    "why": {"en": "Why", "de": "Warum"}, "conditions": {"en": "Conditions", "de": "Bedingungen"},
    "details": {"en": "Details", "de": "Details"}, "sources": {"en": "Sources", "de": "Quellen"},
    "rules": {"en": "Rules fired", "de": "Ausgelöste Regeln"}, "read": {"en": "read", "de": "liest"},
    "data": {"en": "Data version", "de": "Datenstand"}, "none": {"en": "none", "de": "keine"},
}
INPUT_LABELS = {
    "card": {"en": "card", "de": "Karte"}, "operator": {"en": "GPU Operator", "de": "GPU Operator"},
    "driver": {"en": "driver", "de": "Treiber"}, "k8s": {"en": "Kubernetes", "de": "Kubernetes"},
    "gpus": {"en": "GPUs", "de": "GPUs"}, "mig_enabled": {"en": "MIG enabled", "de": "MIG aktiviert"},
    "workload": {"en": "workload", "de": "Arbeitslast"}, "mig_strategy": {"en": "mig.strategy", "de": "mig.strategy"},
    "rename_by_default": {"en": "renameByDefault", "de": "renameByDefault"},
    "profile": {"en": "profile", "de": "Profil"}, "mode": {"en": "sharing", "de": "Teilen per"},
    "replicas": {"en": "replicas", "de": "Replikate"}, "feature": {"en": "feature", "de": "Funktion"},
    "isolation": {"en": "isolation", "de": "Isolierung"},
}


#: labels of detail keys (keys not listed are shown with "_" as " ")
DETAIL_LABELS = {
    "mig_status": ("MIG status", "MIG-Status"), "max_instances": ("max instances", "Max. Instanzen"),
    "smallest_profile": ("smallest profile", "Kleinstes Profil"), "profiles": ("profiles", "Profile"),
    "prerequisites": ("prerequisites", "Voraussetzungen"), "operator_listed": ("on the operator's support list", "Auf der Supportliste des Operators"),
    "operator_min_driver": ("operator's minimum driver", "Mindesttreiber laut Operator"), "min_driver": ("minimum driver", "Mindesttreiber"),
    "min_vbios": ("minimum vBIOS", "Mindest-vBIOS"), "display_mode_switch": ("display-mode switch", "Umschaltung des Anzeigemodus"),
    "prerequisites_published": ("prerequisites published", "Voraussetzungen veröffentlicht"),
    "written_confirmation": ("get written confirmation", "Schriftlich bestätigen lassen"),
    "methods": ("methods", "Methoden"), "mode": ("sharing", "Teilen per"), "resource": ("resource", "Ressource"),
    "labels": ("node labels", "Node-Labels"), "replicas": ("replicas", "Replikate"), "profile": ("profile", "Profil"),
    "mig_strategy": ("mig.strategy", "mig.strategy"), "strategy": ("mig.strategy", "mig.strategy"), "feature": ("feature", "Funktion"),
    "maturity": ("maturity", "Reife"), "min_kubernetes": ("minimum Kubernetes", "Mindestversion Kubernetes"),
    "driver_version": ("DRA driver", "DRA-Treiber"), "operator_manages_dra": ("operator manages the DRA driver", "Operator verwaltet den DRA-Treiber"),
    "ranking": ("ranking", "Rangfolge"), "excluded": ("ruled out", "Ausgeschlossen"),
    "why": ("why", "Warum"), "risk": ("risk for neighbours", "Risiko für Nachbarn"), "conditions": ("conditions", "Bedingungen"),
}
#: detail keys whose values are catalog ids, shown in words
VALUE_WORDS = {"mig_status": words.MIG_STATUS, "maturity": words.MATURITY, "mode": words.MODE,
               "feature": words.DRA_FEATURE, "excluded": words.METHOD, "workload": words.WORKLOAD,
               "isolation": words.ISOLATION}
#: detail keys whose values are maps with catalog ids as keys
KEY_WORDS = {"methods": words.METHOD}


def _is_text(value) -> bool:
    return isinstance(value, dict) and set(value) == {"en", "de"}


def pick(value, lang: str):
    """Every {en, de} inside `value` replaced by the text of `lang`."""
    if _is_text(value):
        return value[lang]
    if isinstance(value, dict):
        return {k: pick(v, lang) for k, v in value.items()}
    if isinstance(value, list):
        return [pick(v, lang) for v in value]
    return value


def localise(answer: dict, lang: str) -> dict:
    """The answer with texts in one language (what `gpukb ask --json` prints)."""
    out = pick(answer, lang)
    out["lang"] = lang
    return out


def _footnotes(answer: dict):
    """Number each distinct citation once, in order of appearance."""
    numbers: dict[str, int] = {}
    notes: list[dict] = []
    for reason in answer["reasons"]:
        for cite in reason["citations"]:
            key = json.dumps(cite, sort_keys=True)
            if key not in numbers:
                numbers[key] = len(notes) + 1
                notes.append(cite)
    return numbers, notes


def _marks(reason: dict, numbers: dict) -> str:
    return "".join(f"[{numbers[json.dumps(c, sort_keys=True)]}]" for c in reason["citations"])


def _label(key: str, lang: str) -> str:
    pair = DETAIL_LABELS.get(key)
    return pair[lang == "de"] if pair else key.replace("_", " ")


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


def _input(key: str, value, lang: str) -> str:
    label = INPUT_LABELS.get(key, {}).get(lang, key.replace("_", " "))
    if key == "gpus":
        none = {"en": "no MIG", "de": "ohne MIG"}[lang]
        return label + " " + " + ".join(f"{g['card']} ({', '.join(g['profiles']) or none})" for g in value)
    if value is True:
        return label
    return f"{label} {_show(value, lang, VALUE_WORDS.get(key))}"


def _fact_line(fact: dict) -> str:
    rest = ", ".join(f"{k}={'true' if v is True else 'false' if v is False else v}" for k, v in fact.items() if k != "kind")
    return f"{fact['kind']}({rest})"


def render_text(answer: dict, lang: str = "en", explain: bool = False) -> str:
    """The short human answer: heading, summary, reasons with footnotes, conditions, details, sources."""
    t = lambda key: LABELS[key][lang]  # noqa: E731
    inputs = ", ".join(_input(k, v, lang) for k, v in answer["inputs"].items() if v is not False and not _empty(v))
    title = QUESTION_TITLE.get(answer["question"], {}).get(lang, answer["question"])
    lines = [f"{title} ({inputs}): {words.VERDICT[answer['verdict']][lang]}", answer["summary"][lang], ""]
    numbers, notes = _footnotes(answer)
    if answer["reasons"]:
        lines.append(f"{t('why')}:")
        for reason in answer["reasons"]:
            lines.append(f"  - {reason['text'][lang]} {_marks(reason, numbers)}".rstrip())
    if answer["conditions"]:
        lines.append(f"{t('conditions')}:")
        lines += [f"  - {c['text'][lang]}" for c in answer["conditions"]]
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
        for i, cite in enumerate(notes, 1):
            where = f", {cite['section']}" if cite.get("section") else ""
            url = f" {cite['url']}" if cite.get("url") else ""
            lines.append(f"  [{i}] {cite['title']}{where}: “{cite['quote']}”{url}")
    lines.append(f"{t('data')}: {answer['data_version']}")
    return "\n".join(lines)
