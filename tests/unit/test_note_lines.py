"""Note lines (SPEC §8): one typed encoder and decoder, :mod:`gentle_hooks.notes.lines`.

Every kind round-trips (``decode(encode(x)) == x``, property-based); the encoded text is the
canonical line other clones already hold (sorted keys, compact, UTF-8 kept); a line that can
count for nothing — anything outside :data:`SCHEMA` — raises :class:`MalformedLine` with the
line that says why, naming its kind when it named a known one.
"""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.notes.codec import parse
from gentle_hooks.notes.lines import (
    SCHEMA,
    CandidateLine,
    EscalationLine,
    MalformedLine,
    NoteLine,
    OverrideLine,
    ReceiptLine,
    ReviewLine,
    SpotCheckLine,
    VerdictLine,
    WriterLine,
    WritesLine,
    canonical_json,
    decode,
    encode,
    signed_payload,
)
from gentle_hooks.values.frozen import fields

OID = "a" * 40
TEXT = st.text()
MAYBE_TEXT = st.none() | TEXT
OIDS = st.text(alphabet="0123456789abcdef", min_size=40, max_size=40) | st.text(
    alphabet="0123456789abcdef", min_size=64, max_size=64
)
TIMES = st.none() | st.floats(allow_nan=False)
#: A receipt's directory below the top, or None (the top).
DIRS = st.none() | st.lists(
    st.text(min_size=1).filter(lambda p: "/" not in p and "\0" not in p and p not in (".", "..")),
    min_size=1,
    max_size=3,
).map("/".join)
EXITS = st.none() | st.integers()
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)

KINDS: dict[type[NoteLine], st.SearchStrategy[NoteLine]] = {
    CandidateLine: st.builds(CandidateLine, OIDS, TEXT, OIDS, OIDS),
    WriterLine: st.builds(WriterLine, TEXT, TEXT, MAYBE_TEXT),
    WritesLine: st.builds(WritesLine, TEXT, OIDS),
    EscalationLine: st.builds(
        EscalationLine, st.integers(1, 6), TEXT, TEXT, st.booleans(), MAYBE_TEXT
    ),
    ReceiptLine: st.builds(ReceiptLine, TEXT, TEXT, TEXT, EXITS, MAYBE_TEXT, TIMES, DIRS),
    SpotCheckLine: st.builds(
        SpotCheckLine,
        TEXT,
        TEXT,
        TEXT,
        EXITS,
        EXITS,
        st.booleans(),
        st.booleans(),
        TIMES,
        MAYBE_TEXT,
        DIRS,
    ),
    VerdictLine: st.builds(
        VerdictLine,
        TEXT,
        st.dictionaries(TEXT, JSON).map(json.dumps).map(canonical_json),
        TIMES,
        MAYBE_TEXT,
    ),
    ReviewLine: st.builds(ReviewLine, TEXT, TEXT, TIMES),
    OverrideLine: st.builds(
        OverrideLine,
        TEXT,
        TEXT,
        TEXT,
        TEXT,
        st.lists(TEXT).map(tuple),
        MAYBE_TEXT,
        TIMES,
        MAYBE_TEXT,
    ),
}


_SAMPLES: dict[str, NoteLine] = {
    "candidate": CandidateLine(OID, "i", OID, OID),
    "writer": WriterLine("m", "low"),
    "writes": WritesLine("src/app.py", OID),
    "escalation": EscalationLine(2, "security", "r"),
    "receipt": ReceiptLine("i", "c", "ok"),
    "spot_check": SpotCheckLine("i", "rerun", "c"),
    "verdict": VerdictLine("i", "{}"),
    "review": ReviewLine("i", "declined"),
    "override": OverrideLine("i", "pre-push", "w", "r"),
}


@pytest.mark.parametrize("kind", list(KINDS), ids=lambda k: k.KIND)
def test_every_kind_round_trips(kind: type[NoteLine]) -> None:
    @given(KINDS[kind])
    def round_trip(line: NoteLine) -> None:
        text = encode(line)
        assert "\n" not in text
        assert decode(text) == line

    round_trip()


