"""The GPU Operator chart's values.yaml (NVIDIA/gpu-operator `deployments/gpu-operator/values.yaml`): the
version of each component image the chart deploys by default.

    extract(text) -> {"components": [{"component": "device-plugin", "version": "0.14.2",
                                      "written": "v0.14.2-ubi8", "line": 234,
                                      "quote": "image: k8s-device-plugin version: v0.14.2-ubi8"}, …]}

Blocks read (top-level keys → catalog component ids): driver, devicePlugin, gfd, migManager, draDriver,
toolkit. A version is read as a manifest writes it ("v0.14.2-ubi8" → 0.14.2, "535.104.12"); a block
without a version is left out. `quote` is the block's `image:` and `version:` lines (the version line alone
where they are not adjacent), `line` the 1-based line of `version:`.
"""

from __future__ import annotations

import re

from kb.drift.extractors import ExtractError
from kb.versions import from_manifest

ID = "helm-values"

#: top-level key of values.yaml → catalog component id
BLOCKS = {
    "driver": "driver",
    "devicePlugin": "device-plugin",
    "gfd": "gpu-feature-discovery",
    "migManager": "mig-manager",
    "draDriver": "dra-driver",
    "toolkit": "container-toolkit",
}

_TOP = re.compile(r"^([A-Za-z][\w-]*):\s*(#.*)?$")
_FIELD = re.compile(r"^  (image|version):\s*(.*?)\s*(#.*)?$")


def extract(text: str) -> dict:
    lines = text.splitlines()
    tops = [(i, m.group(1)) for i, line in enumerate(lines) if (m := _TOP.match(line))]
    if not any(name in BLOCKS for _, name in tops):
        raise ExtractError("no component blocks (driver:, devicePlugin:, migManager: …) at the top level")
    out = []
    for n, (start, name) in enumerate(tops):
        if name not in BLOCKS:
            continue
        end = tops[n + 1][0] if n + 1 < len(tops) else len(lines)
        fields = {}
        for i in range(start + 1, end):
            m = _FIELD.match(lines[i])
            if m and m.group(1) not in fields:
                fields[m.group(1)] = (i, m.group(2).strip("\"'"))
        if "version" not in fields:
            continue
        at, raw = fields["version"]
        version = from_manifest(raw)
        if version is None:
            continue
        quote = lines[at].strip()
        if "image" in fields and fields["image"][0] == at - 1:
            quote = f"{lines[at - 1].strip()} {quote}"
        out.append({"component": BLOCKS[name], "version": version, "written": raw, "line": at + 1, "quote": quote})
    return {"components": out}
