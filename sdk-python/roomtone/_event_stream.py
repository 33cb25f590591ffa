"""``GET /v1/events/stream``: Server-Sent Events read with ``urllib``, reconnecting with ``Last-Event-ID``."""

from __future__ import annotations

import http.client
import json
import logging
import socket
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Iterator, List, Optional, Sequence, cast

from ._errors import APIError, AuthenticationError
from ._http import Headers, HttpClient, backoff_seconds
from ._types import WebhookEvent, WebhookEventType

logger = logging.getLogger("roomtone")

SILENCE_SECONDS = 45.0
"""No message (events or the 15-second keep-alive comment) for this long: the connection is dead."""


class _Message:
    def __init__(self) -> None:
        self.event = ""
        self.data: List[str] = []
        self.id: Optional[str] = None


def listen_events(
    transport: HttpClient,
    events: Optional[Sequence[WebhookEventType]],
    last_event_id: Optional[str],
    on_ready: Optional[Callable[[List[WebhookEventType]], None]],
) -> Iterator[WebhookEvent]:
    failures = 0
    server_retry: Optional[float] = None
    url = transport.url("/events/stream", {"events": ",".join(events)} if events else None)
    while True:
        headers = {
            "Authorization": f"Bearer {transport.settings.api_key}",
            "Accept": "text/event-stream",
            "User-Agent": transport.user_agent,
            **transport.settings.default_headers,
        }
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        retry_after: Optional[float] = None
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=SILENCE_SECONDS) as answer:
                message = _Message()
                while True:
                    raw = answer.readline()
                    if not raw:
                        break  # the server ended the stream: reconnect
                    line = raw.decode("utf-8").rstrip("\r\n")
                    if line == "":
                        if message.data or message.event:
                            data = "\n".join(message.data)
                            if message.event == "ready":
                                failures = 0
                                if on_ready is not None:
                                    on_ready(cast(List[WebhookEventType], json.loads(data)["events"]))
                            elif message.event == "error":
                                raise AuthenticationError(401, json.loads(data), Headers(answer.headers))
                            elif data:
                                if message.id:
                                    last_event_id = message.id
                                yield cast(WebhookEvent, json.loads(data))
                        message = _Message()
                        continue
                    if line.startswith(":"):
                        continue
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "data":
                        message.data.append(value)
                    elif field == "event":
                        message.event = value
                    elif field == "id" and "\0" not in value:
                        message.id = value
                    elif field == "retry" and value.isdigit():
                        server_retry = int(value) / 1000
        except urllib.error.HTTPError as error:
            with error:
                text = error.read().decode("utf-8", errors="replace")
            body: Any
            try:
                body = json.loads(text)
            except ValueError:
                body = text
            refusal = APIError.from_response(error.code, body, Headers(error.headers))
            if error.code != 429 and error.code < 500:
                raise refusal from None
            retry_after = refusal.retry_after
            logger.info("event stream: %s; reconnecting", refusal)
        except (urllib.error.URLError, http.client.HTTPException, socket.timeout, TimeoutError, ConnectionError, OSError) as error:
            logger.info("event stream: %r; reconnecting", error)
        delay = retry_after if retry_after is not None else max(server_retry or 0.0, backoff_seconds(min(failures, 6)))
        failures += 1
        time.sleep(delay)
