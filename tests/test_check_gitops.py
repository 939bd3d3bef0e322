"""Helm values where GitOps keeps them (Flux HelmRelease, Argo CD Application, k3s HelmChart, umbrella charts),
Flux substitutions, Kustomize builds, the standalone device-plugin chart and a bare labels map."""

from __future__ import annotations

import io
import json

import pytest

from kb.catalog.compiled import load_data
from kb.check.facts import Environment
from kb.check.run import NothingReadable, check
from conftest import FIXTURES, need_corpus, upstream
from kb.catalog import yamlsafe  # libyaml: PyYAML's values, ~10× faster

GITOPS = FIXTURES / "check" / "gitops"


def run(*names, stdin: str | None = None, **kw):
    return check([str(n) for n in names], load_data(), Environment(),
                 stdin=io.BytesIO(stdin.encode()) if stdin is not None else None, **kw)


def rules(report) -> list[str]:
    return [f["rule"] for f in report.findings]


def _flux_time_slicing(report, *, release: str, namespace: str, configmap: str, key: str, replicas: int,
                       substituted: set, ignored: list[str]) -> None:
    """What a Flux HelmRelease patched by a Kustomize component (devicePlugin.config), a time-slicing ConfigMap
    with `${var:=default}` replicas and a ClusterPolicy patch without its target give."""
    policies = report.inventory.policies
    values = next(p for p in policies if p.origin == "Helm values")
    assert (values.value("devicePlugin.config.name"), values.value("devicePlugin.config.default")) == (configmap, key)
    assert values.source.en == f"HelmRelease flux-system/{release}"
    assert report.inventory.operator_namespace == namespace  # ${…:=namespace} in targetNamespace
    (cfg,) = report.inventory.dp_configs
    assert cfg.sharing["timeSlicing"].items[0].replicas.value == replicas  # the default, as a number
    assert rules(report) == ["CHK-063", "CHK-060"]
    assert {(s["variable"], s["value"], s["default"]) for s in report.summary["substituted"]} == substituted
    # the ClusterPolicy patch targets a ClusterPolicy the input does not hold (the chart creates it): partial
    partial = next(p for p in policies if p.partial)
    assert partial.value("devicePlugin.config.name") == configmap
    assert any("read as a partial ClusterPolicy" in n["message"] for n in report.summary["kustomize"])
    assert [i["kind"] for i in report.summary["ignored"]] == ignored


def test_flux_helmrelease_kustomize_patches_and_substitutions(tmp_path):
    """jesse-gonzalez/nai-llm-fleet-infra@c183e6d platform/gpu-operator, read from the mirror: a HelmRelease of the
    gpu-operator chart, a Kustomize component patching its values (devicePlugin.config) and adding the time-slicing
    ConfigMap, Flux ${var:=default} substitutions in the namespace and in `replicas`."""
    tree = upstream("jesse-gonzalez/nai-llm-fleet-infra", "c183e6d036b32151a9d3bad2a9325d556a822319",
                    "platform/gpu-operator", tmp_path)
    _flux_time_slicing(run(tree), release="gpu-operator", namespace="gpu-operator", configmap="time-slicing-config",
                       key="any", replicas=4, substituted={
                           ("namespace_name", "gpu-operator", True), ("gpu_cuda_toolkit_version", "v1.14.3-centos7", True),
                           ("gpu_time_slicing_replica_count", "4", True)},
                       ignored=["Namespace", "HelmRepository", "ConfigMap"])


def test_flux_helmrelease_look_alike():
    """The same shape, written for this test (tests/fixtures/check/gitops/flux-time-slicing): it keeps the reading
    covered where the mirror is absent."""
    _flux_time_slicing(run(GITOPS / "flux-time-slicing"), release="nvidia", namespace="gpu-system",
                       configmap="sharing", key="default", replicas=3, substituted={
                           ("gpu_namespace", "gpu-system", True), ("ts_replicas", "3", True)},
                       ignored=["Namespace", "HelmRepository"])


def test_a_flux_variable_takes_precedence_over_the_default(tmp_path):
    (tmp_path / "flux.yaml").write_text(
        "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: gpu\nspec:\n"
        "  postBuild:\n    substitute:\n      replicas: \"8\"\n", encoding="utf-8")
    (tmp_path / "cm.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ts\ndata:\n  any: |-\n    version: v1\n    sharing:\n"
        "      timeSlicing:\n        resources:\n        - name: nvidia.com/gpu\n          replicas: ${replicas:=4}\n"
        "  other: |-\n    version: v1\n    sharing:\n      timeSlicing:\n        resources:\n"
        "        - name: nvidia.com/gpu\n          replicas: ${unknown}\n", encoding="utf-8")
    report = run(tmp_path)
    replicas = {c.key: c.sharing["timeSlicing"].items[0].replicas.value for c in report.inventory.dp_configs}
    assert replicas == {"any": 8, "other": "${unknown}"}
    assert "CHK-005" not in rules(report)  # an open substitution is unknown, not a wrong type


