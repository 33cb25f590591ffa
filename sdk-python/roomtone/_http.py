"""Requests, retries and timeouts, on ``urllib.request`` alone."""

from __future__ import annotations

import email.message
import http.client
import json
import logging
import platform
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple, Union

from ._errors import APIConnectionError, APIError, APITimeoutError
from ._version import __version__

logger = logging.getLogger("roomtone")

RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
"""Statuses worth another attempt: the request was not served, or may be served next time."""
INITIAL_BACKOFF = 0.5
MAX_BACKOFF = 8.0

Query = Mapping[str, Union[str, int, None]]


class Headers(Mapping[str, str]):
    """Response headers, read case-insensitively (``headers["Request-Id"]`` == ``headers["request-id"]``)."""

    def __init__(self, items: Union[Mapping[str, str], "email.message.Message[str, str]", None] = None) -> None:
        self._items: Dict[str, str] = {}
        if items is not None:
            for name, value in items.items():
                key = name.lower()
                self._items[key] = f"{self._items[key]}, {value}" if key in self._items else value

    def __getitem__(self, name: str) -> str:
        return self._items[name.lower()]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Headers({self._items!r})"


def backoff_seconds(retry: int, rand: float = -1.0) -> float:
    """0.5 s, 1 s, 2 s, … up to 8 s, each reduced by up to 25 % at random (clients that failed together do not retry together)."""
    base = min(MAX_BACKOFF, INITIAL_BACKOFF * 2**retry)
    return base * (1 - 0.25 * (random.random() if rand < 0 else rand))


@dataclass
class Body:
    """A request body, sent again unchanged on every retry."""

    data: bytes
    content_type: str


@dataclass
class Response:
    data: Any
    status: int
    headers: Headers
    request_id: Optional[str]


@dataclass
class Settings:
    api_key: str
    base_url: str
    """Origin of the service, without /v1."""
    timeout: float
    max_retries: int
    max_retry_wait: float
    """The longest Retry-After the client waits for; a longer one raises the error at once."""
    default_headers: Dict[str, str] = field(default_factory=lambda: {})


class HttpClient:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.user_agent = f"roomtone-python/{__version__} python/{platform.python_version()}"

    def url(self, path: str, query: Optional[Query] = None) -> str:
        url = f"{self.settings.base_url}/v1{path}"
        pairs = [(name, str(value)) for name, value in (query or {}).items() if value is not None]
        return f"{url}?{urllib.parse.urlencode(pairs)}" if pairs else url

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Query] = None,
        body: Optional[Body] = None,
        idempotency_key: Optional[str] = None,
        timeout: Optional[float] = None,
        max_retries: Optional[int] = None,
        extra_headers: Optional[Mapping[str, str]] = None,
    ) -> Response:
        """One API call with the client's retries.

        Connection errors (except a refused connection), timeouts, 408, 429 and 5xx are tried
        again, at most ``max_retries`` times, unless the server answers ``x-should-retry: false``
        (a refusal that waiting does not cure); ``x-should-retry: true`` makes any answer
        retryable. The wait is ``Retry-After`` when the server gave one (up to
        ``max_retry_wait``; a longer one raises at once), else an exponential backoff with
        jitter. A creation carries the same Idempotency-Key on every attempt, so a retry returns
        the generation the first attempt created (with no second charge).
        """
        retries = self.settings.max_retries if max_retries is None else max_retries
        attempt_timeout = self.settings.timeout if timeout is None else timeout
        headers = {
            "Authorization": f"Bearer {self.settings.api_key}",
            "Accept": "application/json",
            "User-Agent": self.user_agent,
            **self.settings.default_headers,
            **(extra_headers or {}),
        }
        if idempotency_key is not None:
            headers["Idempotency-Key"] = idempotency_key
        if body is not None:
            headers["Content-Type"] = body.content_type
        url = self.url(path, query)

        retry = 0
        while True:
            last = retry >= retries
            try:
                status, answer_headers, text = self._attempt(method, url, headers, body, attempt_timeout)
            except APIConnectionError as error:
                if last or isinstance(error.__cause__, ConnectionRefusedError):
                    raise
                wait = backoff_seconds(retry)
                logger.info("%s %s: %s; retrying in %.1f s", method, url, error, wait)
                time.sleep(wait)
                retry += 1
                continue
            if 200 <= status < 300:
                data = json.loads(text) if text else None
                return Response(data=data, status=status, headers=answer_headers, request_id=answer_headers.get("request-id"))
            try:
                parsed: Any = json.loads(text)
            except ValueError:
                parsed = text
            error = APIError.from_response(status, parsed, answer_headers)
            worth = error.should_retry if error.should_retry is not None else status in RETRYABLE_STATUSES
            if last or not worth:
                raise error
            wait = error.retry_after if error.retry_after is not None else backoff_seconds(retry)
            if wait > self.settings.max_retry_wait:
                raise error
            logger.info("%s %s answered %s %s; retrying in %.1f s%s", method, url, status, error.code, wait, " (Retry-After)" if error.retry_after is not None else "")
            time.sleep(wait)
            retry += 1

    def _attempt(self, method: str, url: str, headers: Mapping[str, str], body: Optional[Body], timeout: float) -> Tuple[int, Headers, str]:
        """One attempt: the status, headers and whole body, or an APIConnectionError saying why not."""
        request = urllib.request.Request(url, data=body.data if body else None, headers=dict(headers), method=method)
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, Headers(answer.headers), answer.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            with error:
                text = error.read().decode("utf-8", errors="replace")
            return error.code, Headers(error.headers), text
        except urllib.error.URLError as error:
            reason = error.reason
            if isinstance(reason, (socket.timeout, TimeoutError)):
                raise APITimeoutError(f"No answer from {url} within {timeout} s.") from reason
            cause = reason if isinstance(reason, BaseException) else error
            raise APIConnectionError(f"Connection error to {url}: {reason}") from cause
        except (socket.timeout, TimeoutError) as error:
            raise APITimeoutError(f"No answer from {url} within {timeout} s.") from error
        except (http.client.HTTPException, ConnectionError, OSError) as error:
            raise APIConnectionError(f"Connection error to {url}: {error!r}") from error
