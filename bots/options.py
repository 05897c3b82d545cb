"""A search bot's options, from its name (``ismcts:ms=100,depth=20``): one parser for every bot
that takes them (:mod:`bots.ismcts`, :mod:`bots.pimc`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["parse_bot_options"]


def parse_bot_options(options: Mapping[str, str], parsers: Mapping[str, Callable[[str], Any]]) -> dict[str, Any]:
    """A search bot's keyword arguments from its name's options (``ismcts:ms=100,depth=20``).

    Args:
        options: option name -> text.
        parsers: option name -> the function that parses its text (``int``, ``float``, ``str``).

    Returns:
        Option name -> parsed value; ``ms`` is an ``int`` when whole, so a bot's name reads back
        as written (``ms=100``, not ``ms=100.0``).

    Raises:
        ValueError: an unknown option name, or a value its parser refuses.
    """
    kwargs: dict[str, Any] = {}
    for name, text in options.items():
        parse = parsers.get(name)
        if parse is None:
            raise ValueError(f"unknown option {name!r}; known: {', '.join(parsers)}")
        try:
            value = parse(text)
        except ValueError:
            raise ValueError(f"bad value {text!r} for {name}: expected {parse.__name__}") from None
        if name == "ms" and value.is_integer():
            value = int(value)
        kwargs[name] = value
    return kwargs
