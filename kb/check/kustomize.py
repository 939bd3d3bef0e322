"""Kustomize, as far as a check needs it: what a Kustomization (or Component) does to the objects it lists.

Read from each `kustomization.yaml` (kind Kustomization/Component of kustomize.config.k8s.io, or a file of
that name with Kustomize's keys) in the input:
- `resources` / `components`: files and folders outside the input are read too (a base one level up); remote
  ones (URLs) are named, not fetched;
- `patches` (path or inline `patch`, with or without `target`), `patchesStrategicMerge` (files or inline) and
  `patchesJson6902`: a patch is not a complete object. It is merged onto the object it targets when that object
  is in the input (strategic merge: mappings merged, lists of named items merged by name, other lists replaced,
  `null` and `$patch: delete` remove; JSON 6902: add/replace/remove by JSON pointer); without its target in the
  input it is read as a *partial* object of the target's kind: what it leaves out is unknown, not a default;
- `configMapGenerator` (literals, files, envs) becomes ConfigMaps — named `<name>-<hash>` unless
  `disableNameSuffixHash`, as Kustomize names them: a ClusterPolicy that names the ConfigMap without the hash
  does not find it (Kustomize rewrites references only in the fields it knows, not in a ClusterPolicy);
- `namespace`, `namePrefix`, `nameSuffix` are applied to the objects of the Kustomization.
What is not done: remote bases, replacements/vars, helmCharts, transformers, images.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path, PurePath

from kb.check.documents import Doc, InputProblem, parse_text
from kb.check.inputs import STDIN_NAME
from kb.text import Text

KEYS = {"resources", "bases", "components", "patches", "patchesStrategicMerge", "patchesJson6902",
        "configMapGenerator", "secretGenerator", "namespace", "namePrefix", "nameSuffix", "generatorOptions"}
FILENAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
HASH = "<hash>"


@dataclass
class Patch:
    """A patch of a Kustomization, with what it targets."""

    doc: Doc | None  # the patch as a document (strategic merge), or None for JSON 6902 operations
    ops: list | None  # JSON 6902 operations
    target: dict  # kind, name, namespace, group, version
    source: str  # where it is written (file, or the kustomization's file for inline ones)
    ops_doc: Doc | None = None  # the document holding the JSON 6902 operations (for their lines)


def is_kustomization(doc: Doc) -> bool:
    data = doc.data
    if not isinstance(data, dict):
        return False
    if data.get("kind") in ("Kustomization", "Component") and str(data.get("apiVersion", "")).startswith(
            "kustomize.config.k8s.io/"):
        return True
    return PurePath(doc.file).name in FILENAMES and "kind" not in data and bool(KEYS & set(data))


def _group(api_version) -> str:
    return api_version.rsplit("/", 1)[0] if isinstance(api_version, str) and "/" in api_version else ""


def _meta(doc: Doc) -> dict:
    meta = doc.data.get("metadata") if isinstance(doc.data, dict) else None
    return meta if isinstance(meta, dict) else {}


def _matches(doc: Doc, target: dict) -> bool:
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        return False
    if target.get("kind") and data["kind"] != target["kind"]:
        return False
    if target.get("group") is not None and "group" in target and _group(data.get("apiVersion")) != target["group"]:
        return False
    meta = _meta(doc)
    if target.get("name") and meta.get("name") != target["name"]:
        return False
    if target.get("namespace") and meta.get("namespace") not in (None, target["namespace"]):
        return False
    return True


# --- merging ---------------------------------------------------------------------------------------------
def strategic_merge(base, patch, mark=None, at: tuple = ()):
    """Kustomize's strategic merge, as far as the objects gpukb reads need it. Mappings of `base` are changed in
    place (their lines stay known); returns the merged value (None: deleted). `mark(container, key, path)` is told
    of every field the patch writes (`path`: where it stands in the patch, starting at `at`), `mark(container, key,
    None)` of every field it removes."""
    mark = mark or (lambda container, key, path: None)
    if isinstance(patch, dict) and isinstance(base, dict):
        directive = patch.get("$patch")
        if directive == "delete":
            return None
        if directive == "replace":
            return {k: v for k, v in patch.items() if k != "$patch"}
        for k, v in patch.items():
            if k == "$patch":
                continue
            if v is None:
                if k in base:
                    mark(base, k, None)
                base.pop(k, None)
            elif k in base:
                merged = strategic_merge(base[k], v, mark, at + (k,))
                if merged is None:
                    mark(base, k, None)
                    base.pop(k, None)
                elif merged is not base[k] and not _same_scalar(merged, base[k]):  # the same name: still the base's
                    base[k] = merged
                    mark(base, k, at + (k,))
            else:
                base[k] = v
                mark(base, k, at + (k,))
        return base
    if isinstance(patch, list) and isinstance(base, list) and patch and all(
            isinstance(i, dict) and "name" in i for i in patch) and all(isinstance(i, dict) and "name" in i for i in base):
        index = {i["name"]: n for n, i in enumerate(base)}
        gone = []
        written = {}  # id(item) → its index in the patch
        for n, item in enumerate(patch):
            if item["name"] in index:
                merged = strategic_merge(base[index[item["name"]]], item, mark, at + (n,))
                if merged is None:
                    gone.append(index[item["name"]])
                elif merged is not base[index[item["name"]]]:
                    base[index[item["name"]]] = merged
                    written[id(merged)] = n
            else:
                base.append(item)
                written[id(item)] = n
        for n in sorted(gone, reverse=True):
            mark(base, n, None)
            base.pop(n)
        for n, item in enumerate(base):
            if id(item) in written:
                mark(base, n, at + (written[id(item)],))
        return base
    return patch


def _same_scalar(a, b) -> bool:
    return not isinstance(a, (dict, list)) and type(a) is type(b) and a == b


def _pointer(path: str) -> list:
    return [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]] if path else []


def json6902(data, ops: list, mark=None):
    """JSON patch operations (add, replace, remove) on `data`, in place where it is a container. `mark` as for
    strategic_merge (`path`: the operation's `value` in the list of operations)."""
    mark = mark or (lambda container, key, path: None)
    for n, op in enumerate(ops):
        if not isinstance(op, dict) or not isinstance(op.get("path"), str):
            continue
        parts = _pointer(op["path"])
        if not parts:
            if op.get("op") in ("add", "replace"):
                data = copy.deepcopy(op.get("value"))
            continue
        node = data
        for p in parts[:-1]:
            if isinstance(node, list):
                try:
                    node = node[int(p)]
                except (ValueError, IndexError):
                    node = None
            elif isinstance(node, dict):
                if p not in node and op.get("op") == "add":
                    node[p] = {}
                node = node.get(p)
            if node is None:
                break
        if node is None:
            continue
        last = parts[-1]
        kind = op.get("op")
        if isinstance(node, dict):
            if kind in ("add", "replace"):
                node[last] = copy.deepcopy(op.get("value"))
                mark(node, last, (n, "value"))
            elif kind == "remove" and last in node:
                mark(node, last, None)
                node.pop(last, None)
        elif isinstance(node, list):
            if kind == "add":
                if last == "-":
                    node.append(copy.deepcopy(op.get("value")))
                    mark(node, len(node) - 1, (n, "value"))
                elif last.isdigit() and int(last) <= len(node):
                    node.insert(int(last), copy.deepcopy(op.get("value")))
                    mark(node, int(last), (n, "value"))
            elif last.isdigit() and int(last) < len(node):
                if kind == "replace":
                    node[int(last)] = copy.deepcopy(op.get("value"))
                    mark(node, int(last), (n, "value"))
                elif kind == "remove":
                    mark(node, int(last), None)
                    node.pop(int(last))
    return data


def _partial_from_ops(target: dict, ops: list) -> dict:
    """A partial object of the target's kind holding what the operations add or replace."""
    data: dict = {"kind": target.get("kind"), "metadata": {"name": target.get("name", "")}}
    if target.get("group") or target.get("version"):
        data["apiVersion"] = "/".join(p for p in (target.get("group"), target.get("version")) if p)
    return json6902(data, [dict(op, op="add") for op in ops if isinstance(op, dict) and op.get("op") in ("add", "replace")])


# --- reading -----------------------------------------------------------------------------------------------
@dataclass
class Build:
    """One `kustomize build`: its root (None for input outside any Kustomization) and the objects it makes."""

    root: str | None
    docs: list[Doc]


@dataclass
class Result:
    builds: list[Build]
    problems: list[InputProblem] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)  # {file, text: Text}: what was done or could not be done
    generated: dict = field(default_factory=dict)  # ConfigMap name as referenced (without hash) → generated name


