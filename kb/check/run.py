"""The whole check: inputs → documents → objects → facts → the `check` rules → findings and a summary."""

from __future__ import annotations

from dataclasses import dataclass, field

from kb.check.documents import InputProblem
from kb.check.facts import Environment, FactSet, build_facts
from kb.check.findings import SEVERITIES, findings as shown_findings
from kb.check.inputs import read_all
from kb.check.load import Loaded, load
from kb.check.readers import REASONS, Inventory, read_objects
from kb.errors import UnusableInput
from kb.text import Text


@dataclass
class Report:
    findings: list[dict]
    summary: dict
    inventory: Inventory
    facts: FactSet
    problems: list[InputProblem] = field(default_factory=list)

    @property
    def has_errors(self) -> bool:
        """An error finding, or an input that is broken or could not be read (not valid YAML/JSON, duplicate keys,
        a Kustomize reference to a missing file, a named file that is missing, unreadable or not UTF-8 text).
        Inputs refused by kind (a Helm template, a pipe, too big) are named but are no error."""
        return any(f["severity"] == "error" for f in self.findings) or any(
            p.kind in ("yaml", "json", "kustomize", "io") for p in self.problems)

    def as_json(self) -> dict:
        return {"findings": self.findings, "summary": self.summary}


class NothingReadable(UnusableInput):
    """No input could be read at all (exit 2): `details["problems"]` says why for each, located."""

    kind = "unreadable-file"

    def __init__(self, problems: list[InputProblem]):
        super().__init__(Text("cannot read the input, nothing was checked", "Eingabe nicht lesbar, nichts wurde geprüft"),
                         details={"problems": [{**p.as_dict("en"), "message": p.text} for p in problems]})
        self.problems = problems


def _ignored(inv: Inventory, lang: str) -> list[dict]:
    groups: dict = {}
    for i in inv.ignored:
        key = (i.kind, i.reason)
        g = groups.get(key)
        if g is None:
            where = i.where.as_dict()
            groups[key] = {"kind": i.kind, "reason": REASONS[i.reason](lang), "count": 1, "names": [i.name],
                           "file": where["file"], "document": where["document"], "line": where["line"]}
        else:
            g["count"] += 1
            if len(g["names"]) < 5:
                g["names"].append(i.name)
    return list(groups.values())


def _substituted(done: list[dict]) -> list[dict]:
    """Flux substitutions made while reading, one entry per file and variable ({file, variable, value, default,
    lines})."""
    out: dict = {}
    for d in done:
        key = (d["file"], d["variable"], d["value"])
        entry = out.setdefault(key, {"file": d["file"], "variable": d["variable"], "value": d["value"],
                                     "default": d["default"], "lines": []})
        entry["lines"].append(d["line"])
    return list(out.values())


def node_configs(runs) -> list[dict]:
    """Which device-plugin configuration each node gets: by its nvidia.com/device-plugin.config label, the
    default, or none ({config, source, count, names})."""
    out: dict = {}
    seen: set = set()
    for run in runs:
        for f in run[1].facts:
            if f["kind"] != "node" or f.get("name") in seen:
                continue
            seen.add(f.get("name"))
            key = (f.get("dp_config") or "", f.get("dp_config_source") or "")
            entry = out.setdefault(key, {"config": key[0], "source": key[1] or "none", "count": 0, "names": []})
            entry["count"] += 1
            if len(entry["names"]) < 5:
                entry["names"].append(f.get("name", ""))
    return [] if len(out) == 1 and ("", "") in out else list(out.values())


def summary(shown: list[dict], inv: Inventory, loaded: Loaded, files: list[str], inputs: dict, data_version: str,
            lang: str, hidden_infos: int, skipped: dict, configs: list | None = None) -> dict:
    counts = {s: sum(1 for f in shown if f["severity"] == s) for s in SEVERITIES}
    checked = {"ClusterPolicy": len(inv.policies), "GPUCluster": len(inv.gpu_clusters),
               "device-plugin config": len(inv.dp_configs), "MIG Manager config": len(inv.mig_configs),
               "Node": len(inv.nodes), "workload": len(inv.workloads), "device-plugin chart": len(inv.charts)}
    return {
        "files": files,
        "documents": len(loaded.docs),
        "checked": {k: v for k, v in checked.items() if v},
        "not_read": [p.as_dict(lang) for p in loaded.problems],
        "ignored": _ignored(inv, lang),
        "errors": counts["error"], "warnings": counts["warning"], "infos": counts["info"],
        "hidden_infos": hidden_infos,
        "skipped": skipped,
        "substituted": _substituted(loaded.substituted),
        "kustomize": [{"file": n["file"], "message": n["text"](lang)} for n in loaded.notes],
        "node_configs": configs,
        "inputs": inputs,
        "data_version": data_version,
    }


