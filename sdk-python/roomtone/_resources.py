"""The API's resources: creations, generations, reference lists, webhooks."""

from __future__ import annotations

import json
import time
import urllib.parse
import uuid
from typing import Any, Callable, Dict, Iterator, List, Literal, Mapping, Optional, Sequence, Union, cast, overload

from . import _webhooks
from ._errors import WaitTimeoutError
from ._http import Body, HttpClient, Query
from ._pagination import Page
from ._types import (
    AccountBalance,
    DecorationCategory,
    EditLayer,
    EditMaterial,
    EditMaterialCategoryList,
    Generation,
    GenerationStatus,
    GenerationType,
    ImageInput,
    PriceList,
    Quality,
    Scale,
    StyleList,
    TriggeredEvent,
    WebhookEvent,
    WebhookEventType,
)
from ._event_stream import listen_events
from ._uploads import creation_body


class _Options:
    """Per-call options shared by every method."""

    @staticmethod
    def pick(timeout: Optional[float], max_retries: Optional[int], extra_headers: Optional[Mapping[str, str]]) -> Dict[str, Any]:
        return {"timeout": timeout, "max_retries": max_retries, "extra_headers": extra_headers}


class _Creations:
    def __init__(self, http: HttpClient, path: str) -> None:
        self._http = http
        self._path = path

    def _create(
        self,
        params: Dict[str, Any],
        idempotency_key: Optional[str],
        timeout: Optional[float],
        max_retries: Optional[int],
        extra_headers: Optional[Mapping[str, str]],
    ) -> Generation:
        body = creation_body(params)
        key = idempotency_key if idempotency_key is not None else f"sdk_{uuid.uuid4()}"
        response = self._http.request("POST", self._path, body=body, idempotency_key=key, **_Options.pick(timeout, max_retries, extra_headers))
        return cast(Generation, response.data)


