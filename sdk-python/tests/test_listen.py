from __future__ import annotations

import signal
import unittest
from types import FrameType
from typing import Dict, List, Optional

from roomtone import PermissionDeniedError, WebhookEventType

from support import IMAGE_URL, client, new_org


def give_up(signum: int, frame: Optional[FrameType]) -> None:
    raise TimeoutError("no event within 90 s")


class ListenTests(unittest.TestCase):
    def test_listen_yields_the_test_mode_events_as_webhook_bodies(self) -> None:
        org = new_org()
        api = client(org.test_key)
        ready: List[List[WebhookEventType]] = []
        created: Dict[str, str] = {}

        def on_ready(types: List[WebhookEventType]) -> None:
            ready.append(types)
            if not created:
                created["id"] = api.upscales.create(image=IMAGE_URL, background=True)["id"]

        previous = signal.signal(signal.SIGALRM, give_up)
        signal.alarm(90)
        try:
            stream = api.webhooks.listen(events=["generation.succeeded"], on_ready=on_ready)
            event = next(iter(stream))
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)
        self.assertEqual(ready[0], ["generation.succeeded"])
        self.assertEqual((event["type"], event["livemode"]), ("generation.succeeded", False))
        self.assertRegex(event["id"], r"^evt_")
        generation = event["data"]["object"]
        self.assertEqual((generation.get("id"), generation.get("status")), (created["id"], "succeeded"))

    def test_a_live_key_is_refused_at_once(self) -> None:
        org = new_org()
        with self.assertRaises(PermissionDeniedError) as caught:
            next(iter(client(org.live_key).webhooks.listen()))
        self.assertEqual((caught.exception.status, caught.exception.code), (403, "permission_denied"))


if __name__ == "__main__":
    unittest.main()
