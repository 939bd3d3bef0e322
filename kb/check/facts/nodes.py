"""Node facts: the node's card (resolved from its product label), whether MIG is on and what `ask mig` answers
for that card, operator release and driver, its MIG layout and its device-plugin configuration.

Whether a card can run MIG here is decided once, by the `mig` question's rules (rules/mig/): each node with
a known card gets the answer's verdict, the rules that fired, their reasons and conditions (`mig_*`), and
the answer's citations travel with the node's findings. The check rules only say what that verdict means
for a node that has MIG switched on — a change of a MIG rule changes `gpukb ask mig` and `gpukb check` alike.
"""

from __future__ import annotations

import re

from kb import versions
from kb.catalog.names import NameError_, NameIndex, name_index, product_name
from kb.check.facts import mig
from kb.check.facts.base import Context, FactSet, boolean
from kb.errors import UnusableInput
from kb.questions.words import MIG_STATUS, word
from kb.text import Text
from kb.versions import from_manifest

#: node fact property → the label it is read from
LABELS = {"product": "nvidia.com/gpu.product", "mig_config": "nvidia.com/mig.config",
          "mig_config_state": "nvidia.com/mig.config.state", "mig_strategy_label": "nvidia.com/mig.strategy",
          "gpu_mode": "nvidia.com/gpu.mode", "mig_capable": "nvidia.com/mig.capable",
          "workload_config": "nvidia.com/gpu.workload.config", "dp_config_label": "nvidia.com/device-plugin.config"}
#: the sharing a node reports (nvidia.com/gpu.sharing-strategy) → the name of the configuration block
_APPLIED = {"mps": "mps", "time-slicing": "timeSlicing", "none": "none"}
#: conditions of the MIG answer that a node's labels show to be met: rule id → (label property, value).
#: MIG-006 asks for the display-mode switch to compute mode; GPU Feature Discovery reports the mode.
MET_BY_NODE = {"MIG-006": ("gpu_mode", "compute")}


#: GPU families (GFD's nvidia.com/gpu.family) whose compute capability is below 7.5 (Turing is 7.5)
_BELOW_7_5 = {"kepler": "Kepler", "maxwell": "Maxwell", "pascal": "Pascal", "volta": "Volta"}


def below_7_5(node) -> str | None:
    """Where the node shows that its GPU has compute capability below 7.5 — GFD's nvidia.com/gpu.compute.major/minor
    labels, else its nvidia.com/gpu.family, else a V100 product — how it shows it ("7.0", "Volta"); else None. The
    MPS control daemon allows 16 clients per GPU there, 48 from 7.5 (device-plugin cmd/mps-control-daemon/mps/
    device.go, isAtLeastVolta compares with 7.5)."""
    major, minor = node.label("nvidia.com/gpu.compute.major"), node.label("nvidia.com/gpu.compute.minor")
    if major is not None and major.strip().isdigit():
        mi = minor.strip() if minor is not None and minor.strip().isdigit() else None
        if int(major) < 7 or (int(major) == 7 and mi is not None and int(mi) < 5):
            return f"{int(major)}.{int(mi)}" if mi is not None else str(int(major))
        return None
    family = (node.label("nvidia.com/gpu.family") or "").strip().lower()
    if family:
        return _BELOW_7_5.get(family)
    if re.search(r"(?<![A-Za-z0-9])V100(?![0-9])", node.label("nvidia.com/gpu.product") or ""):
        return "7.0"
    return None


def _driver(ctx: Context, node) -> str | None:
    """--driver, else the node's own label, else the driver the ClusterPolicy installs."""
    if ctx.env.driver:
        return ctx.env.driver
    full = node.label("nvidia.com/cuda.driver-version.full")
    parts = [node.label(f"nvidia.com/cuda.driver.{p}") for p in ("major", "minor", "rev")]
    legacy = ".".join(p for p in parts if p) if parts[0] else None
    return from_manifest(full) or from_manifest(legacy) or ctx.driver()


