"""What the facts of a question take from the GPU Operator release asked about, in one place.

The facts of mig, methods, resource, strategy and dra (kb/questions/*.py `facts`, and mig's `details`) read the
asked release only through `part(name, data, operator, …)` — besides carrying its version as text (`operator`), which
no rule compares. Each part is one helper the catalog's release data decide:

- `behaviour`: what the components the release ships do (kb.questions.behaviour.facts),
- `dra`: the DRA requirements and whether the release manages the DRA driver (kb.questions.methods),
- `dra_driver`: the DRA driver version the release deploys (kb.questions.dra.managed_version),
- `listed`: whether the release's support list names the card (kb.questions.mig.listed_at),
- `layouts`: whether the release's MIG Manager has layouts for the card (kb.questions.behaviour.mig_layouts),
- `kubevirt_vgpu`: KubeVirt with NVIDIA vGPU on the card as of the release (kb.questions.methods),
- `issues`: the known issues for the release and a driver (kb.questions.known_issues.facts).

`key` is every part of a release for one card and its driver classes, with the release's version written as a
token and the components' versions as tokens (what the ask page fills in): two releases with the same key get
the same facts for every question about the card, their version aside, hence the same answers but for what the
page fills in. The ask page (kb.site.askdata) builds the answers of one release per key. A new way in which the
release enters the facts must be a part here: tests/test_site_ask.py fails on a fact builder that compares the
release's version anywhere else, and on a key that misses a part.
"""

from __future__ import annotations


# (each helper imports what it calls from the module itself, not the module from the package: `from kb.questions
# import x` runs importlib's Python-level fromlist handling at every call — a part is asked for every answer)


def _behaviour(data, operator, card, index, driver):
    from kb.questions.behaviour import facts

    return facts(data, operator)


def _dra(data, operator, card, index, driver):
    from kb.questions.methods import dra_requirements

    return dra_requirements(data, operator)


def _listed(data, operator, card, index, driver):
    from kb.questions.mig import listed_at

    return listed_at(card, operator)


def _layouts(data, operator, card, index, driver):
    from kb.questions.behaviour import mig_layouts
    from kb.questions.mig import layout_ids

    return mig_layouts(data, operator, layout_ids(card, index))


def _kubevirt_vgpu(data, operator, card, index, driver):
    from kb.questions.methods import kubevirt_vgpu

    return kubevirt_vgpu(card, operator)


def _dra_driver(data, operator, card, index, driver):
    from kb.questions.dra import managed_version

    return managed_version(data, operator)


def _issues(data, operator, card, index, driver):
    """Every known issue's fact for the release, the driver and the card (None: no card), in catalog order;
    callers select by trigger."""
    from kb.questions.known_issues import facts

    return facts(data, operator=operator, driver=driver, card=card["id"] if card else None)


#: name → helper(data, operator, card, index, driver); `card` is the catalog's card (parts about a card need one)
PARTS = {"behaviour": _behaviour, "dra": _dra, "dra_driver": _dra_driver, "listed": _listed, "layouts": _layouts,
         "kubevirt_vgpu": _kubevirt_vgpu, "issues": _issues}
#: the parts that do not need a card, and those that depend on the driver asked about
NO_CARD = ("behaviour", "dra", "dra_driver", "issues")
BY_DRIVER = ("issues",)
#: the parts whose helpers do not read the card
CARDLESS = ("behaviour", "dra", "dra_driver")


def card_reads(data: dict, card: dict) -> tuple:
    """What the part `issues` reads of a card (kb.questions.known_issues.card_reads)."""
    from kb.questions import known_issues

    return ("issues", known_issues.card_reads(data, card["id"]))


def part(name: str, data: dict, operator: str, card: dict | None = None, index: dict | None = None,
         driver: str | None = None):
    """One part of what the facts take from GPU Operator release `operator` (see the module's text)."""
    return PARTS[name](data, operator, card, index, driver)


def key(data: dict, operator: str, card: dict | None, index: dict | None, drivers: list, *, token: str,
        component_token, memo: dict | None = None, names: tuple | None = None, keep=None) -> tuple:
    """Every part of release `operator` for `card` (with and without the card, for each of `drivers`; for `card`
    None the parts no card decides, as questions without a card read them): (name, with the card, driver, text) per
    part, the text (`written`) with `operator` written as `token` and each behaviour fact's component version as its
    token (`component_token(component)`; `inherited_from`, which no rule reads, left out): equal keys, equal facts.
    The texts are the memo's own objects (quick to hash and compare again). `names`: only these parts (what one
    question reads). `keep`: of the part `issues` only the facts it holds (those a rule of the question may match:
    the others change no firing)."""
    memo = {} if memo is None else memo  # (one catalog, one index) the text of each part, by what it was asked for
    # what each part reads of the card (its memo key): nothing (NO_CARD's helpers but `issues` ignore it), what
    # the known issues' facts read of it, or the card
    reads = {name: None if name in CARDLESS else card_reads(data, card) if name == "issues" and card is not None
             else (card or {}).get("id") for name in PARTS}
    out = []
    for name in PARTS if card is not None else NO_CARD:  # (no card: what questions without a card read)
        if names is not None and name not in names:
            continue
        for with_card in ((True, False) if name in NO_CARD else (True,)) if card is not None else (False,):
            for driver in drivers if name in BY_DRIVER else (None,):
                kept = keep if name == "issues" else None
                asked = (name, operator, reads[name] if with_card else None, driver, token, kept)
                text = memo.get(asked)
                if text is None:
                    value = part(name, data, operator, card if with_card else None, index, driver)
                    if kept is not None:
                        value = [f for f in value if kept(f)]
                    text = memo[asked] = written(name, value, operator, token=token, component_token=component_token)
                out.append((name, with_card, driver, text))
    return tuple(out)


def written(name: str, value, operator: str, *, token: str, component_token) -> str:
    """A part's value as `key` writes it: JSON with `operator` as `token`, and of the part `behaviour` each fact's
    component version as its token (`inherited_from`, which no rule reads, left out)."""
    if name == "behaviour":
        value = [{k: (component_token(f["component"]) if k == "version" else v) for k, v in f.items()
                  if k != "inherited_from"} for f in value]
    # (kb.jsonbytes: json's compact text with sorted keys, by orjson — a key compared for equality only; imported here:
    # the ask page's data writes these keys, `gpukb ask` does not)
    from kb import jsonbytes

    return jsonbytes.dumps(value, sort_keys=True).decode("utf-8").replace(operator, token)
