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
"""

from __future__ import annotations

from kb.errors import UnusableInput
from kb.text import Text

#: extractor id → what the importer drafts from it
IMPORTABLE = ("platform-support", "mig-parted-config", "release-notes", "device-plugin-changelog")
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
        return _release_drafts(source_id, text, data, repository, since)
    if extractor == "platform-support":
        return drafting.platform_drafts(source_id, extracted, data, snapshot)
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


def card_draft(source: str, product: dict, entries=(), snapshot: str | None = None) -> dict:
    """A card draft for one product of the platform-support extractor (see kb.importer.cards.card_draft)."""
    from kb.importer.cards import card_draft as draft_card

    return draft_card(source, product, entries, snapshot)


__all__ = ["draft", "card_draft", "IMPORTABLE"]
