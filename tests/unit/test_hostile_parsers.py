"""Every parser of outside input gives a result or a one-line exit-2 error, never anything
else (SPEC §7 "Exit codes"; docs/robustness.md).

Properties over arbitrary bytes and hostile structure — nesting far past any limit, huge
numbers, NUL, bytes that are not UTF-8, wrong types under the right names — for the config
file, git config and environment values, note lines, DelegationBriefs and DelegationVerdicts,
quorum verdict and tally files, every agent runtime's hook payload, and git's pre-push lines.
An exception that is not :class:`~gentle_hooks.errors.GentleError` (exit 2, one line) fails
the property: at the top it would be exit 3.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gentle_hooks.agents.event import RuntimeEvent
from gentle_hooks.agents.runtimes import DECODED, runtime
from gentle_hooks.artifacts.brief import parse_brief
from gentle_hooks.artifacts.verdict import parse_verdict
from gentle_hooks.config.keys import ENV_KEYS, GIT_KEYS
from gentle_hooks.config.load import compile_settings, load_config, parse_git_config_z
from gentle_hooks.errors import EXIT_INPUT, GentleError
from gentle_hooks.hooks.push_input import parse_pre_push
from gentle_hooks.notes.lines import MalformedLine, decode
from gentle_hooks.quorum.ballot import parse_verdict_file, read_verifier_output
from gentle_hooks.quorum.ruling import parse_tally_records
from tests.agent_payloads import RUNTIMES, materialize
from tests.hostile_fields import NOTE_FIELDS, PAYLOAD_FIELDS, VERDICT_FIELDS

EXAMPLES = settings(max_examples=100)

# --- hostile material -------------------------------------------------------------------------

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**300, max_value=10**310),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["", " ", "\0", "a\0b", "..", "/", "-x", "\udcff", "é" * 30, "x" * 5000]),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=20,
)


def deep(opening: bytes, closing: bytes) -> st.SearchStrategy[bytes]:
    return st.integers(min_value=60, max_value=5_000).map(lambda n: opening * n + closing * n)


HOSTILE_BYTES = st.one_of(
    st.binary(max_size=400),
    deep(b"[", b"]"),
    deep(b'{"a":', b"}"),
    st.integers(min_value=4_000, max_value=9_000).map(lambda n: b"9" * n),
    st.sampled_from([b"", b"\0", b"\xff\xfe", b"\xef\xbb\xbf{}", b"NaN", b"[Infinity]", b"{}"]),
)


def documents(fields: list[str]) -> st.SearchStrategy[bytes]:
    """JSON documents shaped like the real thing: the parser's own field names, with any
    value under them (wrong types, huge numbers, nesting), or hostile bytes."""
    objects = st.dictionaries(st.sampled_from(fields) | st.text(max_size=8), JSON_VALUES)
    shaped = st.one_of(objects, st.lists(objects, max_size=3), JSON_VALUES)
    return st.one_of(
        shaped.map(lambda v: json.dumps(v).encode("utf-8", "surrogatepass")), HOSTILE_BYTES
    )


def holds(parse: Callable[[], object]) -> None:
    """The contract: a result, or a GentleError of exit 2 whose message is one line."""
    try:
        parse()
    except GentleError as exc:
        assert exc.exit_code == EXIT_INPUT, exc
        assert "\n" not in exc.message


# --- config: the file, git config and the environment --------------------------------------

TOML_KEYS = [
    "mode",
    "stakes",
    "base_ref",
    "rdd",
    "[gate]",
    "applies_to",
    "honour_overrides",
    "[native]",
    "provider",
    "timeout",
    "[risk]",
    "hot_path_tokens",
    "process_patterns",
    "[verification]",
    "commands",
    "artifact_dir",
    "require_observed",
    "[tool.gentle-hooks]",
]
TOML_VALUES = [
    '"x"',
    "1",
    "1e999",
    "9" * 5000,
    "true",
    "[]",
    '["a", 1]',
    "{a = 1}",
    '"\\u0000"',
    '"(["',
    '"""',
    "'''",
    "[" * 300 + "]" * 300,
    "{a={b={c=1}}}",
    "-inf",
    "nan",
]


@st.composite
def toml_text(draw: st.DrawFn) -> bytes:
    lines = []
    for _ in range(draw(st.integers(0, 8))):
        key = draw(st.sampled_from(TOML_KEYS))
        lines.append(
            key if key.startswith("[") else f"{key} = {draw(st.sampled_from(TOML_VALUES))}"
        )
    return "\n".join(lines).encode("utf-8")


@EXAMPLES
@given(
    st.one_of(toml_text(), HOSTILE_BYTES), st.sampled_from([".gentle-hooks.toml", "pyproject.toml"])
)
def test_config_file(data: bytes, name: str) -> None:
    holds(lambda: load_config("/repo", b"", {}, read=lambda n: data if n == name else None))


@EXAMPLES
@given(
    st.dictionaries(st.sampled_from(sorted(ENV_KEYS)), st.text(max_size=60)),
    st.dictionaries(st.sampled_from(sorted(GIT_KEYS)), st.text(max_size=60)),
)
def test_environment_and_git_config_values(env: dict[str, str], git_values: dict[str, str]) -> None:
    holds(lambda: compile_settings(None, None, git_values, env))


