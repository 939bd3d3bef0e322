"""What every question shares: its command-line parameters, the name/version index, verdict folding, the
answer shape."""

from __future__ import annotations

from kb import versions
from kb.engine.syntax import VERDICTS
from kb.errors import UnusableInput
from kb.questions import words
from kb.text import Text

#: most restrictive last: folding keeps the most restrictive verdict that fired
RANK = {verdict: rank for rank, verdict in enumerate(VERDICTS)}


class Param:
    """A parameter of a question, as `gpukb ask <question>` takes it (kb.cli.ask builds the command from a
    module's PARAMS; the question's `resolve` gets it by `name`). A plain class: creating a NamedTuple class
    costs every `gpukb ask` more than this module's other work at import."""

    __slots__ = ("name", "kind", "help", "metavar", "required", "multiple", "choices", "values_from", "option")

    def __init__(self, name: str, kind: str = "text", help: Text | None = None, metavar: str | None = None,
                 required: bool = False, multiple: bool = False, choices: tuple = (), values_from: str | None = None,
                 option: str | None = None):
        self.name = name
        self.kind = kind                # argument | text | int | flag
        self.help = help
        self.metavar = metavar
        self.required = required
        self.multiple = multiple        # an option given once per value (a list)
        self.choices = choices          # fixed values the command line checks
        self.values_from = values_from  # the index list its values come from (resolve checks them; --help lists them)
        self.option = option            # the option's name, where not --<name with dashes>

    def __eq__(self, other) -> bool:
        return isinstance(other, Param) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self) -> str:
        return f"Param({', '.join(f'{k}={getattr(self, k)!r}' for k in self.__slots__)})"


#: parameters several questions take
CARD = Param("card", "argument", metavar="CARD", required=True, help=Text(
    "CARD: the card's name as NVIDIA writes it (L40S, H100 SXM5 80GB), another name of it, a node's "
    "nvidia.com/gpu.product label or its PCI device id (10de:2330); gpukb cards lists them.",
    "KARTE: der Name der Karte, wie NVIDIA ihn schreibt (L40S, H100 SXM5 80GB), ein anderer Name, das Label "
    "nvidia.com/gpu.product eines Nodes oder ihre PCI-Geräte-ID (10de:2330); gpukb cards listet sie auf."))
OPERATOR = Param("operator", metavar="V", help=Text("GPU Operator release, e.g. 26.7.0 (default: the newest known).",
                                                    "GPU-Operator-Release, z. B. 26.7.0 (Standard: das neueste bekannte)."))
DRIVER = Param("driver", metavar="V", help=Text("NVIDIA driver version, e.g. 580.82.07.",
                                                "NVIDIA-Treiberversion, z. B. 580.82.07."))


def known_value(index: dict, key: str, value, what: Text) -> str:
    """`value` if the index's list `key` (values the catalog defines) has it; UnusableInput with the closest
    known values otherwise. `what` names the kind with its German article ("der Workload")."""
    known = list(index.get(key) or [])
    if value in known:
        return value
    import difflib

    close = difflib.get_close_matches(str(value), known, n=3, cutoff=0.5)
    hint = Text(" — did you mean: {close}", " – meinten Sie: {close}").format(close=", ".join(close)) if close else ""
    raise UnusableInput(Text("unknown {what} {value}{hint}; known: {known}",
                             "{what} {value} ist unbekannt{hint}; bekannt: {known}").format(
        what=what, value=versions.shown_text(value), hint=hint, known=", ".join(known)), suggestions=close or known)