def _own_target(doc: Doc) -> dict:
    """What a strategic-merge patch patches: its own kind, name and namespace."""
    data = doc.data
    meta = _meta(doc)
    return {"kind": data.get("kind"), "name": meta.get("name"), "namespace": meta.get("namespace"),
            "group": _group(data.get("apiVersion"))}


def _rename(doc: Doc, prefix: str, suffix: str, namespace: str | None) -> None:
    meta = doc.data.get("metadata") if isinstance(doc.data, dict) else None
    if not isinstance(meta, dict):
        return
    if (prefix or suffix) and isinstance(meta.get("name"), str):
        meta["name"] = f"{prefix}{meta['name']}{suffix}"
    if namespace and doc.data.get("kind") not in ("Namespace", "ClusterPolicy", "Node", "ClusterRole",
                                                  "ClusterRoleBinding", "CustomResourceDefinition"):
        meta["namespace"] = namespace


_LIST_FIELDS = ("resources", "bases", "components", "patches", "patchesStrategicMerge", "patchesJson6902",
                "configMapGenerator")


def _seq(data: dict, key: str) -> list:
    """A list field of a Kustomization; anything else (`resources: true`) counts as absent here and is reported
    by `_Builder.wrong_types`."""
    value = data.get(key)
    return value if isinstance(value, list) else []


