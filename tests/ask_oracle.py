"""A mirror of docs/javascripts/ask.js in Python, for the tests: how the page finds and fills an answer in its
data. tests/test_site_ask.py compares it with `gpukb ask` for every input; tests/test_site_browser.py compares
the page's script with it.
"""

from __future__ import annotations

import functools
import re

from kb import wording
from kb.answer import _detail_lines

# the CLI's words for a citation's place, quote and title: pure functions of (text, language), asked for the same
# few hundred citations thousands of times by tests/test_site_ask.py — each worked out once
section_text, nested, title_text = (functools.lru_cache(maxsize=None)(f)
                                    for f in (wording.section_text, wording.nested, wording.title_text))

SLOT = re.compile("\ue000([a-z0-9_-]+)\ue001")
RANK = {"yes": 0, "conditional": 1, "unconfirmed": 2, "no": 3}


def fill(text: str, values: dict) -> str:
    return SLOT.sub(lambda m: str(values[m.group(1)]), text)


def page_view(answer: dict) -> dict:
    return answer


def cli_view(answer: dict) -> dict:
    """What the page shows of an answer of `gpukb ask --json` (one language)."""
    lang = answer["lang"]
    return {
        "verdict": answer["verdict"], "summary": answer["summary"],
        "conditions": [c["text"] for c in answer["conditions"]],
        "reasons": [{"rule": r["rule"], "text": r["text"],
                     "cites": [{k: c[k] for k in ("title", "section", "quote", "url") if c.get(k)}
                               | ({"section": section_text(c["section"], lang)} if c.get("section") else {})
                               | {"quote": nested(c["quote"], lang)}
                               | ({"title": title_text(c["title"], lang)} if c.get("title") else {})
                               | ({"translation": c["translation"]} if lang != "de" and c.get("translation") else {})
                               for c in r["citations"]]}
                    for r in answer["reasons"]],
        "details": _detail_lines(answer["details"], lang, ""),
    }


def _key(parts):
    return tuple((list(parts) + [0, 0, 0, 0])[:4])


def _classify(key, classes):
    for i, c in enumerate(classes):
        if "at" in c:
            if _key(c["at"]) == key:
                return i
            continue
        if ("above" not in c or key > _key(c["above"])) and ("below" not in c or key < _key(c["below"])):
            return i
    raise AssertionError(f"no class for {key}")


def _count_class(n, classes):
    for i, c in enumerate(classes):
        if "at" in c:
            if c["at"] == n:
                return i
            continue
        if (c["above"] is None or n > c["above"]) and (c["below"] is None or n < c["below"]):
            return i
    raise AssertionError(n)


class Fits(ValueError):
    """A name that fits several cards (`cards`): the page answers once where all answers agree."""

    def __init__(self, name: str, cards: list[str]):
        super().__init__(f"{name} fits several cards")
        self.name, self.cards = name, cards


class _Resolved(dict):
    """kb.questions.base.card_id's table of names as written, answered by the page's one name index: a name it
    resolves is that card (as card_id's own NameIndex would resolve it); any other is left to card_id, which then
    raises its error in the CLI's words."""

    def __init__(self, names):
        super().__init__()
        self.names = names

    def get(self, name, default=None):
        from kb.catalog.names import NameError_

        try:
            return self.names.resolve(name)
        except NameError_:
            return default