def test_a_line_is_canonical_json_with_its_kind_and_version() -> None:
    line = OverrideLine("id", "pre-push", "Ana <a@x>", "hotfix é", ("spot-check",), None, 1.5)
    assert encode(line) == (
        '{"hook":"pre-push","identity":"id","kind":"override","missing":["spot-check"],'
        '"reason":"hotfix é","recorded_at":1.5,"target":null,"v":1,"who":"Ana <a@x>"}'
    )


def test_a_verdict_travels_as_the_object_it_holds() -> None:
    line = VerdictLine("id", canonical_json('{"status": "pass", "briefId": "b"}'), None)
    assert json.loads(encode(line))["verdict"] == {"briefId": "b", "status": "pass"}
    assert line.verdict == '{"briefId":"b","status":"pass"}'


@pytest.mark.parametrize(
    ("text", "kind", "why"),
    [
        ("not json", None, "not JSON"),
        ("[1]", None, "not a JSON object"),
        ('{"kind":"writer","v":2,"model":"m"}', None, "not version 1"),
        ('{"kind":"writer","v":1.0,"model":"m","effort":"e"}', None, "not version 1"),
        ('{"kind":"mystery","v":1}', None, 'unknown kind "mystery"'),
        (
            '{"kind":"candidate","v":1,"commit":"x","identity":"i","base_tree":"y","tree":"z"}',
            "candidate",
            'candidate: commit must be a lowercase hex object id, not "x"',
        ),
        (
            '{"kind":"escalation","v":1,"item":7,"slug":"s","reason":"r"}',
            "escalation",
            "escalation: item must be an integer 1..6, not 7",
        ),
        (
            '{"kind":"escalation","v":1,"item":2.0,"slug":"s","reason":"r"}',
            "escalation",
            "escalation: item must be an integer 1..6, not 2.0",
        ),
        ('{"kind":"escalation","v":1,"item":2}', "escalation", "escalation: slug is missing"),
        (
            '{"kind":"escalation","v":1,"item":2,"slug":"s","reason":"r","critical":"no"}',
            "escalation",
            'escalation: critical must be true or false, not "no"',
        ),
        (
            '{"kind":"receipt","v":1,"identity":5,"command":"c","observed":"o"}',
            "receipt",
            "receipt: identity must be text, not 5",
        ),
        (
            '{"kind":"spot_check","v":1,"identity":"i","check":"rerun","command":"c","agreed":1}',
            "spot_check",
            "spot_check: agreed must be true or false, not 1",
        ),
        (
            '{"kind":"spot_check","v":1,"identity":"i","check":"rerun","command":"c",'
            '"reported_exit":true}',
            "spot_check",
            "spot_check: reported_exit must be an integer or null, not true",
        ),
        (
            '{"kind":"writer","v":1,"model":7,"effort":"low","newer":1}',
            "writer",
            "writer: model must be text, not 7",
        ),
        (
            '{"kind":"verdict","v":1,"identity":"i","verdict":[1]}',
            "verdict",
            "verdict: verdict must be a JSON object, not [1]",
        ),
        (
            '{"kind":"override","v":1,"identity":"i","hook":"h","who":"w","reason":"r",'
            '"missing":[1]}',
            "override",
            "override: missing must be a list of text, not [1]",
        ),
    ],
    ids=[
        "not-json",
        "not-object",
        "newer-version",
        "float-version",
        "unknown-kind",
        "bad-candidate",
        "item-out-of-range",
        "item-float",
        "slug-missing",
        "flag-not-bool",
        "identity-not-text",
        "agreed-int",
        "exit-bool",
        "known-field-malformed-beside-an-unknown-one",
        "verdict-not-object",
        "missing-not-texts",
    ],
)
def test_a_line_outside_the_schema_is_refused_naming_why(
    text: str, kind: str | None, why: str
) -> None:
    with pytest.raises(MalformedLine) as caught:
        decode(text)
    assert caught.value.kind == kind
    assert str(caught.value).startswith(why), str(caught.value)