def _entries(data: dict, *keys) -> list[tuple[str, int, str]]:
    return [(key, i, e) for key in keys for i, e in enumerate(_seq(data, key)) if isinstance(e, str)]


class _Builder:
    """Builds one root: every file is parsed afresh (`parse(path)`), so patches change only this build."""

    def __init__(self, parse, problems: list, notes: list, generated: dict):
        self.parse = parse  # path → (docs, problems)
        self.problems = problems
        self.notes = notes
        self.generated = generated
        self.files: set = set()  # the files this build read
        self.consumed: set = set()  # (file, document) of every document it used (objects and patches)

    def docs_of(self, path: str, owner: Doc | None = None, at: tuple = ()) -> list[Doc]:
        if owner is not None and owner.file == STDIN_NAME:  # no folder to read relative to
            self.note(owner.file, Text("a Kustomization read from stdin: the files it names ({p}) are not read",
                                       "eine Kustomization von stdin: Die Dateien, die sie nennt ({p}), werden nicht "
                                       "gelesen").format(p=os.path.basename(path)))
            return []
        key = os.path.normpath(path)
        self.files.add(key)
        if not os.path.isfile(path):
            if owner is not None:
                self.problems.append(InputProblem(owner.file, owner.line(at), owner.shown(at), Text(
                    "names {p}, which does not exist: `kustomize build` fails here",
                    "nennt {p}, das es nicht gibt: `kustomize build` scheitert hier").format(p=path), "kustomize"))
            return []
        docs, problems = self.parse(path)
        self.problems += problems
        self.consumed |= {(key, d.index) for d in docs}
        return docs

    def note(self, file: str, text: Text) -> None:
        if {"file": file, "text": text} not in self.notes:
            self.notes.append({"file": file, "text": text})

    def _inline(self, text: str, owner: Doc, path: tuple) -> list[Doc]:
        docs, problems = parse_text(text, owner.file)
        self.problems += problems
        block = owner.style(path) in ("|", ">")
        return [Doc(owner.file, owner.index, d.data, d.lines, d.top, d.root, prefix=owner.shown(path),
                    line_offset=owner.line(path) if block else None, outer_line=owner.line(path)) for d in docs]

    def patches(self, k: Doc, base: Path) -> list[Patch]:
        data = k.data
        out: list[Patch] = []
        for i, entry in enumerate(_seq(data, "patches")):
            if not isinstance(entry, dict):
                continue
            target = entry.get("target") if isinstance(entry.get("target"), dict) else {}
            if isinstance(entry.get("path"), str):
                docs = self.docs_of(str(base / entry["path"]), k, ("patches", i, "path"))
            elif isinstance(entry.get("patch"), str):
                docs = self._inline(entry["patch"], k, ("patches", i, "patch"))
            else:
                docs = []
            for d in docs:
                if isinstance(d.data, list):  # a JSON 6902 patch: a list of operations
                    out.append(Patch(None, d.data, target, d.file, d))
                elif isinstance(d.data, dict):
                    out.append(Patch(d, None, target or _own_target(d), d.file))
        for i, entry in enumerate(_seq(data, "patchesStrategicMerge")):
            if not isinstance(entry, str):
                continue
            inline = "\n" in entry or (":" in entry and not entry.strip().endswith((".yaml", ".yml", ".json")))
            docs = (self._inline(entry, k, ("patchesStrategicMerge", i)) if inline
                    else self.docs_of(str(base / entry), k, ("patchesStrategicMerge", i)))
            out += [Patch(d, None, _own_target(d), d.file) for d in docs if isinstance(d.data, dict)]
        for i, entry in enumerate(_seq(data, "patchesJson6902")):
            if not isinstance(entry, dict) or not isinstance(entry.get("target"), dict):
                continue
            if isinstance(entry.get("path"), str):
                docs = self.docs_of(str(base / entry["path"]), k, ("patchesJson6902", i, "path"))
            elif isinstance(entry.get("patch"), str):
                docs = self._inline(entry["patch"], k, ("patchesJson6902", i, "patch"))
            else:
                docs = []
            out += [Patch(None, d.data, entry["target"], d.file, d) for d in docs if isinstance(d.data, list)]
        return out

    def generate(self, k: Doc, base: Path) -> list[Doc]:
        """ConfigMaps of configMapGenerator."""
        data = k.data
        options = data.get("generatorOptions") if isinstance(data.get("generatorOptions"), dict) else {}
        out = []
        for i, gen in enumerate(_seq(data, "configMapGenerator")):
            if not isinstance(gen, dict) or not isinstance(gen.get("name"), str):
                continue
            content: dict = {}
            for lit in _seq(gen, "literals"):
                if isinstance(lit, str) and "=" in lit:
                    key, value = lit.split("=", 1)
                    content[key] = value
            for j, spec in enumerate(_seq(gen, "files")):
                if not isinstance(spec, str):
                    continue
                key, rel = spec.split("=", 1) if "=" in spec and "://" not in spec.split("=", 1)[0] else (
                    PurePath(spec).name, spec)
                if "://" in rel:
                    self.note(k.file, Text("remote file {r} not fetched", "entfernte Datei {r} nicht geladen")
                              .format(r=rel))
                    continue
                text = self.read_text(str(base / rel), k, ("configMapGenerator", i, "files", j))
                if text is not None:
                    content[key] = text
            opts = gen.get("options") if isinstance(gen.get("options"), dict) else {}
            hashed = opts.get("disableNameSuffixHash", options.get("disableNameSuffixHash", False)) is not True
            name = gen["name"] + (f"-{HASH}" if hashed else "")
            meta = {"name": name}
            ns = gen.get("namespace") or data.get("namespace")
            if isinstance(ns, str):
                meta["namespace"] = ns
            if hashed:
                self.generated[gen["name"]] = name
            out.append(Doc(k.file, k.index, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta,
                                             "data": content},
                           prefix=k.shown(("configMapGenerator", i)), line_offset=None,
                           outer_line=k.line(("configMapGenerator", i))))
        return out

    def read_text(self, path: str, owner: Doc, at: tuple) -> str | None:
        from kb.check.inputs import _read_file, decode

        if owner.file == STDIN_NAME:
            return None
        self.files.add(os.path.normpath(path))
        if not os.path.isfile(path):
            self.problems.append(InputProblem(owner.file, owner.line(at), owner.shown(at), Text(
                "names {p}, which does not exist: `kustomize build` fails here",
                "nennt {p}, das es nicht gibt: `kustomize build` scheitert hier").format(p=path), "kustomize"))
            return None
        raw = _read_file(path)
        text = raw if isinstance(raw, InputProblem) else decode(path, raw)
        if isinstance(text, InputProblem):
            self.problems.append(text)
            return None
        return text

    def kustomization_in(self, folder: Path, owner: Doc | None = None) -> tuple[Path | None, list[Doc]]:
        if owner is not None and owner.file == STDIN_NAME:
            return None, []
        found = next((folder / n for n in FILENAMES if (folder / n).is_file()), None)
        if found is None:
            return None, []
        return found, [d for d in self.docs_of(str(found)) if is_kustomization(d)]

    def build(self, k: Doc, seen: set, extra: list[Doc] = ()) -> list[Doc]:
        """The objects of one Kustomization: its resources (built recursively), then its components, then its
        own patches, generators, namespace and name prefix/suffix; `extra`: components to apply as well."""
        key = os.path.normpath(k.file)
        if key in seen:
            return []
        seen = seen | {key}
        base = Path(k.file).parent
        objs: list[Doc] = []
        self.wrong_types(k)
        for entry_key, i, entry in _entries(k.data, "resources", "bases"):
            if "://" in entry or entry.startswith(("github.com/", "git@")):
                self.note(k.file, Text("remote resource {r} not fetched", "entfernte Ressource {r} nicht geladen")
                          .format(r=entry))
                continue
            path = base / entry
            if k.file == STDIN_NAME:
                self.docs_of(str(path), k, (entry_key, i))
                continue
            if path.is_dir():
                found, subs = self.kustomization_in(path)
                if found is None:
                    self.problems.append(InputProblem(k.file, k.line((entry_key, i)), k.shown((entry_key, i)), Text(
                        "names folder {p}, which has no kustomization.yaml: `kustomize build` fails here",
                        "nennt den Ordner {p}, der keine kustomization.yaml hat: `kustomize build` scheitert hier")
                        .format(p=path), "kustomize"))
                for sub in subs:
                    objs += self.build(sub, seen)
            else:
                objs += [d for d in self.docs_of(str(path), k, (entry_key, i)) if not is_kustomization(d)]
        objs += self.generate(k, base)
        components = []
        for _, i, entry in _entries(k.data, "components"):
            if k.file == STDIN_NAME:
                continue
            found, subs = self.kustomization_in(base / entry)
            if found is None:
                self.problems.append(InputProblem(k.file, k.line(("components", i)), k.shown(("components", i)), Text(
                    "names component {p}, which has no kustomization.yaml: `kustomize build` fails here",
                    "nennt die Komponente {p}, die keine kustomization.yaml hat: `kustomize build` scheitert hier")
                    .format(p=base / entry), "kustomize"))
            components += subs
        for comp in list(components) + list(extra):
            self.component(comp, objs, seen)
        self.patch(objs, self.patches(k, base))
        prefix, suffix = k.data.get("namePrefix") or "", k.data.get("nameSuffix") or ""
        namespace = k.data.get("namespace") if isinstance(k.data.get("namespace"), str) else None
        if prefix or suffix or namespace:
            for d in objs:
                _rename(d, str(prefix), str(suffix), namespace)
        return objs

    def component(self, comp: Doc, objs: list[Doc], seen: set) -> None:
        """A Component applied to `objs`: its resources and generators, then the components it names itself (as
        Kustomize does: redhat-cop/gitops-catalog's time-sliced-2 names ../time-sliced), then its patches."""
        key = os.path.normpath(comp.file)
        if key in seen:
            return
        seen = seen | {key}
        cbase = Path(comp.file).parent
        self.files.add(key)
        for _, i, entry in _entries(comp.data, "resources"):
            objs += [d for d in self.docs_of(str(cbase / entry), comp, ("resources", i)) if not is_kustomization(d)]
        objs += self.generate(comp, cbase)
        for _, i, entry in _entries(comp.data, "components"):
            found, subs = self.kustomization_in(cbase / entry)
            if found is None:
                self.problems.append(InputProblem(comp.file, comp.line(("components", i)), comp.shown(("components", i)),
                    Text("names component {p}, which has no kustomization.yaml: `kustomize build` fails here",
                         "nennt die Komponente {p}, die keine kustomization.yaml hat: `kustomize build` scheitert hier")
                    .format(p=cbase / entry), "kustomize"))
            for sub in subs:
                self.component(sub, objs, seen)
        self.patch(objs, self.patches(comp, cbase))

    def wrong_types(self, k: Doc) -> None:
        """A list field holding something else: `kustomize build` refuses the file, and so does gpukb (exit 2)."""
        for key in _LIST_FIELDS:
            if key in k.data and k.data[key] is not None and not isinstance(k.data[key], list):
                self.problems.append(InputProblem(k.file, k.line((key,)), k.shown((key,)), Text(
                    "must be a list: `kustomize build` fails here",
                    "muss eine Liste sein: `kustomize build` scheitert hier"), "kustomize"))

    def patch(self, objs: list[Doc], patches: list[Patch]) -> None:
        for p in patches:
            targets = [d for d in objs if _matches(d, p.target)]
            if targets:
                for t in targets:
                    mark = _marker(t, p.doc if p.doc is not None else p.ops_doc)
                    merged = (strategic_merge(t.data, p.doc.data, mark) if p.doc is not None
                              else json6902(t.data, p.ops, mark))
                    if merged is not None and merged is not t.data:
                        t.data = t.top = merged
                        for key in merged if isinstance(merged, dict) and p.doc is not None else ():
                            mark(merged, key, (key,))
                self.note(p.source, Text("patch applied to {k} {n}", "Patch angewandt auf {k} {n}").format(
                    k=p.target.get("kind") or "", n=", ".join(str(_meta(t).get("name", "")) for t in targets)))
                continue
            partial = p.doc if p.doc is not None else Doc(p.source, 1, _partial_from_ops(p.target, p.ops or []),
                                                           line_offset=None)
            if p.doc is not None and p.target.get("kind") and not partial.data.get("kind"):
                partial.data = partial.top = {**partial.data, "kind": p.target["kind"]}
            partial.partial = True
            objs.append(partial)
            name = p.target.get("name") or _meta(partial).get("name") or ""
            self.note(p.source, Text("patch for {k} {n}: its target is not among the objects read; read as a partial "
                                     "{k}", "Patch für {k} {n}: Das Ziel ist nicht unter den gelesenen Objekten; "
                                     "gelesen als Teil von {k}").format(k=p.target.get("kind") or "?", n=name))


