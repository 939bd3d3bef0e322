"""What `gpukb check` is given: files, folders and stdin — read within bounds, each on its own.

- A file must be a regular file (a FIFO, `/dev/zero` or a socket is refused without being opened for
  reading: it could block or never end) of at most `MAX_BYTES`; stdin (`-`) is read up to the same cap.
- A folder is replaced by the files below it that can hold what gpukb reads (`expand`): YAML and JSON, and
  in the GPU Operator's must-gather bundle also its label list, its nvidia-smi logs and its version file.
- Every file is read or refused with a one-line reason (`InputProblem`); a refused file never stops the
  others. Only when nothing at all could be read does the run have nothing to check.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from dataclasses import dataclass, field
from pathlib import Path

from kb.check.documents import InputProblem
from kb.text import Text

STDIN = "-"
STDIN_NAME = "<stdin>"
#: the largest input gpukb check reads, per file and for stdin (a `kubectl get nodes,pods -A -o json` of
#: 1,000 nodes and 20,000 pods is about 270 MB; its YAML form about 125 MB)
MAX_BYTES = 512 * 1024 * 1024
#: file endings read from a folder
SUFFIXES = (".yaml", ".yml", ".json")
#: files of the GPU Operator's must-gather bundle (hack/must-gather.sh) that mark a folder as one
MUST_GATHER_MARKS = ("cluster_policy.yaml", "cluster_policy.missing", "gpu_nodes.labels", "gpu_operand_ds.yaml",
                     "gpu_operand_pods.yaml")
#: text files of a folder read for what they hold (nvidia-smi output, label lists)
TEXT_SUFFIXES = (".txt", ".log", ".labels", ".out")

#: the operating system's reasons, in German
_OS_DE = {"No such file or directory": "Datei oder Verzeichnis nicht gefunden", "Permission denied": "Zugriff verweigert",
          "Is a directory": "ist ein Verzeichnis", "Too many levels of symbolic links": "zu viele symbolische Links"}


@dataclass
class Input:
    """One input read as text: its name as shown, and its text."""

    name: str
    text: str
    path: str | None = None  # the file system path (None for stdin)
    folder: str | None = None  # the folder it was found in, where the user named a folder
    must_gather: bool = False


@dataclass
class Inputs:
    """What was read (`texts`, in the order given) and what was refused (`problems`)."""

    names: list[str] = field(default_factory=list)
    texts: list[Input] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)
    skipped: dict = field(default_factory=dict)  # folder → number of files in it that hold nothing gpukb reads


def refused(name: str, message: Text, line: int | None = None, kind: str = "refused") -> InputProblem:
    return InputProblem(name, line, "", message, kind)


def _peek(path: Path, size: int = 4096) -> str:
    try:
        with open(path, "rb") as fh:
            return fh.read(size).decode("utf-8", "replace")
    except OSError:
        return ""


_SMI = re.compile(r"NVIDIA-SMI \d|==+NVSMI LOG==+|^GPU \d+: .*\(UUID: |GPU instance profiles:|^\|\s+GPU\s+Name\s+Profile",
                  re.M)


def _kubectl(text: str) -> bool:
    """kubectl commands that change the ClusterPolicy or label nodes, or a helm install of the gpu-operator chart."""
    from kb.check.readers.shell import looks_like_commands

    return looks_like_commands(text) and (bool(re.search(
        r"kubectl\s+(?:\S+\s+)*?(patch\s+clusterpolic|label\s)", text)) or bool(re.search(
            r"helm\s+(?:install|upgrade)\b.*?gpu-operator.*?--(?:set|version)", text, re.S)))


def _script(suffix: str, text: str) -> bool:
    """kubectl/helm commands gpukb reads, or (in a script) manifests applied from here-documents."""
    if _kubectl(text):
        return True
    from kb.check.readers.shell import manifest_text

    return suffix == ".sh" and "kubectl" in text and manifest_text(text) is not None


def looks_like_smi(text: str) -> bool:
    return bool(_SMI.search(text))


def _folder_files(folder: str, inputs: Inputs) -> list[tuple[str, bool]]:
    root = Path(folder)
    must_gather = any((root / m).exists() for m in MUST_GATHER_MARKS)
    out = []
    skipped = 0
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).parts
        if any(part.startswith(".") for part in rel) or not p.is_file():
            continue
        suffix = p.suffix.lower()
        if suffix in SUFFIXES:
            out.append((str(p), must_gather))
        elif p.name == "version" and must_gather:
            out.append((str(p), must_gather))
        elif suffix in TEXT_SUFFIXES and (p.name.endswith(".labels") or looks_like_smi(_peek(p))):
            out.append((str(p), must_gather))
        elif suffix in (".sh", ".txt", ".md") and _script(suffix, _peek(p, 65536)):
            out.append((str(p), must_gather))
        else:
            skipped += 1
    if skipped:
        inputs.skipped[folder] = skipped
    return out


def expand(names: list[str], inputs: Inputs | None = None) -> list[tuple[str, str | None, bool]]:
    """(name, folder it came from or None, in a must-gather bundle) for each file to read. A folder is
    replaced by the files below it that gpukb reads (sorted; hidden ones skipped); a folder without any stays
    (and is refused with its reason). A file named twice ('-' twice: stdin is read once) counts once."""
    inputs = inputs or Inputs()
    out: list[tuple[str, str | None, bool]] = []
    seen: set = set()
    for name in names:
        if name != STDIN and os.path.isdir(name):
            found = _folder_files(name, inputs)
            items = [(f, name, mg) for f, mg in found] or [(name, None, False)]
        else:
            items = [(name, None, False)]
        for item in items:
            if item[0] not in seen:
                seen.add(item[0])
                out.append(item)
    return out


def size(n: int) -> str:
    """512 MiB, 3 MiB, 20 KiB, 900 bytes (no thousands separator: the same in English and German)."""
    if n >= 2**20:
        return f"{n / 2**20:.0f} MiB"
    return f"{n / 1024:.0f} KiB" if n >= 1024 else f"{n} bytes"


def _read_stdin(stdin) -> bytes | InputProblem:
    stream = stdin or sys.stdin.buffer
    raw = stream.read(MAX_BYTES + 1)
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogateescape")
    if len(raw) > MAX_BYTES:
        return refused(STDIN_NAME, Text(f"not read: more than {size(MAX_BYTES)}, the most gpukb check reads per input", f"nicht gelesen: mehr als {size(MAX_BYTES)}, so viel liest gpukb check höchstens je Eingabe"))
    return raw


_KIND = {stat.S_IFIFO: Text("a pipe (FIFO)", "eine Pipe (FIFO)"), stat.S_IFCHR: Text("a character device", "ein Zeichengerät"),
         stat.S_IFBLK: Text("a block device", "ein Blockgerät"), stat.S_IFSOCK: Text("a socket", "ein Socket"),
         stat.S_IFDIR: Text("a folder", "ein Verzeichnis")}


def _not_regular(name: str, mode: int) -> InputProblem:
    what = _KIND.get(stat.S_IFMT(mode), Text("not a regular file", "keine reguläre Datei"))
    return InputProblem(name, None, "", Text("not read: {what}, not a regular file (pipe it in with '-' instead)",
                                             "nicht gelesen: {what}, keine reguläre Datei (stattdessen mit '-' "
                                             "über stdin übergeben)").format(what=what), "refused")


def _read_file(name: str) -> bytes | InputProblem:
    try:
        st = os.stat(name)
        if not stat.S_ISREG(st.st_mode):
            if stat.S_ISDIR(st.st_mode):
                return refused(name, Text(f"no file gpukb reads ({', '.join(SUFFIXES)}, nvidia-smi output) in this folder", f"keine Datei, die gpukb liest ({', '.join(SUFFIXES)}, nvidia-smi-Ausgabe), in diesem "
                               "Verzeichnis"))
            return _not_regular(name, st.st_mode)
        if st.st_size > MAX_BYTES:
            return _too_big(name, st.st_size)
        # O_NONBLOCK: should the file have become a FIFO since the stat, opening it does not block
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not stat.S_ISREG(st.st_mode):
                return _not_regular(name, st.st_mode)
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        why = exc.strerror or str(exc)
        return refused(name, Text(f"cannot read file: {why}", f"Datei nicht lesbar: {_OS_DE.get(why, why)}"), kind="io")
    if len(raw) > MAX_BYTES:
        return _too_big(name, len(raw))
    return raw


def _too_big(name: str, n: int) -> InputProblem:
    return refused(name, Text(f"not read: {size(n)}, more than the {size(MAX_BYTES)} gpukb check reads per file", f"nicht gelesen: {size(n)}, mehr als die {size(MAX_BYTES)}, die gpukb check je Datei liest"))


def decode(name: str, raw: bytes) -> str | InputProblem:
    """The text of a file: UTF-8 (a BOM is dropped), no NUL bytes."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return refused(name, Text("not UTF-8 text", "kein UTF-8-Text"), line=line, kind="io")
    if "\x00" in text:
        return refused(name, Text("binary data (NUL byte), not YAML, JSON or text", "Binärdaten (NUL-Byte), weder YAML, "
                       "JSON noch Text"), line=text[: text.index("\x00")].count("\n") + 1, kind="io")
    return text


def read_all(names: list[str], stdin=None) -> Inputs:
    """Read every named input ('-' = stdin; folders expanded). Never raises for one bad input."""
    inputs = Inputs()
    for name, folder, must_gather in expand(names, inputs):
        shown = STDIN_NAME if name == STDIN else name
        inputs.names.append(shown)
        raw = _read_stdin(stdin) if name == STDIN else _read_file(name)
        if isinstance(raw, InputProblem):
            inputs.problems.append(raw)
            continue
        text = decode(shown, raw)
        if isinstance(text, InputProblem):
            inputs.problems.append(text)
            continue
        inputs.texts.append(Input(shown, text, None if name == STDIN else name, folder, must_gather))
    return inputs