class MigAnswers:
    """`ask mig` answers for (card, operator release, driver), asked once each through kb.questions.Asker."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._asker = None
        self._answers: dict = {}

    def _resolved(self, card: str, driver: str | None) -> dict | None:
        from kb.questions import base

        asker = self.asker
        try:
            return {"card": card, "operator": base.operator_version(asker.index, self.ctx.operator()),
                    "driver": base.driver_version(driver) if driver else None}
        except UnusableInput:
            try:
                return {"card": card, "operator": base.operator_version(asker.index, self.ctx.operator()), "driver": None}
            except UnusableInput:
                return None

    @property
    def asker(self):
        if self._asker is None:
            from kb.questions import Asker

            rules = self.ctx.rules if self.ctx.rules and "mig" in self.ctx.rules else None
            self._asker = Asker(self.ctx.data, engine=self.ctx.engine, rules=rules)
        return self._asker

    def prepare(self, pairs: set) -> None:
        """Ask every (card, driver) of the nodes in one batch."""
        inputs = [i for i in (self._resolved(c, d) for c, d in sorted(pairs, key=repr)) if i is not None]
        if inputs:
            for i, answer in zip(inputs, self.asker.answer_many("mig", inputs)):
                self._answers[(i["card"], i["driver"])] = answer

    def get(self, card: str, driver: str | None) -> dict | None:
        i = self._resolved(card, driver)
        return None if i is None else self._answers.get((i["card"], i["driver"]))


def answer_props(answer: dict, node_props: dict) -> tuple[dict, list]:
    """`mig_*` properties of a node from the MIG answer, and the citations of its reasons. A condition the
    node's labels show to be met (MET_BY_NODE) is left out of the open conditions."""
    met = {rule for rule, (prop, value) in MET_BY_NODE.items() if node_props.get(prop) == value}
    reasons = [r for r in answer["reasons"] if r["verdict"] in ("no", "unconfirmed", "conditional")]
    open_conditions = [c for c in answer["conditions"] if c["rule"] not in met]
    shown = [r for r in reasons if r["rule"] not in met]
    cites: list = []
    for r in shown:
        for c in r["citations"]:
            if c not in cites:
                cites.append(c)
    verdict = answer["verdict"]
    if verdict == "conditional" and not open_conditions:
        verdict = "yes"  # every condition is met on this node
    reasons_text = Text.join(" ", [Text.of(r["text"]) for r in shown])
    conditions_text = Text.join(" ", [Text.of(c["text"]) for c in open_conditions])
    op, drv = answer["inputs"]["operator"], answer["inputs"]["driver"]
    given = (Text("GPU Operator {op} and driver {drv}", "dem GPU Operator {op} und Treiber {drv}") if drv
             else Text("GPU Operator {op}", "dem GPU Operator {op}")).format(op=op, drv=drv)
    return {"mig_verdict": verdict, "mig_rules": ",".join(r["rule"] for r in answer["reasons"]),
            "mig_operator": op, "mig_driver": drv or "", "mig_given_en": given.en, "mig_given_de": given.de,
            "mig_reasons_en": reasons_text.en, "mig_reasons_de": reasons_text.de,
            "mig_conditions_en": conditions_text.en, "mig_conditions_de": conditions_text.de}, cites


def card_props(ctx: Context, names: NameIndex, product: str) -> tuple[dict, dict]:
    """The `card_*` properties, and the card's plain data (empty for a product the catalog lacks)."""
    from kb.questions.mig import listed_at, listed_since

    try:
        cid = names.resolve(product_name(product))
    except NameError_:
        return {"card_known": False}, {}
    card = ctx.data["cards"][cid]
    status = card.get("mig", {}).get("status", {}).get("value")
    support = card.get("operator_support", {})
    operator = ctx.operator()
    listed = listed_at(card, operator) if operator else bool(support.get("listed", {}).get("value"))
    since = listed_since(card)
    if not support.get("listed", {}).get("value"):
        words = Text("the GPU Operator's list of supported GPUs has no entry for this card.",
                     "die Liste der vom GPU Operator unterstützten GPUs hat dafür keinen Eintrag.")
    else:
        words = Text("the GPU Operator's list of supported GPUs names this card only from release {since}; this "
                     "cluster runs {op}.", "die Liste der vom GPU Operator unterstützten GPUs nennt diese Karte erst ab "
                     "Release {since}; dieser Cluster läuft mit {op}.").format(since=since, op=operator)
    return {
        "card_known": True, "card": cid, "card_name": card.get("short_name", cid),
        "card_mig_status": status, "card_mig_status_en": word(MIG_STATUS, status, "en"),
        "card_mig_status_de": word(MIG_STATUS, status, "de"),
        "card_mig_profiles": ", ".join(p["name"] for p in card.get("mig", {}).get("profiles", [])),
        "card_listed": listed, "listed_en": words.en, "listed_de": words.de,
        "card_min_driver": (support.get("min_driver") or {}).get("value"),
        "card_listed_since": since, "operator": operator,
    }, card


def _base(profile: str) -> str:
    return re.split(r"[+-]", profile, maxsplit=1)[0]


