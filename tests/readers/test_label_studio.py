"""Label Studio JSON, JSON_MIN and CSV exports (FORMATS.md 2.1, checklist item 1).

The fixtures follow the documented layout: task/annotation/result structure from
HumanSignal/label-studio ``docs/source/includes/task_format.md`` and
``result_format.md``; ``completed_by`` as int or object from
``label_studio/data_export/serializers.py`` (PR #1184); JSON_MIN and CSV rows
from the converter's ``convert_to_json_min`` (single choice -> bare string,
``annotator`` = email for object users, a task without annotations -> one row
with ``annotator: null``) and ``exports/csv2.py`` (sorted columns,
QUOTE_NONNUMERIC, compact JSON in cells, CRLF). UTF-16 offsets: issue
HumanSignal/label-studio#1347.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.errors import FormatError

DATA = Path(__file__).parent / "data"
EXPORT = DATA / "label_studio_export.json"


def test_several_control_tags_must_be_chosen():
    with pytest.raises(FormatError, match="2 fields: 'entities', 'sentiment'; choose one"):
        accord.read(EXPORT)
    with pytest.raises(FormatError, match="field 'topic' not found"):
        accord.read(EXPORT, field="topic")


def test_choices_field_with_every_quirk():
    ann = accord.read(EXPORT, field="sentiment")
    got = {(u, r): c for u, r, c in ann.records()}
    assert got == {
        ("101", "11"): "positive",
        ("101", "12"): "positive",  # bob's latest (2024-05-03) of two annotations
        ("101", "sentiment-v2"): "positive",  # prediction, kind "model"
        ("102", "11"): "positive",
        ("102", "ground_truth"): "positive",  # ground_truth: true -> gold
        ("103", "12"): "negative",
    }
    assert ann.kinds == {
        "11": "human",
        "12": "human",
        "sentiment-v2": "model",
        "ground_truth": "gold",
    }
    assert ann.humans().raters == ("11", "12")
    assert ann.audit.rows_read == 9  # 8 annotations + 1 prediction
    assert ann.audit.dropped == {
        "skipped (was_cancelled)": 1,  # bob skipped task 102
        "missing value": 1,  # task 103: submitted with an empty result
        "superseded by a later answer of the same rater": 1,
    }
    notes = " ".join(ann.audit.notes)
    assert "unit '101' by rater '12' (2 answers)" in notes
    assert "1 task(s) without annotations" in notes
    assert ann.meta["aliases"] == {"12": "bob@example.org"}  # object completed_by


def test_include_kinds_leaves_out_gold_and_model():
    ann = accord.read(EXPORT, field="sentiment", include_kinds=["human"])
    assert ann.raters == ("11", "12")
    assert ann.audit.dropped["rater kind 'model' not included"] == 1
    assert ann.audit.dropped["rater kind 'gold' not included"] == 1


def test_spans_with_utf16_offsets_and_coverage():
    ann = accord.read(EXPORT, field="entities")
    assert ann.n_ratings == 0
    spans = ann.spans
    text = "Love it \U0001f600 from Bergen"
    bergen = [s for s in spans if s.unit == "102"]
    # Label Studio wrote 16..22 (UTF-16); in Python code points Bergen is 15..21
    assert {(s.rater, s.start, s.end) for s in bergen} == {("11", 15, 21), ("ground_truth", 15, 21)}
    assert text[15:21] == "Bergen"
    # bob's latest annotation of 101 marks "kettle" only; the earlier one had no spans
    assert [(s.start, s.end, s.label) for s in spans.of("101", "12")] == [(14, 20, "PRODUCT")]
    assert spans.status("102", "12") == "skipped"  # was_cancelled
    assert spans.status("103", "11") == "annotated"  # empty result: annotated, no spans
    assert spans.of("103", "11") == ()
    assert spans.status("104", "11") is None  # annotations: [] -> not seen
    assert ("101", "sentiment-v2") not in spans.coverage  # the prediction has no spans
    assert any("2 span offsets converted from UTF-16" in n for n in ann.audit.notes)


def test_json_min_reads_the_same_labels_without_skip_or_gold():
    ann = accord.read(DATA / "label_studio_min.json", field="sentiment")
    got = {(u, r): c for u, r, c in ann.records()}
    assert got == {
        ("101", "bob@example.org"): "positive",
        ("101", "11"): "positive",
        ("102", "13"): "positive",
        ("102", "11"): "positive",
        ("103", "12"): "negative",
    }
    assert set(ann.kinds.values()) == {"human"}  # the GT flag is not exported
    notes = " ".join(ann.audit.notes)
    assert "ground-truth flag is lost" in notes and "1 task(s) without annotations" in notes
    assert "questions (fields): ['entities', 'sentiment']" in notes


def test_csv_export_json_in_cells_crlf_and_quoted_numbers():
    path = DATA / "label_studio_export.csv"
    assert b"\r\n" in path.read_bytes()
    assert accord.readers.detect(path) == "label_studio_csv"
    ann = accord.read(path, field="sentiment")
    assert ann.raters == ("bob@example.org", "11", "13", "12")
    assert accord.read(path, field="entities").spans.of("102", "13")[0].start == 15
    fields = accord.read(path, field="entities", fields=["entities"])
    assert fields.meta["fields"] == ["entities"]


def test_completed_by_object_without_id_and_missing_user(tmp_path):
    tasks = [
        {
            "id": 1,
            "data": {"text": "x"},
            "annotations": [
                {
                    "completed_by": {"email": "a@x"},
                    "result": [
                        {
                            "from_name": "q",
                            "to_name": "text",
                            "type": "choices",
                            "value": {"choices": ["A"]},
                        }
                    ],
                },
                {
                    "result": [
                        {
                            "from_name": "q",
                            "to_name": "text",
                            "type": "choices",
                            "value": {"choices": ["B"]},
                        }
                    ]
                },
            ],
        }
    ]
    p = tmp_path / "t.json"
    p.write_text(json.dumps(tasks))
    ann = accord.read(p)
    assert ann.raters == ("a@x",)
    assert ann.audit.dropped == {"annotation without a user (completed_by)": 1}


def test_multiple_choices_rating_and_pairwise(tmp_path):
    result = [
        {
            "from_name": "tags",
            "to_name": "text",
            "type": "choices",
            "value": {"choices": ["b", "a"]},
        },
        {"from_name": "stars", "to_name": "text", "type": "rating", "value": {"rating": 4}},
        {"from_name": "pref", "to_name": "pref", "type": "pairwise", "value": {"selected": "left"}},
    ]
    p = tmp_path / "t.json"
    p.write_text(
        json.dumps(
            [
                {
                    "id": 1,
                    "data": {},
                    "annotations": [
                        {"completed_by": 1, "result": result},
                        {"completed_by": 2, "result": result},
                    ],
                }
            ]
        )
    )
    assert accord.read(p, field="tags").categories == (("a", "b"),)
    assert accord.read(p, field="stars").categories == (4,)
    assert accord.read(p, field="pref").categories == ("left",)


@pytest.mark.parametrize(
    "text, where",
    [
        ('[{"id": 1, "annotations": {"oops": 1}}]', "task 1, 'annotations'"),
        ('[{"data": {}, "annotations": []}]', "task 1"),
        (
            '[{"id": 1, "annotations": [{"completed_by": 1, "result": [{"value": 3}]}]}]',
            "task 1, annotation 1, result 1",
        ),
        ('[{"id": 1, "annotations": [\n{"completed_by": 1,, }]}]', "line 2"),
    ],
)
def test_malformed_exports_name_the_place(tmp_path, text, where):
    p = tmp_path / "bad.json"
    p.write_text(text)
    with pytest.raises(FormatError) as err:
        accord.read(p, format="label_studio")
    assert str(p) in str(err.value) and where in str(err.value)
