"""`nvidia-smi` output pasted into a ticket or collected by must-gather, read as what it says about one host.

Understood, alone or pasted together: the plain table (`nvidia-smi`: driver and CUDA version, each GPU's name and
its "MIG M." column), the full query (`nvidia-smi -q`: Driver Version, Product Name, MIG Mode Current/Pending),
the list (`nvidia-smi -L`: GPUs and their MIG devices), the GPU instance profiles (`nvidia-smi mig -lgip`: the
profiles the hardware offers) and the GPU instances (`nvidia-smi mig -lgi`). The host is named by the output
("# nvidia-smi output from <node>" as must-gather writes it, a shell prompt `root@host`), else by the file.

The result is a Node (kb.check.readers.node) with the labels GPU Feature Discovery would set — product
(`NVIDIA-H100-PCIe`), driver — so every node check applies, plus what only nvidia-smi shows: MIG mode pending a
reset, GPUs with and without MIG on one host, the profiles the hardware offers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

from kb.check.documents import Doc, Where
from kb.check.readers.node import Label, Node
from kb.questions.resource import mig_resource_name


@dataclass
class SmiGpu:
    index: int
    name: str
    mig_current: str | None = None  # "Enabled" | "Disabled" | None (not shown)
    mig_pending: str | None = None
    line: int | None = None


@dataclass
class SmiReport:
    host: str
    file: str
    driver: str | None = None
    cuda: str | None = None
    gpus: dict = field(default_factory=dict)  # index → SmiGpu
    profiles: dict = field(default_factory=dict)  # profile name → (line, instances total)
    mig_devices: list = field(default_factory=list)  # (gpu index, profile) of `-L` / `mig -lgi`
    driver_line: int | None = None


_DRIVER = re.compile(r"Driver Version\s*:?\s*([0-9]+(?:\.[0-9]+){1,3})")
_CUDA = re.compile(r"CUDA Version\s*:?\s*([0-9.]+)")
_ROW = re.compile(r"^\|\s*(\d+)\s+(.+?)\s+(On|Off)\s*\|\s*[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d")
_MIG_CELL = re.compile(r"\|\s*(Enabled|Disabled|N/A)\*?\s*\|\s*$")
_LIST = re.compile(r"^GPU (\d+): (.+?) \(UUID: GPU-")
_LIST_MIG = re.compile(r"^\s+MIG (\S+)\s+Device\s+\d+:")
_LGIP = re.compile(r"^\|\s*(\d+)\s+MIG (\S+)\s+(\d+)\s+(\d+)/(\d+)\s+[\d.]+\s+(?:Yes|No)\b")
_LGI = re.compile(r"^\|\s*(\d+)\s+MIG (\S+)\s+(\d+)\s+(\d+)\s+\d+:\d+\s*\|")
_Q_GPU = re.compile(r"^GPU ([0-9A-Fa-f]{8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.\d)")
_Q_KEY = re.compile(r"^\s+(Product Name|Current|Pending|Minor Number)\s*:\s*(.+?)\s*$")
_FROM = re.compile(r"^#\s*nvidia-smi output from (\S+)", re.M)
_PROMPT = re.compile(r"^(?:\S+@([\w.-]+)[:\s][^\n]*?[#$]|\[(?:\S+@)?([\w.-]+)[^\]]*\][#$])\s*(?:sudo\s+)?nvidia-smi",
                     re.M)


def host_of(text: str, file: str) -> str:
    m = _FROM.search(text)
    if m:
        return m.group(1)
    m = _PROMPT.search(text)
    if m:
        return m.group(1) or m.group(2)
    stem = PurePath(file).name
    m = re.match(r"gpu_device_usage_(.+)\.log$", stem)
    return m.group(1) if m else ""


def parse(text: str, file: str) -> SmiReport:
    report = SmiReport(host_of(text, file), file)
    lines = text.splitlines()
    in_q_gpu = None
    q_index = -1
    mig_block = False
    row_gpu: SmiGpu | None = None
    for n, line in enumerate(lines, start=1):
        m = _DRIVER.search(line)
        if m and report.driver is None:
            report.driver, report.driver_line = m.group(1), n
        m = _CUDA.search(line)
        if m and report.cuda is None:
            report.cuda = m.group(1)
        m = _ROW.match(line)
        if m:
            row_gpu = report.gpus.setdefault(int(m.group(1)), SmiGpu(int(m.group(1)), m.group(2).strip(), line=n))
            continue
        if row_gpu is not None:
            m = _MIG_CELL.search(line)
            if m and line.startswith("|") and not _ROW.match(line):
                if m.group(1) in ("Enabled", "Disabled"):
                    row_gpu.mig_current = m.group(1)
                    if line.rstrip().rstrip("|").rstrip().endswith("*"):
                        row_gpu.mig_pending = "Disabled" if m.group(1) == "Enabled" else "Enabled"
                row_gpu = None
                continue
        m = _LIST.match(line)
        if m:
            report.gpus.setdefault(int(m.group(1)), SmiGpu(int(m.group(1)), m.group(2).strip(), line=n))
            continue
        m = _LIST_MIG.match(line)
        if m and report.gpus:
            report.mig_devices.append((max(report.gpus), m.group(1)))
            gpu = report.gpus[max(report.gpus)]
            gpu.mig_current = gpu.mig_current or "Enabled"
            continue
        m = _LGIP.match(line)
        if m:
            report.profiles.setdefault(m.group(2), (n, int(m.group(5))))
            continue
        m = _LGI.match(line)
        if m:
            report.mig_devices.append((int(m.group(1)), m.group(2)))
            gpu = report.gpus.setdefault(int(m.group(1)), SmiGpu(int(m.group(1)), "", line=n))
            gpu.mig_current = gpu.mig_current or "Enabled"
            continue
        m = _Q_GPU.match(line)
        if m:
            q_index += 1
            in_q_gpu = report.gpus.setdefault(q_index, SmiGpu(q_index, "", line=n))
            mig_block = False
            continue
        if in_q_gpu is not None:
            if line.strip() == "MIG Mode":
                mig_block = True
                continue
            m = _Q_KEY.match(line)
            if m:
                key, value = m.group(1), m.group(2)
                if key == "Product Name":
                    in_q_gpu.name = value
                    in_q_gpu.line = n
                elif key == "Minor Number" and value.isdigit() and int(value) != in_q_gpu.index:
                    pass
                elif mig_block and key in ("Current", "Pending") and value in ("Enabled", "Disabled"):
                    if key == "Current":
                        in_q_gpu.mig_current = value
                    else:
                        in_q_gpu.mig_pending = value
                        mig_block = False
    return report


def product_label(name: str) -> str:
    """The GPU name as GPU Feature Discovery writes it into nvidia.com/gpu.product (spaces become hyphens)."""
    return re.sub(r"\s+", "-", name.strip())


@dataclass
class SmiNode(Node):
    """A Node known from nvidia-smi output."""

    report: SmiReport | None = None


def to_nodes(report: SmiReport) -> list[SmiNode]:
    """One Node per host (GPUs of one model; a host with several models gives the first model's name)."""
    if not report.gpus and not report.profiles and report.driver is None:
        return []
    doc = Doc(report.file, 1, {}, line_offset=None)
    gpus = sorted(report.gpus.values(), key=lambda g: g.index)
    named = next((g for g in gpus if g.name and not g.name.endswith("...")), gpus[0] if gpus else None)
    first = named.line if named else min((line for line, _ in report.profiles.values()), default=1)
    node = SmiNode(name=report.host or PurePath(report.file).name, doc=doc, where=_at(report.file, first),
                   report=report)
    if named is not None and named.name:
        node.labels["nvidia.com/gpu.product"] = Label(product_label(named.name), _at(report.file, named.line))
    if report.driver:
        node.labels["nvidia.com/cuda.driver-version.full"] = Label(report.driver, _at(report.file, report.driver_line))
    on = [g for g in gpus if g.mig_current == "Enabled"]
    off = [g for g in gpus if g.mig_current == "Disabled"]
    if on:
        # named as the device plugin (mixed strategy) names them: every "+" of a profile becomes "." (internal/rm)
        node.resources.update({mig_resource_name(p): "1" for _, p in report.mig_devices} or {"nvidia.com/mig-*": "1"})
    if on and off:
        node.resources["nvidia.com/gpu"] = str(len(off))
    return [node]


def _at(file: str, line: int | None) -> Where:
    return Where(None, fixed={"file": file, "document": 1, "path": "", "line": line})
