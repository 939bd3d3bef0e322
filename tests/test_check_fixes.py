"""Every error and warning says how to fix it in the customer's terms: their namespace and object names in kubectl
commands, the corrected YAML where a value is wrong, the values to set where Helm manages the ClusterPolicy."""

from __future__ import annotations

import io

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.run import check
from conftest import FIXTURES, REPO, need_corpus
from kb.catalog import yamlsafe  # libyaml: PyYAML's values, ~10× faster

RULES = REPO / "tests" / "rules" / "check"


def run(*names, stdin=None, lang="en"):
    return check([str(n) for n in names], load_data(), Environment(), lang=lang,
                 stdin=io.BytesIO(stdin.encode()) if stdin else None)


def fix_of(report, rule):
    (f,) = [f for f in report.findings if f["rule"] == rule]
    return f.get("fix")


def test_a_misplaced_key_gets_the_corrected_configuration_in_the_customers_namespace():
    fix = fix_of(run(RULES / "CHK-013/fires.yaml"), "CHK-013")
    assert fix.splitlines()[0] == ("Corrected configuration (key any of ConfigMap time-slicing-config; "
                                   "kubectl edit configmap time-slicing-config -n gpu-operator):")
    assert "  timeSlicing:\n" in fix and "    renameByDefault: true" in fix and "flags:\n  migStrategy: none" in fix


def test_the_clusterpolicy_is_patched_by_its_own_name():
    """The ClusterPolicy of the fixture is called gpu-policy (not cluster-policy); the only key is the default."""
    fix = fix_of(run(RULES / "CHK-026/fires.yaml"), "CHK-026")
    assert fix == ("kubectl patch clusterpolicies.nvidia.com/gpu-policy --type merge -p "
                   "'{\"spec\":{\"devicePlugin\":{\"config\":{\"name\":\"sharing-configs\",\"default\":\"shared-3\"}}}}'")


def test_helm_managed_settings_are_fixed_in_the_values_of_what_carries_them():
    release = ("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: gpu-operator\n  namespace: infra\n"
               "spec:\n  chart:\n    spec:\n      chart: gpu-operator\n  values:\n    mig:\n      strategy: single\n"
               "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: h200-1\n  labels:\n"
               "    nvidia.com/gpu.product: NVIDIA-H200-NVL\n    nvidia.com/mig.config: all-balanced\n")
    report = run("-", stdin=release, lang="de")
    assert fix_of(report, "CHK-030") == ("In den Helm-Werten des GPU Operators (HelmRelease infra/gpu-operator):\n"
                                         "mig:\n  strategy: mixed")


def test_a_node_label_names_a_key_of_the_configmap():
    assert fix_of(run(RULES / "CHK-022/fires.yaml"), "CHK-022") == (
        "kubectl label node l4-node nvidia.com/device-plugin.config=tesla-t4 --overwrite")


def test_informational_notes_have_no_fix():
    report = run(need_corpus() / "cnd-time-slicing-config-all.yaml")
    assert report.findings and all("fix" not in f for f in report.findings)


def test_a_request_nobody_advertises_gets_an_advertised_name():
    fix = fix_of(run(RULES / "CHK-070/fires.yaml"), "CHK-070")
    assert fix.startswith("In container jupyter of Deployment/notebook, request a resource the cluster advertises")
    assert fix.endswith("resources:\n  limits:\n    nvidia.com/gpu.shared: 1")


def test_nvidias_documented_time_slicing_pair_is_no_warning():
    """time-slicing-config-all writes flags.migStrategy none; the operator's values say mig.strategy single. On GPUs
    without MIG both expose whole GPUs: no CHK-017 (only single/mixed written in a configuration are)."""
    corpus = need_corpus()
    policy = ("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: cluster-policy\nspec:\n  mig:\n"
              "    strategy: single\n  devicePlugin:\n    config:\n      name: time-slicing-config-all\n"
              "      default: any\n---\n")
    text = policy + (corpus / "cnd-time-slicing-config-all.yaml").read_text(encoding="utf-8")
    report = run("-", stdin=text)
    assert not [f for f in report.findings if f["severity"] != "info"]


