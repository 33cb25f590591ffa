from __future__ import annotations

import os
import socket
import time
import unittest
from unittest import mock

import roomtone
from roomtone import APIConnectionError, Roomtone, RoomtoneError

from support import BASE_URL, IP, new_org


class ClientTests(unittest.TestCase):
    def test_key_and_base_url_from_the_environment_with_a_trailing_v1(self) -> None:
        org = new_org()
        with mock.patch.dict(os.environ, {"ROOMTONE_API_KEY": org.test_key, "ROOMTONE_BASE_URL": f"{BASE_URL}/v1/"}):
            client = Roomtone(default_headers={"x-forwarded-for": IP})
        self.assertEqual(client.base_url, BASE_URL)
        self.assertEqual(client.styles.list()["object"], "list")

    def test_refuses_to_start_without_a_key_or_with_a_relative_base_url(self) -> None:
        with mock.patch.dict(os.environ, {}, clear=True):
            with self.assertRaisesRegex(RoomtoneError, "ROOMTONE_API_KEY"):
                Roomtone(base_url=BASE_URL)
        with self.assertRaisesRegex(RoomtoneError, "absolute"):
            Roomtone(api_key="rt_test_x", base_url="roomtone.example.com")

    def test_a_refused_connection_fails_at_once_with_the_url_it_tried(self) -> None:
        # A port bound but not listening: every connection to it is refused.
        with socket.socket() as held:
            held.bind(("127.0.0.1", 0))
            port = held.getsockname()[1]
            client = Roomtone(api_key="rt_test_x", base_url=f"http://127.0.0.1:{port}", max_retries=2)
            started = time.monotonic()
            with self.assertRaises(APIConnectionError) as caught:
                client.generations.retrieve("gen_x")
            elapsed = time.monotonic() - started
        self.assertIn(f"http://127.0.0.1:{port}/v1/generations/gen_x", str(caught.exception))
        self.assertIsInstance(caught.exception.__cause__, ConnectionRefusedError)
        # Not retried: a retry would first wait the 0.5 s backoff.
        self.assertLess(elapsed, 0.5)

    def test_the_package_version_is_the_one_of_pyproject(self) -> None:
        with open(os.path.join(os.path.dirname(__file__), "..", "pyproject.toml"), encoding="utf-8") as file:
            self.assertIn(f'version = "{roomtone.__version__}"', file.read())


if __name__ == "__main__":
    unittest.main()
