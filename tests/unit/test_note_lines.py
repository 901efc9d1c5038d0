"""Note lines (SPEC §8): one typed encoder and decoder, :mod:`gentle_hooks.notes.lines`.

Every kind round-trips (``decode(encode(x)) == x``, property-based); the encoded text is the
canonical line other clones already hold (sorted keys, compact, UTF-8 kept); a line that can
count for nothing raises :class:`MalformedLine`, naming its kind when it named a known one.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gentle_hooks.notes.codec import parse
from gentle_hooks.notes.lines import (
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
    canonical_json,
    decode,
    encode,
)

OID = "a" * 40
TEXT = st.text()
MAYBE_TEXT = st.none() | TEXT
OIDS = st.text(alphabet="0123456789abcdef", min_size=40, max_size=40) | st.text(
    alphabet="0123456789abcdef", min_size=64, max_size=64
)
TIMES = st.none() | st.floats(allow_nan=False)
EXITS = st.none() | st.integers()
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)

KINDS: dict[type[NoteLine], st.SearchStrategy[NoteLine]] = {
    CandidateLine: st.builds(CandidateLine, OIDS, TEXT, OIDS, OIDS),
    WriterLine: st.builds(WriterLine, TEXT, TEXT, MAYBE_TEXT),
    EscalationLine: st.builds(EscalationLine, st.integers(1, 6), TEXT, TEXT, st.booleans()),
    ReceiptLine: st.builds(ReceiptLine, TEXT, TEXT, TEXT, EXITS, MAYBE_TEXT, TIMES),
    SpotCheckLine: st.builds(
        SpotCheckLine, TEXT, TEXT, TEXT, EXITS, EXITS, st.booleans(), st.booleans(), TIMES
    ),
    VerdictLine: st.builds(
        VerdictLine, TEXT, st.dictionaries(TEXT, JSON).map(json.dumps).map(canonical_json), TIMES
    ),
    ReviewLine: st.builds(ReviewLine, TEXT, TEXT, TIMES),
    OverrideLine: st.builds(
        OverrideLine, TEXT, TEXT, TEXT, TEXT, st.lists(TEXT).map(tuple), MAYBE_TEXT, TIMES
    ),
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
    ("text", "kind"),
    [
        ("not json", None),
        ("[1]", None),
        ('{"kind":"writer","v":2,"model":"m"}', None),
        ('{"kind":"mystery","v":1}', None),
        (
            '{"kind":"candidate","v":1,"commit":"x","identity":"i","base_tree":"y","tree":"z"}',
            "candidate",
        ),
        ('{"kind":"escalation","v":1,"item":7,"slug":"s","reason":"r"}', "escalation"),
        ('{"kind":"receipt","v":1,"identity":5,"command":"c"}', "receipt"),
    ],
    ids=[
        "not-json",
        "not-object",
        "newer-version",
        "unknown-kind",
        "bad-candidate",
        "item-out-of-range",
        "identity-not-text",
    ],
)
def test_a_line_that_can_count_for_nothing_is_refused(text: str, kind: str | None) -> None:
    with pytest.raises(MalformedLine) as caught:
        decode(text)
    assert caught.value.kind == kind


def test_other_fields_are_read_as_the_gate_reads_them() -> None:
    writer = decode('{"kind":"writer","v":1,"effort":3,"source":false}')
    assert writer == WriterLine("None", "3", None)
    spot = decode('{"kind":"spot_check","v":1,"identity":"i","check":"rerun","agreed":1}')
    assert spot == SpotCheckLine("i", "rerun", "None", None, None, False, False, None)
    escalation = decode('{"kind":"escalation","v":1,"item":2,"critical":"no"}')
    assert escalation == EscalationLine(2, "None", "None", True)


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
