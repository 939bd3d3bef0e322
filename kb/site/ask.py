"""The "ask" page: a form for the six questions of `gpukb ask` over answers the engine computed at build time
(kb/site/askdata.py writes them as static JSON beside the page; docs/javascripts/ask.js answers from them)."""

from __future__ import annotations

import html

from kb.site.page import Ctx
from kb.text import Text

DATA = "ask/data/shared.json"

QUESTIONS = [
    ("mig", Text("Can the card run MIG?", "Kann die Karte MIG nutzen?")),
    ("methods", Text("Which sharing methods work on the card?", "Welche Methoden zum Teilen gehen auf der Karte?")),
    ("resource", Text("What does a pod request?", "Was fordert ein Pod an?")),
    ("strategy", Text("Which MIG strategy does a node need?", "Welche MIG-Strategie braucht ein Node?")),
    ("dra", Text("Can NVIDIA's DRA driver be used?", "Lässt sich NVIDIAs DRA-Treiber nutzen?")),
    ("recommend", Text("Which method suits a workload?", "Welche Methode passt zu einem Workload?")),
]


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _field(name: str, label: Text, control: str, lang: str, hint: Text | None = None) -> str:
    hint_html = f'<span class="gpukb-ask-hint" id="gpukb-ask-{name}-hint">{_e(hint(lang))}</span>' if hint else ""
    return (f'<div class="gpukb-ask-field" data-field="{name}"><label for="gpukb-ask-{name}">{_e(label(lang))}</label>'
            f"{control}{hint_html}</div>")


def _check(name: str, label: Text, lang: str) -> str:
    return (f'<div class="gpukb-ask-field gpukb-ask-check" data-field="{name}"><label>'
            f'<input type="checkbox" name="{name}" id="gpukb-ask-{name}"> {_e(label(lang))}</label></div>')


def _options(pairs: list[tuple[str, Text]], lang: str) -> str:
    return "".join(f'<option value="{_e(v)}">{_e(t(lang))}</option>' for v, t in pairs)


def form_html(lang: str) -> str:
    """The form; ask.js fills the lists from the data and shows the fields of the chosen question."""
    t = lambda text: _e(text(lang))  # noqa: E731
    text_input = lambda name, example, hint=True: (  # noqa: E731
        f'<input type="text" name="{name}" id="gpukb-ask-{name}" inputmode="decimal" autocomplete="off" '
        f'spellcheck="false" placeholder="{_e(example)}"' + (f' aria-describedby="gpukb-ask-{name}-hint"' if hint else "") + ">")
    fields = [
        _field("q", Text("Question", "Frage"),
               f'<select name="q" id="gpukb-ask-q">{_options(QUESTIONS, lang)}</select>', lang),
        _field("card", Text("Card", "Karte"), '<select name="card" id="gpukb-ask-card"></select>', lang),
        _field("workload", Text("Workload", "Workload"), '<select name="workload" id="gpukb-ask-workload"></select>', lang),
        _field("gpus", Text("GPUs of the node", "GPUs des Nodes"),
               '<div id="gpukb-ask-gpus"></div>'
               f'<button type="button" id="gpukb-ask-add" class="md-button">{t(Text("Add a GPU", "GPU hinzufügen"))}</button>',
               lang, Text("A MIG layout is all-<profile> (all instances of one profile), profiles separated by commas, "
                          "or empty for a GPU without MIG.",
                          "Ein MIG-Layout ist all-<Profil> (alle Instanzen eines Profils), Profile durch Kommas getrennt "
                          "oder leer für eine GPU ohne MIG.")),
        _field("operator", Text("GPU Operator", "GPU Operator"), '<select name="operator" id="gpukb-ask-operator"></select>', lang),
        _field("driver", Text("Driver (optional)", "Treiber (optional)"), text_input("driver", "580.82.07"), lang,
               Text("Any version, e.g. 580.82.07; empty if you do not know it yet.",
                    "Jede Version, z. B. 580.82.07; leer, wenn Sie ihn noch nicht kennen.")),
        _check("mig-enabled", Text("MIG is enabled on the GPU", "MIG ist auf der GPU aktiviert"), lang),
        _field("profile", Text("MIG profile", "MIG-Profil"), '<select name="profile" id="gpukb-ask-profile"></select>', lang),
        _field("strategy", Text("MIG strategy (mig.strategy)", "MIG-Strategie (mig.strategy)"),
               '<select name="strategy" id="gpukb-ask-strategy">'
               + _options([("", Text("single (default)", "single (Standard)")), ("single", Text("single")),
                           ("mixed", Text("mixed"))], lang) + "</select>", lang),
        _field("sharing", Text("Shared by", "Geteilt per"),
               '<select name="sharing" id="gpukb-ask-sharing">'
               + _options([("", Text("not shared", "nicht geteilt")), ("time-slicing", Text("time-slicing", "Time-Slicing")),
                           ("mps", Text("MPS"))], lang) + "</select>", lang),
        _field("replicas", Text("Replicas per GPU", "Replikate je GPU"),
               '<input type="text" name="replicas" id="gpukb-ask-replicas" inputmode="numeric" autocomplete="off" value="4">', lang),
        _check("rename-by-default", Text("renameByDefault: true", "renameByDefault: true"), lang),
        _field("k8s", Text("Kubernetes version", "Kubernetes-Version"), text_input("k8s", "1.34.2"), lang,
               Text("Any version, e.g. 1.34.2.", "Jede Version, z. B. 1.34.2.")),
        _field("feature", Text("DRA capability", "DRA-Funktion"), '<select name="feature" id="gpukb-ask-feature"></select>', lang),
        _field("install", Text("DRA driver installed", "DRA-Treiber installiert"),
               '<select name="install" id="gpukb-ask-install">'
               + _options([("", Text("as the release allows", "wie das Release es vorsieht")),
                           ("operator", Text("by the GPU Operator", "vom GPU Operator")),
                           ("standalone", Text("on its own (Helm chart)", "eigenständig (Helm-Chart)"))], lang) + "</select>", lang),
        _field("dra-driver", Text("Release of the DRA driver installed on its own", "Release des eigenständigen DRA-Treibers"),
               '<select name="dra-driver" id="gpukb-ask-dra-driver">'
               + _options([("", Text("as its current documentation describes it",
                                     "wie seine aktuelle Dokumentation ihn beschreibt"))], lang) + "</select>", lang),
        _check("isolation", Text("The consumers must be isolated from each other", "Die Nutzer müssen voneinander isoliert sein"), lang),
    ]
    gpu_row = (f'<template id="gpukb-ask-gpu-template"><div class="gpukb-ask-gpu"><span class="gpukb-ask-gpu-n"></span>'
               f'<select aria-label="{t(Text("Card", "Karte"))}"></select>'
               f'<input type="text" aria-label="{t(Text("MIG layout", "MIG-Layout"))}" placeholder="all-1g.18gb" '
               f'autocomplete="off" spellcheck="false">'
               f'<button type="button" class="md-button">{t(Text("remove", "entfernen"))}</button></div></template>')
    return "\n".join([
        '<div id="gpukb-ask" hidden markdown="0">',
        '<form class="gpukb-ask-form" autocomplete="off">',
        *fields,
        "</form>",
        gpu_row,
        '<p class="gpukb-ask-permalink">'
        f'<a id="gpukb-ask-link" href="">{t(Text("Link to this answer", "Link zu dieser Antwort"))}</a> '
        f'<button type="button" id="gpukb-ask-copy" class="md-button">{t(Text("Copy link", "Link kopieren"))}</button></p>',
        '<div id="gpukb-ask-answer" aria-live="polite"></div>',
        '<p id="gpukb-ask-stamp"></p>',
        "</div>",
    ])