def test_one_corrected_configuration_corrects_every_problem_and_is_shown_once():
    """A misspelt value (the allowed one meant is taken) and a misspelt key (renamed where it stands): both
    findings carry the same corrected configuration; the text report prints it once."""
    from kb.check.render import render

    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ts\n  namespace: ml-infra\ndata:\n  any: |-\n"
            "    version: v1\n    flags:\n      migStrategy: Nonee\n    sharing:\n      timeSlicing:\n"
            "        renameByDefualt: true\n        resources:\n        - name: nvidia.com/gpu\n          replicas: 4\n")
    report = run("-", stdin=text)
    corrected = ("Corrected configuration (key any of ConfigMap ts; kubectl edit configmap ts -n ml-infra):\n"
                 "version: v1\nflags:\n  migStrategy: none\nsharing:\n  timeSlicing:\n    renameByDefault: true\n"
                 "    resources:\n    - name: nvidia.com/gpu\n      replicas: 4")
    assert fix_of(report, "CHK-014") == fix_of(report, "CHK-013") == corrected
    assert "the key meant is probably `renameByDefault`." in next(
        f["message"] for f in report.findings if f["rule"] == "CHK-013")
    shown = render(report.as_json())
    assert shown.count("migStrategy: none") == 1 and "    Fix: as for CHK-014 above (line 10)." in shown


def test_a_resource_the_sharing_method_cannot_share_gets_a_corrected_configuration():
    """MIG instances are shared by time-slicing: the MPS block of MIG resources becomes one, and the strategy error
    the same configuration raises (MPS with mixed) is folded into it, not a second, contradicting fix; a resource MPS
    or time-slicing cannot share is renamed nvidia.com/gpu."""
    mig = run(RULES / "CHK-001/fires.yaml")
    assert [f["rule"] for f in mig.findings if f["severity"] != "info"] == ["CHK-001"]
    assert [g["rule"] for g in mig.findings[0]["folded"]] == ["CHK-016"]
    assert fix_of(mig, "CHK-001").endswith("sharing:\n  timeSlicing:\n    resources:\n    - name: nvidia.com/mig-1g.18gb\n"
                                           "      replicas: 4")
    for rule in ("CHK-002", "CHK-010"):
        fixed = fix_of(run(RULES / f"{rule}/fires.yaml"), rule)
        assert "  - name: nvidia.com/gpu\n" in fixed and ".shared" not in fixed and "gpu.memory" not in fixed, rule


# --- every error and warning has its fix, pinned on the rule's fires fixture ---------------------------------------

GOLDEN = FIXTURES / "check" / "fixes.yaml"


def _fires_fixes() -> dict:
    """'<rule>/<fixture>' → {en, de}: the fix of each error or warning finding of the rule on its fires fixtures."""
    from test_check_rules import options

    out: dict = {}
    data = load_data()
    for path in sorted(RULES.glob("CHK-*/fires*.yaml")):
        rule = path.parent.name
        reports = {lang: check([str(path)], data, options(path), lang=lang) for lang in ("en", "de")}
        for n, (en, de) in enumerate(zip(*([f for f in reports[lang].findings if f["rule"] == rule]
                                           for lang in ("en", "de")))):
            if en["severity"] != "info":
                out[f"{rule}/{path.name}" + (f"#{n + 1}" if n else "")] = {"en": en.get("fix"), "de": de.get("fix")}
    return out