def cards_by_profiles(data: dict, offered) -> list[str]:
    """The cards whose MIG profiles cover the sizes `offered` (e.g. from `nvidia-smi mig -lgip`), where they all
    list the same profiles (the editions of one GPU); [] where the sizes fit no card or cards that differ."""
    sizes = {_base(p) for p in offered}
    found = [cid for cid, c in data.get("cards", {}).items()
             if sizes and sizes <= {_base(p["name"]) for p in c.get("mig", {}).get("profiles", [])}]
    # several GPUs share a size (1g.24gb: H100 NVL, GH200, RTX PRO 6000): the variants offered (+gfx, +me.all)
    # tell them apart — the cards listing most of the offered names exactly
    score = {c: len(set(offered) & {p["name"] for p in data["cards"][c]["mig"]["profiles"]}) for c in found}
    best = [c for c in found if score[c] == max(score.values(), default=0)]
    lists = {tuple(sorted(p["name"] for p in data["cards"][c]["mig"]["profiles"])) for c in best}
    return sorted(best) if len(lists) == 1 else []


def smi_props(report, card: dict) -> dict:
    """What only nvidia-smi shows: GPUs whose MIG mode changes at the next reset, profiles the hardware offers
    that our data does not list for the card."""
    pending = [g for g in report.gpus.values() if g.mig_pending and g.mig_current and g.mig_pending != g.mig_current]
    out = {"source": "nvidia-smi"}
    if pending:
        out["mig_pending"] = ", ".join(f"GPU {g.index}: {g.mig_current} → {g.mig_pending}" for g in pending)
    known = {p["name"] for p in card.get("mig", {}).get("profiles", [])}
    if card and report.profiles:
        missing = [p for p in report.profiles if p not in known]
        out["profiles_offered"] = ", ".join(report.profiles)
        out["profiles_unknown"] = ", ".join(missing)
    return out


def _count(value) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        return 0


def mixes_mig_and_full(node, layout: dict) -> bool:
    """Does the node have MIG instances and whole GPUs at once? Its layout keeps a GPU out of MIG, or it
    advertises both nvidia.com/gpu and nvidia.com/mig-* resources."""
    if layout.get("layout_gpus_out"):
        return True
    whole = _count(node.resources.get("nvidia.com/gpu", 0)) > 0
    return whole and any(k.startswith("nvidia.com/mig-") and _count(v) > 0 for k, v in node.resources.items())


def issues(ctx: Context, out: FactSet, node, props: dict, at: dict) -> None:
    """Known issues of the node's driver that strike nodes mixing MIG instances and whole GPUs (catalog
    `known_issues`, kb.questions.known_issues): one `known_issue` fact per issue, with the node named."""
    from kb.questions import known_issues

    for f in known_issues.facts(ctx.data, operator=ctx.operator(), driver=props["driver"], card=props.get("card"),
                                trigger="node-mixes-mig-and-full-gpus"):
        out.add(f["kind"], at.get("product") or node.where, obj=f"node:{node.name}", ident=("node",),
                node=node.name, **{k: v for k, v in f.items() if k != "kind"})


#: a node's status.nodeInfo.osImage on RHEL 8 ("Red Hat Enterprise Linux 8.10 (Ootpa)"; CoreOS is not RHEL)
_RHEL8 = re.compile(r"Red Hat Enterprise Linux 8(?:\.\d+)*(?:\s|$)")


def rhel8_issues(ctx: Context, out: FactSet, node, props: dict) -> None:
    """Known issues that strike a RHEL 8 node with a pre-installed driver on which MIG is used (trigger
    rhel8-preinstalled-driver): the OS from status.nodeInfo.osImage, the driver pre-installed where the ClusterPolicy
    sets driver.enabled false, MIG in use where the node has MIG on or a MIG layout label; the MIG Manager version
    the ClusterPolicy names (migManager.version), else the one the --operator release ships. One `known_issue` fact
    per issue, with the node named."""
    from kb.questions import known_issues

    if node.os_image is None or not _RHEL8.match(node.os_image.value) or ctx.policy is None:
        return
    if boolean(ctx.setting("driver.enabled")) is not False or not (props["mig_on"] or props.get("mig_config")):
        return
    written = from_manifest(ctx.setting("migManager.version"))
    by_id = {issue["id"]: issue for _file, issue in known_issues.all_issues(ctx.data)}
    for f in known_issues.facts(ctx.data, operator=ctx.operator(), trigger="rhel8-preinstalled-driver"):
        f = dict(f)
        if written and f["component"] == "mig-manager":  # the version the policy pins wins over the release's
            hit = known_issues.affected(written, by_id[f["issue"]]["affects"])
            f.update(version=written, status="affected" if hit else "unaffected")
        out.add(f.pop("kind"), node.os_image.where, obj=f"node:{node.name}", ident=("node",), node=node.name,
                os_image=node.os_image.value, **f)


