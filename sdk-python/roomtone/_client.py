from __future__ import annotations

import os
import re
import urllib.parse
from typing import Mapping, Optional

from ._errors import RoomtoneError
from ._http import HttpClient, Settings
from ._resources import BalanceResource, Decorations, EditMaterialCategories, EditMaterials, Edits, Generations, Prices, Renders, Styles, Upscales, Webhooks

DEFAULT_BASE_URL = "http://localhost:3000"
DEFAULT_TIMEOUT = 6 * 60.0
"""Seconds an attempt may wait for its answer: a creation answers when its generation ends, within 4 min 30 s (then 202 in progress), plus image downloads."""
DEFAULT_MAX_RETRIES = 2
DEFAULT_MAX_RETRY_WAIT = 60.0


class Roomtone:
    """The Roomtone API client::

        from roomtone import Roomtone

        client = Roomtone()  # ROOMTONE_API_KEY, ROOMTONE_BASE_URL
        generation = client.upscales.create(image="room.jpg", scale="x2")

    Args:
        api_key: ``rt_test_…`` or ``rt_live_…``; default the ``ROOMTONE_API_KEY`` environment variable.
        base_url: the service's address, e.g. ``https://roomtone.example.com`` (a trailing
            ``/v1`` is accepted); default ``ROOMTONE_BASE_URL``, else ``http://localhost:3000``.
        timeout: seconds one attempt may wait for its answer (default 360).
        max_retries: extra attempts after a connection error, a timeout, 408, 429 or 5xx (default 2).
        max_retry_wait: the longest ``Retry-After`` (seconds) a retry waits for; a longer one
            raises at once (default 60).
        default_headers: headers sent with every request.
    """

    renders: Renders
    """``POST /v1/renders`` (permission ``renders``)."""
    edits: Edits
    """``POST /v1/edits``, prompt or mask mode (permission ``edits``)."""
    decorations: Decorations
    """``POST /v1/decorations`` (permission ``decorations``)."""
    upscales: Upscales
    """``POST /v1/upscales`` (permission ``upscales``)."""
    generations: Generations
    """Retrieve, list, cancel and wait for generations (permission ``generations_read``)."""
    styles: Styles
    """``GET /v1/styles`` (permission ``decorations``)."""
    prices: Prices
    """``GET /v1/prices`` (any creation permission): prices before you run, tier discount applied."""
    balance: BalanceResource
    """``GET /v1/balance`` (any permission; an addition to the spec): balance, monthly limit and spend, in cents."""
    edit_materials: EditMaterials
    """``GET /v1/edit-materials`` (permission ``edits``)."""
    edit_material_categories: EditMaterialCategories
    """``GET /v1/edit-material-categories`` (permission ``edits``)."""
    webhooks: Webhooks
    """Verify deliveries (``verify``, ``unwrap``), and ``listen`` to the test-mode event stream."""
    base_url: str

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
        max_retry_wait: float = DEFAULT_MAX_RETRY_WAIT,
        default_headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get("ROOMTONE_API_KEY")
        if not key:
            raise RoomtoneError("No API key: pass api_key=… or set ROOMTONE_API_KEY (rt_test_… or rt_live_…).")
        url = base_url if base_url is not None else os.environ.get("ROOMTONE_BASE_URL") or DEFAULT_BASE_URL
        url = re.sub(r"/v1$", "", url.rstrip("/"))
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise RoomtoneError(f"base_url must be an absolute http(s) URL such as https://roomtone.example.com (got '{url}').")
        self.base_url = url
        http = HttpClient(
            Settings(
                api_key=key,
                base_url=url,
                timeout=timeout,
                max_retries=max_retries,
                max_retry_wait=max_retry_wait,
                default_headers=dict(default_headers or {}),
            )
        )
        self.renders = Renders(http, "/renders")
        self.edits = Edits(http, "/edits")
        self.decorations = Decorations(http, "/decorations")
        self.upscales = Upscales(http, "/upscales")
        self.generations = Generations(http)
        self.styles = Styles(http)
        self.prices = Prices(http)
        self.balance = BalanceResource(http)
        self.edit_materials = EditMaterials(http)
        self.edit_material_categories = EditMaterialCategories(http)
        self.webhooks = Webhooks(http)

    def __repr__(self) -> str:
        return f"Roomtone(base_url={self.base_url!r})"