def test_mps_fail_requests_ignored_names_the_operator_release_only_where_one_ships_the_plugin():
    """CHK-064's fix: the GPU Operator release that ships the device plugin honouring the setting (from the fact,
    kb.questions.behaviour.first_operator_shipping); where none does, the plugin version alone."""
    from kb.check.fixblocks import fix_mps_fail_honoured
    from kb.check.fixes import Context
    from kb.questions.behaviour import first_operator_shipping

    data = load_data()
    assert first_operator_shipping(data, "device-plugin", "0.20.0") == "26.7.0"
    assert first_operator_shipping(data, "device-plugin", "0.19.0") == "26.3.0"
    assert first_operator_shipping(data, "device-plugin", "9.0.0") is None
    ctx = Context(operator_namespace="gpu")
    fixed = fix_mps_fail_honoured(ctx, {"honoured_since": "0.20.0", "honoured_operator": "26.7.0"})
    assert "helm upgrade gpu-operator nvidia/gpu-operator -n gpu --version v26.7.0 --reuse-values" in fixed.en
    unshipped = fix_mps_fail_honoured(ctx, {"honoured_since": "9.0.0"})
    assert unshipped.en == ("No YAML fixes this: request one shared GPU per container (a limit of 1), or use device "
                            "plugin v9.0.0 or later.")
    assert "helm" not in unshipped.de and "Device-Plugin v9.0.0 oder neuer" in unshipped.de


def test_every_error_and_warning_says_how_to_fix_it_exactly_as_pinned():
    """The fix of every error and warning on its rule's fires fixture, in English and German, as pinned in
    tests/fixtures/check/fixes.yaml (GPUKB_UPDATE_GOLDEN=1 rewrites it: review the diff)."""
    import os

    import yaml

    found = _fires_fixes()
    missing = sorted(k for k, v in found.items() if not v["en"] or not v["de"])
    assert missing == [], f"errors/warnings without a fix: {missing}"
    if os.environ.get("GPUKB_UPDATE_GOLDEN") == "1":
        from kb.check.fixes import _Dumper

        GOLDEN.write_text("# The fix of every error and warning on its rule's fires fixture (tests/test_check_fixes.py).\n"
                          + yaml.dump(found, Dumper=_Dumper, sort_keys=True, allow_unicode=True, width=100),
                          encoding="utf-8")
    pinned = yamlsafe.safe_load(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(found) == sorted(pinned)
    for key in found:
        assert found[key] == pinned[key], key


def test_the_fix_is_in_the_text_and_in_the_json_output():
    import json

    from click.testing import CliRunner

    from kb.cli.main import cli

    path = str(RULES / "CHK-003/fires.yaml")
    text = CliRunner().invoke(cli, ["check", path, "--lang", "de"]).output
    assert ("    Behebung:\n      Korrigierte Konfiguration (Schlüssel mps der ConfigMap sharing-config; kubectl edit "
            "configmap sharing-config -n gpu-operator):\n      version: v1\n      sharing:\n        timeSlicing:\n") in text
    out = json.loads(CliRunner().invoke(cli, ["check", path, "--json"]).output)
    (f,) = [f for f in out["findings"] if f["rule"] == "CHK-003"]
    assert f["fix"].endswith("Or keep MPS and turn MIG off on the node: kubectl label node gpu-node-1 "
                             "nvidia.com/mig.config=all-disabled --overwrite")


def test_one_replica_is_fixed_by_leaving_that_resource_out_of_sharing():
    """k8s-device-plugin#1022: replicas 1 written for "not shared". The fix leaves that resource out and keeps the
    others (a MIG resource still time-sliced); a count of 0 or "x" still gets 2, the plugin's least."""
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ts\n  namespace: gpu-operator\ndata:\n  a100: |-\n"
            "    version: v1\n    flags:\n      migStrategy: mixed\n    sharing:\n      timeSlicing:\n        resources:\n"
            "        - name: nvidia.com/gpu\n          replicas: \"1\"\n        - name: nvidia.com/mig-1g.10gb\n"
            "          replicas: 4\n")
    fix = fix_of(run("-", stdin=text), "CHK-005")
    assert fix.splitlines()[0].startswith("One replica means not shared") and fix.splitlines()[-1] == (
        "To share the GPU instead: replicas: 2 or more.")
    assert "\n".join(fix.splitlines()[2:-1]) == ("version: v1\nflags:\n  migStrategy: mixed\nsharing:\n  timeSlicing:\n"
                                                 "    resources:\n    - name: nvidia.com/mig-1g.10gb\n      replicas: 4")
    zero = fix_of(run("-", stdin=text.replace('replicas: "1"', "replicas: 0")), "CHK-005")
    assert "One replica" not in zero and "    - name: nvidia.com/gpu\n      replicas: 2" in zero
