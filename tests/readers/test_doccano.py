"""doccano JSONL exports (FORMATS.md 2.3, checklist item 3).

Layout checked against doccano/doccano ``backend/data_export/pipeline/formatters.py``
and its examples (one ``<username>.jsonl`` per member in the export zip, every
example in every file; classification ``"label": ["positive"]``; sequence
labelling ``"label": [[start, end, "LBL"]]``; relation mode ``entities`` +
``relations``), the legacy ``annotations`` layout of ``app/api/utils.py`` at
94b1d805, and UTF-16 offsets from doccano/doccano#2290 and #2484.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

import accord
from accord.errors import FormatError, InvalidParameterError

DATA = Path(__file__).parent / "data"
EMPTY = "empty label list ([]: not annotated or nothing to mark; see empty=)"


def test_rater_from_file_name_and_empty_lists_are_missing_by_default():
    ann = accord.read(DATA / "doccano_textcat")
    assert ann.raters == ("alice", "bob")
    got = {(u, r): c for u, r, c in ann.records()}
    assert got == {
        ("401", "alice"): "positive",
        ("402", "alice"): "negative",
        ("404", "alice"): ("negative", "quality"),
        ("401", "bob"): "positive",
        ("402", "bob"): "negative",
        ("403", "bob"): "neutral",
    }
    assert ann.audit.dropped == {EMPTY: 6}
    admin = next(p for p in ann.audit.parts if p.source.endswith("admin.jsonl"))
    assert admin.rows_read == 4 and admin.ratings_used == 0
    assert any("member file with no labels (rater 'admin'" in n for n in admin.notes)


def test_empty_annotated_option_keeps_empty_as_an_answer():
    ann = accord.read(DATA / "doccano_textcat", empty="annotated")
    assert ("403", "alice") in {(u, r) for u, r, _ in ann.records()}
    assert () in ann.categories
    with pytest.raises(InvalidParameterError, match="'empty' parameter"):
        accord.read(DATA / "doccano_textcat", empty="maybe")


def test_sequence_labels_utf16_offsets_converted():
    ann = accord.read(DATA / "doccano_ner")
    text = "Love it \U0001f600 from Bergen and Oslo"
    got = [(s.rater, text[s.start : s.end]) for s in ann.spans]
    assert got == [("alice", "Bergen"), ("alice", "Oslo"), ("bob", "Bergen")]
    assert ann.spans.status("8", "alice") is None  # [] -> missing by default
    annotated = accord.read(DATA / "doccano_ner", empty="annotated").spans
    assert annotated.status("8", "alice") == "annotated" and annotated.of("8", "alice") == ()
    raw = accord.read(DATA / "doccano_ner", offsets="code_points").spans
    assert [s.start for s in raw.of("7", "bob")] == [16]


def test_relation_mode_entities():
    ann = accord.read(DATA / "doccano_relations_carol.jsonl")
    assert ann.spans.field == "entities"
    assert [(s.start, s.end, s.label) for s in ann.spans] == [(15, 21, "LOC"), (26, 30, "LOC")]
    assert any("1 relations" in n for n in ann.audit.notes)
    (rel,) = ann.spans.relations
    assert (rel.head, rel.tail, rel.type) == ("1", "2", "near")
    assert [s.id for s in ann.spans] == ["1", "2"]


def test_the_export_zip_itself(tmp_path):
    z = tmp_path / "export.zip"
    with zipfile.ZipFile(z, "w") as zf:
        for f in (DATA / "doccano_textcat").iterdir():
            zf.write(f, f.name)
    assert accord.readers.detect(z) == "doccano"
    ann = accord.read(z)
    assert ann.raters == ("alice", "bob") and ann.n_ratings == 6


def test_legacy_user_and_label_ids():
    ann = accord.read(DATA / "doccano_legacy.jsonl")
    assert ann.raters == ("1", "2") and ann.categories == (3, 4)
    assert ann.audit.rows_read == 3


def test_bad_offsets_and_broken_zip(tmp_path):
    p = tmp_path / "u.jsonl"
    p.write_text('{"id": 1, "text": "ab", "label": [[2, 1, "X"]]}\n')
    with pytest.raises(FormatError, match="line 1, span 1: expected integer offsets"):
        accord.read(p, format="doccano")
    z = tmp_path / "x.zip"
    z.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(FormatError, match="is not a zip archive, or is cut short"):
        accord.read(z, format="doccano")
