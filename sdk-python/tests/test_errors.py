from __future__ import annotations

import unittest
from typing import Any, cast

from roomtone import AuthenticationError, InvalidRequestError, NotFoundError, PermissionDeniedError

from support import IMAGE_URL, Proxy, client, fixture, new_org


class ErrorTests(unittest.TestCase):
    def test_not_found_carries_status_code_param_message_and_request_id(self) -> None:
        api = client(new_org().test_key)
        with self.assertRaises(NotFoundError) as caught:
            api.generations.retrieve("gen_doesnotexist")
        error = caught.exception
        self.assertEqual((error.status, error.code, error.param), (404, "resource_not_found", "id"))
        self.assertRegex(error.request_id or "", r"^req_")
        self.assertTrue(error.message)
        self.assertIn(error.request_id or "?", str(error))

    def test_invalid_parameters_name_the_refused_field_and_are_not_retried(self) -> None:
        org = new_org()
        with Proxy() as proxy:
            api = client(org.test_key, base_url=proxy.url)
            with self.assertRaises(InvalidRequestError) as caught:
                # The type checker refuses "x3"; the API does too.
                api.upscales.create(image=IMAGE_URL, scale=cast(Any, "x3"))
            self.assertEqual((caught.exception.status, caught.exception.code, caught.exception.param), (400, "parameter_invalid", "scale"))
            self.assertEqual([c.status for c in proxy.calls], [400])
            with self.assertRaises(InvalidRequestError) as listed:
                api.generations.list(limit=500)
            self.assertEqual((listed.exception.status, listed.exception.code, listed.exception.param), (400, "parameter_invalid", "limit"))

    def test_a_wrong_key_and_a_missing_permission_are_refused_and_nothing_is_created(self) -> None:
        org = new_org()
        with self.assertRaises(AuthenticationError) as unauthenticated:
            client("rt_test_notakey0000000000000000000000").styles.list()
        self.assertEqual((unauthenticated.exception.status, unauthenticated.exception.code), (401, "api_key_invalid"))

        read_only = fixture("key", org=org.id, mode="test", permissions=["generations_read"])["key"]
        with self.assertRaises(PermissionDeniedError) as denied:
            client(read_only).upscales.create(image=IMAGE_URL)
        self.assertEqual((denied.exception.status, denied.exception.code), (403, "permission_denied"))
        self.assertEqual(fixture("charges", org=org.id)["generations"], 0)


if __name__ == "__main__":
    unittest.main()
