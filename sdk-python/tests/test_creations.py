from __future__ import annotations

import io
import json
import os
import pathlib
import re
import unittest
import urllib.request
from typing import Any, Callable, List, Tuple, cast

import roomtone
from roomtone import ImageInput, NotFoundError, RoomtoneError

from support import ELEMENT_PNG, IMAGE_URL, IP, MASK_PNG, ROOM_JPG, Proxy, client, fixture, new_org


def read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def part_names(body: bytes, content_type: str) -> List[Tuple[str, str]]:
    # (name, filename or "") of each part of a multipart body, in order.
    boundary = re.search(r"boundary=(\S+)", content_type)
    assert boundary is not None
    names: List[Tuple[str, str]] = []
    for part in body.split(b"--" + boundary.group(1).encode())[1:-1]:
        head = part.split(b"\r\n\r\n", 1)[0].decode()
        name = re.search(r'name="([^"]*)"', head)
        filename = re.search(r'filename="([^"]*)"', head)
        names.append((name.group(1) if name else "", filename.group(1) if filename else ""))
    return names


class CreationTests(unittest.TestCase):
    def test_upscales_from_a_url_as_json_and_from_every_kind_of_file_as_multipart(self) -> None:
        org = new_org()
        jpeg = read(ROOM_JPG)
        inputs: List[Tuple[str, Callable[[], ImageInput]]] = [
            ("url", lambda: IMAGE_URL),
            ("path", lambda: ROOM_JPG),
            ("pathlib", lambda: pathlib.Path(ROOM_JPG)),
            ("bytes", lambda: jpeg),
            ("bytearray", lambda: bytearray(jpeg)),
            ("memoryview", lambda: memoryview(jpeg)),
            ("BytesIO", lambda: io.BytesIO(jpeg)),
            ("open file", lambda: open(ROOM_JPG, "rb")),
        ]
        with Proxy() as proxy:
            api = client(org.test_key, base_url=proxy.url)
            for kind, make in inputs:
                with self.subTest(kind=kind):
                    proxy.calls.clear()
                    image = make()
                    try:
                        generation = api.upscales.create(image=image, scale="x2", metadata={"kind": kind})
                    finally:
                        if isinstance(image, io.BufferedReader):
                            image.close()
                    self.assertEqual(
                        (generation["object"], generation["type"], generation["status"], generation["livemode"], generation["metadata"]),
                        ("generation", "upscale", "succeeded", False, {"kind": kind}),
                    )
                    self.assertEqual(generation["input"], {"quality": None, "scale": "x2"})
                    self.assertEqual((generation["output"][0]["width"], generation["output"][0]["height"]), (640, 480))
                    [call] = proxy.calls
                    self.assertRegex(call.headers["user-agent"], rf"^roomtone-python/{re.escape(roomtone.__version__)} python/3\.")
                    if kind == "url":
                        self.assertEqual(call.headers["content-type"], "application/json")
                        self.assertEqual(json.loads(call.body), {"image": IMAGE_URL, "scale": "x2", "metadata": {"kind": "url"}})
                    else:
                        self.assertTrue(call.headers["content-type"].startswith("multipart/form-data; boundary="))
                        names = part_names(call.body, call.headers["content-type"])
                        self.assertEqual([n for n, _ in names], ["scale", "metadata", "image"])
                        expected_name = "room.jpg" if kind in ("path", "pathlib", "open file") else "image"
                        self.assertEqual(names[-1][1], expected_name)

    def test_renders_decorations_and_edits_in_prompt_and_mask_mode_with_a_file_element(self) -> None:
        api = client(new_org().test_key)
        render = api.renders.create(image=IMAGE_URL, quality="1k", style="japandi")
        self.assertEqual((render["type"], render["status"]), ("render", "succeeded"))
        self.assertEqual(render["input"], {"quality": "1k", "scale": None, "style": "japandi"})

        decoration = api.decorations.create(image=read(ROOM_JPG), quality="1k", style="scandinavian", categories=["plants", "lighting"])
        self.assertEqual((decoration["type"], decoration["status"]), ("decoration", "succeeded"))
        self.assertEqual(decoration["input"]["categories"], ["plants", "lighting"])

        prompt = api.edits.create(image=IMAGE_URL, mode="prompt", quality="1k", prompt="Warmer light\non the floor")
        self.assertEqual((prompt["status"], prompt["input"]["mode"], prompt["input"]["prompt"]), ("succeeded", "prompt", "Warmer light\non the floor"))

        edit = api.edits.create(
            image=ROOM_JPG,
            mode="mask",
            quality="1k",
            mask=MASK_PNG,
            layers=[
                {"mask_color": "#FF0000", "action": "modify", "color": "#6b8e7f", "finish": "solid_matte"},
                {"mask_color": "#0066FF", "action": "add", "element": read(ELEMENT_PNG)},
            ],
            metadata={"ticket": "R-7"},
        )
        self.assertEqual((edit["type"], edit["status"], edit["metadata"]), ("edit", "succeeded", {"ticket": "R-7"}))
        self.assertEqual(
            edit["input"]["layers"],
            [
                {"mask_color": "#FF0000", "action": "modify", "color": "#6B8E7F", "finish": "solid_matte"},
                {"mask_color": "#0066FF", "action": "add"},
            ],
        )

    def test_the_mask_edit_goes_as_multipart_with_one_part_per_file_named_as_its_field(self) -> None:
        org = new_org()
        with Proxy() as proxy:
            api = client(org.test_key, base_url=proxy.url)
            edit = api.edits.create(
                image=IMAGE_URL,
                mode="mask",
                quality="1k",
                mask=pathlib.Path(MASK_PNG),
                layers=[{"mask_color": "#FF0000", "action": "remove"}, {"mask_color": "#0066FF", "action": "replace", "element": ELEMENT_PNG}],
                background=True,
            )
            self.assertEqual(edit["status"], "in_progress")
            [call] = proxy.calls
        names = part_names(call.body, call.headers["content-type"])
        self.assertEqual(names, [("image", ""), ("mode", ""), ("quality", ""), ("layers", ""), ("background", ""), ("mask", "mask.png"), ("layers[1].element", "element.png")])
        self.assertIn(b'name="background"\r\n\r\ntrue\r\n', call.body)
        self.assertIn(b'[{"mask_color": "#FF0000", "action": "remove"}, {"mask_color": "#0066FF", "action": "replace"}]', call.body)

    def test_an_unreadable_file_is_an_error_before_any_request(self) -> None:
        org = new_org()
        with Proxy() as proxy:
            api = client(org.test_key, base_url=proxy.url)
            missing = os.path.join(os.path.dirname(ROOM_JPG), "missing.jpg")
            with self.assertRaisesRegex(RoomtoneError, r"Cannot read the file for 'image' \(.*missing\.jpg\)"):
                api.upscales.create(image=missing)
            with self.assertRaisesRegex(RoomtoneError, "binary mode"):
                api.upscales.create(image=cast(Any, io.StringIO("text")))
            self.assertEqual(proxy.calls, [])

    def test_an_upload_id_is_sent_as_is_not_read_as_a_path(self) -> None:
        org = new_org()
        upload = fixture("upload", org=org.id)
        put = urllib.request.Request(upload["upload_url"], data=read(ROOM_JPG), headers={"x-forwarded-for": IP}, method="PUT")
        with urllib.request.urlopen(put, timeout=60) as answer:
            self.assertEqual(answer.status, 200)
        with Proxy() as proxy:
            api = client(org.test_key, base_url=proxy.url)
            generation = api.upscales.create(image=upload["id"])
            self.assertEqual((generation["status"], generation["output"][0]["width"]), ("succeeded", 640))
            with self.assertRaises(NotFoundError) as caught:
                api.upscales.create(image="file_doesnotexist0")
            self.assertEqual([json.loads(c.body) for c in proxy.calls], [{"image": upload["id"]}, {"image": "file_doesnotexist0"}])
        self.assertEqual((caught.exception.status, caught.exception.code, caught.exception.param), (404, "resource_not_found", "image"))


if __name__ == "__main__":
    unittest.main()