def test_optional_fields_take_their_defaults_and_null() -> None:
    writer = decode('{"kind":"writer","v":1,"model":"m","effort":"low"}')
    assert writer == WriterLine("m", "low", None)
    spot = decode(
        '{"kind":"spot_check","v":1,"identity":"i","check":"rerun","command":"c",'
        '"reported_exit":null}'
    )
    assert spot == SpotCheckLine("i", "rerun", "c", None, None, False, False, None)
    escalation = decode('{"kind":"escalation","v":1,"item":2,"slug":"s","reason":"r"}')
    assert escalation == EscalationLine(2, "s", "r", False)


def test_a_writes_line_holds_a_path_and_an_object_id() -> None:
    line = WritesLine("src/app.py", OID)
    assert encode(line) == f'{{"blob":"{OID}","kind":"writes","path":"src/app.py","v":1}}'
    with pytest.raises(MalformedLine, match="writes: blob must be a lowercase hex object id"):
        decode('{"kind":"writes","v":1,"path":"a.py","blob":"HEAD"}')
    with pytest.raises(MalformedLine, match="writes: path is missing"):
        decode(f'{{"kind":"writes","v":1,"blob":"{OID}"}}')


def test_the_schema_names_every_field_of_every_kind() -> None:
    for kind, cls in ((k, type(x)) for k, x in _SAMPLES.items()):
        assert tuple(name for name, _, _ in SCHEMA[kind]) == fields(cls)


@given(
    st.dictionaries(
        st.sampled_from(["kind", "v", "item", "slug", "identity", "commit", "verdict", "sig"]),
        JSON | st.sampled_from(list(SCHEMA)),
        max_size=6,
    )
)
def test_any_json_object_decodes_or_is_refused_never_another_error(obj: dict[str, object]) -> None:
    with contextlib.suppress(MalformedLine):
        decode(json.dumps(obj))


def test_a_signature_is_written_only_when_present_and_not_signed_over() -> None:
    plain = SpotCheckLine("i", "rerun", "c", 0, 0, True, True, 1.0)
    signed = SpotCheckLine("i", "rerun", "c", 0, 0, True, True, 1.0, "SIG")
    assert '"sig"' not in encode(plain)
    assert json.loads(encode(signed))["sig"] == "SIG"
    assert signed_payload(signed) == signed_payload(plain) == encode(plain).encode()


def test_a_refused_writer_or_escalation_line_still_shows_writer_work() -> None:
    note = parse(b'{"kind":"escalation","v":1,"item":9}\n\nnot json\n')
    assert note.lines == () and note.refused == ("escalation", None)
    assert note.records_work
    assert not parse(b'{"kind":"candidate","v":1,"commit":"x"}\n').records_work


def test_records_are_selected_by_kind_and_identity() -> None:
    lines = [
        CandidateLine(OID, "i", OID, OID),
        ReviewLine("i", "declined", 1.0),
        ReviewLine("j", "consumed", 2.0),
        WriterLine("m", "low"),
    ]
    note = parse("\n".join(encode(x) for x in lines).encode())
    assert note.of(ReviewLine, "i") == (ReviewLine("i", "declined", 1.0),)
    assert note.of(WriterLine) == (WriterLine("m", "low"),)
    assert note.of(WriterLine, "i") == ()
    assert note.candidates == (CandidateLine(OID, "i", OID, OID),)


@given(st.binary(), st.binary())
def test_arbitrary_bytes_round_trip_through_a_utf8_line(command: bytes, who: bytes) -> None:
    receipt = ReceiptLine(
        identity="i", command=command.decode("utf-8", "surrogateescape"), observed="passed"
    )
    override = OverrideLine(
        identity="i",
        hook="pre-commit",
        who=who.decode("utf-8", "surrogateescape"),
        reason="r",
        missing=(command.decode("utf-8", "surrogateescape"),),
    )
    for line in (receipt, override):
        text = encode(line)
        text.encode("utf-8")  # a note line is always UTF-8
        assert decode(text) == line
        assert parse((text + "\n").encode("utf-8")).lines == (line,)


