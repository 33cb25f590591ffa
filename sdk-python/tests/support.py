"""What the tests share: the server under test, its fixtures, a client, a recording proxy.

The tests run against the real server, started by ``test/sdk-python.test.ts`` (vitest), which
passes its address and a fixture service in the environment::

    npx vitest run test/sdk-python.test.ts   # from the repository (see docs/testing.md)
"""

from __future__ import annotations

import http.client
import http.server
import json
import os
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Dict, List, Optional

from roomtone import Roomtone


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: these tests run against the real server, through test/sdk-python.test.ts (npx vitest run test/sdk-python.test.ts).")
    return value


BASE_URL = _env("ROOMTONE_TEST_BASE_URL")
FIXTURES = _env("ROOMTONE_TEST_FIXTURES")
IP = _env("ROOMTONE_TEST_IP")
"""This run's client IP (x-forwarded-for), so the per-IP limit never couples it with other files."""
IMAGE_URL = _env("ROOMTONE_TEST_IMAGE_URL")
"""A 320x240 JPEG on the test's https image server."""
WORK_DIR = _env("ROOMTONE_TEST_DIR")
ROOM_JPG = os.path.join(WORK_DIR, "room.jpg")
MASK_PNG = os.path.join(WORK_DIR, "mask.png")
"""320x240, left half #FF0000, right half #0066FF."""
ELEMENT_PNG = os.path.join(WORK_DIR, "element.png")


def fixture(action: str, **params: Any) -> Dict[str, Any]:
    """Ask the test's fixture service (the service layer) for something the API cannot set up."""
    request = urllib.request.Request(f"{FIXTURES}/{action}", data=json.dumps(params).encode(), headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.loads(answer.read())


@dataclass
class Org:
    id: str
    test_key: str
    live_key: str


def new_org(tier: Optional[int] = None, credit: Optional[int] = None) -> Org:
    params: Dict[str, Any] = {}
    if tier is not None:
        params["tier"] = tier
    if credit is not None:
        params["credit"] = credit
    org = fixture("org", **params)
    return Org(id=org["id"], test_key=org["test_key"], live_key=org["live_key"])


def client(api_key: str, base_url: Optional[str] = None, max_retry_wait: float = 60.0, max_retries: int = 2) -> Roomtone:
    return Roomtone(
        api_key=api_key,
        base_url=base_url or BASE_URL,
        default_headers={"x-forwarded-for": IP},
        max_retry_wait=max_retry_wait,
        max_retries=max_retries,
    )


@dataclass
class Call:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes
    status: Optional[int]
    retry_after: Optional[str]
    at: float
    dropped: bool


class Proxy:
    """A loopback HTTP proxy to the server under test that records every call (what went on the
    wire) and, when asked, drops the connection instead of answering the first POST (after the
    server has served it: the answer is lost, not the request), or sets (a value) or removes
    (None) headers of the server's error answers."""

    def __init__(self, drop_first_post: bool = False, error_headers: Optional[Dict[str, Optional[str]]] = None) -> None:
        self.calls: List[Call] = []
        self.drop_first_post = drop_first_post
        self.error_headers = {k.lower(): v for k, v in (error_headers or {}).items()}
        upstream = urllib.parse.urlsplit(BASE_URL)
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _forward(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k.lower(): v for k, v in self.headers.items()}
                drop = proxy.drop_first_post and self.command == "POST" and not any(c.method == "POST" for c in proxy.calls)
                call = Call(self.command, self.path, headers, body, None, None, time.monotonic(), drop)
                proxy.calls.append(call)
                connection = http.client.HTTPConnection(upstream.hostname or "127.0.0.1", upstream.port, timeout=300)
                try:
                    forwarded = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                    connection.request(self.command, self.path, body=body or None, headers=forwarded)
                    answer = connection.getresponse()
                    data = answer.read()
                finally:
                    connection.close()
                call.status = answer.status
                call.retry_after = answer.getheader("retry-after")
                if drop:
                    self.close_connection = True
                    return  # closed without a byte of answer
                self.send_response(answer.status)
                replaced = proxy.error_headers if answer.status >= 400 else {}
                for name, value in answer.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length", "date", "server", *replaced):
                        self.send_header(name, value)
                for name, set_value in replaced.items():
                    if set_value is not None:
                        self.send_header(name, set_value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = _forward
            do_POST = _forward

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "Proxy":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