def _marker(target: Doc, patch: Doc | None):
    """Records in `target.origins` which fields `patch` wrote, so that findings name the patch's file and line (the
    file the user edits); a removed field's line is dropped from the target's own line table so that the lines of
    the fields after it stay right."""
    if target.origins is None:
        target.origins = {}
    origins = target.origins
    own = getattr(target.lines, "of", None)  # YAML line tables (JSON finds its lines in the text itself)

    def mark(container, key, path):
        if path is None:
            origins.pop((id(container), key), None)
            table = own.get(id(container)) if own is not None else None
            if table is not None:
                i = list(container).index(key) if isinstance(container, dict) else key
                if i < len(table):
                    del table[i]
            return
        if patch is not None:
            origins[(id(container), key)] = (container, patch, path)
    return mark


def _referenced(k: Doc) -> set:
    """The kustomization files a Kustomization or Component refers to (its folders' kustomization.yaml)."""
    base = Path(k.file).parent
    out = set()
    for _, _, entry in _entries(k.data, "resources", "bases", "components"):
        folder = base / entry
        for n in FILENAMES:
            if (folder / n).is_file():
                out.add(os.path.normpath(str(folder / n)))
    return out


def apply(docs: list[Doc], parse) -> Result:
    """The objects as `kustomize build` of each root Kustomization in `docs` makes them (see the module doc).
    `parse(path)` gives fresh (docs, problems) of a file (each build changes only its own copies)."""
    kustomizations = [d for d in docs if is_kustomization(d)]
    if not kustomizations:
        return Result([Build(None, docs)])
    referenced = set().union(*(_referenced(k) for k in kustomizations))
    roots = [k for k in kustomizations if os.path.normpath(k.file) not in referenced
             and k.data.get("kind") != "Component"]
    orphans = [k for k in kustomizations if os.path.normpath(k.file) not in referenced
               and k.data.get("kind") == "Component"]
    problems: list = []
    notes: list = []
    generated: dict = {}
    builds: list[Build] = []
    used: set = set()
    # What no root uses (a Component no Kustomization of the input names, a file outside every build) joins the one
    # build there is — a Flux Kustomization outside the input combines a path with components that way
    # (jesse-gonzalez/nai-llm-fleet-infra). Beside several roots it cannot be told which overlay it belongs to, if any:
    # it is checked on its own (the root-less build below), so its findings never name overlays that do not use it.
    alone = len(roots) > 1
    for root in roots + [None] if alone else roots or [None]:
        b = _Builder(parse, problems, notes, generated)
        if root is None:  # only components: they patch what is outside any Kustomization
            objs = []
            for comp in orphans:
                b.files.add(os.path.normpath(comp.file))
                cbase = Path(comp.file).parent
                for _, i, entry in _entries(comp.data, "resources"):
                    objs += [d for d in b.docs_of(str(cbase / entry), comp, ("resources", i)) if not is_kustomization(d)]
                objs += b.generate(comp, cbase)
            done = b.consumed | (used if alone else set())
            loose = [d for d in docs if not is_kustomization(d) and (os.path.normpath(d.file), d.index) not in done]
            objs = loose + objs
            for comp in orphans:
                b.patch(objs, b.patches(comp, Path(comp.file).parent))
            if objs or not alone:
                builds.append(Build(None, objs))
            used |= b.files
            continue
        objs = b.build(root, set(), () if alone else orphans)
        used |= b.consumed
        builds.append(Build(str(Path(root.file).parent), objs))
    if roots and not alone:
        loose = [d for d in docs if not is_kustomization(d) and (os.path.normpath(d.file), d.index) not in used]
        for b in builds:
            b.docs = loose + b.docs
    return Result(builds, problems, notes, generated)