def _overlays(report, *, configmap: str, unnamed_in: list[str], namespace: str, policy: str) -> None:
    """A base whose ClusterPolicy names no device-plugin ConfigMap beside one that holds configurations, and
    overlays of which one names it: the ConfigMap is named by nobody in the other builds only."""
    (unused,) = [f for f in report.findings if f["rule"] == "CHK-026"]
    assert unused["builds"] == unnamed_in
    assert unused["message"].startswith(f"ConfigMap {configmap} holds device-plugin configurations, but neither")
    assert f"kubectl patch clusterpolicies.nvidia.com/{policy} --type merge" in unused["fix"]
    assert f"kubectl rollout restart -n {namespace} " in next(
        f["message"] for f in report.findings if f["rule"] == "CHK-063")


def test_kustomize_overlays_are_separate_builds(tmp_path):
    """redhat-na-ssa/demo-ai-gitops-catalog@6545b581 components/operators/gpu-operator-certified/instance, read from
    the mirror: a base with a ClusterPolicy that names no device-plugin ConfigMap and a time-slicing ConfigMap;
    overlays time-sliced-2 and time-sliced-4 patch the policy to name it, default and the MIG overlays do not."""
    tree = upstream("redhat-na-ssa/demo-ai-gitops-catalog", "6545b581e3dd20115529e71222d7c861e5ba6dba",
                    "components/operators/gpu-operator-certified/instance", tmp_path)
    report = run(tree)
    _overlays(report, configmap="device-plugin-config", namespace="nvidia-gpu-operator", policy="gpu-cluster-policy",
              unnamed_in=["instance/overlays/default", "instance/overlays/mig-mixed", "instance/overlays/mig-single"])
    assert report.summary["not_read"] == [] and report.summary["errors"] == 0


def test_kustomize_overlays_look_alike():
    """The same shape, written for this test (tests/fixtures/check/gitops/overlays)."""
    _overlays(run(GITOPS / "overlays"), configmap="sharing-configs", namespace="openshift-gpu", policy="gpu-policy",
              unnamed_in=["overlays/overlays/mig-single", "overlays/overlays/plain"])


def test_argo_cd_application_values_and_parameters():
    """The shape of an Argo CD Application for the gpu-operator chart (helm.values text, helm.parameters on top)."""
    app = ("apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: nvidia-gpu-operator\n"
           "  namespace: argocd\nspec:\n  source:\n    repoURL: https://helm.ngc.nvidia.com/nvidia\n"
           "    chart: gpu-operator\n    targetRevision: v25.3.1\n    helm:\n      values: |\n"
           "        driver:\n          enabled: false\n        mig:\n          strategy: mixed\n"
           "      parameters:\n      - name: devicePlugin.config.name\n        value: time-slicing-config\n"
           "  destination:\n    server: https://kubernetes.default.svc\n    namespace: gpu-ops\n")
    report = run("-", stdin=app)
    (policy,) = report.inventory.policies
    assert (policy.value("mig.strategy"), policy.value("devicePlugin.config.name")) == ("mixed", "time-slicing-config")
    assert policy.where("mig.strategy")["line"] == 16  # inside the values text of the Application
    assert report.inventory.operator_namespace == "gpu-ops"
    (f,) = [f for f in report.findings if f["rule"] == "CHK-023"]
    assert "kubectl get cm time-slicing-config -n gpu-ops -o yaml" in f["message"]


def test_k3s_helmchart_and_umbrella_values():
    helmchart = ("apiVersion: helm.cattle.io/v1\nkind: HelmChart\nmetadata:\n  name: gpu-operator\n  namespace: kube-system\n"
                 "spec:\n  chart: gpu-operator\n  repo: https://helm.ngc.nvidia.com/nvidia\n  targetNamespace: gpu-operator\n"
                 "  valuesContent: |-\n    mig:\n      strategy: single\n    migManager:\n      enabled: false\n")
    (policy,) = run("-", stdin=helmchart).inventory.policies
    assert (policy.value("mig.strategy"), policy.value("migManager.enabled")) == ("single", False)
    umbrella = "gpu-operator:\n  mig:\n    strategy: mixed\nother-chart:\n  replicas: 3\n"
    (policy,) = run("-", stdin=umbrella).inventory.policies
    assert policy.value("mig.strategy") == "mixed" and policy.where("mig.strategy")["path"] == "gpu-operator → mig.strategy"


def test_a_helmrelease_of_another_chart_is_named_not_misread():
    other = ("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: intel-gpu\nspec:\n"
             "  chart:\n    spec:\n      chart: intel-device-plugins-gpu\n  values:\n    driver:\n      enabled: true\n")
    report = run("-", stdin=other)
    assert report.inventory.policies == []
    assert [(i["kind"], i["reason"]) for i in report.summary["ignored"]] == [
        ("HelmRelease", "installs a chart other than NVIDIA's GPU Operator or device plugin")]


