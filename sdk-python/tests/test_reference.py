from __future__ import annotations

import math
import unittest
from typing import List, Optional

from support import IMAGE_URL, client, new_org


class ReferenceListTests(unittest.TestCase):
    def test_styles_and_edit_material_categories(self) -> None:
        api = client(new_org().test_key)
        styles = api.styles.list()
        self.assertEqual((styles["object"], styles["has_more"]), ("list", False))
        self.assertIn("scandinavian", [s["id"] for s in styles["data"]])
        self.assertTrue(all(s["object"] == "style" for s in styles["data"]))
        categories = api.edit_material_categories.list()
        self.assertIn("flooring", [c["id"] for c in categories["data"]])
        self.assertTrue(all(c["object"] == "edit_material_category" for c in categories["data"]))

    def test_iterating_a_page_yields_every_material_of_every_page(self) -> None:
        api = client(new_org().test_key)
        # Every material by raw pages of 100, against the iteration by pages of 7.
        everything: List[str] = []
        after: Optional[str] = None
        while True:
            page = api.edit_materials.list(limit=100, after=after)
            everything.extend(m["id"] for m in page.data)
            if not page.has_more:
                break
            after = page.data[-1]["id"]
        self.assertGreater(len(everything), 14)
        first = api.edit_materials.list(limit=7)
        self.assertEqual([m["id"] for m in first], everything)
        self.assertEqual(len(list(first.iter_pages())), math.ceil(len(everything) / 7))

    def test_a_filtered_page_and_its_next_page(self) -> None:
        api = client(new_org().test_key)
        flooring = api.edit_materials.list(category="flooring", limit=3)
        self.assertEqual(len(flooring.data), 3)
        self.assertTrue(all(m["category"] == "flooring" for m in flooring.data))
        self.assertTrue(flooring.has_next_page())
        second = flooring.next_page()
        self.assertNotIn(second.data[0]["id"], [m["id"] for m in flooring.data])
        self.assertTrue(all(m["category"] == "flooring" for m in second.data))


if __name__ == "__main__":
    unittest.main()


class PriceListTests(unittest.TestCase):
    def test_prices_are_the_cost_a_creation_then_gets(self) -> None:
        api = client(new_org(tier=3).test_key)
        prices = api.prices.list()
        self.assertEqual((prices["object"], prices["has_more"]), ("list", False))
        lines = {(p["type"], p["quality"] or p["scale"]): p for p in prices["data"]}
        expected = {(t, q) for t in ("render", "edit", "decoration") for q in ("1k", "2k", "4k", "8k")} | {("upscale", "x2"), ("upscale", "x4")}
        self.assertEqual(set(lines), expected)
        for line in prices["data"]:
            self.assertEqual((line["object"], line["currency"], line["unit"]), ("price", "eur", "cents"))
            self.assertLessEqual(line["amount"], line["list_amount"])
        render = api.renders.create(image=IMAGE_URL, quality="1k", style="japandi")
        self.assertEqual(render["cost"]["amount"], lines[("render", "1k")]["amount"])


class BalanceTests(unittest.TestCase):
    def test_the_balance_object_with_the_monthly_limit_and_spend(self) -> None:
        api = client(new_org(credit=2500).test_key)
        balance = api.balance.retrieve()
        self.assertEqual((balance["object"], balance["currency"], balance["unit"]), ("balance", "eur", "cents"))
        self.assertEqual(balance["amount"], 2500)
        self.assertEqual(balance["monthly_spend"], 0)
        self.assertGreater(balance["monthly_limit"], 0)


class TriggerTests(unittest.TestCase):
    def test_a_trigger_with_nobody_following_produces_no_event(self) -> None:
        api = client(new_org().test_key)
        triggered = api.webhooks.trigger("generation.succeeded")
        self.assertEqual((triggered["object"], triggered["type"]), ("triggered_event", "generation.succeeded"))
        self.assertEqual((triggered["event_id"], triggered["endpoints"], triggered["event_stream"]), (None, 0, False))
