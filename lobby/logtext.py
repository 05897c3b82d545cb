"""What a client's text may look like in a server log line: escaped, one line, cut.

A Saloon server logs a few things a client chose: the SSH user name before it is checked, the
command line of a session, a web request's path and address, a remote bot's faults. None of it
may reach the log raw: a newline would forge a line of its own (``help\\n2026-11-28 17:00:00,000
root signed in``), an escape sequence or BEL would act on the terminal of whoever reads the log
with ``cat`` or ``tail -f`` (OSC 52 writes their clipboard), and a bidi control (U+202E) would
reorder what they read. :func:`loggable` renders such text the way :func:`ascii` does (quotes
optional) and cuts it; :class:`LogFormatter` escapes whatever a log line still holds that is not
printable ASCII (asyncssh's, aiohttp's and every other logger's lines too), so no byte of a log
file is a control character except the newline that ends each line.

This module imports nothing of Saloon's: the lobby and the fronts both use it.
"""

from __future__ import annotations

import logging

__all__ = ["MAX_LOG_MESSAGE", "LogFormatter", "escape", "loggable"]

MAX_LOG_MESSAGE = 4000
"""Characters a log message keeps (:class:`LogFormatter`); the rest is cut and counted."""

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(char: str) -> str:
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte, kept by "surrogateescape"
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape(text: str, backslash: bool = False) -> str:
    """``text`` with every character that is not printable ASCII (``' '`` to ``'~'``) escaped.

    Control characters (newlines, ESC, BEL, DEL), format characters (U+202E and the other bidi
    controls, zero-width characters), line and paragraph separators, other spaces and every other
    non-ASCII character become ``\\n``, ``\\r``, ``\\t``, ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``,
    as :func:`ascii` writes them; a lone surrogate U+DC80..U+DCFF (an undecodable byte kept by the
    ``surrogateescape`` error handler) becomes ``\\xNN``, the byte.

    Args:
        text: any text.
        backslash: escape ``\\`` as ``\\\\`` too, so that the result reads back unambiguously (what
            :func:`loggable` does for a client's text); ``False`` leaves backslashes (what
            :class:`LogFormatter` does, so text already escaped is not escaped twice).

    Returns:
        Printable ASCII only, no longer than ``10 * len(text)`` characters.
    """
    if text.isascii() and text.isprintable() and not (backslash and "\\" in text):
        return text
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\" if backslash else char)
        elif " " <= char <= "~":
            out.append(char)
        else:
            out.append(_escaped(char))
    return "".join(out)


def loggable(text: object, limit: int = 80, quote: bool = False) -> str:
    """A client's text as a log line may hold it: printable ASCII, escaped like :func:`ascii`, cut.

    What a client sent (a user name before it is checked, a command, a path, an address taken
    from a header, a bot's message) goes through this before it is logged.

    Args:
        text: a ``str``; ``bytes`` (decoded as UTF-8, an undecodable byte shown as ``\\xNN``); or
            any other object (its ``str``; ``None`` is ``"None"``).
        limit: the most characters of ``text`` kept (escapes count as one each); the rest is cut
            and replaced by ``...`` and the whole length, e.g. ``help\\n2026...(32000 characters)``.
        quote: put the text in single quotes (and escape ``'`` in it as ``\\'``), as :func:`repr`
            does, so it cannot pass for the words of the line around it.

    Returns:
        The text with backslashes doubled and every character outside ``' '`` to ``'~'`` escaped
        (:func:`escape`): one line of printable ASCII, at most ``10 * limit + 32`` characters.

    Examples:
        >>> loggable("help\\n\\x1b]0;OWNED\\x07\\u202e")
        'help\\\\n\\\\x1b]0;OWNED\\\\x07\\\\u202e'
        >>> loggable("a" * 100, limit=5)
        'aaaaa...(100 characters)'
    """
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", "surrogateescape")
    elif not isinstance(text, str):
        text = str(text)
    shown = escape(text[:limit], backslash=True)
    if quote:
        shown = "'" + shown.replace("'", "\\'") + "'"
    return shown if len(text) <= limit else f"{shown}...({len(text)} characters)"


class LogFormatter(logging.Formatter):
    """A :class:`logging.Formatter` whose lines hold printable ASCII only, and no forged line.

    The message (after ``%`` formatting) is escaped whole (:func:`escape`, backslashes left alone:
    text that went through :func:`loggable` is unchanged), newlines included, and cut to
    :data:`MAX_LOG_MESSAGE` characters. A traceback or stack keeps its lines, each escaped, cut to
    1,000 characters and indented by two spaces, so no line of it starts where a log line starts
    (with the time). Every line the formatter writes is therefore printable ASCII, and a file
    written through it holds no byte below ``0x20`` other than ``\\n``, no ``0x7f`` and nothing
    above ``0x7e``: its size in bytes is its length in characters (what
    :class:`logging.handlers.RotatingFileHandler` counts).

    Args:
        fmt: as for :class:`logging.Formatter`; the default ``"%(asctime)s %(message)s"``.
        datefmt: as for :class:`logging.Formatter`.
    """

    def __init__(self, fmt: str | None = "%(asctime)s %(message)s", datefmt: str | None = None) -> None:
        super().__init__(fmt, datefmt)

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        if len(message) > MAX_LOG_MESSAGE:
            message = f"{message[:MAX_LOG_MESSAGE]}...({len(message)} characters)"
        record.message = escape(message)
        if self.usesTime():
            record.asctime = self.formatTime(record, self.datefmt)
        line = escape(self.formatMessage(record))
        extra = []
        if record.exc_info:
            extra.append(self.formatException(record.exc_info))
        elif record.exc_text:
            extra.append(record.exc_text)
        if record.stack_info:
            extra.append(self.formatStack(record.stack_info))
        for text in extra:
            for part in text.splitlines():
                cut = part if len(part) <= 1000 else part[:1000] + "..."
                line += "\n  " + escape(cut)
        return line
