"""Draft catalog YAML from an NVIDIA document, reusing the drift extractors (kb/drift/extractors).

    draft(source_id, text, data, snapshot=None, cards=None) -> {"source", "extractor", "drafts": [...], "notes": [...]}

A draft is what the document states, with citations (quotes as the extractor read them from the page, so
`gpukb lint` finds them in the snapshot). What a document does not say stays out or is marked for review:
hand-written notes, our own offer (`vendor`) and facts of other documents are added by a person.

- `platform-support` (the GPU Operator's supported-GPU list): a card per product the catalog does not know yet
  (`card_draft`, also used by the drift check for a product NVIDIA newly lists): listing, the name the list uses, architecture, driver minimum and driver
  exceptions from the notes, the KubeVirt vGPU list; DGX/HGX systems are named, to be recorded under the card
  they contain (`systems`).
- `mig-parted-config` (mig-parted's config-default.yaml): per card with `pci_device_ids`, the MIG profiles the
  configuration creates for those device ids (kb.importer.cards.mig_draft).
- `release-notes` (the GPU Operator's release notes) and `device-plugin-changelog` (a CHANGELOG): the release
  entries of every releases file whose `source` the document is, new or changed (kb.importer.releases.drafts;
  with a clone of NVIDIA/gpu-operator also what each release tag deploys and its MIG layouts' device ids).
- `helm-chart` (the standalone DRA driver's Chart.yaml) with a clone of kubernetes-sigs/dra-driver-nvidia-gpu: the
  driver's release entries (requirements, feature gates, kubelet plugins) read at each release tag (kb.importer.dra).
- `platform-support` with a clone of NVIDIA/cloud-native-docs and/or NVIDIA/gpu-operator (`repository`, one or a
  list): also `operator_support.since` and `kubevirt_vgpu_since` of every card whose value differs from the first
  version of the page naming it, or the first release tag whose code configures its vGPU (kb.importer.history).
"""

from __future__ import annotations

from kb.errors import UnusableInput
from kb.text import Text

#: extractor id → what the importer drafts from it
IMPORTABLE = ("platform-support", "mig-parted-config", "release-notes", "device-plugin-changelog", "helm-chart")
#: extractors whose documents list releases (kb.importer.releases)
RELEASES = ("release-notes", "device-plugin-changelog")


def draft(source_id: str, text: str, data: dict, snapshot: str | None = None, cards: list[str] | None = None,
          repository=None, since: str | None = None) -> dict:
    """Drafts from the document `text` of the catalog source `source_id`; UnusableInput for a source no
    importer reads or a document its extractor cannot read."""
    from kb.drift.extractors import ExtractError, get
    from kb.importer import cards as drafting

    source = data["sources"].get(source_id)
    if source is None:
        known = sorted(s for s, v in data["sources"].items() if (v.get("watch") or {}).get("extractor") in IMPORTABLE)
        raise UnusableInput(Text(f"unknown source {source_id!r}; importable: {', '.join(known)}",
                                 f"unbekannte Quelle {source_id!r}; importierbar: {', '.join(known)}"), suggestions=known)
    extractor = (source.get("watch") or {}).get("extractor")
    if extractor not in IMPORTABLE:
        raise UnusableInput(Text(f"no importer reads {source_id!r} (extractor {extractor or 'none'}); importable "
                                 f"extractors: {', '.join(IMPORTABLE)}",
                                 f"kein Importer liest {source_id!r} (Extraktor {extractor or 'keiner'}); importierbar "
                                 f"sind: {', '.join(IMPORTABLE)}"))
    try:
        extracted = get(extractor).extract(text)
    except ExtractError as exc:
        raise UnusableInput(Text(f"the file is no {extractor} document: {exc}",
                                 f"die Datei ist kein Dokument der Art {extractor}: {exc}")) from None
    if extractor in RELEASES:
        if isinstance(repository, (list, tuple)):
            raise UnusableInput(Text("release notes are read with one clone of the operator's repository, not several",
                                     "Release Notes werden mit einem Klon des Operator-Repositorys gelesen, nicht mehreren"))
        return _release_drafts(source_id, text, data, repository, since)
    if extractor == "helm-chart":
        return _dra_drafts(source_id, data, repository)
    if extractor == "platform-support":
        result = drafting.platform_drafts(source_id, extracted, data, snapshot)
        if repository:
            result["drafts"] += _since_drafts(data, repository)
        return result
    return drafting.mig_drafts(source_id, extracted, data, snapshot, cards)


