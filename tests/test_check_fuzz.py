"""Garbage in, never a traceback out: `gpukb check` exits 0, 1 or 2 on anything hypothesis can make up."""

from __future__ import annotations

import json

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.cli.main import cli

KINDS = ["ClusterPolicy", "GPUCluster", "ConfigMap", "Node", "Pod", "Deployment", "CronJob", "List", "Service", "", None,
         "HelmRelease", "Application", "HelmChart", "Kustomization", "Component"]
API = ["nvidia.com/v1", "nvidia.com/v1alpha1", "v1", "apps/v1", "batch/v1", "other.io/v1", None,
       "helm.toolkit.fluxcd.io/v2", "argoproj.io/v1alpha1", "helm.cattle.io/v1", "kustomize.config.k8s.io/v1beta1",
       "kustomize.toolkit.fluxcd.io/v1"]
KEYS = ["kind", "apiVersion", "metadata", "name", "labels", "spec", "data", "items", "status", "capacity",
        "mig", "strategy", "migManager", "enabled", "config", "default", "create", "devicePlugin", "toolkit", "cdi",
        "sandboxWorkloads", "driver", "version", "clusterPolicy", "gpuCluster", "deployCR", "draDriver",
        "featureGates", "DynamicMIG", "MPSSupport", "flags", "migStrategy", "sharing", "timeSlicing", "mps",
        "resources", "replicas", "renameByDefault", "failRequestsGreaterThanOne", "mig-configs", "devices",
        "mig-enabled", "mig-devices", "template", "containers", "limits", "requests", "nodeSelector", "tolerations",
        "key", "nvidia.com/gpu", "nvidia.com/gpu.product", "nvidia.com/mig.config", "nvidia.com/device-plugin.config",
        "nvidia.com/gpu.workload.config", "nvidia.com/mig.strategy", "nvidia.com/gpu.mode", "config.yaml",
        "values", "valuesObject", "valuesContent", "helm", "source", "sources", "chart", "patches", "patch", "target",
        "patchesStrategicMerge", "configMapGenerator", "literals", "postBuild", "substitute", "gpu-operator", "map",
        "fallbackStrategies", "migStrategy", "nodeSelector", "affinity", "allocatable"]
WORDS = ["v1", "none", "single", "mixed", "gpu-operator", "nvidia-device-plugin", "${X:=4}", "${X}", "{{ .Values.x }}",
         "../x", "missing.yaml", "all", "all-disabled", "all-balanced", "all-1g.18gb", "NVIDIA-H200-NVL",
         "NVIDIA-L4", "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition", "nvidia.com/gpu", "nvidia.com/mig-1g.18gb",
         "nvidia.com/gpu.shared", "vm-passthrough", "failed", "true", "26.7.0", "1.34.2", "575.57.08"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), st.sampled_from(WORDS))
trees = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=6)), inner, max_size=5)), max_leaves=25)


@st.composite
def manifests(draw):
    obj = draw(st.dictionaries(st.sampled_from(KEYS), trees, max_size=6))
    kind = draw(st.sampled_from(KINDS))
    if kind is not None:
        obj["kind"] = kind
        obj["apiVersion"] = draw(st.sampled_from(API))
    if draw(st.booleans()):  # a ConfigMap-like value holding YAML text
        obj["data"] = {draw(st.sampled_from(["any", "config.yaml", "x"])): yaml.safe_dump(draw(trees))}
    if kind == "List":
        obj["items"] = draw(st.lists(st.dictionaries(st.sampled_from(KEYS), trees, max_size=4), max_size=3))
    return obj


def render(docs, form):
    if form == "json":
        return json.dumps(docs[0] if docs else {}, default=str)
    return yaml.safe_dump_all(docs, allow_unicode=True)


def check(text, *args):
    result = CliRunner().invoke(cli, ["check", "-", *args], input=text)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2), result.output
    return result


# examples per run: the profile of tests/conftest.py (40; 400 with GPUKB_FULL=1)
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: a whole check per example (about 0.1 s each)
STRUCTURED = SETTINGS


@STRUCTURED
@given(st.lists(manifests(), min_size=1, max_size=3), st.sampled_from(["yaml", "json"]), st.booleans())
def test_structured_garbage(docs, form, as_json):
    check(render(docs, form), *(["--json"] if as_json else []))


@SETTINGS
@given(st.text(max_size=300))
def test_text_garbage(text):
    check(text)


@SETTINGS
@given(st.binary(max_size=200))
def test_byte_garbage(data):
    result = CliRunner().invoke(cli, ["check", "-"], input=data)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (0, 1, 2)
