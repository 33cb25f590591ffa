"""Paginated lists: one page, or every object of every page as an iterator."""

from __future__ import annotations

from typing import Any, Callable, Generic, Iterator, List, Mapping, Optional, TypeVar, cast

T = TypeVar("T", bound=Mapping[str, Any])


class Page(Generic[T]):
    """One page of a list (``data``, ``has_more``), with the way to the next one.

    Iterating a page yields every object of this page and of the following ones, fetching the
    next page (``after`` = the id of the last object received) while ``has_more`` is true::

        for generation in client.generations.list(status="succeeded"):
            print(generation["id"])
    """

    object = "list"

    def __init__(self, body: Mapping[str, Any], fetch_after: Callable[[str], "Page[T]"]) -> None:
        self.data: List[T] = cast(List[T], list(body.get("data") or []))
        self.has_more: bool = bool(body.get("has_more"))
        self._fetch_after = fetch_after

    def has_next_page(self) -> bool:
        return self.has_more and len(self.data) > 0

    def next_page(self) -> "Page[T]":
        """The page after this one; ``ValueError`` when there is none (check :meth:`has_next_page` first)."""
        if not self.has_next_page():
            raise ValueError("No next page: check has_next_page() first.")
        return self._fetch_after(str(self.data[-1]["id"]))

    def iter_pages(self) -> Iterator["Page[T]"]:
        """This page and every following one."""
        page: Optional[Page[T]] = self
        while page is not None:
            yield page
            page = page.next_page() if page.has_next_page() else None

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data

    def __repr__(self) -> str:
        return f"Page(data=<{len(self.data)} objects>, has_more={self.has_more})"
