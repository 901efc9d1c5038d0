"""Required literals of a regex (the process-execution prefilter): never a missed match."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.config.settings import DEFAULT_PROCESS_PATTERNS
from gentle_hooks.git.blobsearch import search_keys
from gentle_hooks.native.prefilter import folds, needles, required_literals


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\bsubprocess\.", {"subprocess."}),
        (
            r"\bos\.(system|popen|exec\w*|spawn\w*|posix_spawn\w*)\s*\(",
            {"os.system", "os.popen", "os.exec", "os.spawn", "os.posix_spawn"},
        ),
        (r"\b(execSync|execFile|spawnSync)\s*\(", {"execSync", "execFile", "spawnSync"}),
        (r"\bexec\.Command(Context)?\s*\(", {"exec.Command", "exec.CommandContext"}),
        (r"\bRuntime\.getRuntime\(\)\.exec", {"Runtime.getRuntime().exec"}),
        (r"[ab]cd", {"acd", "bcd"}),
        (r"(?:foo|bar)baz", {"foobaz", "barbaz"}),
        (r"x+yz", {"yz"}),
        (r"(?=foo)bar", {"bar"}),
    ],
)
def test_literals_of_known_patterns(pattern: str, expected: set[str]) -> None:
    assert required_literals(pattern) == expected


@pytest.mark.parametrize(
    "pattern",
    [r"(?i)popen", r"a*", r"\w+", r"a|.", r"(a|)", r"[^a]", r"(x)\1", "(unclosed", r"ab(?i:c)?"],
)
def test_no_requirement_when_none_is_known(pattern: str) -> None:
    need = required_literals(pattern)
    assert need is None or "" not in need
    if pattern in (r"(?i)popen", r"a*", r"\w+", r"a|.", r"(a|)", "(unclosed"):
        assert need is None


def test_default_patterns_have_needles_and_few_keys() -> None:
    found = needles(DEFAULT_PROCESS_PATTERNS)
    assert folds(DEFAULT_PROCESS_PATTERNS)
    assert found is not None and b"subprocess" in found and b"os.system(" in found
    assert b"processbuilder" in found and all(n == n.lower() for n in found)
    keys = search_keys(found)
    assert len(keys) < len(found) and all(any(k in n for k in keys) for n in found)


@pytest.mark.parametrize(
    ("pattern", "expected", "fold"),
    [
        (r"(?ai)Popen\(", {"popen("}, True),
        (r"(?ai)[Ee]xec", {"exec"}, True),
        (r"(?i)popen", None, False),  # Unicode folding is not read
        (r"Popen", {"Popen"}, False),
    ],
)
def test_ascii_case_folding_lowercases_the_literals(
    pattern: str, expected: set[str] | None, fold: bool
) -> None:
    assert required_literals(pattern) == expected
    assert folds([pattern]) is fold


def test_folded_needles_are_lowercase_for_every_pattern() -> None:
    assert needles([r"(?ai)exec\(", r"Popen"]) == (b"exec(", b"popen")


@settings(max_examples=300, deadline=None)
@given(st.text("eExXcC(.aA ", max_size=12))
def test_default_patterns_hit_only_lines_holding_a_folded_needle(line: str) -> None:
    found = needles(DEFAULT_PROCESS_PATTERNS)
    assert found is not None
    if any(re.search(p, line) for p in DEFAULT_PROCESS_PATTERNS):
        assert any(n in line.encode().lower() for n in found)


def test_a_pattern_without_literal_means_no_needles() -> None:
    assert needles([r"\bsubprocess\.", r"\w+"]) is None
    assert needles([r"\ufffd"]) is None  # U+FFFD may stand for undecodable bytes


# Patterns built from the constructs the analysis reads, and strings over a small alphabet.
ALPHABET = "ab.(:\n"
atoms = st.one_of(
    st.sampled_from(["a", "b", r"\.", r"\(", ":", ".", r"\b", "^", "$", r"\w", r"\s", "[ab]"]),
    st.sampled_from(["[^a]", "(?=a)", "(?!b)", "(?i:a)"]),
)


def _pattern(depth: int) -> st.SearchStrategy[str]:
    if depth == 0:
        return st.lists(atoms, min_size=1, max_size=5).map("".join)
    inner = _pattern(depth - 1)
    return st.one_of(
        inner,
        st.lists(inner, min_size=2, max_size=3).map("|".join).map(lambda p: f"(?:{p})"),
        st.tuples(inner, st.sampled_from(["*", "+", "?", "{2}", "{1,3}", "+?", ""])).map(
            lambda t: f"({t[0]}){t[1]}"
        ),
        st.lists(inner, min_size=2, max_size=3).map("".join),
    )


@pytest.mark.parametrize(
    ("pattern", "line"),
    [
        ("x(ab)+y", "xababy"),
        ("x(a){2}y", "xaay"),
        ("x(ab)*y", "xy"),
        ("x(a|b)?y", "xy"),
        ("(?:a|bb)(?:c|dd)", "bbdd"),
        ("a(?=b)", "ab"),
        (r"a\b", "a"),
        ("(?i:a)b", "Ab"),
    ],
)
def test_repeats_and_alternatives_keep_every_match(pattern: str, line: str) -> None:
    assert re.search(pattern, line)
    need = required_literals(pattern)
    assert need is None or any(s in line for s in need)


@settings(max_examples=600, deadline=None)
@given(_pattern(2), st.lists(st.text(ALPHABET, max_size=12), min_size=1, max_size=8))
def test_every_match_holds_a_required_literal(pattern: str, lines: list[str]) -> None:
    need = required_literals(pattern)
    for line in lines:
        m = re.search(pattern, line)
        if m is not None and need is not None:
            assert any(s in line for s in need), (pattern, line, need)


@settings(max_examples=200, deadline=None)
@given(st.lists(_pattern(1), min_size=1, max_size=3), st.text(ALPHABET + "é\ufffd", max_size=12))
def test_needles_are_in_the_bytes_of_any_flagged_line(patterns: list[str], line: str) -> None:
    found = needles(patterns)
    raw = line.encode("utf-8")
    text = raw.decode("utf-8", "replace")
    if found is not None and any(re.search(p, text) for p in patterns):
        assert any(n in raw for n in found)


@given(st.lists(st.binary(min_size=1, max_size=12), min_size=1, max_size=12))
def test_search_keys_cover_every_string(strings: list[bytes]) -> None:
    keys = search_keys(tuple(strings))
    assert all(any(k in s for k in keys) for s in strings)


def test_the_default_patterns_needles_written_out_are_what_reading_them_gives() -> None:
    """The classifier answers the default patterns with needles written out, so a gate
    does not parse the patterns each run (issue 20): they must be what :func:`needles` and
    :func:`folds` read from the patterns, and a configured pattern is still read."""
    from gentle_hooks.config.settings import (
        DEFAULT_PROCESS_FOLDS,
        DEFAULT_PROCESS_NEEDLES,
        RiskSettings,
    )
    from gentle_hooks.native import classifier

    assert needles(DEFAULT_PROCESS_PATTERNS) == DEFAULT_PROCESS_NEEDLES
    assert folds(DEFAULT_PROCESS_PATTERNS) == DEFAULT_PROCESS_FOLDS
    assert classifier.process_needles(RiskSettings()) == DEFAULT_PROCESS_NEEDLES
    own = RiskSettings(process_patterns=(r"\bshutil\.rmtree\(",))
    assert classifier.process_needles(own) == (b"shutil.rmtree(",)
    assert classifier.process_folds(own) is False


def test_the_default_patterns_read_no_pattern_parser() -> None:
    """Judging with the default patterns imports no regular-expression parser of ours."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from gentle_hooks.config.settings import RiskSettings\n"
        "from gentle_hooks.native import classifier\n"
        "s = RiskSettings()\n"
        "classifier.process_needles(s), classifier.process_folds(s)\n"
        "print('gentle_hooks.native.prefilter' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr
