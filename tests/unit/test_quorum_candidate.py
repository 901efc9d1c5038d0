"""A verdict set's ``candidate``: what it is read as, row by row (SPEC §9; seed 003
"evidence reproduces or it refutes"; issue 18, refuter r18p open item 1).

No git: :func:`~gentle_hooks.quorum.ballot.parse_verdict_file` validates the id's form
(a malformed one exits 2, one line, unlike a malformed verdict, which abstains) and
:func:`~gentle_hooks.quorum.ballot.named_candidates` lists each id once. Whether the id is
an object of the repository is tests/integration/test_quorum_candidate.py.
"""

from __future__ import annotations

import json

import pytest

from gentle_hooks.cli.schema import schema_for
from gentle_hooks.errors import EXIT_INPUT, UsageError
from gentle_hooks.quorum.ballot import named_candidates, parse_verdict_file

CLAIM = "Subagents inherit no budget cap"
UP = {"refuted": False, "reason": "r", "whatIChecked": "opened a.js:1: `x`"}
SHA1 = "0123456789abcdef0123456789abcdef01234567"
SHA256 = "0123456789abcdef" * 4


def _set(**fields: object) -> str:
    return json.dumps({"claim": CLAIM, "verdicts": [UP], **fields})


#: (id, verdict set text, the candidate read): a well-formed id, or none.
GOOD_ROWS: list[tuple[str, str, str | None]] = [
    ("sha1-commit-or-tree", _set(candidate=SHA1), SHA1),
    ("sha256", _set(candidate=SHA256), SHA256),
    ("absent", _set(), None),
    ("null-is-absent", _set(candidate=None), None),
]


@pytest.mark.parametrize(
    ("text", "read"), [r[1:] for r in GOOD_ROWS], ids=[r[0] for r in GOOD_ROWS]
)
def test_a_well_formed_candidate_is_read(text: str, read: str | None) -> None:
    parsed = parse_verdict_file(text, "v.json")
    assert (parsed.claim, parsed.candidate, len(parsed.verdicts)) == (CLAIM, read, 1)


#: (id, verdict set text, the one line it exits 2 with).
BAD_ROWS: list[tuple[str, str, str]] = [
    (
        "ref-name",
        _set(candidate="HEAD"),
        "v.json: candidate 'HEAD' is not a full commit or tree id",
    ),
    ("abbreviated", _set(candidate=SHA1[:12]), f"v.json: candidate '{SHA1[:12]}' is not a full"),
    (
        "uppercase",
        _set(candidate=SHA1.upper()),
        "is not a full commit or tree id (40 or 64 lowercase",
    ),
    ("41-digits", _set(candidate=SHA1 + "0"), "is not a full commit or tree id"),
    ("blank", _set(candidate=""), "v.json: candidate '' is not a full"),
    ("number", _set(candidate=7), "v.json: candidate '7' is not a full"),
    ("object", _set(candidate={"tree": SHA1}), "is not a full commit or tree id"),
    (
        "revision-expression",
        _set(candidate=f"{SHA1}^{{tree}}"),
        "is not a full commit or tree id",
    ),
    (
        "repeated-key",
        f'{{"claim": "c", "verdicts": [], "candidate": "{SHA1}", "candidate": "{SHA256}"}}',
        "v.json: the verdict set names its candidate twice: keep one",
    ),
    (
        "malformed-set-too",
        json.dumps({"verdicts": [UP], "candidate": "HEAD"}),
        "v.json: candidate 'HEAD' is not a full commit or tree id",
    ),
]


@pytest.mark.parametrize(("text", "said"), [r[1:] for r in BAD_ROWS], ids=[r[0] for r in BAD_ROWS])
def test_a_malformed_candidate_exits_2(text: str, said: str) -> None:
    """What every vote is checked against is the tally's input, not a verifier's answer:
    a malformed id stops the tally (it does not abstain and let a tree go unread)."""
    with pytest.raises(UsageError) as caught:
        parse_verdict_file(text, "v.json")
    assert caught.value.exit_code == EXIT_INPUT
    message = caught.value.message
    assert said in message and "\n" not in message, message


def test_named_candidates_lists_each_id_once_in_file_order() -> None:
    files = (
        parse_verdict_file(_set(candidate=SHA1), "a.json"),
        parse_verdict_file(_set(), "b.json"),
        parse_verdict_file(_set(candidate=SHA256), "c.json"),
        parse_verdict_file(_set(candidate=SHA1), "d.json"),
        parse_verdict_file(json.dumps(UP), "e.json"),
    )
    assert named_candidates(files) == (("a.json", SHA1), ("c.json", SHA256))
    assert named_candidates(files[1:2]) == ()


def test_the_schema_names_the_candidate_field() -> None:
    props = schema_for("quorum-verdicts")["properties"]
    assert isinstance(props, dict)
    options = props["candidate"]["anyOf"]
    assert {"type": "string", "pattern": "^(?:[0-9a-f]{40}|[0-9a-f]{64})$"} in options
