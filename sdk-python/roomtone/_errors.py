"""Errors of the client.

Every refusal the API answers is an :class:`APIError` carrying ``status``, ``code``, ``param``,
``message`` and ``request_id``, in one subclass per family, so callers branch with
``except`` (or on ``code`` for the exact cause):

=========================  ==========================================================
class                      statuses
=========================  ==========================================================
``AuthenticationError``    401
``PermissionDeniedError``  403
``InvalidRequestError``    400, 402, 405, 413, 415, 422 (cannot succeed as sent)
``NotFoundError``          404
``ConflictError``          409
``RateLimitError``         429 (with ``retry_after``)
``APIError``               5xx and anything else
=========================  ==========================================================

Failures before an answer are :class:`APIConnectionError` (and :class:`APITimeoutError`).
"""

from __future__ import annotations

import email.utils
import re
import time
from typing import Any, Dict, Mapping, Optional, cast

_NUMBER = re.compile(r"^\d+(\.\d+)?$")


class RoomtoneError(Exception):
    """The base of every error this package raises."""


class APIError(RoomtoneError):
    """An answer of the API that is not a success."""

    status: int
    """HTTP status of the answer."""
    code: str
    """Stable error code, e.g. ``parameter_invalid`` (``unknown_error`` if the body had none)."""
    param: Optional[str]
    """The refused parameter, when one is to blame (e.g. ``layers[0].element``)."""
    message: str
    request_id: Optional[str]
    """The ``request-id`` header: quote it when asking for help."""
    retry_after: Optional[float]
    """Seconds the server asked to wait (``Retry-After``), if it said."""
    should_retry: Optional[bool]
    """The server's ``x-should-retry`` verdict, when it gave one."""
    headers: Mapping[str, str]
    body: Any

    def __init__(self, status: int, body: Any, headers: Mapping[str, str]) -> None:
        error = _text_fields(_text_fields_source(body))
        self.message = error.get("message") or f"The API answered {status}."
        super().__init__(self.message)
        self.status = status
        self.code = error.get("code") or "unknown_error"
        self.param = error.get("param")
        self.headers = headers
        self.request_id = headers.get("request-id")
        self.retry_after = retry_after_seconds(headers)
        verdict = headers.get("x-should-retry")
        self.should_retry = None if verdict is None else verdict.strip().lower() == "true"
        self.body = body

    def __str__(self) -> str:
        where = f" (param {self.param})" if self.param else ""
        request = f" [request {self.request_id}]" if self.request_id else ""
        return f"{self.status} {self.code}: {self.message}{where}{request}"

    @staticmethod
    def from_response(status: int, body: Any, headers: Mapping[str, str]) -> "APIError":
        """The error for an answer of this status, in its family."""
        family: type[APIError]
        if status == 401:
            family = AuthenticationError
        elif status == 403:
            family = PermissionDeniedError
        elif status == 404:
            family = NotFoundError
        elif status == 409:
            family = ConflictError
        elif status == 429:
            family = RateLimitError
        elif 400 <= status < 500:
            family = InvalidRequestError
        else:
            family = APIError
        return family(status, body, headers)


class AuthenticationError(APIError):
    """401: the key is missing, invalid or revoked."""


class PermissionDeniedError(APIError):
    """403: the key lacks the permission the route needs."""


class InvalidRequestError(APIError):
    """400, 402, 405, 413, 415, 422: the request cannot succeed as sent."""


class NotFoundError(APIError):
    """404."""


class ConflictError(APIError):
    """409, e.g. ``generation_not_cancelable`` or ``idempotency_key_mismatch``."""


class RateLimitError(APIError):
    """429, with ``retry_after``."""


class APIConnectionError(RoomtoneError):
    """No answer: the connection failed or was dropped."""


class APITimeoutError(APIConnectionError):
    """No answer within ``timeout``."""


class WaitTimeoutError(RoomtoneError):
    """``wait_until_done`` reached its timeout; the generation goes on (read it again later)."""

    def __init__(self, message: str, generation: Any) -> None:
        super().__init__(message)
        self.generation = generation
        """The generation as last read (still in progress)."""


class WebhookVerificationError(RoomtoneError):
    """A webhook delivery whose signature or timestamp does not verify."""


def _text_fields_source(body: Any) -> Any:
    return cast(Dict[str, Any], body).get("error") if isinstance(body, dict) else None


def _text_fields(error: Any) -> Dict[str, str]:
    """The string fields of the error envelope's ``error`` object (nothing when the body is not one)."""
    if not isinstance(error, dict):
        return {}
    return {str(k): v for k, v in cast(Dict[Any, Any], error).items() if isinstance(v, str)}


def retry_after_seconds(headers: Mapping[str, str], now: Optional[float] = None) -> Optional[float]:
    """``retry-after-ms``, or ``Retry-After`` (seconds or an HTTP date); None when absent or unreadable."""
    ms = headers.get("retry-after-ms")
    if ms is not None and _NUMBER.match(ms.strip()):
        return float(ms) / 1000
    value = headers.get("retry-after")
    if value is None:
        return None
    if _NUMBER.match(value.strip()):
        return float(value)
    try:
        date = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, date.timestamp() - (time.time() if now is None else now))
