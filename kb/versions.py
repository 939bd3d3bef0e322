"""Versions — the one module that reads and compares them, wherever they come from.

    parse("v26.7.0") -> (26, 7, 0)          key("26.7") == key("26.7.0")     (sort key, missing parts 0)
    compare("575.57.08", "580") -> "below"  (or "meets", None where either is unknown or not a version)
    in_range("26.3.3", since="26.3.0", until="26.7.0")
    operator("26.7", known) / driver("575.57.08") / kubernetes("v1.34") -> the version as meant
    from_manifest("v1.34.2-eks-1") -> "1.34.2"    (a manifest's loose version; None where it is none)

Rules compare properties with constants only (kb.engine), so facts carry the outcome of a comparison
(`driver_vs_min_driver: below`), computed here. A version that cannot be used raises `VersionError`, an
UnusableInput whose message is in both languages and whose `suggestions` are the known versions.
"""

from __future__ import annotations

from kb.errors import UnusableInput
from kb.text import Text

def _numbers(text) -> str | None:
    """'v26.7.0' / ' 26.7 ' → '26.7.0' / '26.7' (one to four groups of ASCII digits); None otherwise."""
    s = str(text).strip()
    if s[:1] in ("v", "V"):
        s = s[1:]
    parts = s.split(".")
    if 1 <= len(parts) <= 4 and all(p.isascii() and p.isdigit() for p in parts):
        return s
    return None


class VersionError(UnusableInput, ValueError):
    """A version that cannot be used (also a ValueError); `known` (= suggestions) lists the accepted ones
    where that is a closed set."""

    def __init__(self, text: Text, known: list[str] | None = None):
        super().__init__(text, suggestions=list(known or []))

    @property
    def known(self) -> list[str]:
        return self.suggestions


def shown(text, limit: int = 60, lang: str = "en") -> str:
    """User input quoted for a message, cut where it is long: 'L5' in English (the terminal's convention), „L5“ in
    German (a German sentence quotes in „…“)."""
    text = str(text)
    text = text if len(text) <= limit else text[:limit] + "…"
    return f"„{text}“" if lang == "de" else repr(text)


def shown_text(text, limit: int = 60) -> Text:
    """`shown` in both languages, for Text.format."""
    return Text(shown(text, limit), shown(text, limit, "de"))


#: each kind of version: its words and an example, for messages
KINDS = {
    "version": (Text("version", "Version"), "26.7.0"),
    "GPU Operator version": (Text("GPU Operator version", "GPU-Operator-Version"), "26.7.0"),
    "driver version": (Text("driver version", "Treiberversion"), "575.57.08"),
    "Kubernetes version": (Text("Kubernetes version", "Kubernetes-Version"), "1.34.2"),
}


def _not_a(text, what: str, en_extra: str | None = None) -> VersionError:
    words, example = KINDS[what]
    en_extra = en_extra or f"expected digits and dots, e.g. {example}"
    typed = shown(text, lang="de") if str(text).strip() else "Eine leere Angabe"
    return VersionError(Text(f"{shown(text)} is not a {words.en} ({en_extra})",
                             f"{typed} ist keine {words.de} (z. B. {example})"))


def parse(text: str, what: str = "version") -> tuple[int, ...]:
    """'v26.7.0' / '26.7.0' / '26.7' → (26, 7, 0) / (26, 7); VersionError otherwise."""
    numbers = _numbers(text)
    if numbers is None:
        raise _not_a(text, what)
    parts = tuple(int(p) for p in numbers.split("."))
    if any(p > 999 for p in parts):
        raise _not_a(text, what, "each part must be below 1000")
    return parts


_KEYS: dict = {}


def key(text: str) -> tuple[int, ...]:
    """Sort key with missing parts as 0 ('26.7' == '26.7.0'); VersionError where `text` is no version.
    Memoised per text (the answer matrix compares the same few hundred versions millions of times)."""
    found = _KEYS.get(text) if isinstance(text, str) else None
    if found is None:
        found = (parse(text) + (0, 0, 0))[:4]
        if isinstance(text, str) and len(_KEYS) < 100_000:
            _KEYS[text] = found
    return found


