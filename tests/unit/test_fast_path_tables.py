"""The fast path's generated tables (docs/fast-path.md) against the policy tables they come
from: the script names every variable the probes read, and its words over-approximate the
markers (a word may match more, never less)."""

from __future__ import annotations

import re
import string
import subprocess

from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.config.keys import ENV_KEYS
from gentle_hooks.policy.delegation import (
    _COAUTHOR,
    IDENTITY_ENV,
    RUNTIME_ENV,
    message_evidence,
    runtime_evidence,
    strip_comments,
)
from gentle_hooks.policy.markers import MARKERS
from gentle_hooks.services.fastpath import (
    FOLDING_LETTERS,
    IDENTITY_WORDS,
    MESSAGE_WORDS,
    SQUEEZE,
    env_names,
    identity_patterns,
    message_pattern,
    path_patterns,
)
from gentle_hooks.services.install import script_text

#: Every code point but the surrogates, in one string: one search per character asked.
ALL = "".join(chr(c) for c in range(0x80, 0x110000) if not 0xD800 <= c <= 0xDFFF)
FOLDS = {
    "\u0130": "i",
    "\u0131": "i",
    "\u212a": "k",
    "\u017f": "s",
}


def _non_ascii_partners(ch: str) -> list[str]:
    return re.findall("(?i)" + re.escape(ch), ALL)


def test_the_commit_script_names_every_variable_of_the_tables() -> None:
    text = script_text("pre-commit", "/usr/bin/python3", False)
    names = set(re.findall(r"\$\{([A-Z_]+)-\}", text))
    # GENTLE_HOOKS_FORMAT: read only after the checks passed, for what the pass prints;
    # PATH: a runtime's tool directory (RUNTIME_PATH)
    tables = {n for n, _, _ in RUNTIME_ENV} | set(ENV_KEYS) | set(IDENTITY_ENV)
    assert names == tables | {"GENTLE_HOOKS_FORMAT", "PATH"}
    assert set(env_names()) == {n for n, _, _ in RUNTIME_ENV} | set(ENV_KEYS)


def test_every_marker_has_its_word() -> None:
    assert set(IDENTITY_WORDS) == {m.id for m in MARKERS if m.where in ("identity", "author")}
    assert set(MESSAGE_WORDS) == {m.id for m in MARKERS if m.where in ("trailer", "message")} | {
        "co-authored-by"
    }


def test_folding_letters_are_exactly_those_python_folds_with_non_ascii() -> None:
    folding = {ch for ch in string.ascii_lowercase if _non_ascii_partners(ch)}
    assert set(FOLDING_LETTERS) == folding
    words = "".join(IDENTITY_WORDS.values()) + "".join(MESSAGE_WORDS.values())
    for ch in set(words) - set(string.ascii_letters):
        assert _non_ascii_partners(ch) == [], ch


def _grep_model(text: str) -> bool:
    """``LC_ALL=C grep -E`` over the UTF-8 bytes: Python's byte regex, same syntax here."""
    return re.search(message_pattern().encode(), text.encode("utf-8")) is not None


def _sh_matches(names: list[str]) -> list[bool]:
    """The script's ``case`` over each name, run by the real ``sh``."""
    script = (
        f'for n in "$@"; do case $n in {identity_patterns()}) echo 1 ;; *) echo 0 ;; esac; done'
    )
    out = subprocess.run(
        ["sh", "-c", script, "sh", *names], capture_output=True, text=True, check=True
    ).stdout
    return [line == "1" for line in out.splitlines()]


def _clean(text: str) -> str:
    return "".join(c for c in text if c != "\0" and not 0xD800 <= ord(c) <= 0xDFFF)


def _fold(text: str, pick: int) -> str:
    """Swap one letter for a non-ASCII partner Python folds with it."""
    for ch, letter in FOLDS.items():
        if pick % 4 == list(FOLDS).index(ch) and letter in text.lower():
            at = text.lower().index(letter)
            return text[:at] + ch + text[at + 1 :]
    return text


