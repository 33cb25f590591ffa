from __future__ import annotations

import ast
import inspect
import json
import unittest
import urllib.request
from typing import Any, Dict, List

from roomtone import Roomtone

from support import BASE_URL, IP


def python_samples() -> List[Dict[str, str]]:
    # The Python samples of the API reference (/docs), from the server's OpenAPI document.
    request = urllib.request.Request(f"{BASE_URL}/v1/openapi.json", headers={"x-forwarded-for": IP})
    with urllib.request.urlopen(request, timeout=60) as answer:
        document: Dict[str, Any] = json.loads(answer.read())
    samples: List[Dict[str, str]] = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for sample in operation.get("x-codeSamples", []):
                if sample["lang"] == "python":
                    samples.append({"route": f"{method.upper()} {path}", "label": sample["label"], "source": sample["source"]})
    return samples


def attribute_chain(node: ast.expr) -> List[str]:
    names: List[str] = []
    while isinstance(node, ast.Attribute):
        names.insert(0, node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.insert(0, node.id)
    return names


class DocsSampleTests(unittest.TestCase):
    def test_every_python_sample_of_docs_calls_this_client_with_arguments_it_accepts(self) -> None:
        samples = python_samples()
        self.assertGreaterEqual(len(samples), 11)
        client = Roomtone(api_key="rt_test_sample", base_url=BASE_URL)
        for sample in samples:
            with self.subTest(route=sample["route"]):
                self.assertEqual(sample["label"], "SDK (Python)")
                tree = ast.parse(sample["source"])
                self.assertIn("from roomtone import Roomtone", sample["source"])
                calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and attribute_chain(node.func)[:1] == ["client"]]
                self.assertEqual(len(calls), 1, sample["source"])
                for call in calls:
                    target: Any = client
                    for name in attribute_chain(call.func)[1:]:
                        target = getattr(target, name)
                    arguments = [ast.literal_eval(a) for a in call.args]
                    keywords = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg is not None and not isinstance(k.value, ast.Lambda)}
                    inspect.signature(target).bind(*arguments, **keywords)
                constructors = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and attribute_chain(node.func) == ["Roomtone"]]
                self.assertEqual(len(constructors), 1)
                self.assertEqual({k.arg for k in constructors[0].keywords}, {"base_url"})


if __name__ == "__main__":
    unittest.main()