def _release_drafts(source_id: str, text: str, data: dict, repository, since: str | None) -> dict:
    from kb import versions
    from kb.catalog.compiled import catalog_dir
    from kb.importer import releases

    if since is not None:
        since = ".".join(str(p) for p in versions.parse(since, "version"))
    folder = catalog_dir() / "releases"
    files = {c: (folder / f"{c}.yaml").read_text(encoding="utf-8")
             for c, f in data["releases"].items() if f.get("source") == source_id}
    if not files:
        raise UnusableInput(Text(f"no releases file of the catalog lists its releases from {source_id!r}",
                                 f"keine Release-Datei des Katalogs führt ihre Releases nach {source_id!r}"))
    return releases.drafts(source_id, text, data, files, repository=repository, since=since)


def _dra_drafts(source_id: str, data: dict, repository) -> dict:
    """The standalone DRA driver's releases, read at each release tag of a clone (kb.importer.dra)."""
    from kb.catalog.compiled import catalog_dir
    from kb.importer import dra

    if not repository or isinstance(repository, (list, tuple)):
        raise UnusableInput(Text("the DRA driver's releases are read at its release tags: name one clone of "
                                 "kubernetes-sigs/dra-driver-nvidia-gpu with --repository",
                                 "die Releases des DRA-Treibers werden an seinen Release-Tags gelesen: nennen Sie einen "
                                 "Klon von kubernetes-sigs/dra-driver-nvidia-gpu mit --repository"))
    name = "catalog/releases/dra-driver.yaml"
    written = (catalog_dir() / "releases" / "dra-driver.yaml").read_text(encoding="utf-8")
    imported = dra.standalone_releases(repository)
    text, added, changed = dra.merge(written, imported)
    entries = [e for e in imported if e["version"] in added or e["version"] in changed]
    out = {"source": source_id, "extractor": "helm-chart", "notes": [], "yaml": {}, "files": {},
           "drafts": [{"file": name, "release": e["version"], "new": e["version"] in added, "entry": e} for e in entries]}
    if entries:
        out["yaml"][name] = "".join(dra.render(e) for e in entries)
        out["files"][name] = text
    return out


def _since_drafts(data: dict, repositories) -> list[dict]:
    """`operator_support.since` and `kubevirt_vgpu_since` of every card whose value differs from the history
    (kb.importer.history): a clone of NVIDIA/cloud-native-docs (the page's versions) and/or of NVIDIA/gpu-operator
    (the code at each release tag), told apart by what they hold."""
    from pathlib import Path

    from kb.importer import history

    found: dict[str, dict] = {}
    for repo in repositories if isinstance(repositories, (list, tuple)) else [repositories]:
        if history.DocsRepository(Path(repo)).commits():
            parts = (("since", history.first_listed(repo, data)),
                     ("kubevirt_vgpu_since", history.first_in_vgpu_list(repo, data)))
        else:
            parts = (("kubevirt_vgpu_since", history.first_in_code(repo, data)),)
        for key, facts in parts:
            for cid, fact in facts.items():
                have = data["cards"][cid]["operator_support"].get(key)
                if have and not have.get("disputed_by"):
                    have = {k: v for k, v in have.items() if k != "disputed_by"}
                if (have or None) != (fact or None):
                    found.setdefault(cid, {})[key] = fact
    return [{"id": cid, "support": support} for cid, support in found.items()]


def card_draft(source: str, product: dict, entries=(), snapshot: str | None = None) -> dict:
    """A card draft for one product of the platform-support extractor (see kb.importer.cards.card_draft)."""
    from kb.importer.cards import card_draft as draft_card

    return draft_card(source, product, entries, snapshot)


__all__ = ["draft", "card_draft", "IMPORTABLE"]
