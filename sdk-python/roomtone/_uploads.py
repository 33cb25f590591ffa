"""Creation bodies: JSON when every image is a URL (or an upload id), multipart/form-data as
soon as one image is a file (path, bytes or file object), exactly as /v1 takes it: each file a
part named as its field (``image``, ``mask``, ``layers[0].element``), other parameters text
fields, ``layers``, ``metadata`` and ``categories`` JSON text, ``background`` the text
``true`` or ``false``."""

from __future__ import annotations

import json
import os
import re
import uuid
from typing import Any, Dict, List, Mapping, Tuple, cast

from ._errors import RoomtoneError
from ._http import Body

JSON_TEXT_FIELDS = frozenset({"layers", "metadata", "categories"})
UPLOAD_ID = re.compile(r"^file_[0-9A-Za-z]{1,64}$")
_URL = re.compile(r"^https?://", re.IGNORECASE)

_File = Tuple[str, bytes, str]
"""field, bytes, file name"""


def _is_sent_as_is(value: Any) -> bool:
    return isinstance(value, str) and (_URL.match(value) is not None or UPLOAD_ID.match(value) is not None)


def _read_file(value: Any, field: str) -> Tuple[bytes, str]:
    fallback = re.sub(r"[^\w.-]", "_", field)
    if isinstance(value, (str, os.PathLike)):
        path = os.fsdecode(cast("str | os.PathLike[str]", value))
        try:
            with open(path, "rb") as file:
                return file.read(), os.path.basename(path)
        except OSError as error:
            raise RoomtoneError(
                f"Cannot read the file for '{field}' ({path}): {error.strerror or error}. Images are https URLs, file_… upload ids, files or bytes."
            ) from error
    if isinstance(value, (bytes, bytearray)):
        return bytes(value), fallback
    if isinstance(value, memoryview):
        return cast("memoryview[int]", value).tobytes(), fallback
    read = getattr(value, "read", None)
    if callable(read):
        data = read()
        if isinstance(data, str):
            raise RoomtoneError(f"'{field}': open the file in binary mode (open(path, \"rb\")).")
        if not isinstance(data, (bytes, bytearray)):
            raise RoomtoneError(f"'{field}': the file object's read() returned {type(data).__name__}, not bytes.")
        name = getattr(value, "name", None)
        return bytes(data), os.path.basename(name) if isinstance(name, str) else fallback
    raise RoomtoneError(f"'{field}' must be an https URL, a file_… upload id, a file path, bytes or a binary file object.")


def _content_type(data: bytes) -> str:
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return "application/octet-stream"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "%0D").replace("\n", "%0A")


def multipart(fields: List[Tuple[str, str]], files: List[_File]) -> Body:
    """A multipart/form-data body: text fields, then files (each with its name and content type)."""
    boundary = f"roomtone-{uuid.uuid4().hex}"
    chunks: List[bytes] = []
    for name, value in fields:
        chunks.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(name)}"\r\n\r\n'.encode())
        chunks.append(value.encode("utf-8") + b"\r\n")
    for name, data, filename in files:
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{_quote(name)}"; filename="{_quote(filename)}"\r\n'
            f"Content-Type: {_content_type(data)}\r\n\r\n"
        )
        chunks.append(head.encode("utf-8") + data + b"\r\n")
    chunks.append(f"--{boundary}--\r\n".encode())
    return Body(data=b"".join(chunks), content_type=f"multipart/form-data; boundary={boundary}")


def creation_body(params: Mapping[str, Any]) -> Body:
    """The body of a creation: JSON, or multipart/form-data when a file is given. Files are read here, once."""
    files: List[_File] = []
    rest: Dict[str, Any] = {}

    def image(value: Any, field: str) -> Any:
        if value is None or _is_sent_as_is(value):
            return value
        data, name = _read_file(value, field)
        files.append((field, data, name))
        return None

    for key, value in params.items():
        if value is None:
            continue
        if key in ("image", "mask"):
            kept = image(value, key)
            if kept is not None:
                rest[key] = kept
        elif key == "layers" and isinstance(value, list):
            layers: List[Any] = []
            for i, layer in enumerate(value):  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
                if isinstance(layer, dict) and "element" in layer:
                    without: Dict[str, Any] = {k: v for k, v in layer.items() if k != "element"}  # pyright: ignore[reportUnknownVariableType]
                    kept = image(layer["element"], f"layers[{i}].element")
                    layers.append(without if kept is None else {**without, "element": kept})
                else:
                    layers.append(layer)
            rest["layers"] = layers
        else:
            rest[key] = value
    if not files:
        return Body(data=json.dumps(rest).encode("utf-8"), content_type="application/json")
    fields = [
        (name, value if isinstance(value, str) and name not in JSON_TEXT_FIELDS else json.dumps(value))
        for name, value in rest.items()
    ]
    return multipart(fields, files)