def test_standalone_device_plugin_chart_values_are_not_operator_values():
    """A Flux HelmRelease of the nvidia-device-plugin chart with config.map (two configurations, no default)."""
    release = ("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: nvidia\n  namespace: nvidia\n"
               "spec:\n  chart:\n    spec:\n      chart: nvidia-device-plugin\n      version: 0.17.1\n  values:\n"
               "    runtimeClassName: nvidia\n    config:\n      map:\n        ts: |-\n          version: v1\n"
               "          sharing:\n            timeSlicing:\n              resources:\n              - name: gpu\n"
               "                replicas: 2\n        plain: |-\n          version: v1\n")
    report = run("-", stdin=release)
    assert report.inventory.policies == []
    (chart,) = report.inventory.charts
    assert (chart.configmap, chart.keys, chart.default) == ("nvidia-nvidia-device-plugin-configs", ["ts", "plain"], "")
    (f,) = [f for f in report.findings if f["rule"] == "CHK-018"]
    assert "config.map holds 2 configurations (ts, plain) but no default" in f["message"]
    # `name: gpu` is nvidia.com/gpu for the plugin (NewResourceName adds the domain): no CHK-010
    assert "CHK-010" not in rules(report)
    # the chart is refused as a whole: what its configurations would do follows from that
    (refused,) = [f for f in report.findings if f["rule"] == "CHK-018"]
    assert [g["rule"] for g in refused["folded"]] == ["CHK-060"]
    assert report.summary["checked"] == {"device-plugin config": 2, "device-plugin chart": 1}


def test_a_bare_labels_map_is_read_as_a_node():
    """`kubectl get node … -o jsonpath='{.metadata.labels}'` of the node in
    ../shared/corpus/manifests/runai-node-mig-7g-40gb.yaml, with a MIG layout label an L4 cannot serve."""
    node = yamlsafe.safe_load((need_corpus() / "runai-node-mig-7g-40gb.yaml").read_text(encoding="utf-8"))
    labels = dict(node["metadata"]["labels"], **{"nvidia.com/gpu.product": "NVIDIA-L4",
                                                  "nvidia.com/mig.config": "all-1g.6gb"})
    report = run("-", stdin=json.dumps(labels))
    (n,) = report.inventory.nodes
    assert n.name == "qa-mig-worker-gpu-a100"
    assert rules(report)[0] == "CHK-033"


def test_a_json6902_patch_without_its_target_is_a_partial_object(tmp_path):
    (tmp_path / "kustomization.yaml").write_text(
        "resources: []\npatches:\n- target:\n    kind: ClusterPolicy\n    name: cluster-policy\n  patch: |-\n"
        "    - op: replace\n      path: /spec/mig/strategy\n      value: none\n", encoding="utf-8")
    report = run(tmp_path)
    (policy,) = report.inventory.policies
    assert policy.partial and policy.value("mig.strategy") == "none"
    assert rules(report) == ["CHK-024"]  # the operator takes single or mixed


def test_a_patch_file_that_does_not_exist_is_named(tmp_path):
    (tmp_path / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- policy.yaml\n"
        "patches:\n- path: missing-patch.yaml\n", encoding="utf-8")
    (tmp_path / "policy.yaml").write_text("apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: cp\n"
                                          "spec:\n  mig:\n    strategy: single\n", encoding="utf-8")
    report = run(tmp_path)
    (p,) = report.summary["not_read"]
    assert (p["line"], p["path"]) == (6, "patches[0].path")
    assert p["message"].endswith("missing-patch.yaml, which does not exist: `kustomize build` fails here")
    assert report.has_errors


def _placeholder_and_chart_by_name(report) -> None:
    assert report.inventory.policies == [] and len(report.inventory.charts) == 1
    (ignored,) = report.summary["ignored"]
    assert (ignored["kind"], ignored["reason"]) == ("Application", "installs NVIDIA's chart, but its values are not in "
                                                    "the object (a placeholder filled in elsewhere, or a values file it "
                                                    "names): check those values")
    assert report.summary["checked"] == {"device-plugin chart": 1}


def test_values_of_either_chart_named_by_the_file_and_placeholders_named(tmp_path):
    """awslabs/data-on-eks@a546a190 infra/terraform, read from the mirror: an Argo CD Application whose values
    Terraform fills in (`valuesObject: ${user_values_yaml}`), and the device-plugin chart's values with only gfd and
    nfd (keys the operator's chart has too): the file's name says which chart."""
    commit = "a546a1905d017a93a11fb44d17d08d286f7bfb44"
    app = upstream("awslabs/data-on-eks", commit, "infra/terraform/argocd-applications/nvidia-gpu-operator.yaml", tmp_path)
    values = upstream("awslabs/data-on-eks", commit, "infra/terraform/helm-values/nvidia-device-plugin.yaml", tmp_path)
    _placeholder_and_chart_by_name(run(app, values))


def test_values_of_either_chart_look_alike(tmp_path):
    """The same two shapes, written for this test."""
    (tmp_path / "gpu-operator-app.yaml").write_text(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: gpu\n  namespace: argocd\nspec:\n"
        "  source:\n    repoURL: https://helm.ngc.nvidia.com/nvidia\n    chart: gpu-operator\n    targetRevision: v25.10.0\n"
        "    helm:\n      valuesObject:\n        ${gpu_values}\n  destination:\n    namespace: gpu-operator\n",
        encoding="utf-8")
    (tmp_path / "nvidia-device-plugin-values.yaml").write_text(
        "gfd:\n  enabled: true\nnfd:\n  enableNodeFeatureApi: true\n", encoding="utf-8")
    _placeholder_and_chart_by_name(run(tmp_path / "gpu-operator-app.yaml", tmp_path / "nvidia-device-plugin-values.yaml"))


