"""Turn a firing (rule + matched facts) into a conclusion: fill placeholders, resolve citations."""

from __future__ import annotations

from kb.catalog.facts import FactError, citations, resolve_ref, split_ref
from kb.engine.syntax import PLACEHOLDER_RE
from kb.errors import EngineFailure
from kb.text import Text


def _lookup(rule: dict, facts: tuple, name: str):
    if "." in name:
        alias, prop = name.split(".", 1)
        aliases = [a for a, _ in rule["when"]]
        if alias in aliases and prop in facts[aliases.index(alias)]:
            return facts[aliases.index(alias)][prop]
    else:
        for fact in facts:
            if name in fact:
                return fact[name]
    raise EngineFailure(f"{rule['file']}: placeholder {{{name}}} is not a property of the matched facts "
                        f"({', '.join(sorted({k for f in facts for k in f}))})")


def _show(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


_TEMPLATES: dict = {}


def _template(text: str) -> list:
    """`text` split into literal parts (even positions) and placeholder names (odd positions)."""
    parts = _TEMPLATES.get(text)
    if parts is None:
        parts = _TEMPLATES[text] = PLACEHOLDER_RE.split(text)
    return parts


def fill(rule: dict, facts: tuple, text: str) -> str:
    """Replace every {placeholder} of `text` by the value from the matched facts."""
    parts = _template(text)
    if len(parts) == 1:
        return text
    return "".join([p if i % 2 == 0 else _show(_lookup(rule, facts, p)) for i, p in enumerate(parts)])


def _fill_value(rule: dict, facts: tuple, value):
    if isinstance(value, str):
        whole = PLACEHOLDER_RE.fullmatch(value)
        return _lookup(rule, facts, whole.group(1)) if whole else fill(rule, facts, value)
    if isinstance(value, dict):
        return {k: _fill_value(rule, facts, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill_value(rule, facts, v) for v in value]
    return value


_RESOLVED: dict = {}


def resolve_cite(data: dict, ref: str) -> list[dict] | FactError:
    """`cards/h200-nvl#mig.status` → its citations as {source, title, url, section, quote}, or the FactError
    that says why the reference names no cited fact (returned, not raised: optional cites miss often).
    Memoised per catalog data."""
    key = (data.get("hash") or id(data), ref)
    found = _RESOLVED.get(key)
    if found is None:
        try:
            found = citations(data, resolve_ref(data, ref), split_ref(ref)[1]) or FactError("not a cited fact", ref)
        except FactError as exc:
            found = exc.with_traceback(None)
        _RESOLVED[key] = found
    return found


def cited_fact(data: dict, ref: str, optional: bool, rule_file: str | None = None) -> list[dict]:
    """The citations of the cited fact `ref` (resolve_cite); [] where an optional reference names none; an
    EngineFailure naming the rule's file where a required one names none."""
    found = resolve_cite(data, ref)
    if isinstance(found, FactError):
        if optional:
            return []
        where = f"{rule_file}: " if rule_file else ""
        raise EngineFailure(f"{where}cites {ref}, which is not a cited fact of the catalog ({found.reason})")
    return found


def _node(data: dict, ref: str):
    """The catalog node `ref` names; None where it names none."""
    try:
        return resolve_ref(data, ref)
    except FactError:
        return None


_CONDITIONS: dict = {}


def fact_conditions(data: dict, ref: str) -> list[dict]:
    """The `condition` ({en, de}) of the fact `ref` names, as a list ([] where it has none or names no fact).
    Memoised per catalog data."""
    key = (data.get("hash") or id(data), ref)
    found = _CONDITIONS.get(key)
    if found is None:
        node = _node(data, ref)
        found = _CONDITIONS[key] = [node["condition"]] if isinstance(node, dict) and node.get("condition") else []
    return found


_DISPUTES: dict = {}


def resolve_disputes(data: dict, ref: str) -> list[dict]:
    """Where the fact `ref` names has values from sources that disagree (`disputed_by` in the catalog): one
    dispute {fact, values: [{value, followed, citations, note?}, …]}, the value the catalog follows first.
    [] for an undisputed fact or a reference that names none. Memoised per catalog data."""
    key = (data.get("hash") or id(data), ref)
    found = _DISPUTES.get(key)
    if found is None:
        node = _node(data, ref)
        found = []
        for item in node if isinstance(node, list) else [node]:
            if isinstance(item, dict) and item.get("disputed_by"):
                path = split_ref(ref)[1]
                values = [{"value": item["value"], "followed": True, "citations": citations(data, item, path)}]
                values += [{"value": claim["value"], "followed": False, "citations": citations(data, claim, path),
                            "note": Text.of(claim["note"])} for claim in item["disputed_by"]]
                found.append({"fact": ref, "values": values})
        _DISPUTES[key] = found
    return found


_RULE_INFO: dict = {}


def _rule_info(rule: dict) -> tuple[dict, tuple, tuple]:
    """(the rule, the placeholder names its texts, details and cites use, how `conclude` finds each name's value:
    (name, the position of its alias among the matched facts — None for a plain name, -1 for an alias the rule
    does not have —, the property)), per rule object (held, so its id is not reused by another rule while
    remembered)."""
    entry = _RULE_INFO.get(id(rule))
    if entry is None or entry[0] is not rule:
        names: set = set()

        def walk(value):
            if isinstance(value, str):
                names.update(PLACEHOLDER_RE.findall(value))
            elif isinstance(value, dict):
                for v in value.values():
                    walk(v)
            elif isinstance(value, list):
                for v in value:
                    walk(v)

        then = rule["then"]
        walk([then.get(part) for part in ("text", "condition", "details")])  # what conclude fills; nothing else
        walk(rule["cites"])
        aliases = [a for a, _ in rule["when"]]
        plan = []
        for name in sorted(names):
            alias, dot, prop = name.partition(".")
            plan.append((name, None, name) if not dot else
                        (name, aliases.index(alias) if alias in aliases else -1, prop))
        if len(_RULE_INFO) > 4096:
            _RULE_INFO.clear()
        entry = _RULE_INFO[id(rule)] = (rule, tuple(sorted(names)), tuple(plan))
    return entry


def _values(rule: dict, facts: tuple, plan: tuple) -> tuple:
    """((name, type, value) of each placeholder `plan` names (`_rule_info`)): `_lookup`'s values, the usual
    cases without a call per name."""
    out = []
    for name, at, prop in plan:
        if at is None:  # a plain name: the first matched fact that has it
            for fact in facts:
                if name in fact:
                    value = fact[name]
                    break
            else:
                value = _lookup(rule, facts, name)  # (raises: no matched fact has it)
        elif at >= 0 and prop in facts[at]:
            value = facts[at][prop]
        else:
            value = _lookup(rule, facts, name)
        out.append((name, value.__class__, value))
    return tuple(out)


_CONCLUDED: dict = {}


def conclude(rule: dict, facts: tuple, data: dict, cited: bool = True) -> dict:
    """The conclusion of one firing. What it says depends only on the rule and the values of the placeholders
    its texts, details and cites name: that part is built once per distinct set of values (per catalog)
    and copied; `facts` are the firing's own matched facts. `cited=False`: its cites and disputes are left
    empty (not looked up)."""
    hashed = data.get("hash")
    key = (id(rule), hashed or id(data), _values(rule, facts, _rule_info(rule)[2]), cited)
    entry = _CONCLUDED.get(key)
    if entry is None or entry[0] is not rule or (entry[1] is not data and not hashed):
        entry = _remember(key, rule, facts, data, cited)
    return _handout(entry, facts)


def conclude_many(by_id: dict, fired: list, data: dict, cited: bool = True) -> list[list[dict]]:
    """`conclude` of every firing of every query: fired [[(rule id, matched facts), …], …], rules `by_id` →
    [[conclusion, …], …] (the catalog's key and each rule's plan looked up once per call)."""
    hashed = data.get("hash")
    catalog = hashed or id(data)
    plans: dict = {}
    out = []
    for firings in fired:
        row = []
        for rid, facts in firings:
            found = plans.get(rid)
            if found is None:
                rule = by_id[rid]
                found = plans[rid] = (rule, _rule_info(rule)[2])
            rule, plan = found
            key = (id(rule), catalog, _values(rule, facts, plan), cited)
            entry = _CONCLUDED.get(key)
            if entry is None or entry[0] is not rule or (entry[1] is not data and not hashed):
                entry = _remember(key, rule, facts, data, cited)
            row.append(_handout(entry, facts))
        out.append(row)
    return out


def _handout(entry: tuple, facts: tuple) -> dict:
    """A remembered conclusion (`_remember`'s entry) as the caller's own: what it may change copied, the firing's
    matched facts as copies."""
    made = entry[2]
    out = dict(made)
    out["details"] = dict(made["details"]) if entry[3] else _copy(made["details"])
    out["cites"] = list(map(dict, made["cites"]))
    out["facts"] = list(map(dict, facts))
    return out


def _remember(key: tuple, rule: dict, facts: tuple, data: dict, cited: bool) -> tuple:
    if len(_CONCLUDED) > 100_000:
        _CONCLUDED.clear()
    made = _conclude(rule, facts, data, cited)
    details = made["details"]
    # details without a list or dict (but a Text) inside: its copy is a dict's (what `_copy` would make)
    flat = type(details) is dict and not any(isinstance(v, (dict, list)) and not isinstance(v, Text)
                                             for v in details.values())
    entry = _CONCLUDED[key] = (rule, data, made, flat)
    return entry


#: counts forget() calls: what was built through these memos (kb.drift.impact's answers) is valid within one epoch
EPOCH = 0


def forget() -> None:
    """Forget the conclusions and citations built so far."""
    global EPOCH
    EPOCH += 1
    _CONCLUDED.clear()
    _RULE_INFO.clear()
    _RESOLVED.clear()
    _DISPUTES.clear()
    _CONDITIONS.clear()


#: values `_copy` hands out as they are (a Text is immutable)
_KEPT = frozenset({str, int, float, bool, type(None), Text})


def _copy(value):
    if type(value) in _KEPT:
        return value
    if isinstance(value, dict) and not isinstance(value, Text):
        return {k: v if type(v) in _KEPT else _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _KEPT else _copy(v) for v in value]
    return value


def _conclude(rule: dict, facts: tuple, data: dict, cited: bool = True) -> dict:
    then = rule["then"]
    cites, disputes = [], []
    refs: dict = {}  # each cited reference filled once (the citations and the restrictions read it)

    def filled_ref(ref: str) -> str:
        found = refs.get(ref)
        if found is None:
            found = refs[ref] = fill(rule, facts, ref.rstrip("?"))
        return found

    for ref in rule["cites"] if cited else ():
        optional = ref.endswith("?")
        filled = filled_ref(ref)
        found = cited_fact(data, filled, optional, rule["file"])
        if not found:
            continue
        cites += [dict(c) for c in found if c not in cites]
        disputes += [d for d in resolve_disputes(data, filled) if d not in disputes]
    out = {"rule": rule["id"], "title": Text.of(rule["title"])}
    if "verdict" in then:
        out["verdict"] = then["verdict"]
    else:
        out["severity"] = then["severity"]
    text = Text.of(then["text"])
    out["text"] = Text(fill(rule, facts, text["en"]), fill(rule, facts, text["de"]))
    if "condition" in then:
        condition = Text.of(then["condition"])
        out["condition"] = Text(fill(rule, facts, condition["en"]), fill(rule, facts, condition["de"]))
    else:
        out["condition"] = None
    # a restriction a cited fact carries (its `condition`) is a condition of the answer too
    restrictions = [r for ref in rule["cites"] for r in fact_conditions(data, filled_ref(ref))]
    if restrictions:
        parts = ([out["condition"]] if out["condition"] else []) + \
            [Text.of(r) for i, r in enumerate(restrictions) if r not in restrictions[:i]]
        out["condition"] = Text(*(" ".join(p(lang) for p in parts) for lang in ("en", "de")))
    out["details"] = _fill_value(rule, facts, then.get("details", {}))
    out["cites"] = cites
    out["disputes"] = disputes
    return out