def make_index(data: dict) -> dict:
    """The small part of the catalog that resolves inputs (names, versions, and the values the catalog
    defines: workloads, DRA features, methods); compiled with the catalog as its part `index`."""
    cards = {}
    for cid, card in data["cards"].items():
        cards[cid] = {
            "id": cid, "name": card["name"], "short_name": card["short_name"],
            "aliases": card.get("aliases", []), "plain_product": card.get("plain_product", False),
            "product_names": [p["name"] for p in card.get("product_names", [])],
            "systems": [s["name"] for s in card.get("systems", [])],
            "pci_device_ids": (card.get("pci_device_ids") or {}).get("value", []),
            "group": card["group"],
            "profiles": [p["name"] for p in card["mig"].get("profiles", [])],
            "profile_counts": {p["name"]: p["max_count"] for p in card["mig"].get("profiles", [])},
            "mig_status": card["mig"]["status"]["value"],
        }
    from kb.catalog.names import NameIndex, normalise

    by_key = NameIndex(cards).exact
    exact = {n.strip().lower(): cid for cid, card in cards.items()
             for n in (cid, card["name"], card["short_name"], *card["aliases"], *card["product_names"],
                       *card["systems"]) if len(by_key[normalise(n)]) == 1}
    operator = data["releases"].get("gpu-operator", {}).get("releases", [])
    dra = data["methods"].get("dra", {})
    return {
        "data_version": data["data_version"], "verified": data["verified"], "cards": cards,
        "exact": exact,
        "operator_releases": sorted((r["version"] for r in operator), key=versions.key, reverse=True),
        "dra_features": [c["id"] for c in dra.get("capabilities", [])],
        "dra_min_kubernetes": ((dra.get("requirements") or {}).get("min_kubernetes") or {}).get("value"),
        "dra_min_operator": ((dra.get("requirements") or {}).get("min_operator") or {}).get("value"),
        "dra_driver_releases": [r["version"] for r in data["releases"].get("dra-driver", {}).get("releases", [])
                                if r.get("standalone")],
        "workloads": _ordered({s["workload"] for m in data["methods"].values() for s in m.get("suited_for", [])},
                              words.WORKLOAD),
        "methods": _ordered(set(data["methods"]), words.METHOD),
    }


def _ordered(ids: set, table: dict) -> list[str]:
    """The catalog's ids, in the order people read them (the value words' order), unknown ones last."""
    return [i for i in table if i in ids] + sorted(i for i in ids if i not in table)


class AmbiguousCard(UnusableInput):
    """A name that fits several cards (`candidates`): kb.questions.answer answers once where all get the same
    answer, else this error (exit 2) lists them."""

    def __init__(self, text: Text, *, name: str, candidates: list[str]):
        super().__init__(text, suggestions=candidates)
        self.name = name
        self.candidates = list(candidates)


def card_id(index: dict, name: str) -> str:
    """Resolve a typed card name; UnusableInput with the closest cards as suggestions."""
    if not str(name).strip():
        raise UnusableInput(Text("the card name is empty (list all: gpukb cards)",
                                 "der Kartenname ist leer (alle anzeigen: gpukb cards)"))
    hit = index["exact"].get(str(name).strip().lower())  # a name or alias as written: no need for the matcher
    if hit:
        return hit
    from kb.catalog.names import NameError_, name_index

    try:
        return name_index(index["cards"]).resolve(name)
    except NameError_ as exc:
        typed = str(name)
        shorts = [index["cards"][c]["short_name"] for c in exc.candidates]
        # a card by its name; its id (which the CLI accepts too) only where two candidates share a name
        names = [s if shorts.count(s) == 1 else f"{s} ({c})" for s, c in zip(shorts, exc.candidates)]
        listed = "; ".join(names)
        name, name_de = versions.shown(name), versions.shown(name, lang="de")
        if exc.several:  # "L4 L40S", "H200 NVL or L4": never answered as one of them, nor for all at once
            raise UnusableInput(Text(f"{name} names several cards: {listed}; ask about one card at a time",
                                     f"{name_de} nennt mehrere Karten: {listed}; fragen Sie je Aufruf nach "
                                     f"einer Karte"), suggestions=exc.candidates) from None
        if exc.ambiguous:
            raise AmbiguousCard(Text(f"{name} fits several cards: {listed}",
                                     f"{name_de} passt auf mehrere Karten: {listed}"),
                                name=typed, candidates=exc.candidates) from None
        said = Text(f"unknown card {name}", f"unbekannte Karte {name_de}")
        if names:
            said += Text(f" — did you mean: {listed}", f" – meinten Sie: {listed}")
        raise UnusableInput(said + Text(" (list all: gpukb cards)", " (alle anzeigen: gpukb cards)"),
                            suggestions=exc.candidates) from None


def profile_name(index: dict, cid: str, profile: str) -> str | None:
    """The card's MIG profile as NVIDIA writes it, whatever the case typed ('1G.18GB' → '1g.18gb'); None if unknown."""
    wanted = str(profile).strip().lower()
    return next((p for p in index["cards"][cid]["profiles"] if p.lower() == wanted), None)


