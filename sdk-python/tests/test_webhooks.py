from __future__ import annotations

import base64
import json
import time
import unittest
import uuid

from roomtone import Generation, WebhookEvent, WebhookVerificationError, webhooks

from support import IMAGE_URL, client, fixture, new_org

OTHER_SECRET = "whsec_" + base64.b64encode(bytes([7] * 32)).decode()


def generation_of(event: WebhookEvent) -> Generation:
    if event["type"] == "generation.succeeded" or event["type"] == "generation.failed" or event["type"] == "generation.canceled":
        return event["data"]["object"]
    raise AssertionError(f"not a generation event: {event['type']}")


def server_signature(secrets: list[str], webhook_id: str, timestamp: int, body: str) -> str:
    return fixture("sign", secrets=secrets, id=webhook_id, timestamp=timestamp, body=body)["signature"]


class WebhookDeliveryTests(unittest.TestCase):
    def test_real_deliveries_verify_before_and_after_a_secret_rotation(self) -> None:
        org = new_org()
        api = client(org.test_key)
        name = f"python-{org.id}"
        endpoint = fixture("endpoint", org=org.id, name=name)
        secret: str = endpoint["secret"]

        first = api.upscales.create(image=IMAGE_URL)
        [delivery] = fixture("deliveries", name=name, count=1)["deliveries"]
        body: str = delivery["body"]
        headers: dict[str, str] = delivery["headers"]
        event = webhooks.unwrap(body, headers, secret)
        self.assertEqual((event["type"], event["livemode"], event["id"]), ("generation.succeeded", False, headers["webhook-id"]))
        self.assertEqual(generation_of(event)["id"], first["id"])
        # Raw bytes, headers in any case, and the client's own shortcut.
        api.webhooks.verify(body.encode(), {k.title(): v for k, v in headers.items()}, secret)

        # Refused: another secret, a changed body, a missing header.
        new_secret: str = fixture("rotate", org=org.id, endpoint=endpoint["id"])["secret"]
        with self.assertRaisesRegex(WebhookVerificationError, "No matching signature"):
            webhooks.verify(body, headers, new_secret)
        with self.assertRaises(WebhookVerificationError):
            webhooks.unwrap(body.replace("succeeded", "failed"), headers, secret)
        unsigned = {k: v for k, v in headers.items() if k != "webhook-signature"}
        with self.assertRaisesRegex(WebhookVerificationError, "Missing required headers"):
            webhooks.verify(body, unsigned, secret)

        # After the rotation: two signatures (new and previous); either secret verifies, alone or in a list.
        second = api.upscales.create(image=IMAGE_URL)
        rotated = fixture("deliveries", name=name, count=2)["deliveries"][1]
        self.assertEqual(len(rotated["headers"]["webhook-signature"].split(" ")), 2)
        for secrets in (new_secret, secret, [new_secret, secret], [OTHER_SECRET, secret]):
            self.assertEqual(generation_of(webhooks.unwrap(rotated["body"], rotated["headers"], secrets))["id"], second["id"])
        with self.assertRaises(WebhookVerificationError):
            webhooks.verify(rotated["body"], rotated["headers"], [OTHER_SECRET])


class WebhookSignerTests(unittest.TestCase):
    def test_signatures_of_the_servers_signer_verify_and_sign_produces_the_same(self) -> None:
        secret = "whsec_" + base64.b64encode(uuid.uuid4().bytes * 2).decode()
        body = json.dumps({"id": "evt_1", "type": "generation.succeeded", "created_at": 0, "livemode": False, "data": {"object": {}}})
        now = int(time.time())
        signature = server_signature([secret], "evt_1", now, body)
        headers = {"webhook-id": "evt_1", "webhook-timestamp": str(now), "webhook-signature": signature}
        self.assertEqual(webhooks.unwrap(body, headers, secret)["id"], "evt_1")
        self.assertEqual(webhooks.sign(body, secret, "evt_1", now), headers)
        # Non-ASCII bodies are signed as their UTF-8 bytes.
        accented = json.dumps({"id": "evt_2", "note": "Séjour – salon"}, ensure_ascii=False)
        webhooks.verify(accented, {**headers, "webhook-id": "evt_2", "webhook-signature": server_signature([secret], "evt_2", now, accented)}, secret)

    def test_a_rotation_signs_with_both_secrets_and_either_verifies(self) -> None:
        old = "whsec_" + base64.b64encode(bytes(range(32))).decode()
        new = "whsec_" + base64.b64encode(bytes(range(32, 64))).decode()
        body = '{"id":"evt_r"}'
        now = int(time.time())
        headers = {"webhook-id": "evt_r", "webhook-timestamp": str(now), "webhook-signature": server_signature([new, old], "evt_r", now, body)}
        for secrets in (new, old, [OTHER_SECRET, old]):
            webhooks.verify(body, headers, secrets)
        with self.assertRaisesRegex(WebhookVerificationError, "No matching signature"):
            webhooks.verify(body, headers, OTHER_SECRET)
        with self.assertRaisesRegex(WebhookVerificationError, "No webhook secret"):
            webhooks.verify(body, headers, [])

    def test_a_delivery_older_or_newer_than_5_minutes_is_refused(self) -> None:
        secret = OTHER_SECRET
        body = '{"id":"evt_old"}'
        for offset, reason in ((-6 * 60, "too old"), (6 * 60, "too new")):
            at = int(time.time()) + offset
            headers = {"webhook-id": "evt_old", "webhook-timestamp": str(at), "webhook-signature": server_signature([secret], "evt_old", at, body)}
            with self.assertRaisesRegex(WebhookVerificationError, reason):
                webhooks.verify(body, headers, secret)
        at = int(time.time()) - 4 * 60
        webhooks.verify(body, {"webhook-id": "evt_old", "webhook-timestamp": str(at), "webhook-signature": server_signature([secret], "evt_old", at, body)}, secret)

    def test_a_malformed_secret_or_timestamp_is_a_verification_error(self) -> None:
        body = '{"id":"evt_x"}'
        headers = webhooks.sign(body, OTHER_SECRET, "evt_x")
        with self.assertRaisesRegex(WebhookVerificationError, "whsec_"):
            webhooks.verify(body, headers, "whsec_not base64!")
        with self.assertRaisesRegex(WebhookVerificationError, "timestamp"):
            webhooks.verify(body, {**headers, "webhook-timestamp": "soon"}, OTHER_SECRET)
        with self.assertRaisesRegex(WebhookVerificationError, "not JSON"):
            webhooks.unwrap("not json", webhooks.sign("not json", OTHER_SECRET, "evt_x"), OTHER_SECRET)


if __name__ == "__main__":
    unittest.main()
