"""A writer's proposal a person modified before it was written: which lines are the
writer's (SPEC §3 "Attribution follows content"; docs/agents/gemini-cli.md).

Room ``policy`` (pure: bytes in, bytes out). Some runtimes let the person edit what the
model proposed before the tool writes it, and hand the hook both: the content the model
proposed and the file as written. The written file then holds three kinds of lines: the
model's (proposed, and not in the file before), the person's (neither proposed nor there
before), and the ones the file had. Attribution reads a writer's delta as the lines that
differ between where it started and what it left (:func:`~gentle_hooks.policy.attribution.
writer_delta`), so the person's lines are moved to the start: :func:`person_start` is the
content the model's write is measured from, the file before plus what the person alone
did. Measured from there, the delta holds only the model's lines that survive in the file
and the lines the model removed that stay removed. A line is the person's only when their
version holds it and the proposal does not: a line the person also typed as the model
proposed it, or one the runtime changed on its way to the file, counts as the model's (the
safe side).

Lines are compared as their keys compare (:func:`~gentle_hooks.policy.linekeys.
stripped_key`: whitespace and quote style aside), so a person re-indenting the model's
line leaves it the model's.
"""

from __future__ import annotations

from gentle_hooks.policy.linekeys import stripped_key


def _keys(data: bytes) -> set[str]:
    return {stripped_key(line.strip()) for line in data.splitlines() if line.strip()}


def person_start(start: bytes | None, written: bytes, proposed: bytes, edited: bytes) -> bytes:
    """The content a person-modified write is measured from: the lines of ``written`` that
    are the person's (a line of ``edited``, the person's version, that ``proposed`` does not
    hold) or that ``start`` had, then the lines of ``start`` the model's proposal dropped and
    ``written`` lacks too (the model's removals that stay removed), in their order. Every
    other line of ``written`` is the model's: its proposal's, or one the runtime changed on
    the way to the file (a line in neither version is never the person's). Equal to
    ``written`` when nothing of the model's proposal survives.

    Args:
        start: the file before the write (None: there was none); written: the file as the
            tool left it; proposed: the content the model proposed for it; edited: the
            content the person left in the editor (empty: unknown, so no line is theirs).
    """
    before = start or b""
    before_keys, proposed_keys = _keys(before), _keys(proposed)
    persons = _keys(edited) - proposed_keys
    kept = [
        line
        for line in written.splitlines(keepends=True)
        if not line.strip() or (key := stripped_key(line.strip())) in before_keys or key in persons
    ]
    written_keys = _keys(written)
    removed = [
        line
        for line in before.splitlines(keepends=True)
        if line.strip()
        and (key := stripped_key(line.strip())) not in proposed_keys
        and key not in written_keys
    ]
    if removed and kept and not kept[-1].endswith((b"\n", b"\r")):
        kept[-1] += b"\n"
    return b"".join(kept + removed)