def slices(profile: str) -> int:
    """Compute slices of a MIG profile: '3g.71gb' → 3."""
    head = profile.split("g.", 1)[0]
    return int(head) if head.isdigit() else 0


def operator_version(index: dict, value: str | None) -> str:
    """A known GPU Operator release; the newest when none is given (kb.versions.VersionError otherwise)."""
    known = index["operator_releases"]
    if not known:
        raise UnusableInput(Text("we know no GPU Operator release",
                                 "wir kennen kein GPU-Operator-Release"))
    return known[0] if value is None else versions.operator(value, known)


def driver_version(value: str | None) -> str | None:
    return None if value is None else versions.driver(value)


def kubernetes_version(value: str, minimum: str | None = None) -> str:
    """'1.34.2'/'v1.34.2'/'1.34' → '1.34.2'/'1.34.0'. With the DRA driver's `minimum`, a version without
    patch release in the minimum's minor ('1.34' for 1.34.2) is not guessed: it could be either side."""
    normal = versions.kubernetes(value)
    typed = versions.parse(value)
    if minimum and len(typed) == 2 and typed == versions.parse(minimum)[:2] and versions.key(value) < versions.key(minimum):
        minor = normal[:-2]
        raise UnusableInput(Text(
            f"Kubernetes {minor} without a patch release cannot be answered: NVIDIA's DRA driver needs "
            f"{minimum} or newer; say which {minor}.x the cluster runs",
            f"Kubernetes {minor} ohne Patch-Release lässt sich nicht beantworten: NVIDIAs DRA-Treiber "
            f"braucht {minimum} oder neuer; geben Sie an, welches {minor}.x der Cluster hat"))
    return normal


def fold_verdict(conclusions: list[dict]) -> str:
    """The most restrictive verdict that fired; 'unconfirmed' where no rule concluded anything."""
    verdicts = [c["verdict"] for c in conclusions if "verdict" in c]
    return max(verdicts, key=RANK.__getitem__) if verdicts else "unconfirmed"


def _restrictive_first(c: dict) -> tuple:
    return -RANK.get(c.get("verdict"), 0), c["rule"]


def reasons(conclusions: list[dict]) -> list[dict]:
    """Every fired conclusion as a reason, the most restrictive first."""
    return _reasons(sorted(conclusions, key=_restrictive_first))


def _reasons(ordered: list[dict]) -> list[dict]:
    out = []
    for c in ordered:
        reason = {"rule": c["rule"], "title": c["title"], "verdict": c.get("verdict"), "text": c["text"],
                  "citations": c["cites"],
                  "facts": c["facts"]}
        if reason not in out:
            out.append(reason)
    return out


def conditions(conclusions: list[dict], verdict: str) -> list[dict]:
    """What must hold for a conditional (or still unconfirmed) yes; nothing for a plain no."""
    if verdict == "no":
        return []
    out, seen = [], set()
    for c in sorted(conclusions, key=lambda c: c["rule"]):
        if c.get("condition") and c["condition"]["en"] not in seen:
            seen.add(c["condition"]["en"])
            out.append({"rule": c["rule"], "text": c["condition"]})
    return out


def disputes(conclusions: list[dict]) -> list[dict]:
    """Every disputed fact a fired rule rests on, once, in the order of the reasons (most restrictive first)."""
    return _disputes(sorted(conclusions, key=_restrictive_first))


def _disputes(ordered: list[dict]) -> list[dict]:
    out, seen = [], set()
    for c in ordered:
        for d in c.get("disputes", ()):
            if d["fact"] not in seen:
                seen.add(d["fact"])
                out.append(d)
    return out


def build(question: str, inputs: dict, conclusions: list[dict], *, verdict: str, summary: dict,
          details: dict, data: dict) -> dict:
    """The answer contract (see CONTRIBUTING.md, 'Engine API')."""
    ordered = sorted(conclusions, key=_restrictive_first)  # (the reasons' and the disputes' order)
    return {
        "question": question,
        "inputs": inputs,
        "verdict": verdict,
        "summary": summary,
        "conditions": conditions(conclusions, verdict),
        "reasons": _reasons(ordered),
        "disputes": _disputes(ordered),
        "details": details,
        "data_version": data["data_version"],
    }
