"""A block's ways out as ``--json`` reads them: each way a list of commands, each command
an argv (SPEC §7 "Every command a block prints is runnable exactly as printed").

Room ``report``. The text block's labelled lines (:data:`~.shell_text.LABELS`) are read as
the text reads them: ``otherwise`` starts another way, the commands after ``then, either
way`` end every way, an ``or:`` line is an alternative of the command above it (of the same
kind: a prefix's alternative is a prefix too). A way is ``{"when": WORDS, "commands":
[...]}``: ``when`` the words of its ``otherwise`` (or ``where``) line, saying when and
where it runs ("" when the block says nothing). A command is ``{"argv": [...]}``: its words
when the printed line is plain words (:func:`shlex.split` of it joins back to the very
line), else ``["sh", "-c", LINE]`` (an assignment in front, ``&&``, a ``"$(printf ...)"``
word); a ``prefix`` line is the start of one the writer completes with its test command:
``"complete_with": "test_command"``, the test command's words appended to ``argv`` (``sh
-c 'LINE "$@"' sh`` when the line is not plain words); a ``write`` line is ``{"write":
PATH}``, the brief the writer wrote copied there. Alternatives are ``"or"``: commands of
the same shape.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

#: A labelled line of a block: (label, text).
Step = tuple[str, str]


def ways_json(steps: Sequence[Step]) -> list[dict[str, object]]:
    """The ways out of ``steps`` (a block's labelled lines, in order), each with its
    commands (module docstring); a way with no command is left out."""
    ways: list[tuple[str, list[dict[str, object]]]] = [("", [])]
    ending: list[dict[str, object]] | None = None
    last: dict[str, object] | None = None
    kind = ""
    for label, text in steps:
        if label == "otherwise":
            ways.append((text, []))
            ending, last = None, None
        elif label == "where" and not ways[-1][1] and ending is None:
            ways[-1] = (text, [])  # the words before a way's first command say where
        elif label == "then":
            ending = [] if ending is None else ending
        elif label in ("run", "prefix", "write"):
            last, kind = command_json(label, text), label
            (ways[-1][1] if ending is None else ending).append(last)
        elif label == "or" and last is not None:
            alts = last.setdefault("or", [])
            assert isinstance(alts, list)
            alts.append(command_json(kind if kind != "write" else "run", text))
    tail = ending or []
    return [{"when": when, "commands": cmds + tail} for when, cmds in ways if cmds]


def command_json(label: str, text: str) -> dict[str, object]:
    """One printed command (``label``: ``run``, ``prefix`` or ``write``) as an argv."""
    if label == "write":
        return {"write": text}
    words = plain_words(text)
    if label == "prefix":
        argv = words if words is not None else ["sh", "-c", f'{text} "$@"', "sh"]
        return {"argv": argv, "complete_with": "test_command"}
    return {"argv": words if words is not None else ["sh", "-c", text]}


def plain_words(line: str) -> list[str] | None:
    """The words of ``line`` when it is plain words a shell passes on as they are (no
    assignment in front, no operator, no expansion: :func:`shlex.join` of its words is the
    very line), else None."""
    try:
        words = shlex.split(line)
    except ValueError:
        return None
    if not words or "=" in words[0] or shlex.join(words) != line:
        return None
    return words