def test_mps_with_a_mig_resource_is_an_error_in_any_kind_of_document():
    """The same MPS configuration sharing nvidia.com/mig-1g.10gb, as a HelmRelease's values (the chart creates the
    ConfigMap) and as the standalone chart's config.map: CHK-001 both times."""
    config = ("version: v1\nsharing:\n  mps:\n    resources:\n    - name: nvidia.com/mig-1g.10gb\n      replicas: 4\n")
    indented = "".join("            " + line + "\n" for line in config.splitlines())
    release = ("apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: gpu-operator\nspec:\n"
               "  chart:\n    spec:\n      chart: gpu-operator\n  values:\n    devicePlugin:\n      config:\n"
               "        create: true\n        name: mps-config\n        default: mps\n        data:\n          mps: |-\n"
               + indented)
    chart = ("config:\n  map:\n    default: |-\n" + "".join("      " + line + "\n" for line in config.splitlines()))
    for text in (release, chart):
        report = run("-", stdin=text)
        assert "CHK-001" in rules(report), text


def test_kubectl_commands_of_a_setup_script_are_read(tmp_path):
    """lcpu-club/hpcgame-ops-2nd@3f8196e 5_accelerators/0_gpu, read from the mirror: the time-slicing ConfigMap and
    the script that names it in the ClusterPolicy (a merge patch without a default) and labels nodes;
    commented-out commands are skipped, a node labelled twice keeps both labels."""
    commit = "3f8196e42bc39fd768c1995dd1f8d120ffb07898"
    files = [upstream("lcpu-club/hpcgame-ops-2nd", commit, f"5_accelerators/0_gpu/{name}", tmp_path)
             for name in ("apply-time-slicing-config.sh", "gpu-time-slicing-config.yaml")]
    report = run(*files)
    (patch,) = report.inventory.policies
    assert (patch.partial, patch.value("devicePlugin.config.name")) == (True, "gpu-time-slicing-config")
    labels = {n.name: n.label("nvidia.com/device-plugin.config") for n in report.inventory.nodes}
    assert labels == {"sc2": "v100-16gb-shared", "sc4": "v100-32gb-shared", "l12gpu23": "a100-80gb-shared",
                      "l12gpu25": None, "l12gpu26": None, "l12gpu11": "l40-shared"}
    (f,) = [f for f in report.findings if f["severity"] != "info"]
    assert (f["rule"], f["where"]["line"]) == ("CHK-020", 2)
    assert f["fix"].endswith("(keys of gpu-time-slicing-config: v100-32gb-shared, v100-16gb-shared, a100-80gb-shared, "
                             "l40-shared, a100-80gb)")


def test_kubectl_commands_look_alike(tmp_path):
    """The same kind of script, written for this test: a patch spread over lines, labels (one node twice, one with
    --overwrite after the node), commented-out and incomplete commands."""
    (tmp_path / "sharing.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sharing\n  namespace: gpu-operator\ndata:\n"
        "  t4: |-\n    version: v1\n    sharing:\n      timeSlicing:\n        resources:\n        - name: nvidia.com/gpu\n"
        "          replicas: 4\n  a100: |-\n    version: v1\n    flags:\n      migStrategy: single\n",
        encoding="utf-8")
    (tmp_path / "setup.sh").write_text(
        "#!/bin/sh\nkubectl apply -f sharing.yaml\nkubectl patch clusterpolicies.nvidia.com/cluster-policy \\\n"
        "    -n gpu-operator --type merge \\\n    -p '{\"spec\": {\"devicePlugin\": {\"config\": {\"name\": \"sharing\"}}}}'\n"
        "# kubectl label node <node> nvidia.com/device-plugin.config=t4\n"
        "kubectl label --overwrite node/gpu-1 nvidia.com/device-plugin.config=t4\n"
        "kubectl label --overwrite\n"
        "kubectl label node/gpu-2 nvidia.com/mig.config=all-1g.10gb --overwrite\n"
        "kubectl label --overwrite node/gpu-2 nvidia.com/device-plugin.config=a100\n", encoding="utf-8")
    report = run(tmp_path / "setup.sh", tmp_path / "sharing.yaml")
    (patch,) = report.inventory.policies
    assert (patch.partial, patch.value("devicePlugin.config.name")) == (True, "sharing")
    assert {n.name: (n.label("nvidia.com/device-plugin.config"), n.label("nvidia.com/mig.config"))
            for n in report.inventory.nodes} == {"gpu-1": ("t4", None), "gpu-2": ("a100", "all-1g.10gb")}
    (f,) = [f for f in report.findings if f["severity"] != "info"]
    assert (f["rule"], f["where"]["line"]) == ("CHK-020", 3)
    assert f["fix"].endswith("(keys of sharing: t4, a100)")


def test_a_list_field_of_another_type_is_named_not_a_crash(tmp_path):
    (tmp_path / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: true\n"
        "patches: {path: p.yaml}\n", encoding="utf-8")
    with pytest.raises(NothingReadable) as caught:
        run(tmp_path)
    assert [(p["line"], p["path"], p["message"]["en"]) for p in caught.value.details["problems"]] == [
        (3, "resources", "must be a list: `kustomize build` fails here"),
        (4, "patches", "must be a list: `kustomize build` fails here")]