class Oracle:
    def __init__(self, payload: dict):
        from kb.catalog.names import NameIndex

        self.shared = payload["shared"]
        self.cards = payload["cards"]
        self.by_id = {c["id"]: c for c in self.shared["cards"]}
        # the page indexes the names of the catalog it loaded once (ask.js resolveCard: `indexed`); so does this
        self.names = NameIndex({c["id"]: {"id": c["id"], "name": c["name"], "short_name": c["short"],
                                          "aliases": c["names"][3:], "plain_product": c["plain"]}
                                for c in self.shared["cards"]})
        # the index strategy's parse_gpu reads (the CLI's parser; ask.js parseGpu resolves through resolveCard):
        # a name is looked up in the one name index above, not in a new one per GPU
        self.strategy_index = {"cards": {c["id"]: {"id": c["id"], "name": c["name"], "short_name": c["short"],
                                                   "aliases": c["names"][3:], "plain_product": c["plain"],
                                                   "profiles": c["profiles"], "profile_counts": c["counts"]}
                                         for c in self.shared["cards"]}, "exact": _Resolved(self.names)}

    # -- helpers the JS has too
    @staticmethod
    def version_in(cls: dict, parts: int = 3) -> str | None:
        """A version of `parts` parts inside a class (None where the class holds none, e.g. a Kubernetes
        version between 1.34.2 and 1.34.2.1)."""
        def inside(key):
            return ("at" not in cls or _key(cls["at"]) == _key(key)) and \
                ("above" not in cls or _key(key) > _key(cls["above"])) and \
                ("below" not in cls or _key(key) < _key(cls["below"]))
        if "at" in cls:
            key = list(cls["at"])[:parts]
        elif "below" in cls:
            key = list(cls["below"])[:parts]
            for i in range(parts - 1, -1, -1):
                if key[i] > 0:
                    key[i] -= 1
                    key = key[:i + 1] + [999] * (parts - 1 - i)
                    break
        elif "above" in cls:
            key = list(cls["above"])[:parts]
            key[-1] += 1
        else:  # the one class of a card whose facts name no version: any version
            key = [580, 82, 7][:parts]
        return ".".join(map(str, key)) if inside(key) else None

    def resolve(self, name: str) -> str:
        from kb.catalog.names import NameError_

        if not str(name).strip():
            raise ValueError("the card name is empty")
        try:
            return self.names.resolve(name)
        except NameError_ as exc:
            if exc.ambiguous and not exc.several:
                raise Fits(name, sorted(exc.candidates)) from None
            raise ValueError(str(exc)) from None

    def operator(self, text):
        from kb import versions

        if text in (None, ""):
            return self.shared["ops"][0]
        try:
            return versions.operator(text, self.shared["ops"])
        except versions.VersionError as exc:
            raise ValueError(str(exc)) from None

    @staticmethod
    def driver(text):
        from kb import versions

        try:
            return versions.driver(text)
        except versions.VersionError as exc:
            raise ValueError(str(exc)) from None

    def answer(self, table: dict, index: int, values: dict) -> dict:
        """ask.js answerOf: the template filled in, with what it says of the asked release (values["operator"])
        from the shared file's `releases`: the components' versions and the citations of the release's own entry."""
        a = table["answers"][index]
        release = self.shared["releases"].get(values.get("operator")) if values.get("operator") else None
        if release:
            values = {**release["values"], **values}

        def cites(j):
            c = table["cites"][j]
            if "release" in c:
                return [self.shared["cites"][k] for k in release["cites"][c["release"]]]
            return [c]
        return {
            "verdict": a["verdict"], "summary": fill(a["summary"], values),
            "conditions": [fill(c, values) for c in a["conditions"]],
            "reasons": [{"rule": table["reasons"][i]["rule"], "text": fill(table["reasons"][i]["text"], values),
                         "cites": [x for j in table["reasons"][i]["cites"] for x in cites(j)]} for i in a["reasons"]],
            "details": [fill(d, values) for d in a["details"]],
        }

    def _driver_class(self, card: dict, typed: str | None) -> int:
        from kb import versions

        if not typed:
            return 0
        return _classify(versions.key(typed), card["classes"]) + 1

    # -- the questions
    def ask(self, question: str, s: dict) -> dict:
        try:
            return getattr(self, "_" + question)(s)
        except Fits as fits:
            return self._one_for_all(question, s, fits)

    def _one_for_all(self, question: str, s: dict, fits: "Fits") -> dict:
        """ask.js oneForAll: one answer naming the cards where all get the same answer, else ValueError listing
        their verdicts (the CLI's exit 2 without its "(the answers differ in: …)")."""
        short = lambda cid: self.by_id[cid]["short"]  # noqa: E731
        found, first = [], None
        for cid in fits.cards:
            try:
                found.append((cid, getattr(self, "_" + question)({**s, "card": cid})))
            except ValueError as exc:
                first = first or exc
        if not found:
            raise first
        en = self.shared["verdicts"]["yes"] != "Ja"
        if len(found) == 1:
            raise ValueError(f"{fits.name} fits several cards and the other inputs only {short(found[0][0])}: name it")

        def gist(cid, a):
            names = sorted(filter(None, (cid, short(cid), self.by_id[cid]["name"])), key=len, reverse=True)

            def plain(t):
                for n in names:
                    t = t.replace(n, "{card}")
                return t
            return (a["verdict"], [(r["rule"], plain(r["text"])) for r in a["reasons"]],
                    [plain(c) for c in a["conditions"]], a["details"])
        if any(gist(c, a) != gist(*found[0]) for c, a in found):
            words = self.shared["verdicts"]
            listed = "; ".join(f"{short(c)}: {words[a['verdict']][0].lower()}{words[a['verdict']][1:]}"
                               for c, a in found)
            raise ValueError(f"{fits.name} fits several cards whose answers differ — {listed}; name one of them")
        answer = dict(found[0][1])
        cards = [c for c, _ in found]
        head = (f"{fits.name} fits {len(cards)} cards ({', '.join(map(short, cards))}); the answer is the same for "
                f"all of them. ") if en else (f"{fits.name} passt auf {len(cards)} Karten "
                                               f"({', '.join(map(short, cards))}); die Antwort ist für alle gleich. ")
        answer["summary"] = head + answer["summary"].replace(short(cards[0]), " / ".join(map(short, cards)))
        return answer

    def _mig(self, s):
        cid = self.resolve(s["card"])
        card, op = self.cards[cid], self.operator(s.get("operator"))
        drv = self.driver(s["driver"]) if s.get("driver") else None
        group = card["groups"][card["ops"][op]]
        return self.answer(card, group["mig"][self._driver_class(card, drv)], {"operator": op, "driver": drv or ""})

    def _methods(self, s):
        cid = self.resolve(s["card"])
        card, op = self.cards[cid], self.operator(s.get("operator"))
        drv = self.driver(s["driver"]) if s.get("driver") else None
        row = card["groups"][card["ops"][op]]["methods"][self._driver_class(card, drv)]
        return self.answer(card, row[1 if s.get("mig-enabled") else 0], {"operator": op, "driver": drv or ""})

    def _resource(self, s):
        cid = self.resolve(s["card"])
        info = self.by_id[cid]
        n = s.get("time-slicing") or s.get("mps")
        mode = "time-slicing" if s.get("time-slicing") else "mps" if s.get("mps") else "mig"
        profile = next((p for p in info["profiles"] if p.lower() == (s.get("profile") or "").lower()), "")
        cls = "" if mode == "mig" else str(_count_class(int(n), self.shared["replica_classes"]))
        key = "|".join([profile, (s.get("strategy") or "single") if profile else "", mode,
                        "1" if s.get("rename-by-default") else "0", cls])
        card, op = self.cards[cid], self.operator(s.get("operator"))
        at = card["resource_combos"].index(key)
        values = {"operator": op}
        if n:
            count = int(n)
            values.update(replicas=str(count), client_thread_percentage=str(100 // count))
            if info.get("memory_gb"):
                memory = round(info["memory_gb"] / count, 1)
                values["client_memory_gb"] = str(int(memory)) if float(memory).is_integer() else str(memory)
        if profile:  # (ask.js profileValues: one template stands for a card's plain profiles, one for its variants)
            variant = info.get("variants", {}).get(profile)
            base = profile[: -len(variant)] if variant and profile.endswith(variant) else profile
            resource = "nvidia.com/" + ("mig-" + profile).replace("+", ".")
            values.update(profile=profile, own_resource=resource, mig_resource=resource, base_profile=base,
                          base_resource="nvidia.com/" + ("mig-" + base).replace("+", "."),
                          profile_count=str(info["counts"][profile]))
        return self.answer(card, card["groups"][card["ops"][op]]["resource"][at], values)

    def _dra(self, s):
        from kb import versions
        from kb.errors import UnusableInput as InputError
        from kb.questions.base import kubernetes_version

        op = self.operator(s.get("operator"))
        try:
            k8s = kubernetes_version(s["k8s"], self.shared["dra_min_kubernetes"])
        except InputError as exc:
            raise ValueError(exc.text["en"]) from None
        f = [x["id"] for x in self.shared["features"]].index(s.get("feature") or "whole-gpu")
        managed = bool(self.shared["dra_min_operator"]) and versions.key(op) >= versions.key(self.shared["dra_min_operator"])
        install = s.get("install") or ("operator" if managed else "standalone")
        h = self.shared["installs"].index(install)
        c = _classify(versions.key(k8s), self.shared["k8s_classes"])
        release = str(s.get("dra-driver") or "").strip().removeprefix("v")
        if release:  # as ask.js: a standalone release's own table, whatever the operator release
            if s.get("install") == "operator":
                raise ValueError("A release of the DRA driver names the driver installed on its own")
            if release not in self.shared["dra_drivers"]:
                raise ValueError(f"unknown standalone DRA driver release '{release}'")
            return self.answer(self.shared, self.shared["dra_release"][release][0 if managed else 1][f][c], {"operator": op, "k8s": k8s})
        return self.answer(self.shared, self.shared["dra"][op][f][h][c], {"operator": op, "k8s": k8s})

    def _recommend(self, s):
        key = f"{s['workload']}|{'required' if s.get('isolation') == 'required' else ''}"
        if not s.get("card"):
            return self.answer(self.shared, self.shared["recommend"][key], {})
        card = self.cards[self.resolve(s["card"])]
        return self.answer(card, card["recommend"][card["recommend_combos"].index(key)], {"operator": self.shared["ops"][0]})

    def _strategy(self, s):
        from kb.questions.strategy import parse_gpu

        gpus = [parse_gpu(self.strategy_index, g) for g in s["gpu"]]
        op = self.operator(s.get("operator"))
        node = self.shared["strategy"]
        drv = self.driver(s["driver"]) if s.get("driver") else None
        from kb import versions

        node_driver = _classify(versions.key(drv), node["driver_classes"]) + 1 if drv else 0
        used = sorted({p for g in gpus for p in g["profiles"]})
        mig = sum(1 for g in gpus if g["profiles"])
        counts = {"mig_gpus": mig, "whole_gpus": len(gpus) - mig, "distinct_profiles": len(used)}
        key = "|".join([op, str(node_driver)] + [str(_count_class(counts[p], node["classes"][p]))
                                                 for p in ("mig_gpus", "whole_gpus", "distinct_profiles")])
        values = {"profiles": ", ".join(used), "profile": used[0] if len(used) == 1 else "", "gpus": str(len(gpus)),
                  "operator": op, "driver": drv or "",
                  **{p: str(n) for p, n in counts.items()}}
        parts = [(self.shared["parts"][i], self.shared, 0, values) for i in node["nodes"][key]]
        for n, g in enumerate(gpus, 1):
            card = self.cards[g["card"]]
            kind = ("1" if g["profiles"] else "0") + ("1" if mig else "0")
            for i in card["groups"][card["ops"][op]]["strategy"][f"{self._driver_class(card, drv)}|{kind}"]:
                parts.append((card["parts"][i], card, n, {"index": str(n), "gpu_profiles": ", ".join(g["profiles"])}))
        parts.sort(key=lambda p: (p[0]["rule"], p[2]))
        verdict = max((p[0]["verdict"] for p in parts), key=RANK.__getitem__) if parts else node["none"]["verdict"]
        strategy = "mixed" if any(p[0]["strategy"] == "mixed" for p in parts) else "single"
        conditions, seen = [], set()
        if verdict != "no":
            for part, _t, _n, values in parts:
                if part.get("condition") and fill(part["condition_en"], values) not in seen:
                    seen.add(fill(part["condition_en"], values))
                    conditions.append(fill(part["condition"], values))
        ordered = sorted(parts, key=lambda p: (-RANK[p[0]["verdict"]], p[0]["rule"]))
        return {"verdict": verdict, "summary": node["summaries"][f"{strategy}|{verdict}"], "conditions": conditions,
                "reasons": [{"rule": p["rule"], "text": fill(p["text"], v), "cites": [t["cites"][j] for j in p["cites"]]}
                            for p, t, _n, v in ordered],
                "details": [fill(node["detail"], {"strategy": strategy})]}
