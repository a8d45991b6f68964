"""MTurk batch results, SageMaker Ground Truth manifests, Argilla records
(FORMATS.md 2.7-2.9, checklist items 7-9).

MTurk: header columns as in public batch results files (HITId ... WorkerId,
AssignmentStatus, SubmitTime, Input.*, Answer.*); crowd-html-elements answer
shapes (``Answer.taskAnswers`` JSON, ``flatten-objects`` ``.label`` and boolean
option columns). SageMaker: awsdocs/amazon-sagemaker-developer-guide
``sms-data-output.md`` (label attribute + ``-metadata``, ``failure-reason``,
``class-name``) and the ``annotationsFromAllWorkers`` post-annotation Lambda
output with JSON-in-a-string ``content``. Argilla: argilla-io/argilla
``records/_io/_datasets.py`` (flat ``<q>.responses``/``.users``/``.status``),
``_io/_json.py`` (nested, no status), 1.x Hub cards (``user_id, value, status``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import accord
from accord.errors import FormatError

DATA = Path(__file__).parent / "data"
U1 = "4f1c3a2e-0000-4000-8000-00000000000a"
U2 = "4f1c3a2e-0000-4000-8000-00000000000b"


def records(ann):
    return {(u, r): c for u, r, c in ann.records()}


# ----------------------------------------------------------------------------- MTurk
def test_mturk_flattened_answers_rejected_and_repeats():
    path = DATA / "mturk_batch_results.csv"
    assert accord.readers.detect(path) == "mturk"
    with pytest.raises(FormatError, match="2 fields: 'sentiment', 'quality'"):
        accord.read(path)
    ann = accord.read(path, field="sentiment")
    assert records(ann) == {
        ("3H1", "A1WORKERX"): "Positive",
        ("3H1", "A2WORKERY"): "Positive",
        ("3H2", "A1WORKERX"): "Negative",
        ("3H2", "A2WORKERY"): "Negative",
    }
    assert ann.audit.dropped == {
        "rejected (AssignmentStatus=Rejected)": 1,
        "superseded by a later answer of the same rater": 1,
    }
    assert any("fewer usable assignments than MaxAssignments" in n for n in ann.audit.notes)


def test_mturk_boolean_option_columns_and_input_column_as_unit():
    ann = accord.read(DATA / "mturk_batch_results.csv", field="quality", unit="Input.id")
    assert ann.units == ("007", "008")
    assert set(ann.categories) == {"good", "bad"}


def test_mturk_task_answers_json():
    ann = accord.read(DATA / "mturk_task_answers.csv", field="toxic")
    assert records(ann) == {("3K1", "W1"): "no", ("3K1", "W2"): "yes", ("3K2", "W1"): "no"}
    assert accord.read(DATA / "mturk_task_answers.csv", field="sentiment").categories == (
        "Negative",
        "Positive",
    )


def test_mturk_bad_task_answers(tmp_path):
    p = tmp_path / "b.csv"
    p.write_text('HITId,WorkerId,AssignmentStatus,Answer.taskAnswers\nH,W,Approved,"[{oops"\n')
    with pytest.raises(FormatError, match="line 2, Answer.taskAnswers: expected a JSON array"):
        accord.read(p)


# ------------------------------------------------------------------------- SageMaker
def test_sagemaker_double_encoded_content_failures_and_empty():
    path = DATA / "sagemaker_custom.manifest"
    assert accord.readers.detect(path) == "sagemaker"
    ann = accord.read(path, unit="id")
    assert ann.field == "review-sentiment.sentiment"
    assert records(ann) == {
        ("r-007", "private.us-east-1.7d3f1a"): "Positive",
        ("r-007", "private.us-east-1.91bc02"): "Positive",
        ("r-008", "private.us-east-1.7d3f1a"): "Negative",
    }
    assert ann.audit.dropped == {
        "failed data object (metadata failure-reason)": 1,
        "missing value": 1,
    }
    assert accord.read(path).units == ("0", "1")  # default unit: the object index


def test_sagemaker_builtin_consolidated_label_is_gold():
    ann = accord.read(DATA / "sagemaker_builtin.manifest")
    assert records(ann) == {("0", "consolidated"): "happy", ("1", "consolidated"): "sad"}
    assert ann.kinds == {"consolidated": "gold"}
    assert any("worker-response" in n for n in ann.audit.notes)


def test_sagemaker_content_that_is_not_json(tmp_path):
    line = {
        "source": "x",
        "a": {
            "annotationsFromAllWorkers": [
                {"workerId": "w", "annotationData": {"content": "{not json"}}
            ]
        },
        "a-metadata": {"job-name": "j"},
    }
    p = tmp_path / "o.manifest"
    p.write_text(json.dumps(line) + "\n")
    with pytest.raises(FormatError, match="line 1, a, worker 1, annotationData.content"):
        accord.read(p)


# --------------------------------------------------------------------------- Argilla
def test_argilla_v2_flat_status_filtering_and_suggestions():
    path = DATA / "argilla_v2_flat.jsonl"
    assert accord.readers.detect(path) == "argilla"
    ann = accord.read(path, field="sentiment")
    assert records(ann) == {
        ("rec-1", U1): "positive",
        ("rec-1", U2): "positive",
        ("rec-1", "suggestion:distilbert-sst2"): "positive",
        ("rec-2", U1): "negative",
    }
    assert ann.kinds["suggestion:distilbert-sst2"] == "model"
    assert ann.audit.dropped == {"draft (not submitted)": 1, "discarded": 1}
    topics = accord.read(path, field="topics")
    assert records(topics)[("rec-1", U1)] == ("price", "quality")  # null list on rec-2: nothing


def test_argilla_span_question_and_empty_span_answer():
    spans = accord.read(DATA / "argilla_v2_flat.jsonl", field="entities").spans
    assert [(s.start, s.end, s.label) for s in spans.of("rec-1", U1)] == [(18, 24, "LOC")]
    assert spans.status("rec-1", U2) == "annotated" and spans.of("rec-1", U2) == ()


def test_argilla_nested_has_no_status_and_rankings_keep_order():
    path = DATA / "argilla_v2_nested.json"
    ann = accord.read(path, field="rank")
    assert records(ann) == {("rec-1", U1): ("a", "b")}
    assert any("no response status" in n for n in ann.audit.notes)
    sentiment = accord.read(path, field="sentiment")
    assert len(sentiment.raters) == 3  # draft/discard cannot be filtered here


def test_argilla_v1_list_of_dicts_and_dict_of_lists():
    ann = accord.read(DATA / "argilla_v1.jsonl")
    assert records(ann) == {
        ("ex-1", U1): 4,
        ("ex-1", U2): 5,
        ("ex-1", "suggestion:gpt-4"): 4,
        ("ex-2", U1): 2,
        ("ex-2", U2): 2,
    }
    assert ann.audit.dropped == {"discarded": 1}


def test_argilla_parallel_lists_must_align(tmp_path):
    p = tmp_path / "a.jsonl"
    p.write_text(
        json.dumps(
            {
                "id": 1,
                "q.responses": ["a", "b"],
                "q.responses.users": ["u"],
                "q.responses.status": ["submitted", "submitted"],
            }
        )
        + "\n"
    )
    with pytest.raises(FormatError, match="line 1, q.responses: expected parallel lists"):
        accord.read(p)