def test_valid_utf8_text_keeps_its_plain_string_form() -> None:
    line = ReceiptLine(identity="i", command="pytest café", observed="passed")
    assert '"command":"pytest café"' in encode(line)
    escaped = ReceiptLine(identity="i", command="caf\udce9", observed="passed")
    assert '"command":{"b64":"Y2Fm6Q=="}' in encode(escaped)


@pytest.mark.parametrize(
    "value", [{"b64": "!!"}, {"b64": 5}, {"b64": "AA==", "x": 1}, {"text": "a"}]
)
def test_a_malformed_escaped_text_is_refused(value: object) -> None:
    body = {"kind": "receipt", "v": 1, "identity": "i", "command": value, "observed": "p"}
    with pytest.raises(MalformedLine, match="command must be text"):
        decode(json.dumps(body))


def test_a_lone_surrogate_that_is_no_byte_is_refused_naming_the_field() -> None:
    with pytest.raises(ValueError, match="receipt: command"):
        encode(ReceiptLine(identity="i", command="\ud800", observed="p"))


def test_a_review_ack_an_older_gentle_hooks_noted_as_consumed_reads_as_acknowledged() -> None:
    """``review ack`` was noted with native's word ``consumed``; read now as ours (issue 18)."""
    from gentle_hooks.notes.facts import facts_from_note

    lines = [ReviewLine("i", "consumed", 1.0), ReviewLine("i", "acknowledged", 2.0)]
    note = parse("\n".join(encode(x) for x in lines).encode())
    facts = facts_from_note(note, "i", "/r")
    assert [f.outcome for f in facts.review_facts] == ["acknowledged", "acknowledged"]


