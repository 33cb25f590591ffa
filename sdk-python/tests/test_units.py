from __future__ import annotations

import email.utils
import json
import unittest

from roomtone._errors import APIError, ConflictError, InvalidRequestError, RateLimitError, retry_after_seconds
from roomtone._http import Headers, backoff_seconds
from roomtone._uploads import creation_body


class RetryAfterTests(unittest.TestCase):
    def test_seconds_milliseconds_and_http_dates(self) -> None:
        self.assertEqual(retry_after_seconds(Headers({"Retry-After": "56"})), 56)
        self.assertEqual(retry_after_seconds(Headers({"retry-after-ms": "1500", "retry-after": "9"})), 1.5)
        now = 1_800_000_000.0
        date = email.utils.formatdate(now + 30, usegmt=True)
        self.assertEqual(retry_after_seconds(Headers({"retry-after": date}), now=now), 30)
        self.assertEqual(retry_after_seconds(Headers({"retry-after": email.utils.formatdate(now - 30, usegmt=True)}), now=now), 0)
        self.assertIsNone(retry_after_seconds(Headers({"retry-after": "soon"})))
        self.assertIsNone(retry_after_seconds(Headers({})))

    def test_backoff_doubles_from_half_a_second_up_to_8_with_at_most_25_percent_less(self) -> None:
        self.assertEqual([backoff_seconds(n, rand=0) for n in range(6)], [0.5, 1, 2, 4, 8, 8])
        self.assertEqual(backoff_seconds(0, rand=1), 0.375)


class ErrorFamilyTests(unittest.TestCase):
    def test_each_status_gets_its_family_and_a_body_without_the_envelope_still_reads(self) -> None:
        body = {"error": {"code": "insufficient_balance", "message": "Add credit.", "param": "image"}}
        error = APIError.from_response(402, body, Headers({"request-id": "req_1", "x-should-retry": "false"}))
        self.assertIsInstance(error, InvalidRequestError)
        self.assertEqual((error.code, error.message, error.param, error.request_id, error.should_retry), ("insufficient_balance", "Add credit.", "image", "req_1", False))
        self.assertIsInstance(APIError.from_response(409, body, Headers()), ConflictError)
        self.assertIsInstance(APIError.from_response(429, body, Headers()), RateLimitError)
        bare = APIError.from_response(502, "<html>Bad gateway</html>", Headers())
        self.assertEqual((type(bare), bare.code, bare.param, bare.message), (APIError, "unknown_error", None, "The API answered 502."))


class MultipartTests(unittest.TestCase):
    def test_quotes_in_file_names_are_escaped_and_text_fields_keep_their_unicode(self) -> None:
        class Named:
            name = '/tmp/a "quoted"\nname.png'

            def read(self) -> bytes:
                return b"\x89PNG\r\n\x1a\nrest"

        body = creation_body({"image": Named(), "mode": "prompt", "prompt": "Séjour – plus clair", "metadata": {"k": "v"}})
        self.assertIn(b'filename="a \\"quoted\\"%0Aname.png"\r\nContent-Type: image/png', body.data)
        self.assertIn('name="prompt"\r\n\r\nSéjour – plus clair\r\n'.encode(), body.data)
        self.assertIn(b'name="metadata"\r\n\r\n{"k": "v"}\r\n', body.data)
        as_json = creation_body({"image": "https://images.example.com/a.jpg", "background": False, "style": None})
        self.assertEqual((as_json.content_type, json.loads(as_json.data)), ("application/json", {"image": "https://images.example.com/a.jpg", "background": False}))


if __name__ == "__main__":
    unittest.main()
