"""The blob search's "anything more to read?" answers where the system cannot tell."""

from __future__ import annotations

import os

from gentle_hooks.git.blobsearch import _readable


def test_a_pipe_with_nothing_written_is_not_readable_and_one_written_to_is() -> None:
    r, w = os.pipe()
    try:
        assert _readable(r, 0) is False
        os.write(w, b"x")
        assert _readable(r, 0) is True
    finally:
        os.close(r)
        os.close(w)


def test_a_descriptor_select_cannot_watch_reads_as_readable() -> None:
    """Windows selects sockets only: the search then waits for more, as it did before it
    searched early (never an error on the reading thread)."""
    assert _readable(-1, 0) is True
