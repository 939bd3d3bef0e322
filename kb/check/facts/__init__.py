"""What was read, as the plain facts the `check` rules test (flat dicts: text, numbers, true/false).

One fact per thing a rule may speak about, each with a `kind` and a `ref` that maps back to where it
was written (file, document, field path, line). Facts state what the manifests and the catalog say —
joined where a rule needs two things at once (a node and the ConfigMap its label names, a node and its
card) — and leave every judgement to the rules. Where something is not known (no ClusterPolicy in the
input, a product the catalog lacks) the property is left out: a missing property matches no condition,
so an unknown is never read as "no". Version comparisons are made here and stated as `…_vs_…: below |
meets` (the engine compares with constants only; kb.versions.compare).

Kinds: cluster, policy, gpu_cluster, dra_gate, node, dp_config, sharing, shared_resource, dp_configmap,
mig_config, mig_layout, workload, gpu_request (see the builder modules for their properties).
"""

from __future__ import annotations

from kb.check.facts import cluster, deviceplugin, mig, nodes, workloads
from kb.check.facts.base import Context, Environment, FactSet
from kb.check.facts.nodes import product_name
from kb.check.readers import Inventory


def build_facts(inv: Inventory, data: dict, env: Environment | None = None, *, engine: str = "durable",
                rules=None, generated: dict | None = None) -> FactSet:
    """The facts of everything read, for `kb.engine.evaluate("check", facts)`. `engine` and `rules` also
    answer the `mig` question for each node's card (kb.check.facts.nodes)."""
    ctx = Context(inv, data, env or Environment(), engine=engine, rules=rules)
    ctx.generated = generated or {}
    out = FactSet()
    cluster.cluster(ctx, out)
    cluster.policies(ctx, out)
    cluster.gpu_clusters(ctx, out)
    layouts = mig.layouts(ctx)
    uses = nodes.facts(ctx, out, layouts)
    deviceplugin.facts(ctx, out, uses)
    mig.facts(ctx, out, layouts)
    workloads.facts(ctx, out)
    return out


__all__ = ["Environment", "FactSet", "build_facts", "product_name"]
