"""Conditional requests: whether an ``If-None-Match`` header names a response's entity tag.

One comparison for the UI's files and the API's pages (RFC 9110, 13.1.2): the weak one, ``*``
matches any tag, a list matches if any of its tags does.

>>> matches('"abc"', '"abc"'), matches('"abc"', 'W/"abc"'), matches('"abc"', '"x", "abc"')
(True, True, True)
>>> matches('"abc"', '*'), matches('"abc"', 'abc'), matches('"abc"', None)
(True, False, False)
"""

from __future__ import annotations

__all__ = ["matches"]


def matches(etag: str, if_none_match: str | None) -> bool:
    """Whether ``if_none_match`` holds ``etag`` (a quoted strong tag of ours)."""
    if if_none_match is None:
        return False
    tags = [tag.strip() for tag in if_none_match.split(",")]
    return "*" in tags or etag in (tag.removeprefix("W/") for tag in tags)
