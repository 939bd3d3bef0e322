"""The GPU Operator's whole list of supported GPUs (`catalog/platform-support.yaml`).

The cards describe only the GPUs we ship; this file records every product the platform-support page
lists, so the drift checker can say "platform support no longer lists NVIDIA A2".
"""

from __future__ import annotations

import datetime as dt

from pydantic import Field

from kb.models.common import Citation, Model, Slug


class PlatformProduct(Model):
    """One product row (or one product of a shared cell) of the supported-GPU tables."""

    name: str = Field(
        description=(
            "The product as the page writes it, wrapped lines joined with one space and a trailing comma "
            "dropped, e.g. 'NVIDIA RTX Pro 4500 Blackwell Server Edition'."
        )
    )
    normalised: str = Field(
        description=(
            "The name as gpukb compares names (kb.catalog.names.normalise: lower case, no spaces, hyphens "
            "or leading 'NVIDIA'), e.g. 'rtxpro4500blackwellserveredition'."
        )
    )
    architecture: str = Field(description="The Architecture column as written, e.g. 'NVIDIA Hopper and NVSwitch'.")
    tab: str = Field(
        description=(
            "The tab of the x86 list the product stands in (e.g. 'RTX / T-series Products'), or the section "
            "heading for a table outside the tabs (e.g. 'Supported ARM Based Platforms')."
        )
    )
    notes: list[str] = Field(
        default_factory=list,
        description=(
            "The Notes column and the note/footnote sentences that name the product, markup removed, "
            "e.g. 'Driver versions 575.57.08 or later is required.'"
        ),
    )
    cite: list[Citation] = Field(min_length=1, description="The table row that lists the product.")


class PlatformSupportFile(Model):
    """`catalog/platform-support.yaml`: the supported-GPU list of one version of the page."""

    source: Slug = Field(description="Id of the platform-support document in catalog/sources.yaml.")
    snapshot: dt.date = Field(description="Date of the snapshot the list was read from.")
    products: list[PlatformProduct] = Field(
        min_length=1, description="Every product of the supported-GPU tables, in page order."
    )