def from_manifest(text) -> str | None:
    """A version as a manifest writes it, without 'v' and vendor suffix ('v1.34.2-eks-1' → '1.34.2',
    '580.82.07+abc' → '580.82.07'); None where the value is not a version."""
    if not isinstance(text, str):
        return None
    s = text.strip()
    if s.startswith("v"):
        s = s[1:]
    cut = min((i for i in (s.find("-"), s.find("+")) if i >= 0), default=len(s))
    head, suffix = s[:cut], s[cut:]
    if suffix and not all(c.isascii() and (c.isalnum() or c in ".-+") for c in suffix):
        return None
    parts = head.split(".")
    if not (1 <= len(parts) <= 4 and all(p.isascii() and p.isdigit() for p in parts)):
        return None
    return head if all(int(p) <= 999 for p in parts) else None


_CLEAN: dict = {}


def loose_key(text) -> tuple[int, ...] | None:
    """key() of a version read loosely (from_manifest), None where it is not one: for versions from manifests.
    (from_manifest memoised per text; key() asked each time.)"""
    if isinstance(text, str) and text in _CLEAN:
        clean = _CLEAN[text]
    else:
        clean = from_manifest(text)
        if isinstance(text, str) and len(_CLEAN) < 100_000:
            _CLEAN[text] = clean
    return key(clean) if clean is not None else None


def compare(have, need) -> str | None:
    """'below' (have < need) or 'meets'; None where either is unknown or not a version. Versions are read
    loosely (a manifest's 'v1.34.2-eks-1' is 1.34.2)."""
    h, n = loose_key(have), loose_key(need)
    if h is None or n is None:
        return None
    return "below" if h < n else "meets"


def in_range(version: str, since: str | None = None, until: str | None = None) -> bool:
    """Does a fact that holds `since` (inclusive) `until` (exclusive) hold for `version`?"""
    k = key(version)
    return (since is None or key(since) <= k) and (until is None or k < key(until))


def driver(text: str) -> str:
    """A driver version as NVIDIA writes it: '575.57.08' (the parts' leading zeros kept)."""
    numbers = _numbers(text)
    if numbers is None or "." not in numbers:
        raise _not_a(text, "driver version", "e.g. 575.57.08 or 580.82")
    parse(text, "driver version")
    return numbers


def kubernetes(text: str) -> str:
    """'v1.34.2' / '1.34.2' / '1.34' → '1.34.2' / '1.34.0' (a missing patch counts as .0)."""
    parts = parse(text, "Kubernetes version")
    if len(parts) < 2 or len(parts) > 3:
        raise _not_a(text, "Kubernetes version", "e.g. 1.34.2")
    return ".".join(str(p) for p in (parts + (0,))[:3])


def operator(text: str, known: list[str]) -> str:
    """The known GPU Operator release the user means: 'v26.7.0', '26.7.0' or '26.7' → '26.7.0'.

    A short version that fits several releases ('26.3' with 26.3.0 … 26.3.3 known) is not guessed; a version
    older than the oldest known release raises VersionError naming that one (the catalog's history begins
    there), any other version the catalog does not know one listing the known releases.
    """
    ordered = sorted(known, key=key, reverse=True)
    listed = ", ".join(ordered)
    try:
        parts = parse(text, "GPU Operator version")
    except VersionError as exc:
        raise VersionError(exc.text + Text(f"; known releases: {listed}", f"; bekannte Releases: {listed}"),
                           ordered) from None
    written = ".".join(str(p) for p in parts)
    if len(parts) < 3:
        prefix = [v for v in ordered if key(v)[:len(parts)] == parts]
        if len(prefix) == 1:
            return prefix[0]
        if len(prefix) > 1:
            fits = ", ".join(prefix)
            raise VersionError(Text(f"GPU Operator {written} fits several releases: {fits}; name the patch release",
                                    f"GPU Operator {written} passt auf mehrere Releases: {fits}; "
                                    "nennen Sie das Patch-Release"), prefix)
    wanted = key(text)
    exact = [v for v in ordered if key(v) == wanted]
    if exact:
        return exact[0]
    if ordered and wanted < key(ordered[-1]):
        oldest = ordered[-1]
        raise VersionError(Text(f"GPU Operator {written} is older than every release we know; the oldest is {oldest}",
                                f"GPU Operator {written} ist älter als alle Releases, die wir kennen; das älteste ist {oldest}"),
                           [oldest])
    raise VersionError(Text(f"GPU Operator {written} is not a release we know; known releases: {listed}",
                            f"GPU Operator {shown(text, lang='de')} ist kein Release, das wir kennen; bekannt: {listed}"),
                       ordered)