def test_a_flux_repository_of_the_standalone_device_plugin(tmp_path):
    """allenporter/k8s-gitops@544b765 kubernetes/compute, read from the mirror: a Kustomize overlay patching a Flux
    HelmRelease of the nvidia-device-plugin chart (config.name) and adding the time-slicing ConfigMap, beside
    Intel's device plugins, node-feature-discovery and GitHub runners. The note about the GPU Operator not
    watching the ConfigMap does not apply: no GPU Operator here."""
    tree = upstream("allenporter/k8s-gitops", "544b7652500af5fce26ff4becf6cfd6082a19918", "kubernetes/compute", tmp_path)
    report = run(tree)
    assert report.summary["checked"] == {"device-plugin config": 1, "workload": 1, "device-plugin chart": 1}
    (chart,) = report.inventory.charts
    assert chart.configmap == "time-slicing-config"
    assert rules(report) == ["CHK-060"] and report.summary["not_read"] == []
    assert sum(i["count"] for i in report.summary["ignored"] if i["kind"] == "HelmRelease") == 5


def _umbrella(report, release: str, configmap: str, default: str) -> None:
    assert report.summary["inputs"]["operator"] == release  # from Chart.yaml's dependency
    (chart,) = [i for i in report.summary["ignored"] if i["kind"] == "Chart.yaml"]
    assert chart["reason"].startswith("a Helm chart's description (Chart.yaml)")
    (policy,) = report.inventory.policies
    assert (policy.value("devicePlugin.config.name"), policy.value("devicePlugin.config.default")) == (configmap, default)
    assert policy.where("devicePlugin.config.name")["path"] == "gpu-operator → devicePlugin.config.name"
    assert [c.key for c in report.inventory.dp_configs] == [default]
    assert rules(report) == ["CHK-063", "CHK-060"]


def test_an_umbrella_chart_with_its_chart_yaml(tmp_path):
    """nforceroh/k8s-home@6d268ff virt01/automated/operators/gpu-operator, read from the mirror: an umbrella chart
    whose Chart.yaml pins gpu-operator v26.3.3, values under gpu-operator:, and a plain ConfigMap in templates/."""
    tree = upstream("nforceroh/k8s-home", "6d268ffd048b22eb4d2eedf6f900242aa5019401",
                    "virt01/automated/operators/gpu-operator", tmp_path)
    _umbrella(run(tree), "26.3.3", "time-slicing-config-all", "Tesla-P40")


def test_an_umbrella_chart_look_alike(tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "Chart.yaml").write_text(
        "apiVersion: v2\nname: gpu\nversion: 0.1.0\ndependencies:\n- name: gpu-operator\n"
        "  repository: https://helm.ngc.nvidia.com/nvidia\n  version: v25.10.0\n", encoding="utf-8")
    (tmp_path / "values.yaml").write_text(
        "gpu-operator:\n  driver:\n    enabled: false\n  devicePlugin:\n    config:\n      name: sharing\n"
        "      default: l4\n", encoding="utf-8")
    (tmp_path / "templates" / "sharing.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sharing\ndata:\n  l4: |-\n    version: v1\n    sharing:\n"
        "      timeSlicing:\n        resources:\n        - name: nvidia.com/gpu\n          replicas: 2\n", encoding="utf-8")
    _umbrella(run(tmp_path), "25.10.0", "sharing", "l4")


def test_a_helm_install_command_of_a_ticket(tmp_path):
    """NVIDIA/k8s-device-plugin#321 (brianbrady, 2022-07-11), pasted as the thread shows it: the helm command with
    --set devicePlugin.config.*, the ConfigMap and the node label. The pods' request for nvidia.com/gpu failed: the
    configuration renames it (CHK-061)."""
    (tmp_path / "ticket.txt").write_text(
        "helm install --wait --generate-name -n gpu-operator --create-namespace nvidia/gpu-operator --set "
        "operator.defaultRuntime=containerd --set devicePlugin.config.name=time-slicing-config --set "
        "devicePlugin.config.default=quadro-p2000\n"
        "kubectl label node knuc1 nvidia.com/device-plugin.config=quadro-p2000\n", encoding="utf-8")
    (tmp_path / "cm.yaml").write_text(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: time-slicing-config\n  namespace: gpu-operator\ndata:\n"
        "  quadro-p2000: |-\n    version: v1\n    sharing:\n      timeSlicing:\n        renameByDefault: true\n"
        "        failRequestsGreaterThanOne: true\n        resources:\n        - name: nvidia.com/gpu\n"
        "          replicas: 4\n", encoding="utf-8")
    report = run(tmp_path / "ticket.txt", tmp_path / "cm.yaml")
    (policy,) = report.inventory.policies
    assert (policy.partial, policy.source.en, policy.value("devicePlugin.config.default")) == (
        True, "helm command (line 1)", "quadro-p2000")
    assert report.inventory.operator_namespace == "gpu-operator"  # -n gpu-operator
    assert report.summary["node_configs"] == [{"config": "quadro-p2000", "source": "label", "count": 1,
                                               "names": ["knuc1"]}]
    assert rules(report) == ["CHK-061", "CHK-063", "CHK-060", "CHK-062"]