def test_a_field_a_newer_gentle_hooks_added_is_ignored_not_refused() -> None:
    """Forward compatible (docs/ci.md "The notes format"): a line, or the verdict a verdict
    line holds, with a field this reader does not know is read for the fields it knows;
    its ``observed`` digest, taken over the verdict as written, still matches."""
    import hashlib

    from gentle_hooks.notes.facts import facts_from_note
    from gentle_hooks.values.candidate import candidate_identity
    from tests.conftest import PASSING_VERDICT

    assert decode('{"kind":"writer","v":1,"model":"m","effort":"low","newer":1}') == WriterLine(
        model="m", effort="low"
    )
    tree = "b" * 40
    ident = candidate_identity(tree, tree)
    verdict = {
        **PASSING_VERDICT,
        "candidate": {"identity": ident, "baseTree": tree, "tree": tree},
        "newerField": {"anything": [1, 2]},
    }
    text = json.dumps(verdict, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = "sha256:" + hashlib.sha256(text.encode()).hexdigest()
    raw = json.dumps(
        {"kind": "verdict", "v": 1, "identity": ident, "verdict": verdict, "observed": digest}
    )
    note = parse(raw.encode())
    facts = facts_from_note(note, ident, "/r", require_observed=True)
    assert [(v.status, v.accepted, v.reasons) for v in facts.verdicts] == [("pass", True, ())]
    # a field the verdict knows, malformed, still refuses it: it verifies nothing
    bad = {**verdict, "fullSuiteRun": "yes"}
    line = {"kind": "verdict", "v": 1, "identity": ident, "verdict": bad, "observed": digest}
    assert facts_from_note(parse(json.dumps(line).encode()), ident, "/r").verdicts == ()


#: (the ``cwd`` of a receipt line, what it decodes to: the directory, or None when the line
#: is refused), one row each: a directory inside the repository top, and what is not one.
_DIRS = {
    "sub": ("sub", "sub"),
    "nested": ("sub/deep", "sub/deep"),
    "dotted-name": ("..sub/.hidden", "..sub/.hidden"),
    "spaces-unicode": ("my dir/é", "my dir/é"),
    "escaped-bytes": ({"b64": "c3Vi/w=="}, "sub\udcff"),
    "dotdot": ("..", None),
    "escapes-the-top": ("../other", None),
    "dotdot-inside": ("sub/../../x", None),
    "absolute": ("/etc", None),
    "dot": (".", None),
    "dot-part": ("sub/./x", None),
    "empty": ("", None),
    "empty-part": ("sub//x", None),
    "trailing-slash": ("sub/", None),
    "nul": ("sub\u0000x", None),
    "null": (None, None),
    "number": (3, None),
}


@pytest.mark.parametrize("kind", ["receipt", "spot_check"])
@pytest.mark.parametrize("row", list(_DIRS))
def test_a_receipt_directory_is_inside_the_top_or_the_line_is_refused(kind: str, row: str) -> None:
    value, wanted = _DIRS[row]
    fields_of = {
        "receipt": {"identity": "i", "command": "pytest -q", "observed": "exit 0"},
        "spot_check": {"identity": "i", "check": "rerun", "command": "pytest -q"},
    }[kind]
    text = json.dumps({"kind": kind, "v": 1, **fields_of, "cwd": value})
    if wanted is None:
        with pytest.raises(MalformedLine) as caught:
            decode(text)
        assert caught.value.kind == kind
        assert str(caught.value).startswith(
            f"{kind}: cwd must be a directory relative to the repository top ('/'-separated, "
            "no empty, '.' or '..' part), not "
        ), str(caught.value)
    else:
        line = decode(text)
        assert isinstance(line, (ReceiptLine, SpotCheckLine))
        assert line.cwd == wanted
        assert decode(encode(line)) == line


def test_a_receipt_at_the_top_keeps_the_text_it_had_before_the_directory() -> None:
    top = ReceiptLine("i", "pytest -q", "exit 0", 0, None, 1.5)
    assert encode(top) == (
        '{"command":"pytest -q","exit_code":0,"identity":"i","kind":"receipt",'
        '"observed":"exit 0","output_digest":null,"recorded_at":1.5,"v":1}'
    )
    sub = ReceiptLine("i", "pytest -q", "exit 0", 0, None, 1.5, "sub")
    assert json.loads(encode(sub))["cwd"] == "sub"
    assert decode(encode(top)).cwd is None  # absent: the top, as every older line reads
    spot = SpotCheckLine("i", "rerun", "pytest -q", 0, 0, True, True, 1.5, cwd="sub")
    assert '"cwd":"sub"' in signed_payload(spot).decode()  # a signature covers where it ran
    assert "cwd" not in encode(SpotCheckLine("i", "rerun", "pytest -q"))


#: (the directory of the note's receipt of ``pytest -q``, of its spot check) -> whether the
#: re-run counts, and the directory a ``--reverify`` re-runs it in. None: the top (absent).
_BACKED = {
    "both-at-the-top": (None, None, True),
    "both-in-sub": ("sub", "sub", True),
    "receipt-in-sub-rerun-at-top": ("sub", None, False),
    "receipt-at-top-rerun-in-sub": (None, "sub", False),
    "other-subdirectories": ("sub", "lib", False),
}


@pytest.mark.parametrize("row", list(_BACKED))
def test_a_rerun_counts_only_with_a_receipt_made_in_its_directory(row: str) -> None:
    from gentle_hooks.notes.facts import facts_from_note, note_reruns

    receipt_dir, rerun_dir, counts = _BACKED[row]
    lines = [
        ReceiptLine("i", "pytest -q", "exit 0", 0, None, 1.0, receipt_dir),
        SpotCheckLine("i", "rerun", "pytest -q", 0, 0, True, True, 2.0, cwd=rerun_dir),
    ]
    note = parse("\n".join(encode(x) for x in lines).encode())
    facts = facts_from_note(note, "i", "/r")
    assert len(facts.spot_checks) == (1 if counts else 0)
    assert facts.unbacked == (() if counts else ("pytest -q",))
    (rerun,) = note_reruns(note, "i")
    assert (rerun.consistent, rerun.backed, rerun.cwd) == (counts, counts, rerun_dir or ".")