@EXAMPLES
@given(st.binary(max_size=300))
def test_git_config_output(data: bytes) -> None:
    holds(lambda: compile_settings(None, None, parse_git_config_z(data), {}))


# --- note lines ----------------------------------------------------------------------------


@EXAMPLES
@given(documents(NOTE_FIELDS))
def test_note_line(data: bytes) -> None:
    text = data.decode("utf-8", "surrogateescape")
    with contextlib.suppress(MalformedLine):  # a line that counts for nothing: a result
        decode(text)


@EXAMPLES
@given(
    st.dictionaries(st.sampled_from(NOTE_FIELDS), JSON_VALUES),
    st.sampled_from(
        [
            "candidate",
            "writer",
            "escalation",
            "receipt",
            "spot_check",
            "verdict",
            "review",
            "override",
        ]
    ),
)
def test_note_line_of_each_kind(fields: dict[str, object], kind: str) -> None:
    line = json.dumps({**fields, "v": 1, "kind": kind})
    with contextlib.suppress(MalformedLine):
        decode(line)


# --- briefs, verdicts and quorum files ------------------------------------------------------


@EXAMPLES
@given(documents(VERDICT_FIELDS))
def test_brief_and_verdict_files(data: bytes) -> None:
    holds(lambda: parse_brief(data, "brief.json"))
    holds(lambda: parse_verdict(data, "verdict.json"))


@EXAMPLES
@given(documents(VERDICT_FIELDS))
def test_quorum_files(data: bytes) -> None:
    holds(lambda: parse_verdict_file(data, "v.json"))
    holds(lambda: parse_tally_records(data, "t.json"))
    holds(lambda: read_verifier_output(data, "out"))


# --- agent-runtime payloads -------------------------------------------------------------------


@EXAMPLES
@given(documents(PAYLOAD_FIELDS), st.sampled_from(DECODED))
def test_agent_payload(data: bytes, name: str) -> None:
    decoder = runtime(name).decode
    assert decoder is not None
    holds(lambda: decoder(data))


#: What a JSON number can be to Python's parser: NaN and the infinities (spelled so, or
#: a float past its range such as ``1e400``), integers of up to 4,300 digits, floats.
HOSTILE_NUMBERS = st.one_of(
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e400", "1e-400", "-0.0"]),
    st.integers(min_value=-(10**4299), max_value=10**4299).map(str),
    st.floats().map(json.dumps),
)


def _leaves(value: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Where the members of a JSON document are (every member, nested ones too)."""
    out: list[tuple[object, ...]] = [at] if at else []
    if isinstance(value, dict):
        for k, v in value.items():
            out += _leaves(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _leaves(v, (*at, i))
    return out


def _with_number(payload: dict[str, object], at: tuple[object, ...], number: str) -> bytes:
    """``payload`` as JSON text with the member at ``at`` spelled as ``number``."""
    doc = copy.deepcopy(payload)
    holder: Any = doc
    for key in at[:-1]:
        holder = holder[key]
    holder[at[-1]] = "@NUMBER@"
    return json.dumps(doc).replace('"@NUMBER@"', number).encode()


def _documented(name: str) -> dict[str, object]:
    data, _ = materialize(name, Path("/work tree"), Path("/no/scratch"))
    payload: dict[str, object] = json.loads(data)
    return payload


@EXAMPLES
@given(st.sampled_from(RUNTIMES), st.data(), HOSTILE_NUMBERS)
def test_a_hostile_number_anywhere_in_a_documented_payload_decodes(
    name: str, data: st.DataObject, number: str
) -> None:
    """NaN, an infinity, a 4,300-digit integer in any member of a runtime's documented hook
    input: the decoder gives an event, never an exception (``record --from NAME`` exits 0)."""
    payload = _documented(name)
    at = data.draw(st.sampled_from([*_leaves(payload), ("timestamp",)]))
    decoder = runtime(name).decode
    assert decoder is not None
    assert isinstance(decoder(_with_number(payload, at, number)), RuntimeEvent)


@EXAMPLES
@given(st.sampled_from(RUNTIMES), HOSTILE_NUMBERS)
def test_a_hostile_timestamp_is_an_unknown_time_and_the_write_is_kept(
    name: str, number: str
) -> None:
    """A ``timestamp`` no moment has (``1e400``, NaN, a huge integer): the same write, the
    same paths, a tool call id still (the time only tells replays apart)."""
    payload = _documented(name)
    decoder = runtime(name).decode
    assert decoder is not None
    plain = decoder(json.dumps(payload).encode())
    hostile = decoder(_with_number(payload, ("timestamp",), number))
    assert (hostile.writes, hostile.paths) == (plain.writes, plain.paths)
    assert plain.writes and hostile.tool_call_id


# --- git's pre-push lines ---------------------------------------------------------------------


@EXAMPLES
@given(
    st.lists(
        st.one_of(
            st.text(max_size=90),
            st.builds(
                lambda a, b: f"refs/heads/{a} {'0' * 40} refs/heads/{b} {'f' * 64}",
                st.text(max_size=10),
                st.text(max_size=10),
            ),
        ),
        max_size=5,
    )
)
def test_pre_push_lines(lines: list[str]) -> None:
    holds(lambda: parse_pre_push("\n".join(lines)))