def test_helm_set_values_are_typed_and_fixed_in_the_command(tmp_path):
    script = tmp_path / "install.sh"
    script.write_text("#!/bin/sh\n# helm install old nvidia/gpu-operator --set mig.strategy=single\n"
                      "helm upgrade --install gpu nvidia/gpu-operator -n ml --version=v25.10.0 \\\n"
                      "  --set mig.strategy=mixd,migManager.enabled=false --set-string driver.version=550\n",
                      encoding="utf-8")
    report = run(script)
    (policy,) = report.inventory.policies
    assert (policy.value("migManager.enabled"), policy.value("driver.version")) == (False, "550")
    assert report.summary["inputs"]["operator"] == "25.10.0"
    (f,) = [f for f in report.findings if f["rule"] == "CHK-024"]
    assert f["where"]["line"] == 3 and f["fix"] == "In the helm command (line 3): --set mig.strategy=mixed"


def test_the_release_a_setup_script_installs(tmp_path):
    """lcpu-club/hpcgame-ops-2nd@3f8196e 5_accelerators/0_gpu, read from the mirror: helm.sh installs gpu-operator
    --version=v24.9.1 -f values.yaml: the check judges with that release (the catalog's history reaches back to
    23.9.0; before it, the report said it had no data for 24.9.1)."""
    tree = upstream("lcpu-club/hpcgame-ops-2nd", "3f8196e42bc39fd768c1995dd1f8d120ffb07898", "5_accelerators/0_gpu",
                    tmp_path)
    report = run(tree)
    assert report.summary["inputs"]["operator"] == "24.9.1"
    assert "operator_unknown" not in report.summary["inputs"]
    assert str(tree / "helm.sh") in report.summary["files"]


def test_shell_variables_of_a_helm_command_are_resolved_or_left_unknown(tmp_path):
    """Written after install scripts found in public repositories: the chart and the strategy come from variables
    the script sets; a variable it does not set is not read as the value (no type error on `${CM_NAME}`)."""
    script = tmp_path / "install.sh"
    script.write_text("#!/bin/bash\nNAME=gpu-operator\nSOURCE=deployments/gpu-operator  # the chart in a checkout\n"
                      "export MIG_STRATEGY=mixd\nhelm install $NAME $SOURCE --devel \\\n  --set mig.strategy=$MIG_STRATEGY \\\n"
                      "  --set devicePlugin.config.name=${CM_NAME} --set-string driver.version=\"${DRIVER:-550.54.15}\" \\\n"
                      "  --namespace $NAME\n", encoding="utf-8")
    report = run(script)
    (policy,) = report.inventory.policies
    assert (policy.value("mig.strategy"), policy.value("driver.version")) == ("mixd", "550.54.15")
    assert "devicePlugin.config.name" not in policy.settings
    assert report.inventory.operator_namespace == "gpu-operator"
    assert rules(report) == ["CHK-024"]


def test_a_release_our_data_does_not_hold_is_named(tmp_path):
    from kb.check.render import render

    script = tmp_path / "helm.sh"
    script.write_text("helm install --wait --generate-name -n gpu-operator nvidia/gpu-operator --version=v23.6.2 "
                      "-f ./values.yaml\n", encoding="utf-8")
    report = run(script)
    assert (report.summary["inputs"]["operator"], report.summary["inputs"]["operator_unknown"]) == (None, "23.6.2")
    assert "Die Eingabe installiert GPU Operator 23.6.2, ein Release, zu dem gpukb keine Daten hat" in render(
        report.as_json(), "de")


def test_the_device_plugin_charts_own_values_yaml_is_not_read_as_the_operators(tmp_path):
    """NVIDIA/k8s-device-plugin@1b826acc deployments/helm/nvidia-device-plugin/values.yaml, read from the mirror: since
    2024 it has a `cdi:` section (nvidiaHookPath) like the operator's chart, and was read as GPU Operator values."""
    values = upstream("NVIDIA/k8s-device-plugin", "1b826acc6af3079d8923bac395c3124b8861a9a6",
                      "deployments/helm/nvidia-device-plugin/values.yaml", tmp_path)
    report = run(values)
    assert report.summary["checked"] == {"device-plugin chart": 1} and report.inventory.policies == []


def test_the_device_plugin_charts_values_with_cdi_look_alike():
    text = ("config:\n  name: ''\n  map: {}\n  default: ''\n  fallbackStrategies: [named, single]\nmigStrategy: null\n"
            "gfd:\n  enabled: false\ncdi:\n  nvidiaHookPath: null\n")
    assert run("-", stdin=text).summary["checked"] == {"device-plugin chart": 1}
    # the operator's values with a cdi section stay the operator's
    assert run("-", stdin="cdi:\n  enabled: true\ndevicePlugin:\n  enabled: true\n").summary["checked"] == {
        "ClusterPolicy": 1}


