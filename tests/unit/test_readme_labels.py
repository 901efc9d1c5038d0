"""Every label a block prints before a command (``run:``, ``human:``, ``otherwise,`` …) is
explained in README's paragraph on blocks ("When a gate blocks, ...")."""

from __future__ import annotations

import re
from pathlib import Path

from gentle_hooks.report.fixes import LABELS, step_lines

CHECKOUT = Path(__file__).resolve().parents[2]

#: Labels :func:`step_lines` prints as words, with no label of their own.
WORDS = {"do", "where"}


def blocks_paragraph() -> str:
    text = (CHECKOUT / "README.md").read_text(encoding="utf-8")
    start = text.index("When a gate blocks,")
    return text[start : text.index("\n\n", start)]


def printed_labels() -> set[str]:
    """The labels the blocks print: every step label step_lines writes as a label, and each
    ``{indent}LABEL: {program()}`` line the report room writes itself."""
    out = set()
    for label in LABELS:
        line = step_lines([(label, "x")], indent="")[0]
        if line != "x":
            out.add(line.split(":")[0].split(",")[0])
    for path in (CHECKOUT / "gentle_hooks").rglob("*.py"):
        out |= set(re.findall(r"\{indent\}(\w+): \{program\(\)\}", path.read_text()))
    return out


def test_every_printed_label_is_explained_in_the_readme() -> None:
    paragraph = blocks_paragraph()
    labels = printed_labels()
    assert {"run", "prefix", "write", "or", "otherwise", "then", "human"} <= labels
    missing = [
        label
        for label in sorted(labels)
        if f"`{label}:`" not in paragraph and not re.search(rf"`{label},[^`]*`", paragraph)
    ]
    assert missing == [], missing


def test_the_words_labels_print_no_label() -> None:
    for label in WORDS:
        assert step_lines([(label, "x")], indent="") == ["x"]