def facts(ctx: Context, out: FactSet, layouts: dict) -> dict:
    """One fact per node; returns how many nodes select each device-plugin configuration (label → count)."""
    names = name_index(ctx.data.get("cards", {}))
    uses: dict = {}
    configmap = ctx.dp_configmap()
    keys = ctx.dp_keys()
    default = ctx.dp_default()
    rows = []
    for node in ctx.inv.nodes:
        props: dict = {"name": node.name, **{k: node.label(label) for k, label in LABELS.items()}}
        props["gpu_mode"] = props["gpu_mode"] or "unknown"
        card: dict = {}
        if props["product"]:
            extra, card = card_props(ctx, names, props["product"])
            props.update(extra)
        props["driver"] = _driver(ctx, node)
        if props.get("card_min_driver") and props["driver"]:
            props["driver_vs_min"] = versions.compare(props["driver"], props["card_min_driver"])
        rows.append((node, props, card))
    answers = MigAnswers(ctx)
    answers.prepare({(p["card"], p["driver"]) for _, p, _ in rows if p.get("card")})
    index = mig.by_name(layouts)
    for node, props, card in rows:
        cites: list = []
        # MIG layout, its profiles on this card, and whether MIG is on at all
        layout = mig.node_layout(node, index)
        props.update(layout)
        props.update(mig.named_config_lacks(ctx, node))
        profiles = [p["name"] for p in card.get("mig", {}).get("profiles", [])]
        if profiles and layout.get("layout_profiles"):
            missing = [p for p in layout["layout_profiles"].split(", ") if p not in profiles]
            props["layout_profile_missing"] = missing[0] if missing else ""
        mig_on = layout.get("layout_mig_on")
        if mig_on is None and ("-MIG-" in (props["product"] or "") or any(r.startswith("nvidia.com/mig-") for r in node.resources)):
            mig_on = True
        props["mig_on"] = bool(mig_on)
        if props.get("card"):
            answer = answers.get(props["card"], props["driver"])
            if answer is not None:
                extra, cites = answer_props(answer, props)
                props.update(extra)
        props["strategy"] = props["mig_strategy_label"] or ctx.mig_strategy()
        if ctx.policy is not None:
            props["mig_manager_enabled"] = boolean(ctx.setting("migManager.enabled"))
            props["sandbox_enabled"] = boolean(ctx.policy_value("sandboxWorkloads.enabled"))
        # the device-plugin configuration the node selects, and the sharing it brings
        selected = props["dp_config_label"] or default
        props["dp_config"] = selected or ""
        props["dp_config_source"] = "label" if props["dp_config_label"] else ("default" if default else "")
        if props["dp_config_label"] and keys is not None:
            props.update(dp_config_in_configmap=props["dp_config_label"] in keys, dp_configmap=configmap)
        cfg = ctx.dp_config_for(selected) if selected else None
        deps = ()
        if cfg is not None and cfg.error is None:
            uses[cfg.label] = uses.get(cfg.label, 0) + 1
            low = below_7_5(node)
            if low:  # MPS allows 16 clients per GPU on this node (kb.check.facts.deviceplugin, CHK-006)
                ctx.mps_small.setdefault(cfg.label, []).append((node.name, low))
            props["sharing"] = next((k for k in ("mps", "timeSlicing") if k in cfg.sharing), "none")
            deps = (f"dp:{cfg.label}",)
        elif cfg is not None:
            deps = (f"dp:{cfg.label}",)
            props["sharing"] = _APPLIED.get(node.label("nvidia.com/gpu.sharing-strategy") or "")
        else:
            props["sharing"] = _APPLIED.get(node.label("nvidia.com/gpu.sharing-strategy") or "")
        at = {prop: node.labels[label].where for prop, label in LABELS.items() if label in node.labels}
        props["mixes_mig_and_full"] = mixes_mig_and_full(node, layout)
        report = getattr(node, "report", None)
        if report is not None:
            if not card and report.profiles:  # only `mig -lgip`: the cards whose profiles these are
                family = cards_by_profiles(ctx.data, report.profiles)
                if family:
                    card = ctx.data["cards"][family[0]]
                    props.update(card=family[0], card_name=" / ".join(ctx.data["cards"][c].get("short_name", c)
                                                                     for c in family))
            props.update(smi_props(report, card))
        out.add("node", node.where, at, obj=f"node:{node.name}", deps=deps, ident=("name",),
                extra={"citations": cites} if cites else None, **props)
        if props["mixes_mig_and_full"] and props["driver"]:
            issues(ctx, out, node, props, at)
        rhel8_issues(ctx, out, node, props)
    return uses
