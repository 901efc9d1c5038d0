"""The built-in classifier folded commit by commit (:class:`gentle_hooks.native.fold.Folding`)
answers as the classifier from scratch: over random histories of candidates that share
change objects, as a push or a range composes them, every candidate's tally and envelope
equal :func:`tests.classifying.classify`'s of the same inputs.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.config.settings import RiskSettings
from gentle_hooks.git.parse import AddedLine
from gentle_hooks.native.classifier import (
    PASSIVE_PROOF_LIMIT,
    assessment,
    contribution,
    proof_within,
    tally,
)
from gentle_hooks.native.fold import Folding
from gentle_hooks.values.candidate import PathChange
from tests.classifying import classify

S = RiskSettings()
Z = "0" * 40
#: Paths whose changes give every kind of answer: documents (passive when their bytes
#: prove it), code (medium), signals (CI, dependencies, container, shell), generated files.
PATHS = (
    "README.md",
    "docs/guide.md",
    "notes.txt",
    "src/app.py",
    "src/util.go",
    "run.sh",
    ".github/workflows/ci.yml",
    "package.json",
    "requirements.txt",
    "Dockerfile",
    "testdata/golden.golden",
    "config/settings.toml",
    "bin/tool",
    "assets/logo.png",
)
#: Blob ids and their bytes: prose (provable passive), code, a binary-looking blob.
BLOBS = {
    "1" * 40: b"# Title\n\nPlain words.\n",
    "2" * 40: b"Some notes, nothing more.\n",
    "3" * 40: b"import subprocess\nsubprocess.run(['ls'])\n",
    "4" * 40: b"\x00\x01binary",
    "5" * 40: b"<script>alert(1)</script>\n",
}
OIDS = sorted(BLOBS)


@st.composite
def a_change(draw: st.DrawFn, path: str) -> PathChange:
    status = draw(st.sampled_from("AMDT"))
    modes = ("100644", "100755", "120000")
    old_mode = "000000" if status == "A" else draw(st.sampled_from(modes))
    new_mode = "000000" if status == "D" else draw(st.sampled_from(modes))
    old = Z if status == "A" else draw(st.sampled_from(OIDS))
    new = Z if status == "D" else draw(st.sampled_from(OIDS))
    binary = draw(st.booleans()) and draw(st.booleans())
    add = None if binary else draw(st.integers(0, 40))
    dele = None if binary else draw(st.integers(0, 40))
    return PathChange(path, None, status, old_mode, new_mode, old, new, add, dele)


@st.composite
def histories(draw: st.DrawFn) -> list[tuple[tuple[PathChange, ...], dict[str, bytes]]]:
    """Candidates one after another: each keeps most of the previous one's change objects,
    drops some, replaces some with new objects (a commit's own delta), adds some; the
    documents' bytes are the classifier's (all of them, or some missing, or too many)."""
    current: dict[str, PathChange] = {}
    out = []
    for _ in range(draw(st.integers(1, 12))):
        for path in draw(st.lists(st.sampled_from(PATHS), max_size=5)):
            if path in current and draw(st.booleans()):
                del current[path]
            else:
                current[path] = draw(a_change(path))
        changes = tuple(current[p] for p in sorted(current))
        wanted = draw(st.sampled_from(("all", "some", "none")))
        blobs = {
            o: b
            for o, b in BLOBS.items()
            if wanted == "all" or (wanted == "some" and draw(st.booleans()))
        }
        out.append((changes, blobs))
    return out


#: A document past the proof limit: with it, no document of the candidate is proven.
HUGE = {"6" * 40: b"x" * (PASSIVE_PROOF_LIMIT + 1)}
ADDED = [AddedLine(p, 1, "subprocess.run(['x'])") for p in PATHS] + [
    AddedLine("run.sh", 1, "#!/bin/sh")
]


@settings(max_examples=300, deadline=None)
@given(histories(), st.lists(st.booleans(), min_size=12, max_size=12))
def test_folding_equals_classifying_from_scratch(
    history: list[tuple[tuple[PathChange, ...], dict[str, bytes]]], huge: list[bool]
) -> None:
    folding = Folding()
    for (changes, blobs), past_limit in zip(history, huge, strict=False):
        if past_limit:  # now and then the documents are too big to prove: the fold restarts
            blobs = {**blobs, **HUGE}
        within = proof_within(blobs)
        scratch = tally((contribution(c, blobs, within, S) for c in changes), len(changes))
        folded = folding.tally(changes, blobs, S)
        assert folded == scratch
        expected = classify(changes, blobs, ADDED, S, kind="base-diff", base_ref="main")
        assert assessment(folded, ADDED, S, kind="base-diff", base_ref="main") == expected


def test_another_setting_is_not_folded_onto_the_last() -> None:
    """Candidates classified with other settings are tallied from scratch."""
    docs = PathChange("README.md", None, "M", "100644", "100644", "1" * 40, "2" * 40, 1, 1)
    code = PathChange("src/app.py", None, "M", "100644", "100644", "1" * 40, "2" * 40, 1, 1)
    other = RiskSettings(doc_extensions=(".py",))
    folding = Folding()
    for s in (S, S, other, other, S):
        got = folding.tally((docs, code), BLOBS, s)
        assert got == tally((contribution(c, BLOBS, True, s) for c in (docs, code)), 2)
    assert folding.tally((docs, code), BLOBS, S) != folding.tally((docs, code), BLOBS, other)


def test_a_candidate_holding_one_change_twice_is_tallied_from_scratch() -> None:
    """A change object listed twice counts twice, and nothing is folded onto it."""
    code = PathChange("src/app.py", None, "M", "100644", "100644", "3" * 40, "3" * 40, 2, 1)
    docs = PathChange("README.md", None, "M", "100644", "100644", "1" * 40, "2" * 40, 1, 1)
    folding = Folding()
    for changes in ((code, code), (code, docs), (docs,), (code, code, docs), (code,)):
        got = folding.tally(changes, BLOBS, S)
        expected = tally((contribution(c, BLOBS, True, S) for c in changes), len(changes))
        assert got == expected
