"""The API's objects as ``TypedDict`` (plain dicts at run time, checked by type checkers).

Clients must ignore unknown fields: the API adds fields without a version change.
"""

from __future__ import annotations

import os
from typing import IO, Any, Dict, List, Literal, Optional, TypedDict, Union

GenerationType = Literal["render", "edit", "decoration", "upscale"]
GenerationStatus = Literal["in_progress", "succeeded", "failed", "canceled"]
Quality = Literal["1k", "2k", "4k", "8k"]
Scale = Literal["x2", "x4"]
MaskColor = Literal["#FF0000", "#CCFF00", "#00FF66", "#0066FF", "#CC00FF"]
"""The mask palette: one layer per painted colour."""
Finish = Literal["default", "solid_glossy", "solid_matte", "wood", "stone", "metal", "fabric", "concrete"]
DecorationCategory = Literal[
    "plants", "rugs", "cushions", "throws", "lighting", "wall_art", "mirrors", "books", "vases", "tableware", "curtains", "sculptures"
]
WebhookEventType = Literal[
    "generation.succeeded", "generation.failed", "generation.canceled", "balance.low", "balance.recharge_failed", "balance.expiring"
]

ImageInput = Union[str, "os.PathLike[str]", bytes, bytearray, memoryview, IO[bytes]]
"""An image for ``image``, ``mask`` or ``layers[].element``:

- an ``https://`` URL (``str``), sent as is: the server downloads it;
- an upload id ``file_…`` (``str``), sent as is;
- a file path (any other ``str``, or a ``pathlib.Path``), read from disk;
- bytes (``bytes``, ``bytearray``, ``memoryview``) or a binary file object (``open(p, "rb")``,
  ``io.BytesIO``), read once and kept in memory so a retry resends the same bytes.

A request with any file is sent as multipart/form-data, each file in a part named as its field.
"""


class GenerationOutput(TypedDict):
    url: str
    """Signed URL of the image, valid 15 minutes (read the generation again for a fresh one)."""
    url_expires_at: int
    content_type: str
    width: int
    height: int


class GenerationError(TypedDict):
    code: str
    """``generation_failed``, ``content_policy_violation``, …"""
    message: str


class Cost(TypedDict):
    amount: int
    """Euro cents charged (0 in test mode)."""
    currency: Literal["eur"]
    unit: Literal["cents"]
    discount_percent: int
    amount_refunded: int


class Generation(TypedDict):
    """A generation, as ``GET /v1/generations/{id}`` returns it."""

    object: Literal["generation"]
    id: str
    type: GenerationType
    status: GenerationStatus
    progress: Optional[float]
    """0 to 1 while in progress."""
    cancelable: bool
    livemode: bool
    created_at: int
    completed_at: Optional[int]
    input: Dict[str, Any]
    output: List[GenerationOutput]
    error: Optional[GenerationError]
    cost: Cost
    metadata: Dict[str, str]
    expires_at: int


class Style(TypedDict):
    object: Literal["style"]
    id: str
    name: str
    description: str


class EditMaterialCategory(TypedDict):
    object: Literal["edit_material_category"]
    id: str
    name: str
    description: str


class EditMaterial(TypedDict):
    object: Literal["edit_material"]
    id: str
    name: str
    description: str
    category: str


class StyleList(TypedDict):
    object: Literal["list"]
    data: List[Style]
    has_more: bool


class Price(TypedDict):
    """One line of ``GET /v1/prices``: ``amount`` is what ``cost.amount`` of a generation accepted now will be."""

    object: Literal["price"]
    type: Literal["render", "edit", "decoration", "upscale"]
    quality: Optional[Literal["1k", "2k", "4k", "8k"]]
    scale: Optional[Literal["x2", "x4"]]
    amount: int
    list_amount: int
    discount_percent: float
    currency: Literal["eur"]
    unit: Literal["cents"]


class PriceList(TypedDict):
    object: Literal["list"]
    data: List[Price]
    has_more: bool


class EditMaterialCategoryList(TypedDict):
    object: Literal["list"]
    data: List[EditMaterialCategory]
    has_more: bool


class _BalanceRequired(TypedDict):
    object: Literal["balance"]
    amount: int
    currency: Literal["eur"]
    unit: Literal["cents"]


class Balance(_BalanceRequired, total=False):
    """The balance object of balance events."""

    low_balance_threshold: int
    failed_recharge: Dict[str, Any]
    expiring: Dict[str, Any]


class AccountBalance(TypedDict):
    """``GET /v1/balance`` (a Roomtone addition to the spec): the balance object with the monthly limit and spend, in cents."""

    object: Literal["balance"]
    amount: int
    currency: Literal["eur"]
    unit: Literal["cents"]
    monthly_limit: int
    monthly_spend: int


class TriggeredEvent(TypedDict):
    """``POST /v1/events/trigger``: the sample test-mode event produced, and who follows its type."""

    object: Literal["triggered_event"]
    type: str
    event_id: Optional[str]
    endpoints: int
    event_stream: bool


class GenerationEventData(TypedDict):
    object: Generation


class BalanceEventData(TypedDict):
    object: Balance


class GenerationEvent(TypedDict):
    id: str
    type: Literal["generation.succeeded", "generation.failed", "generation.canceled"]
    created_at: int
    livemode: bool
    data: GenerationEventData


class BalanceEvent(TypedDict):
    id: str
    type: Literal["balance.low", "balance.recharge_failed", "balance.expiring"]
    created_at: int
    livemode: bool
    data: BalanceEventData


WebhookEvent = Union[GenerationEvent, BalanceEvent]
"""The body of a webhook delivery."""


class _LayerBase(TypedDict):
    mask_color: MaskColor


class _ModifyLayerRequired(_LayerBase):
    action: Literal["modify"]


class ModifyLayer(_ModifyLayerRequired, total=False):
    """Change the painted area: a ``material`` from ``edit_materials``, or a ``color`` (``#RRGGBB``) with a ``finish``."""

    material: str
    color: str
    finish: Finish


class RemoveLayer(_LayerBase):
    action: Literal["remove"]


class ElementLayer(_LayerBase):
    """Add an element (``add``) or replace what is painted by it (``replace``)."""

    action: Literal["add", "replace"]
    element: ImageInput


EditLayer = Union[ModifyLayer, RemoveLayer, ElementLayer]
