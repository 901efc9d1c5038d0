"""The shape check refuses the regexes that backtrack exponentially and keeps the others;
the loader refuses them, and an unparseable or over-long one, as one ConfigError."""

from __future__ import annotations

from pathlib import Path

import pytest

from gentle_hooks.config.load import MAX_PATTERN, load_config
from gentle_hooks.config.regex_shape import preselect_shape, slow_shape
from gentle_hooks.config.settings import DEFAULT_PROCESS_PATTERNS
from gentle_hooks.errors import ConfigError

NESTED = "a repeated group holds a repeat (like '(a*)*')"
AMBIGUOUS = (
    "a repeated alternation has branches that can match the same text (like '(a|a)*' or '(a|ab)*')"
)


@pytest.mark.parametrize(
    ("pattern", "shape"),
    [
        pytest.param("(a*)*b", NESTED, id="star-in-star"),
        pytest.param("(?:x+y?){2,}z", NESTED, id="plus-in-counted"),
        pytest.param("(a|a)*$", AMBIGUOUS, id="same-branches"),
        pytest.param("(a|ab)+c", AMBIGUOUS, id="shared-first-character"),
        pytest.param("(?:.|\\n)*x", AMBIGUOUS, id="dot-or-newline"),
        pytest.param("(a|)*b", AMBIGUOUS, id="empty-branch"),
        pytest.param("(?:x|[a-z]y)+$", AMBIGUOUS, id="class-holds-the-literal"),
        pytest.param("(?:\\d|[0-9]z)+$", AMBIGUOUS, id="category-overlaps-range"),
        pytest.param("(?i)(?:a|Ab)+$", AMBIGUOUS, id="case-folded"),
        pytest.param("((?:ab|a)c?)+$", AMBIGUOUS, id="inside-a-group"),
        pytest.param("(ab|cd)*$", None, id="disjoint-branches"),
        pytest.param("(?:foo|bar)+", None, id="words"),
        pytest.param("(a|b)?c", None, id="optional-once"),
        pytest.param("(\\w|\\d)*$", None, id="merged-into-a-class"),
        pytest.param("x.*z\\(", None, id="no-nesting"),
        *(pytest.param(p, None, id=f"default-{n}") for n, p in enumerate(DEFAULT_PROCESS_PATTERNS)),
    ],
)
def test_slow_shape(pattern: str, shape: str | None) -> None:
    assert slow_shape(pattern) == shape


def _load(tmp_path: Path, risk: str) -> None:
    (tmp_path / ".gentle-hooks.toml").write_text(f"[risk]\n{risk}\n")
    load_config(str(tmp_path), b"", {})


@pytest.mark.parametrize(
    ("risk", "says"),
    [
        pytest.param("process_patterns = ['(a|a)*$']", "repeated alternation", id="ambiguous"),
        pytest.param(
            f"process_patterns = ['{'(' * 3000}{')' * 3000}']", "over 1000", id="too-long"
        ),
        pytest.param(
            f"process_patterns = ['{'(' * 499}{')' * 499}']", "nested too deeply", id="deep"
        ),
        pytest.param("process_patterns = ['a{99999999999999999999}']", "too large", id="huge"),
        pytest.param("process_preselect = '(a*)*\\1'", "back-reference", id="preselect-backref"),
        pytest.param(
            "process_preselect = '(x{0,255}){0,255}'", "counted repeat", id="preselect-counted"
        ),
        pytest.param("process_preselect = 'a{9999}'", "counted repeat", id="preselect-interval"),
        pytest.param("process_preselect = '(ab|cd)+'", "repeated group", id="preselect-group"),
        # {,n} is glibc's {0,n}: [x]{,32767}[x]{,32767} held git -G for 20 s and 4 GB
        pytest.param(
            "process_preselect = '[x]{,32767}[x]{,32767}'", "counted repeat", id="preselect-no-low"
        ),
        # an escaped backslash, then a counted repeat of it
        pytest.param(
            "process_preselect = 'x\\\\{0,32767}'", "counted repeat", id="preselect-after-bs"
        ),
    ],
)
def test_the_loader_refuses_a_slow_or_broken_pattern_naming_the_key(
    tmp_path: Path, risk: str, says: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        _load(tmp_path, risk)
    message = str(caught.value)
    assert "\n" not in message and "risk.process_" in message and says in message, message
    assert MAX_PATTERN == 1000


def test_the_loader_keeps_a_linear_pattern(tmp_path: Path) -> None:
    _load(tmp_path, "process_patterns = ['(?:foo|bar)+\\(']\nprocess_preselect = 'foo|bar'")
    _load(tmp_path, "process_preselect = 'sp[a-z]*wn|[eE]xec|^#!'")
    # a literal brace, escaped or in a bracket expression, and ']' or a class in brackets
    _load(tmp_path, "process_preselect = 'f\\(x\\{|[{]exec|[]{]|[[:alpha:]{]+x'")


@pytest.mark.parametrize(
    ("ere", "shape"),
    [
        ("exec|spawn", None),
        ("x{2}", "a counted repeat"),
        ("x{,9}", "a counted repeat"),
        ("x\\\\{9}", "a counted repeat"),
        ("x\\{9}", None),
        ("[{]x", None),
        ("[]{]x", None),
        ("[^]{]x", None),
        ("[[:alpha:]{]x", None),
        ("[[:alpha:]]{3}", "a counted repeat"),
        ("(ab)*", "a repeated group"),
        ("(ab)?", "a repeated group"),
        ("a\\)*", None),
        ("(a)\\1{2}", "a back-reference"),
    ],
)
def test_preselect_shape(ere: str, shape: str | None) -> None:
    assert preselect_shape(ere) == shape