def evaluate_all(facts: list[dict], *, engine: str, data: dict, rules=None) -> list[dict]:
    """The check rules on every fact. Where no rule joins two facts (today none does: facts carry what a rule
    needs), each fact is its own query, so the engine runs them in sessions of a few thousand facts — a
    20,000-pod cluster costs what its facts cost, and durable-rules never holds enough facts in one session
    for its 32-bit fact hashes to collide. A rule base with joins gets all facts in one query."""
    from kb.engine import evaluate, evaluate_many, rules_for

    compiled = rules_for("check", rules)
    if any(len(r["when"]) > 1 for r in compiled):
        return evaluate("check", facts, engine=engine, data=data, rules=rules)
    return [c for found in evaluate_many("check", [[f] for f in facts], engine=engine, data=data,
                                         rules={"check": compiled}) for c in found]


def _fix_context(inv: Inventory, facts: FactSet):
    from kb.check.fixes import Context as FixContext

    configmaps = dict(inv.configmaps)
    for chart in inv.charts:
        if chart.created:
            configmaps.setdefault(chart.configmap, chart.keys)
    for cfg in inv.dp_configs:
        if cfg.configmap:
            configmaps.setdefault(cfg.configmap, [])
            if cfg.key not in configmaps[cfg.configmap]:
                configmaps[cfg.configmap] = list(configmaps[cfg.configmap]) + [cfg.key]
    return FixContext(policies=[f for f in facts.facts if f["kind"] == "policy"], configmaps=configmaps,
                      operator_namespace=inv.operator_namespace or "gpu-operator", extra=facts.extra,
                      dp_configs=[f for f in facts.facts if f["kind"] == "dp_config"], inv=inv)


def _operator_from_input(env: Environment, loaded: Loaded, data: dict) -> Environment:
    """--operator, else the GPU Operator release the input shows (must-gather's version file, the operator pod's
    image tag), where it is one the catalog knows."""
    if env.operator is not None:
        return env
    from kb import versions
    from kb.check.readers import workload

    found = loaded.operator_version
    if found is None:  # an umbrella chart's Chart.yaml pinning the gpu-operator chart
        from kb.check.readers import chart_operator_version

        found = next((v for v in (chart_operator_version(d.data) for d in loaded.docs) if v), None)
    if found is None:
        for doc in loaded.docs:
            data_ = doc.data
            if isinstance(data_, dict) and isinstance(data_.get("kind"), str) and data_["kind"] in workload.POD_SPEC:
                w = workload.read(doc, data_["kind"])
                if w.nvidia_component == "gpu-operator" and w.nvidia_version:
                    found = w.nvidia_version
                    break
    if found is None:
        return env
    known = sorted((r["version"] for r in data.get("releases", {}).get("gpu-operator", {}).get("releases", [])),
                   key=versions.key, reverse=True)
    try:
        return Environment(operator=versions.operator(found, known), k8s=env.k8s, driver=env.driver)
    except ValueError:
        loaded.operator_unknown = found.lstrip("vV")  # shown in the report: checked without its release's facts
        return env


def check(names: list[str], data: dict, env: Environment | None = None, *, lang: str = "en",
          engine: str = "durable", rules=None, stdin=None, quiet: bool = False) -> Report:
    """Check the named files ('-' = stdin; a folder: the files below it gpukb reads). A file that cannot be
    read is named in the summary (`not_read`) and the others are checked; where nothing at all can be read,
    NothingReadable (exit 2). kb.errors.EngineFailure where the engine fails (the CLI's edge: exit 4)."""
    env = env or Environment()
    raw = read_all(names, stdin=stdin)
    loaded = load(raw)
    if loaded.nothing and loaded.problems:
        raise NothingReadable(loaded.problems)
    env = _operator_from_input(env, loaded, data)
    builds = loaded.builds or [(None, loaded.docs)]
    whole, separate = None, []
    if not loaded.builds:
        whole = read_objects(loaded.docs, loaded.extras)
        separate = configuration_files(whole)
        if separate:
            builds = per_file(loaded, raw.names)
    conclusions, inv, facts = [], None, FactSet()
    for root, docs, *extras in builds:  # one check per `kustomize build` or file (one in all, mostly)
        b_inv = whole if len(builds) == 1 and whole is not None else read_objects(
            docs, extras[0] if extras else loaded.extras)
        b_facts = build_facts(b_inv, data, env, engine=engine, rules=rules, generated=loaded.generated)
        found = evaluate_all(b_facts.facts, engine=engine, data=data, rules=rules)  # EngineFailure: exit 4
        if root is not None and len(builds) > 1 and not separate:
            for c in found:
                c["build"] = root
        conclusions.append((found, b_facts, _fix_context(b_inv, b_facts)))
        inv = b_inv if inv is None else inv.merged(b_inv)
        facts = b_facts if len(builds) == 1 else facts
    if separate:  # every object was read once, in its own file
        inv = whole
    files = raw.names
    everything = shown_findings(conclusions, lang, files)
    shown = [f for f in everything if f["severity"] != "info"] if quiet else everything
    cluster = next((f for run in conclusions for f in run[1].facts if f["kind"] == "cluster"), {})
    inputs = {"operator": env.operator, "k8s": cluster.get("k8s"), "driver": cluster.get("driver")}
    if loaded.operator_unknown:
        inputs["operator_unknown"] = loaded.operator_unknown
    result = summary(shown, inv, loaded, files, inputs, data.get("data_version", ""), lang,
                     len(everything) - len(shown), raw.skipped, node_configs(conclusions))
    result["separate"] = separate
    return Report(shown, result, inv, facts, loaded.problems)


def _file(thing) -> str:
    where = thing.where() if callable(thing.where) else thing.where
    return where.get("file") or ""


def configuration_files(inv: Inventory) -> list[str]:
    """The files that hold whole GPU Operator configurations, in the order read — where the input holds more than
    one configuration; else []. A cluster has one: several are alternatives or different clusters' (NVIDIA's
    examples side by side, values of several releases). A ClusterPolicy counts once per name (two files with
    `cluster-policy` are one object written twice, or a patch of it); chart values count where they are a whole
    values.yaml (most of the chart's sections) — a customer's override layers onto one (`-f a -f b`); patches
    never count."""
    from kb.check.readers.helmvalues import CHART_KEYS

    configurations: dict = {}
    for p in inv.policies:
        name = _file(p)
        if p.partial or not name:
            continue
        if p.origin == "ClusterPolicy":
            key = ("ClusterPolicy", p.name)
        else:
            data = p.doc.data if isinstance(p.doc.data, dict) else {}
            if len(CHART_KEYS & set(map(str, data))) < WHOLE_VALUES:
                continue
            key = ("values", name)
        configurations.setdefault(key, [])
        if name not in configurations[key]:
            configurations[key].append(name)
    files = list(dict.fromkeys(n for names in configurations.values() for n in names))
    return files if len(configurations) > 1 and len(files) > 1 else []  # in one file: one cluster's dump


#: a values file naming this many of the chart's top-level sections is a whole values.yaml (NVIDIA's names 13 of
#: them in 22.9.1, 15 in 23.9–26.3, 18 today; a customer's override names a few)
WHOLE_VALUES = 10


def per_file(loaded: Loaded, names: list[str]) -> list[tuple]:
    """(file, its documents, its other objects) for every file read: each file checked as if given alone."""
    groups: dict = {}
    for d in loaded.docs:
        groups.setdefault(d.file, ([], []))[0].append(d)
    for obj in loaded.extras:
        groups.setdefault(_file(obj), ([], []))[1].append(obj)
    rank = {n: i for i, n in enumerate(names)}
    return [(name, docs, extras) for name, (docs, extras) in
            sorted(groups.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))]
