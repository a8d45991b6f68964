"""Prodigy ``db-out`` JSONL (FORMATS.md 2.2, checklist item 2).

Structure checked against https://prodi.gy/docs/api-interfaces (``choice``:
``options`` + ``accept``; ``ner_manual``: ``tokens`` and ``spans`` with
``token_start``/``token_end``, token_end inclusive), the binary textcat example
explosion/prodigy-recipes ``example-datasets/annotated_github-issues-DOCUMENTATION-textcat.jsonl``
(``label``, ``_input_hash``, ``_task_hash``, ``answer``, no ``_view_id`` or
session), and the session naming ``<dataset>-<session>`` (prodi.gy support
thread 6843). Grouping by ``_input_hash`` follows https://prodi.gy/docs/metrics.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.errors import FormatError

DATA = Path(__file__).parent / "data"


def test_choice_view_sessions_skips_rejects_and_repeats():
    ann = accord.read(DATA / "prodigy_choice.jsonl")
    assert accord.readers.detect(DATA / "prodigy_choice.jsonl") == "prodigy"
    got = {(u, r): c for u, r, c in ann.records()}
    assert got == {
        ("11", "reviews-alice"): "POSITIVE",
        ("11", "reviews-bob"): "POSITIVE",
        ("12", "reviews-alice"): "NEGATIVE",  # re-served: the later _timestamp wins
        ("12", "reviews-bob"): "NEGATIVE",
        ("14", "reviews-carol"): "NEGATIVE",  # older line: only _session_id
    }
    assert ann.audit.dropped == {
        "accepted without choosing an option": 1,
        "rejected (answer=reject)": 1,
        "skipped (answer=ignore)": 1,
        "superseded by a later answer of the same rater": 1,
    }
    notes = " ".join(ann.audit.notes)
    assert "1 answers with the rater from _session_id" in notes
    assert "unit '12' by rater 'reviews-alice' (2 answers)" in notes


def test_multiple_choice_gives_sorted_tuples(tmp_path):
    rows = [
        {
            "text": "t",
            "_input_hash": 1,
            "_task_hash": 2,
            "_view_id": "choice",
            "config": {"choice_style": "multiple"},
            "accept": acc,
            "answer": "accept",
            "_annotator_id": who,
        }
        for who, acc in (("d-a", ["B", "A"]), ("d-b", []))
    ]
    p = tmp_path / "m.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows))
    ann = accord.read(p)
    assert dict(((u, r), c) for u, r, c in ann.records()) == {
        ("1", "d-a"): ("A", "B"),
        ("1", "d-b"): (),
    }


def test_binary_files_per_annotator_take_the_rater_from_the_file_name():
    files = [DATA / "prodigy_docs_ann.jsonl", DATA / "prodigy_docs_ben.jsonl"]
    ann = accord.read(files)
    assert ann.raters == ("prodigy_docs_ann", "prodigy_docs_ben")
    assert ann.field == "DOCUMENTATION"  # the judged label is the field
    assert ann.categories == ("accept", "reject")
    assert ann.n_units == 4 and ann.n_ratings == 7
    first = ann.audit.parts[0]
    assert first.dropped == {"skipped (answer=ignore)": 1}
    assert any("rater = file name" in n for n in first.notes)


def test_ner_manual_spans_token_end_inclusive_and_coverage():
    ann = accord.read(DATA / "prodigy_ner_manual.jsonl")
    spans = ann.spans
    assert spans.field == "ner_manual"
    text = "Zoë bought a Nordhaven kettle in Tromsø"
    alice = spans.of("21", "ner-alice")
    assert [(s.label, text[s.start : s.end]) for s in alice] == [
        ("PERSON", "Zoë"),
        ("PRODUCT", "Nordhaven kettle"),
        ("GPE", "Tromsø"),
    ]
    assert spans.status("22", "ner-alice") == "annotated" and spans.of("22", "ner-alice") == ()
    assert spans.status("22", "ner-bob") == "skipped"
    assert ann.audit.dropped == {"skipped (answer=ignore)": 1}


def test_token_offsets_fill_and_check_span_offsets(tmp_path):
    toks = [
        {"text": "a", "start": 0, "end": 1, "id": 0},
        {"text": "bc", "start": 2, "end": 4, "id": 1},
    ]
    rows = [
        {
            "text": "a bc",
            "tokens": toks,
            "spans": [{"token_start": 0, "token_end": 1, "label": "X"}],
            "_input_hash": 1,
            "_view_id": "ner_manual",
            "answer": "accept",
            "_annotator_id": "a",
        },
        {
            "text": "a bc",
            "tokens": toks,
            "spans": [{"start": 0, "end": 2, "token_start": 0, "token_end": 1, "label": "X"}],
            "_input_hash": 1,
            "_view_id": "ner_manual",
            "answer": "accept",
            "_annotator_id": "b",
        },
    ]
    p = tmp_path / "t.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows))
    ann = accord.read(p)
    assert [(s.start, s.end) for s in ann.spans.of("1", "a")] == [(0, 4)]  # token 1 included
    assert any("disagree with their tokens" in n for n in ann.audit.notes)


def test_mixed_views_become_fields(tmp_path):
    p = tmp_path / "mixed.jsonl"
    p.write_text(
        (DATA / "prodigy_choice.jsonl").read_text()
        + (DATA / "prodigy_ner_manual.jsonl").read_text()
    )
    with pytest.raises(FormatError, match="2 fields: 'choice', 'ner_manual'"):
        accord.read(p)
    assert accord.read(p, field="choice").n_ratings == 5
    assert len(accord.read(p, field="ner_manual").spans) == 5


def test_compare_view_maps_the_preferred_system(tmp_path):
    rows = [
        {
            "input": {"text": "q"},
            "accept": {"text": "x"},
            "reject": {"text": "y"},
            "mapping": {"A": "accept", "B": "reject"},
            "_input_hash": 5,
            "_view_id": "compare",
            "answer": "reject",
            "_annotator_id": "e-a",
        },
        {
            "input": {"text": "q"},
            "accept": {"text": "y"},
            "reject": {"text": "x"},
            "mapping": {"B": "accept", "A": "reject"},
            "_input_hash": 5,
            "_view_id": "compare",
            "answer": "accept",
            "_annotator_id": "e-b",
        },
    ]
    p = tmp_path / "c.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in rows))
    assert {r: c for _, r, c in accord.read(p).records()} == {"e-a": "B", "e-b": "B"}


def test_own_unit_key_from_meta():
    ann = accord.read(DATA / "prodigy_choice.jsonl", unit="text")
    assert "Great kettle" in ann.units


@pytest.mark.parametrize(
    "line, expected",
    [
        ('{"_input_hash": 1, "answer": "maybe"}', "accept, reject or ignore"),
        (
            '{"_input_hash": 1, "answer": "accept", "_view_id": "choice", "accept": "A"}',
            "'accept' to be a list",
        ),
        (
            '{"_input_hash": 1, "answer": "accept", "_view_id": "ner_manual", '
            '"spans": [{"start": 5, "end": 2}]}',
            "line 2, span 1",
        ),
        ("[1, 2]", "expected a JSON object"),
        ('{"_input_hash": 1, "answer": "accept"', "line 2, column 38: expected one JSON object"),
    ],
)
def test_malformed_lines_are_named(tmp_path, line, expected):
    p = tmp_path / "bad.jsonl"
    p.write_text(
        '{"_input_hash": 9, "answer": "accept", "label": "X", "_annotator_id": "a"}\n' + line
    )
    with pytest.raises(FormatError) as err:
        accord.read(p, format="prodigy")
    assert expected in str(err.value) and str(p) in str(err.value)