def test_a_nested_component_counts_in_the_overlays_that_use_it(tmp_path):
    """redhat-cop/gitops-catalog@7727f24 gpu-operator-certified, read from the mirror (held-out row 33): component
    time-sliced-2 names ../time-sliced, whose ConfigMap patch adds `no-time-sliced` with replicas 0. Before, the nested
    component was not followed, its patch files were 'used by no build' and joined every build (operator overlays
    too): CHK-005 and a wrong CHK-021 named 11 builds that do not use them. Now: CHK-005 in the 4 overlays that use it."""
    tree = upstream("redhat-cop/gitops-catalog", "7727f2425149abf9e061665c6d1268a70238c138", "gpu-operator-certified",
                    tmp_path)
    report = run(tree)
    assert "CHK-021" not in rules(report)
    (replicas,) = [f for f in report.findings if f["rule"] == "CHK-005"]
    assert replicas["builds"] == [f"gpu-operator-certified/instance/overlays/{o}" for o in (
        "aws-time-sliced-2", "aws-time-sliced-4", "time-sliced-2", "time-sliced-4")]
    # the value the component's patch file writes (line 12: `replicas: 0` of its `no-time-sliced: |-` text), not the
    # base ConfigMap's `data: {}` (line 6), which is named as the object patched
    where = replicas["where"]
    assert (where["file"].split("gpu-operator-certified/")[1], where["line"]) == (
        "instance/components/time-sliced/patch-device-plugin-config.yaml", 12)
    assert (where["patches"]["file"].split("gpu-operator-certified/")[1], where["patches"]["line"]) == (
        "instance/base/device-plugin-config.yaml", 6)


def _tree(root, files: dict) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


KZ = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
COMPONENT = "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"
SHARING = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sharing\ndata:\n  {key}: |-\n    version: v1\n"
           "    sharing:\n      timeSlicing:\n        resources:\n        - name: nvidia.com/gpu\n          replicas: {n}\n")


def test_what_no_overlay_uses_is_checked_on_its_own_beside_several_overlays(tmp_path):
    """Two overlays of one base, a nested component used by one of them, a component and a file no Kustomization
    names: each finding names only the builds that include its file; what no overlay uses is checked on its own
    (no build named) — never inside the overlays that do not use it."""
    _tree(tmp_path, {
        "base/kustomization.yaml": KZ + "resources:\n- policy.yaml\n- sharing.yaml\n",
        "base/policy.yaml": "apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: gpu-policy\nspec:\n"
                            "  devicePlugin:\n    config:\n      name: sharing\n      default: two\n",
        "base/sharing.yaml": SHARING.format(key="two", n=2),
        "components/outer/kustomization.yaml": COMPONENT + "components:\n- ../inner\n",
        "components/inner/kustomization.yaml": COMPONENT + "patches:\n- path: patch.yaml\n",
        "components/inner/patch.yaml": SHARING.format(key="zero", n=0),
        "components/unused/kustomization.yaml": COMPONENT + "patches:\n- path: patch.yaml\n",
        "components/unused/patch.yaml": SHARING.format(key="one", n=1),
        "overlays/a/kustomization.yaml": KZ + "resources:\n- ../../base\ncomponents:\n- ../../components/outer\n",
        "overlays/b/kustomization.yaml": KZ + "resources:\n- ../../base\n",
        "loose/sharing-old.yaml": SHARING.format(key="minus", n=-1).replace("name: sharing", "name: sharing-old"),
    })
    report = run(tmp_path)
    errors = {(f["where"]["file"].split(str(tmp_path) + "/")[1], f["message"].split(":")[0]): f.get("builds")
              for f in report.findings if f["rule"] == "CHK-005"}
    root = tmp_path.name
    assert errors == {("components/inner/patch.yaml", "sharing/zero"): [f"{root}/overlays/a"],  # what inner's patch wrote
                      ("components/unused/patch.yaml", "sharing/one"): None,
                      ("loose/sharing-old.yaml", "sharing-old/minus"): None}, errors


def test_what_no_kustomization_names_joins_the_one_build_there_is(tmp_path):
    """One root and a component no Kustomization of the input names (a Flux Kustomization outside the input combines
    them, as in jesse-gonzalez/nai-llm-fleet-infra): the component patches that build."""
    _tree(tmp_path, {
        "app/kustomization.yaml": KZ + "resources:\n- sharing.yaml\n",
        "app/sharing.yaml": SHARING.format(key="two", n=2),
        "extra/kustomization.yaml": COMPONENT + "patches:\n- path: patch.yaml\n",
        "extra/patch.yaml": SHARING.format(key="zero", n=0),
    })
    report = run(tmp_path)
    (f,) = [f for f in report.findings if f["rule"] == "CHK-005"]
    # the component's patch wrote the value; the object it patches is named beside it
    assert f["where"]["file"].endswith("extra/patch.yaml") and not f.get("builds")
    assert f["where"]["patches"]["file"].endswith("app/sharing.yaml")
    assert [c.key for c in report.inventory.dp_configs] == ["two", "zero"]


