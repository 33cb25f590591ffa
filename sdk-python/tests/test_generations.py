from __future__ import annotations

import unittest
from typing import List

from roomtone import ConflictError, Generation, WaitTimeoutError

from support import IMAGE_URL, Proxy, client, fixture, new_org


class GenerationTests(unittest.TestCase):
    def test_background_creation_then_wait_until_done_reports_progress(self) -> None:
        org = new_org()
        api = client(org.test_key)
        # The run keeps its worker slot for 2 s after its engine work: the wait sees it in progress.
        fixture("hold", org=org.id, ms=2000)
        accepted = api.upscales.create(image=IMAGE_URL, background=True)
        self.assertEqual(accepted["status"], "in_progress")
        seen: List[Generation] = []
        done = api.generations.wait_until_done(accepted, poll_interval=0.2, on_progress=seen.append)
        self.assertEqual((done["id"], done["status"]), (accepted["id"], "succeeded"))
        self.assertGreater(len(seen), 0)
        for generation in seen:
            self.assertEqual((generation["id"], generation["status"]), (accepted["id"], "in_progress"))
            # 0 to 1 as the engine reports it, null when it cannot tell (the spec's generation object).
            progress = generation["progress"]
            self.assertTrue(progress is None or 0 <= progress <= 1, progress)
        self.assertEqual(api.generations.retrieve(accepted["id"])["status"], "succeeded")

    def test_cancel_before_the_start_then_conflict_on_a_second_cancel(self) -> None:
        org = new_org()
        api = client(org.test_key)
        waiting = fixture("unstarted", org=org.id)["id"]
        canceled = api.generations.cancel(waiting)
        self.assertEqual((canceled["id"], canceled["status"], canceled["cancelable"]), (waiting, "canceled", False))
        with self.assertRaises(ConflictError) as caught:
            api.generations.cancel(waiting)
        self.assertEqual((caught.exception.status, caught.exception.code), (409, "generation_not_cancelable"))

    def test_wait_until_done_gives_up_at_its_timeout_and_the_generation_goes_on(self) -> None:
        org = new_org()
        api = client(org.test_key)
        never = fixture("unstarted", org=org.id)["id"]
        with self.assertRaises(WaitTimeoutError) as caught:
            api.generations.wait_until_done(never, timeout=0.3, poll_interval=0.1)
        self.assertEqual((caught.exception.generation["id"], caught.exception.generation["status"]), (never, "in_progress"))

    def test_iterating_the_list_reads_every_page_with_after_the_last_id(self) -> None:
        org = new_org()
        fixture("succeeded", org=org.id, count=6)
        waiting = fixture("unstarted", org=org.id)["id"]
        with Proxy() as proxy:
            api = client(org.test_key, base_url=proxy.url)
            first = api.generations.list(limit=100)
            expected = [g["id"] for g in first.data]
            self.assertEqual(len(expected), 7)
            self.assertFalse(first.has_next_page())
            proxy.calls.clear()
            seen = [g["id"] for g in api.generations.list(limit=3)]
            self.assertEqual(seen, expected)
            self.assertEqual([c.path for c in proxy.calls], ["/v1/generations?limit=3", f"/v1/generations?limit=3&after={expected[2]}", f"/v1/generations?limit=3&after={expected[5]}"])
            succeeded = [g for g in api.generations.list(status="succeeded", limit=2)]
        self.assertEqual([g["id"] for g in succeeded], [i for i in expected if i != waiting])
        self.assertEqual({g["status"] for g in succeeded}, {"succeeded"})


if __name__ == "__main__":
    unittest.main()
