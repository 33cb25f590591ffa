"""Verifying webhook deliveries (Standard Webhooks).

The signature is the base64 HMAC-SHA256 of ``{webhook-id}.{webhook-timestamp}.{raw body}``
under the endpoint's secret (``whsec_`` + base64 key material), compared in constant time, and
the timestamp must be within 5 minutes of now. ``webhook-signature`` holds one or more
space-separated ``v1,<base64>`` signatures: for 24 hours after a rotation every delivery
carries two (new and previous secret), so a receiver configured with either verifies. Pass
several secrets while you switch over: a delivery verifies if any of them signed it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Mapping, Optional, Sequence, Union, cast

from ._errors import WebhookVerificationError
from ._types import WebhookEvent

TOLERANCE_SECONDS = 5 * 60
SECRET_PREFIX = "whsec_"

Payload = Union[str, bytes, bytearray, memoryview]
Secrets = Union[str, Sequence[str]]


def _key(secret: str) -> bytes:
    material = secret[len(SECRET_PREFIX) :] if secret.startswith(SECRET_PREFIX) else secret
    try:
        return base64.b64decode(material, validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("The webhook secret is not a whsec_… secret (base64 after the prefix).") from error


def _sign(key: bytes, webhook_id: str, timestamp: int, body: bytes) -> str:
    content = f"{webhook_id}.{timestamp}.".encode() + body
    return base64.b64encode(hmac.new(key, content, hashlib.sha256).digest()).decode()


def _header(headers: Mapping[str, str], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def _bytes(payload: Payload) -> bytes:
    return payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)


def verify(payload: Payload, headers: Mapping[str, str], secret: Secrets, *, now: Optional[float] = None) -> None:
    """Raise :class:`WebhookVerificationError` unless the delivery is signed by ``secret`` (or one of them) and recent.

    ``payload`` is the raw body as received (verify before any JSON parsing of yours);
    ``headers`` any mapping of the request's headers (names in any case).
    """
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets:
        raise WebhookVerificationError("No webhook secret given.")
    webhook_id = _header(headers, "webhook-id")
    timestamp_text = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not webhook_id or not timestamp_text or not signatures:
        raise WebhookVerificationError("Webhook verification failed: Missing required headers (webhook-id, webhook-timestamp, webhook-signature).")
    try:
        timestamp = int(timestamp_text)
    except ValueError:
        raise WebhookVerificationError("Webhook verification failed: Invalid Signature Headers (webhook-timestamp is not a number).") from None
    current = time.time() if now is None else now
    if timestamp < current - TOLERANCE_SECONDS:
        raise WebhookVerificationError("Webhook verification failed: Message timestamp too old.")
    if timestamp > current + TOLERANCE_SECONDS:
        raise WebhookVerificationError("Webhook verification failed: Message timestamp too new.")
    body = _bytes(payload)
    given = [part.split(",", 1)[1] for part in signatures.split(" ") if part.startswith("v1,")]
    for candidate in secrets:
        expected = _sign(_key(candidate), webhook_id, timestamp, body)
        # Every signature is compared (constant time each), whatever matched before.
        if any(hmac.compare_digest(expected.encode(), signature.encode()) for signature in given):
            return
    raise WebhookVerificationError("Webhook verification failed: No matching signature found.")


def unwrap(payload: Payload, headers: Mapping[str, str], secret: Secrets, *, now: Optional[float] = None) -> WebhookEvent:
    """Verify, then parse: the event (a dict typed as :data:`WebhookEvent`)."""
    verify(payload, headers, secret, now=now)
    try:
        event = json.loads(_bytes(payload))
    except ValueError as error:
        raise WebhookVerificationError(f"The webhook body is not JSON: {error}.") from error
    if not isinstance(event, dict):
        raise WebhookVerificationError("The webhook body is not a JSON object.")
    return cast(WebhookEvent, event)


def sign(payload: Payload, secret: str, webhook_id: str, timestamp: Optional[int] = None) -> dict[str, str]:
    """The ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature`` headers of a delivery of ``payload``, to test your receiver."""
    at = int(time.time()) if timestamp is None else timestamp
    return {
        "webhook-id": webhook_id,
        "webhook-timestamp": str(at),
        "webhook-signature": f"v1,{_sign(_key(secret), webhook_id, at, _bytes(payload))}",
    }
