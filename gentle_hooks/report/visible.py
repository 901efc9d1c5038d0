"""Human output that no printed text can turn into terminal commands (docs/robustness.md).

Room: report (the standard library only: every command, hooks included, prints through
here). Paths, receipt commands, models, reasons and refs come from the repository or a
payload and may hold ESC, CR, BEL or other control characters; printed raw, a file named
``$'\\e]0;...\\a'`` would retitle or rewrite the user's terminal. :class:`VisibleStream`
wraps standard output and standard error once, at start-up
(:func:`gentle_hooks.main`), so every text write of every command is rendered by
:func:`visible`: each control character but newline and tab (C0, DEL, C1) becomes the four
characters ``\\xHH``, as a byte that is not UTF-8 is shown. Bytes written to the binary
buffer (a receipt's own command's output, passed through) are not touched. ``--json`` is
unchanged by it: JSON text holds no raw control character
(:mod:`gentle_hooks.report.jsontext` escapes every one as ``\\u00HH``).
"""

from __future__ import annotations

#: Control characters shown as ``\\xHH``: C0 but tab and newline, DEL, C1.
_TABLE = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if c not in (9, 10)}


def visible(text: str) -> str:
    """``text`` with every control character but newline and tab written ``\\xHH``."""
    if text.replace("\n", "").replace("\t", "").isprintable():  # most text: nothing to do
        return text
    return text.translate(_TABLE)


class VisibleStream:
    """A text stream whose ``write`` renders :func:`visible` text; everything else (the
    binary ``buffer``, ``flush``, ``fileno``, ``isatty``, the encoding) is the wrapped
    stream's."""

    def __init__(self, stream: object) -> None:
        self._stream = stream

    @property
    def wrapped(self) -> object:
        """The stream this one writes to."""
        return self._stream

    def write(self, text: object) -> int:
        if isinstance(text, str):
            text = visible(text)
        written: int = self._stream.write(text)  # type: ignore[attr-defined]
        return written

    def writelines(self, lines: object) -> None:
        for line in lines:  # type: ignore[attr-defined]
            self.write(line)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def wrap_streams(streams: object) -> None:
    """Make ``sys.stdout`` and ``sys.stderr`` of the module ``streams`` (``sys``)
    :class:`VisibleStream` s, once (a stream already wrapped, or absent, is left)."""
    for name in ("stdout", "stderr"):
        stream = getattr(streams, name, None)
        if stream is None or isinstance(stream, VisibleStream):
            continue
        setattr(streams, name, VisibleStream(stream))