def test_a_finding_names_the_patch_that_wrote_the_value(tmp_path):
    """Look-alike of redhat-cop/gitops-catalog gpu-operator-certified (base ConfigMap `data: {}`, a component's patch
    file writing the configuration) with an overlay's inline patch of the ClusterPolicy: each finding names the file
    and line the user edits (the patch), and the object patched (the base) beside it."""
    _tree(tmp_path, {
        "base/kustomization.yaml": KZ + "resources:\n- policy.yaml\n- sharing.yaml\n",
        "base/policy.yaml": "apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: gpu-policy\nspec:\n"
                            "  devicePlugin:\n    config:\n      name: sharing\n      default: two\n",
        "base/sharing.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sharing\ndata: {}\n",
        "comp/kustomization.yaml": COMPONENT + "patches:\n- path: sharing-patch.yaml\n",
        "comp/sharing-patch.yaml": SHARING.format(key="two", n=1),
        "overlay/kustomization.yaml": KZ + "resources:\n- ../base\ncomponents:\n- ../comp\npatches:\n- target:\n"
                                      "    kind: ClusterPolicy\n  patch: |-\n    apiVersion: nvidia.com/v1\n"
                                      "    kind: ClusterPolicy\n    metadata:\n      name: gpu-policy\n    spec:\n"
                                      "      devicePlugin:\n        config:\n          default: three\n",
    })
    report = run(tmp_path)
    got = {f["rule"]: (f["where"]["file"].split(str(tmp_path) + "/")[1], f["where"]["line"],
                       f["where"]["patches"]["file"].split(str(tmp_path) + "/")[1], f["where"]["patches"]["line"])
           for f in report.findings if f["severity"] != "info"}
    assert got == {"CHK-005": ("comp/sharing-patch.yaml", 12, "base/sharing.yaml", 5),  # replicas: 1
                   "CHK-021": ("overlay/kustomization.yaml", 18, "base/policy.yaml", 9)}  # default: three
    # a field the patch only repeats (the ConfigMap's name) stays the base's: one note there, no `patches`
    (restart,) = [f for f in report.findings if f["rule"] == "CHK-063"]
    assert restart["where"] == {"file": str(tmp_path / "base/sharing.yaml"), "document": 1, "path": "metadata.name",
                                "line": 4}


def test_lines_through_a_strategic_merge():
    """Removed fields keep the lines after them right; list items merged by name and appended items are the
    patch's; a patch of a patch: the last one that wrote the value."""
    from kb.check.documents import parse_text
    from kb.check.kustomize import _marker, strategic_merge
    (base,), _ = parse_text("kind: Deployment\nspec:\n  paused: true\n  replicas: 1\n  containers:\n  - name: main\n"
                            "    image: app\n", "base.yaml")
    (first,), _ = parse_text("spec:\n  paused: null\n  containers:\n  - name: main\n    env: []\n  - name: side\n"
                             "    image: side\n", "first.yaml")
    (second,), _ = parse_text("spec:\n  containers:\n  - name: side\n    image: side2\n", "second.yaml")
    for patch in (first, second):
        strategic_merge(base.data, patch.data, _marker(base, patch))
    place = {path: (base.where(path)["file"], base.where(path)["line"]) for path in (
        ("spec", "replicas"), ("spec", "containers", 0, "image"), ("spec", "containers", 0, "env"),
        ("spec", "containers", 1, "name"), ("spec", "containers", 1, "image"))}
    assert place == {("spec", "replicas"): ("base.yaml", 4), ("spec", "containers", 0, "image"): ("base.yaml", 7),
                     ("spec", "containers", 0, "env"): ("first.yaml", 5), ("spec", "containers", 1, "name"): (
                         "first.yaml", 6), ("spec", "containers", 1, "image"): ("second.yaml", 4)}
    assert base.where(("spec", "containers", 1, "image")).as_dict()["patches"] == {"file": "base.yaml", "line": 5}


def test_a_json6902_operation_is_found_at_its_value(tmp_path):
    """patchesJson6902 (file) and `patches` (inline) operations: the finding names the operation's `value` line."""
    _tree(tmp_path, {
        "kustomization.yaml": KZ + "resources:\n- policy.yaml\n- sharing.yaml\npatchesJson6902:\n- target:\n"
                              "    kind: ClusterPolicy\n    name: gpu-policy\n  path: policy-ops.yaml\npatches:\n"
                              "- target:\n    kind: ConfigMap\n  patch: |-\n    - op: add\n      path: /data/one\n"
                              "      value: |-\n        version: v1\n        sharing:\n          timeSlicing:\n"
                              "            resources:\n            - name: nvidia.com/gpu\n              replicas: 1\n",
        "policy.yaml": "apiVersion: nvidia.com/v1\nkind: ClusterPolicy\nmetadata:\n  name: gpu-policy\nspec:\n"
                       "  devicePlugin:\n    config:\n      name: sharing\n      default: two\n",
        "policy-ops.yaml": "- op: remove\n  path: /spec/devicePlugin/config/name\n- op: add\n"
                           "  path: /spec/devicePlugin/config/name\n  value: sharing\n- op: replace\n"
                           "  path: /spec/devicePlugin/config/default\n  value: three\n",
        "sharing.yaml": SHARING.format(key="two", n=2),
    })
    report = run(tmp_path)
    got = {f["rule"]: (f["where"]["file"].split(str(tmp_path) + "/")[1], f["where"]["line"],
                       f["where"]["patches"]["file"].split(str(tmp_path) + "/")[1])
           for f in report.findings if f["severity"] != "info"}
    assert got == {"CHK-005": ("kustomization.yaml", 23, "sharing.yaml"),  # replicas: 1 of the inline operation
                   "CHK-021": ("policy-ops.yaml", 8, "policy.yaml")}  # value: three