MESSAGE_MARKERS = [m.pattern for m in MARKERS if m.where in ("trailer", "message")]
IDENTITY_MARKERS = [m.pattern for m in MARKERS if m.where in ("identity", "author")]


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([*MESSAGE_MARKERS, _COAUTHOR + r"\n"]).flatmap(st.from_regex),
    st.integers(0, 7),
    st.sampled_from(["", "\n", "subject\n\n"]),
)
def test_a_message_python_calls_delegated_matches_the_sh_pattern(
    text: str, pick: int, prefix: str
) -> None:
    for candidate in (prefix + _clean(text), prefix + _fold(_clean(text), pick)):
        if message_evidence(strip_comments(candidate)) is not None:
            assert _grep_model(candidate), candidate


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(
                ["", "/", "//", ".pi", "agent", "bin", ".pi/agent", "/.pi/agent/bin", "agent//bin"]
            ),
            st.text(alphabet="/.abinpgt", max_size=20),
        ),
        min_size=0,
        max_size=4,
    ).map(lambda parts: ["".join(parts[i:]) for i in range(len(parts))])
)
def test_the_path_case_patterns_agree_with_python(entries: list[str]) -> None:
    """The installed hooks' ``case ":$PATH:"`` (:func:`path_patterns`) and
    :func:`runtime_evidence` read a ``PATH`` alike: a runtime's tool directory is one whole
    entry either way."""
    samples = [":".join(entries), "/usr/bin:" + ":".join(entries) + ":/bin"]
    samples += [e + "/.pi/agent/bin" for e in entries] + [e + "/.pi/agent/bin/" for e in entries]
    samples += [e + "/.pi//agent///bin//" for e in entries]  # a run of slashes is one
    script = f'gh_p=":$1:"\n{SQUEEZE}case $gh_p in {path_patterns()}) exit 0 ;; esac; exit 1'
    for path in samples:
        sh = subprocess.run(["sh", "-c", script, "sh", path], check=False).returncode == 0
        assert sh == (runtime_evidence({"PATH": path}) is not None), path


def test_the_real_grep_agrees_with_its_model() -> None:
    samples = [
        "Co-Authored-By: Claude <noreply@anthropic.com>",
        "A\u017f\u017fisted-by: someone",
        "\U0001f916 Generated with [Claude Code](https://claude.com)",
        "aider: fix it",
        "Reviewed-by: a human",
        "plain subject",
    ]
    for text in samples:
        got = subprocess.run(
            ["grep", "-q", "-E", "-e", message_pattern()],
            input=text.encode("utf-8"),
            env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"},
            check=False,
        ).returncode
        assert (got == 0) == _grep_model(text), text


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(IDENTITY_MARKERS).flatmap(st.from_regex), st.integers(0, 7)),
        min_size=1,
        max_size=20,
    )
)
def test_a_name_python_calls_an_agent_matches_the_sh_globs(
    names: list[tuple[str, int]],
) -> None:
    flagged = []
    for raw, pick in names:
        for name in (_clean(raw), _fold(_clean(raw), pick)):
            if runtime_evidence({"GIT_AUTHOR_NAME": name}) is not None:
                flagged.append(name)
    assert all(_sh_matches(flagged)), flagged


def test_the_probes_windows_dir_is_where_the_windows_are_kept() -> None:
    """:func:`gentle_hooks.ledger.probe.windows_open` (and the commit fast path) look where
    :mod:`gentle_hooks.services.agent_windows` keeps its files."""
    from gentle_hooks.ledger.probe import WINDOWS_DIR
    from gentle_hooks.services.agent_shell import SHELL_DIR
    from gentle_hooks.services.agent_windows import WINDOW_DIR

    assert (SHELL_DIR, WINDOW_DIR) == WINDOWS_DIR


def test_the_probes_calls_dir_is_below_the_shell_snapshots() -> None:
    """:func:`gentle_hooks.ledger.probe.calls_open` (and the commit fast path) look below
    the directory :mod:`gentle_hooks.services.agent_shell` keeps its snapshots in, where
    :mod:`gentle_hooks.services.agent_inflight` keeps its call files."""
    from gentle_hooks.ledger.probe import CALLS_DIR
    from gentle_hooks.services.agent_shell import SHELL_DIR

    assert CALLS_DIR[0] == SHELL_DIR