class Renders(_Creations):
    def create(
        self,
        *,
        image: ImageInput,
        quality: Optional[Quality] = None,
        style: Optional[str] = None,
        metadata: Optional[Mapping[str, str]] = None,
        background: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Generation:
        """``POST /v1/renders`` (permission ``renders``): a photorealistic render of a draft.

        Answers the generation when it ends, or at once in progress with ``background=True``
        (and under heavy load): then :meth:`Generations.wait_until_done`.
        """
        params = {"image": image, "quality": quality, "style": style, "metadata": metadata, "background": background}
        return self._create(params, idempotency_key, timeout, max_retries, extra_headers)


class Decorations(_Creations):
    def create(
        self,
        *,
        image: ImageInput,
        quality: Optional[Quality] = None,
        style: Optional[str] = None,
        categories: Optional[Sequence[DecorationCategory]] = None,
        metadata: Optional[Mapping[str, str]] = None,
        background: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Generation:
        """``POST /v1/decorations`` (permission ``decorations``): decorate a furnished room in a style."""
        params = {
            "image": image,
            "quality": quality,
            "style": style,
            "categories": list(categories) if categories is not None else None,
            "metadata": metadata,
            "background": background,
        }
        return self._create(params, idempotency_key, timeout, max_retries, extra_headers)


class Upscales(_Creations):
    def create(
        self,
        *,
        image: ImageInput,
        scale: Optional[Scale] = None,
        metadata: Optional[Mapping[str, str]] = None,
        background: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Generation:
        """``POST /v1/upscales`` (permission ``upscales``): x2 or x4."""
        params = {"image": image, "scale": scale, "metadata": metadata, "background": background}
        return self._create(params, idempotency_key, timeout, max_retries, extra_headers)


class Edits(_Creations):
    @overload
    def create(
        self,
        *,
        image: ImageInput,
        mode: Literal["prompt"],
        quality: Quality,
        prompt: str,
        mask: Optional[ImageInput] = None,
        metadata: Optional[Mapping[str, str]] = None,
        background: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Generation: ...

    @overload
    def create(
        self,
        *,
        image: ImageInput,
        mode: Literal["mask"],
        quality: Quality,
        mask: ImageInput,
        layers: Sequence[EditLayer],
        metadata: Optional[Mapping[str, str]] = None,
        background: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Generation: ...

    def create(
        self,
        *,
        image: ImageInput,
        mode: Literal["prompt", "mask"],
        quality: Quality,
        prompt: Optional[str] = None,
        mask: Optional[ImageInput] = None,
        layers: Optional[Sequence[EditLayer]] = None,
        metadata: Optional[Mapping[str, str]] = None,
        background: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Generation:
        """``POST /v1/edits`` (permission ``edits``).

        Prompt mode: an instruction (``prompt``); a mask painted in exactly one colour limits it
        to that area. Mask mode: a ``mask`` and one layer per painted colour.
        """
        params = {
            "image": image,
            "mode": mode,
            "quality": quality,
            "prompt": prompt,
            "mask": mask,
            "layers": [dict(layer) for layer in layers] if layers is not None else None,
            "metadata": metadata,
            "background": background,
        }
        return self._create(params, idempotency_key, timeout, max_retries, extra_headers)


ProgressCallback = Callable[[Generation], None]


class Generations:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def retrieve(
        self, generation_id: str, *, timeout: Optional[float] = None, max_retries: Optional[int] = None, extra_headers: Optional[Mapping[str, str]] = None
    ) -> Generation:
        """``GET /v1/generations/{id}`` (permission ``generations_read``): the generation at once (fresh output URLs, valid 15 minutes)."""
        path = f"/generations/{urllib.parse.quote(generation_id, safe='')}"
        return cast(Generation, self._http.request("GET", path, **_Options.pick(timeout, max_retries, extra_headers)).data)

    def list(
        self,
        *,
        limit: Optional[int] = None,
        after: Optional[str] = None,
        type: Optional[GenerationType] = None,
        status: Optional[GenerationStatus] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Page[Generation]:
        """``GET /v1/generations``, most recent first: the first page; iterate it for every generation of every page."""
        query: Dict[str, Union[str, int, None]] = {"limit": limit, "type": type, "status": status}
        return _paginate(self._http, "/generations", query, after, _Options.pick(timeout, max_retries, extra_headers))

    def cancel(
        self, generation_id: str, *, timeout: Optional[float] = None, max_retries: Optional[int] = None, extra_headers: Optional[Mapping[str, str]] = None
    ) -> Generation:
        """``POST /v1/generations/{id}/cancel``: cancels a generation whose processing has not started
        (:class:`ConflictError` ``generation_not_cancelable`` otherwise; a retry after a lost answer
        may find it canceled by the first attempt: read it)."""
        path = f"/generations/{urllib.parse.quote(generation_id, safe='')}/cancel"
        return cast(Generation, self._http.request("POST", path, **_Options.pick(timeout, max_retries, extra_headers)).data)

    def wait_until_done(
        self,
        generation: Union[str, Mapping[str, Any]],
        *,
        timeout: float = 600.0,
        poll_interval: float = 1.0,
        max_poll_interval: float = 10.0,
        on_progress: Optional[ProgressCallback] = None,
    ) -> Generation:
        """Read the generation until it ends (``succeeded``, ``failed`` or ``canceled``).

        Waits ``poll_interval`` (1 s), then half as long again each time, up to
        ``max_poll_interval`` (10 s) between reads. ``on_progress`` is called with each read
        while the generation is in progress (its ``progress`` goes from 0 to 1). A failed
        generation is returned, not raised: check ``status``. Past ``timeout`` seconds (10
        minutes) raises :class:`WaitTimeoutError`, whose ``generation`` is the last read; the
        generation goes on.
        """
        generation_id = generation if isinstance(generation, str) else str(generation["id"])
        deadline = time.monotonic() + timeout
        delay = poll_interval
        while True:
            current = self.retrieve(generation_id)
            if current["status"] != "in_progress":
                return current
            if on_progress is not None:
                on_progress(current)
            left = deadline - time.monotonic()
            if left <= 0:
                raise WaitTimeoutError(f"Generation {generation_id} was still in progress after {timeout} s.", current)
            time.sleep(min(delay, left))
            delay = min(max_poll_interval, delay * 1.5)


class Styles:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def list(self, *, timeout: Optional[float] = None, max_retries: Optional[int] = None, extra_headers: Optional[Mapping[str, str]] = None) -> StyleList:
        """``GET /v1/styles`` (permission ``decorations``): every decoration style, in one answer."""
        return cast(StyleList, self._http.request("GET", "/styles", **_Options.pick(timeout, max_retries, extra_headers)).data)


class Prices:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def list(self, *, timeout: Optional[float] = None, max_retries: Optional[int] = None, extra_headers: Optional[Mapping[str, str]] = None) -> PriceList:
        """``GET /v1/prices`` (any creation permission): the price of each type at each quality or scale
        for the key's organization, tier discount applied, in cents."""
        return cast(PriceList, self._http.request("GET", "/prices", **_Options.pick(timeout, max_retries, extra_headers)).data)


class BalanceResource:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def retrieve(self, *, timeout: Optional[float] = None, max_retries: Optional[int] = None, extra_headers: Optional[Mapping[str, str]] = None) -> AccountBalance:
        """``GET /v1/balance`` (any permission; a Roomtone addition to the spec): balance, monthly limit and spend this month, in cents."""
        return cast(AccountBalance, self._http.request("GET", "/balance", **_Options.pick(timeout, max_retries, extra_headers)).data)


class EditMaterialCategories:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def list(
        self, *, timeout: Optional[float] = None, max_retries: Optional[int] = None, extra_headers: Optional[Mapping[str, str]] = None
    ) -> EditMaterialCategoryList:
        """``GET /v1/edit-material-categories`` (permission ``edits``): every category, in one answer."""
        data = self._http.request("GET", "/edit-material-categories", **_Options.pick(timeout, max_retries, extra_headers)).data
        return cast(EditMaterialCategoryList, data)


class EditMaterials:
    def __init__(self, http: HttpClient) -> None:
        self._http = http

    def list(
        self,
        *,
        category: Optional[str] = None,
        search: Optional[str] = None,
        limit: Optional[int] = None,
        after: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Page[EditMaterial]:
        """``GET /v1/edit-materials`` (permission ``edits``): the first page; iterate it for every material."""
        query: Dict[str, Union[str, int, None]] = {"limit": limit, "category": category, "search": search}
        return _paginate(self._http, "/edit-materials", query, after, _Options.pick(timeout, max_retries, extra_headers))


class Webhooks:
    """Verify deliveries (also :func:`roomtone.webhooks.verify` / :func:`roomtone.webhooks.unwrap`, without a client), and ``listen`` to the test-mode event stream."""

    def __init__(self, http: HttpClient) -> None:
        self._http = http

    @staticmethod
    def verify(payload: _webhooks.Payload, headers: Mapping[str, str], secret: _webhooks.Secrets) -> None:
        _webhooks.verify(payload, headers, secret)

    @staticmethod
    def unwrap(payload: _webhooks.Payload, headers: Mapping[str, str], secret: _webhooks.Secrets) -> WebhookEvent:
        return _webhooks.unwrap(payload, headers, secret)

    def trigger(
        self,
        type: Literal["generation.succeeded", "generation.failed", "generation.canceled"],
        *,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> TriggeredEvent:
        """``POST /v1/events/trigger`` (test keys with ``generations_read``): a sample test-mode event of ``type``,
        delivered signed to the test endpoints that follow it and to open ``listen`` streams."""
        body = Body(data=json.dumps({"type": type}).encode(), content_type="application/json")
        return cast(TriggeredEvent, self._http.request("POST", "/events/trigger", body=body, **_Options.pick(timeout, max_retries, extra_headers)).data)

    def listen(
        self,
        *,
        events: Optional[Sequence[WebhookEventType]] = None,
        last_event_id: Optional[str] = None,
        on_ready: Optional[Callable[[List[WebhookEventType]], None]] = None,
    ) -> Iterator[WebhookEvent]:
        """The organization's test-mode events as they happen, from ``GET /v1/events/stream`` (an
        extension of Roomtone's API for developing webhook receivers): each event is the body a
        webhook endpoint would receive. Needs a test key with ``generations_read``.

        Reconnects by itself (resuming after the last event received, ``Last-Event-ID``) after a
        dropped connection, 45 s of silence (the server sends a keep-alive every 15 s), 429 or
        5xx; raises :class:`APIError` on another refusal. ``on_ready`` is called at each
        (re)connection with the types the stream carries. Stop by leaving the loop.
        """
        return listen_events(self._http, events, last_event_id, on_ready)


def _paginate(http: HttpClient, path: str, query: Query, after: Optional[str], options: Dict[str, Any]) -> Page[Any]:
    def load(cursor: Optional[str]) -> Page[Any]:
        response = http.request("GET", path, query={**query, "after": cursor}, **options)
        return Page(cast(Mapping[str, Any], response.data), load)

    return load(after)


__all__: List[str] = [
    "Renders",
    "Edits",
    "Decorations",
    "Upscales",
    "Generations",
    "Styles",
    "EditMaterials",
    "EditMaterialCategories",
    "Webhooks",
    "ProgressCallback",
]
