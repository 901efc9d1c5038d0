"""The journey bench's ``by_design`` refusals quote the documentation word for word (issue
14: "``by_design`` (a documented refusal, quoted)"): every ``ByDesign(pattern, doc, text)``
of ``bench/journeys/`` names a file of this repository whose text holds ``text``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _quotes() -> list[tuple[str, str, str]]:
    """(where, doc, text) of every ``ByDesign(...)`` call with constant arguments."""
    found = []
    for path in sorted((ROOT / "bench" / "journeys").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "ByDesign"
            ):
                args = [ast.literal_eval(a) for a in node.args]
                found.append((f"{path.name}:{node.lineno}", args[1], args[2]))
    return found


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_every_by_design_refusal_is_quoted_from_its_document() -> None:
    quotes = _quotes()
    assert len(quotes) >= 3, quotes
    for where, doc, text in quotes:
        source = ROOT / doc
        assert source.is_file(), f"{where}: {doc} is not a file of the repository"
        assert _words(text) in _words(source.read_text(encoding="utf-8")), (
            f"{where}: not found word for word in {doc}: {text!r}"
        )