def ask_page(ctx: Ctx) -> str:
    """The page in one language: what it does, the form, the sentence for readers without JavaScript."""
    lang = ctx.lang
    files = ["sources.yaml", *(ctx.data["files"][f"cards/{cid}"] for cid in ctx.data["cards"])]
    intro = Text(
        "Choose a question and fill in what you know: card, GPU Operator release, driver, Kubernetes version. "
        "The answer comes from the same rules and facts as every table of this site; each reason names its "
        "rule and its sources, and the [rule reference](rules.md){ #gpukb-ask-rules } explains every rule. "
        "The address of this page holds your choice: copy it to send someone the same answer.",
        "Wählen Sie eine Frage und geben Sie an, was Sie wissen: Karte, Release des GPU Operators, Treiber, "
        "Kubernetes-Version. Die Antwort folgt aus denselben Regeln und Fakten wie jede Tabelle dieser Seite; "
        "jede Begründung nennt ihre Regel und ihre Quellen, die [Regelreferenz](rules.md){ #gpukb-ask-rules } "
        "erklärt jede Regel. Die Adresse dieser Seite enthält Ihre Auswahl: Kopieren Sie sie, um jemandem "
        "dieselbe Antwort zu schicken.")
    nojs = Text(
        "This page needs JavaScript to answer. Without it, the tables give the same answers: "
        '<a href="../method-matrix/">methods per card</a> and <a href="../mig-matrix/">MIG per card and '
        "GPU Operator release</a>.",
        "Diese Seite braucht JavaScript, um zu antworten. Ohne JavaScript geben die Tabellen dieselben Antworten: "
        '<a href="../method-matrix/">Methoden je Karte</a> und <a href="../mig-matrix/">MIG je Karte und '
        "Release des GPU Operators</a>.")
    title = Text("Ask the knowledge base", "Fragen an die Wissensdatenbank")
    description = Text("Every question of the knowledge base for your card, GPU Operator release, driver and "
                       "Kubernetes version, answered with reasons and sources.",
                       "Jede Frage der Wissensdatenbank für Ihre Karte, Ihr GPU-Operator-Release, Ihren Treiber und "
                       "Ihre Kubernetes-Version, beantwortet mit Begründung und Quellen.")
    return "\n".join([
        ctx.front(description(lang)),
        f"# {title(lang)}",
        "",
        ctx.header(files),
        "",
        intro(lang),
        "",
        f'<noscript><p class="gpukb-ask-nojs">{nojs(lang)}</p></noscript>',
        "",
        form_html(lang),
        "",
        f"[{Text('The answers as data', 'Die Antworten als Daten')(lang)}](ask/data/shared.json){{ #gpukb-ask-data }}",
    ]) + ctx.footer()
