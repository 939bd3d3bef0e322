"""Known issues of version ranges (catalog: `known_issues:` of catalog/releases/*.yaml) as facts rules read.

    facts(data, operator="25.3.2", driver="570.148.08", card="h200-nvl")
      -> [{"kind": "known_issue", "issue": "mixed-mig-and-full-gpu-pending", "component": "driver",
           "version": "570.148.08", "status": "affected", "trigger": "node-mixes-mig-and-full-gpus",
           "fixed_in": "570.172.08, 580.65.06", "text_en": …, "workaround_en": …, …}, …]

Which version a known issue is checked against: the driver given (component `driver`), the GPU Operator
release asked about (`gpu-operator`), or the version of the component that release ships (any other
component; kb.questions.behaviour.component_version). `status` is `affected` (in one of the ranges),
`unaffected` (a known version outside them) or `unknown` (no version to check: no --driver given, or the
release's component version is not recorded). Where the issue is limited to some cards and a card is asked
about, `card_affected` says whether it is one of them. Used by `ask` (mig, methods, strategy) and by `check`.
"""

from __future__ import annotations

from kb import versions
from kb.questions import behaviour


def all_issues(data: dict) -> list[tuple[str, dict]]:
    """(releases file, known issue) for every known issue of the catalog, in file order."""
    return [(component, issue) for component, file in sorted(data["releases"].items())
            for issue in file.get("known_issues", [])]


def affected(version: str, ranges: list[dict]) -> bool:
    """Is `version` within one of the ranges (first and last included)?"""
    k = versions.key(version)
    return any(versions.key(r["first"]) <= k <= versions.key(r["last"]) for r in ranges)


def _version(data: dict, component: str, operator: str | None, driver: str | None) -> str | None:
    if component == "driver":
        return driver
    if component == "gpu-operator":
        return operator
    return behaviour.component_version(data, operator, component)[0] if operator else None


def ranges_text(ranges: list[dict], version=str) -> str:
    """The affected versions as written for people: '570.124.06–570.158.01, 575.57.08' (`version` writes each one,
    kb.site.md.code on the site)."""
    return ", ".join(version(r["first"]) if r["first"] == r["last"] else f"{version(r['first'])}–{version(r['last'])}"
                     for r in ranges)


def fact(data: dict, file: str, issue: dict, *, operator: str | None = None, driver: str | None = None,
         card: str | None = None) -> dict:
    """The fact of one known issue for the versions asked about."""
    version = _version(data, issue["component"], operator, driver)
    out = {"kind": "known_issue", "issue": issue["id"], "file": file, "component": issue["component"],
           "trigger": issue["trigger"], "version": version or "unknown",
           "status": "unknown" if version is None else "affected" if affected(version, issue["affects"]) else "unaffected",
           "affected_versions": ranges_text(issue["affects"]),
           "fixed_in": ", ".join(issue.get("fixed_in", [])) or "-",
           "text_en": issue["text"]["en"], "text_de": issue["text"]["de"],
           "workaround_en": issue["workaround"]["en"], "workaround_de": issue["workaround"]["de"]}
    if operator:
        out["operator"] = operator
    if issue.get("workaround_setting"):
        out.update(workaround_key=issue["workaround_setting"]["key"], workaround_value=issue["workaround_setting"]["value"])
    if issue.get("cards"):
        out["card_limited"] = True
        if card:
            out["card_affected"] = card in issue["cards"]
    else:
        out["card_limited"] = False
    return out


def card_reads(data: dict, card: str) -> tuple:
    """What `fact` reads of the card asked about: whether it is one of the cards of each issue limited to some
    (equal for two cards: their facts are equal)."""
    return tuple(card in issue["cards"] for _file, issue in all_issues(data) if issue.get("cards"))


def facts(data: dict, *, operator: str | None = None, driver: str | None = None, card: str | None = None,
          trigger: str | None = None) -> list[dict]:
    """A `known_issue` fact for every known issue (of one trigger, if given) with its status for these versions:
    facts built once per catalog and what they are built from (the versions, what `card_reads` reads of the card;
    every question about a release and driver asks for them), shared and read-only (kb.engine.SharedFact: the engine
    checks and projects each once per call), in a list of their own."""
    memo = behaviour._derived(data).setdefault("known_issue_facts", {})
    reads = None
    if card is not None:
        reads = memo.get(("card", card))
        if reads is None:
            reads = memo["card", card] = card_reads(data, card)
    key = (operator, driver, reads, trigger)
    found = memo.get(key)
    if found is None:
        from kb.engine import SharedFact

        if len(memo) > 20_000:  # (drivers typed one by one, as the drift checker's may be: kept within bounds)
            memo.clear()
        found = memo[key] = [SharedFact(fact(data, file, issue, operator=operator, driver=driver, card=card))
                             for file, issue in all_issues(data) if trigger is None or issue["trigger"] == trigger]
    return list(found)
