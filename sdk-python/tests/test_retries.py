from __future__ import annotations

import unittest

from roomtone import APIError, RateLimitError

from support import IMAGE_URL, ROOM_JPG, Proxy, client, fixture, new_org


class RetryTests(unittest.TestCase):
    def test_a_429_is_waited_out_as_retry_after_asks_and_retried_with_the_same_idempotency_key(self) -> None:
        org = new_org(tier=1)  # 10 generations a minute
        with Proxy() as proxy:
            api = client(org.test_key, base_url=proxy.url)
            fixture("fill-quota", org=org.id, seconds_left=2)
            with self.assertLogs("roomtone", "INFO") as logs:
                generation = api.upscales.create(image=IMAGE_URL, background=True)
            self.assertEqual(generation["status"], "in_progress")
            self.assertEqual([c.status for c in proxy.calls], [429, 202])
            first, second = proxy.calls
        retry_after = float(first.retry_after or "nan")
        self.assertGreaterEqual(retry_after, 1)
        self.assertLessEqual(retry_after, 3)
        # At least what the server asked (a lower bound: load only makes the wait longer).
        self.assertGreaterEqual(second.at - first.at, retry_after)
        self.assertRegex(first.headers["idempotency-key"], r"^sdk_[0-9a-f-]{36}$")
        self.assertEqual(second.headers["idempotency-key"], first.headers["idempotency-key"])
        self.assertEqual(fixture("charges", org=org.id)["generations"], 11)
        # The wait is visible: one INFO line on the roomtone logger, with the status, code and wait.
        [line] = logs.output
        self.assertRegex(line, r"^INFO:roomtone:POST .*/v1/upscales answered 429 generation_rate_limit_exceeded; retrying in \d+\.\d s \(Retry-After\)$")

    def test_a_retry_after_longer_than_max_retry_wait_raises_at_once_with_retry_after(self) -> None:
        org = new_org(tier=1)
        with Proxy() as proxy:
            api = client(org.test_key, base_url=proxy.url, max_retry_wait=10)
            fixture("fill-quota", org=org.id, seconds_left=55)
            with self.assertRaises(RateLimitError) as caught:
                api.upscales.create(image=IMAGE_URL, background=True)
            self.assertEqual(len(proxy.calls), 1)
        error = caught.exception
        self.assertEqual((error.status, error.code), (429, "generation_rate_limit_exceeded"))
        assert error.retry_after is not None
        self.assertGreater(error.retry_after, 10)

    def test_a_dropped_answer_is_retried_with_the_same_key_one_generation_one_charge(self) -> None:
        org = new_org(credit=1000)
        with Proxy(drop_first_post=True) as proxy:
            api = client(org.live_key, base_url=proxy.url)
            generation = api.upscales.create(image=ROOM_JPG, scale="x2")
            calls = list(proxy.calls)
        self.assertEqual((generation["status"], generation["livemode"], generation["cost"]["amount"]), ("succeeded", True, 10))
        self.assertEqual([(c.method, c.dropped, c.status) for c in calls], [("POST", True, 200), ("POST", False, 200)])
        self.assertEqual(calls[1].headers["idempotency-key"], calls[0].headers["idempotency-key"])
        self.assertEqual(calls[1].body, calls[0].body)
        charges = fixture("charges", org=org.id)
        self.assertEqual(charges["generations"], 1)
        self.assertEqual(charges["charges"], [{"generation": generation["id"], "amount": -10}])
        self.assertEqual(charges["balance"], 990)

    def test_x_should_retry_false_on_the_real_mode_unavailable_is_not_retried(self) -> None:
        # A live render without a generative backend: 503 mode_unavailable, a configuration that
        # waiting does not change. The proxy makes sure the answer says x-should-retry: false.
        org = new_org(credit=1000)
        with Proxy(error_headers={"x-should-retry": "false"}) as proxy:
            api = client(org.live_key, base_url=proxy.url)
            with self.assertRaises(APIError) as caught:
                api.renders.create(image=IMAGE_URL)
            self.assertEqual([c.status for c in proxy.calls], [503])
        self.assertEqual((caught.exception.status, caught.exception.code, caught.exception.should_retry), (503, "mode_unavailable", False))
        self.assertEqual(fixture("charges", org=org.id), {"generations": 0, "charges": [], "balance": 1000})

    def test_a_5xx_without_x_should_retry_is_retried_with_the_same_idempotency_key(self) -> None:
        org = new_org(credit=1000)
        with Proxy(error_headers={"x-should-retry": None}) as proxy:
            api = client(org.live_key, base_url=proxy.url, max_retries=2)
            with self.assertRaises(APIError) as caught:
                api.renders.create(image=IMAGE_URL)
            calls = list(proxy.calls)
        self.assertEqual([c.status for c in calls], [503, 503, 503])
        self.assertEqual(len({c.headers["idempotency-key"] for c in calls}), 1)
        self.assertIsNone(caught.exception.should_retry)
        self.assertEqual(fixture("charges", org=org.id)["generations"], 0)

    def test_an_explicit_idempotency_key_gives_the_same_generation_again(self) -> None:
        org = new_org(credit=1000)
        api = client(org.live_key)
        first = api.upscales.create(image=IMAGE_URL, idempotency_key="order-A-1042")
        again = api.upscales.create(image=IMAGE_URL, idempotency_key="order-A-1042")
        self.assertEqual(again["id"], first["id"])
        self.assertEqual(len(fixture("charges", org=org.id)["charges"]), 1)


if __name__ == "__main__":
    unittest.main()
