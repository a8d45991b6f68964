"""Label Studio exports: JSON (tasks with ``annotations``), JSON_MIN and CSV/TSV.

Sources: HumanSignal/label-studio ``docs/source/guide/export.md``,
``docs/source/includes/task_format.md`` and ``result_format.md``,
``label_studio/data_export/serializers.py``; the converter's
``convert_to_json_min`` and ``exports/csv2.py`` (label-studio-converter).

* unit = task ``id``; rater = ``completed_by`` (an int, or an object whose
  ``id`` is used and whose ``email`` is kept as an alias);
* each control tag (``from_name``) is a field; choose one with ``field=``;
* ``was_cancelled`` (Skip) is counted as skipped, never a label;
  ``ground_truth: true`` annotations become the rater ``"ground_truth"`` of
  kind ``"gold"``; ``predictions`` become raters of kind ``"model"`` named by
  ``model_version``;
* several annotations by one user on one task: the latest ``updated_at`` wins;
* a submitted annotation with an empty result: the choice is missing; for a
  span field it is "annotated, no spans";
* span offsets are UTF-16 units (JavaScript): converted to code points and
  checked against ``value.text`` (HumanSignal/label-studio#1347).

JSON_MIN and CSV rows (one per non-cancelled annotation) lose the skip and
ground-truth flags; the audit says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from accord.readers import _sniff
from accord.readers._base import (
    Collected,
    Reader,
    Skip,
    expect_type,
    format_error,
    text_id,
)
from accord.readers._json_stream import iter_json_array
from accord.readers._ls_values import SpanMaker, classify, doc_texts
from accord.readers.relations import Relation

SKIPPED = "skipped (was_cancelled)"


@dataclass(slots=True)
class _Seen:
    """One annotation as a whole, to fill fields it did not answer once all fields are known."""

    part: int
    unit: str
    rater: str
    kind: str
    time: Any
    cancelled: bool
    seq: int = 0
    answered: set[str] = field(default_factory=set)


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Tasks from Label Studio JSON (or JSON_MIN) exports."""
    from accord.readers import _ls_min

    col = Collected("label_studio")
    for path in paths:
        tasks = _tasks(path)
        first = next(tasks, None)
        if first is None:
            _read_tasks(col, path, iter(()))
        elif "annotations" not in first[1] and "annotator" in first[1]:  # JSON_MIN, maybe
            every = [first, *tasks]
            if all("annotations" not in t and "annotator" in t for _, t in every):
                _ls_min.read_rows(col, path, every, opts, "JSON_MIN")
            else:
                _read_tasks(col, path, iter(every))
        else:  # one task at a time: a large export is never held whole
            _read_tasks(col, path, itertools.chain([first], tasks))
    return col


def _tasks(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    for i, task in enumerate(iter_json_array(path, "tasks")):
        where = f"task {i + 1}"
        yield where, expect_type(task, dict, path, where, "a task object")


def _read_tasks(col: Collected, path: Path, tasks: Iterable[tuple[str, dict[str, Any]]]
                ) -> None:
    part = col.part(str(path))
    spans = SpanMaker()
    seen: list[_Seen] = []
    empty_tasks = 0
    for where, task in tasks:
        if "id" not in task:
            raise format_error(path, where, "expected the task's 'id'")
        unit = text_id(task["id"])
        annotations = _list(task, "annotations", path, where)
        predictions = _list(task, "predictions", path, where)
        empty_tasks += not annotations
        for j, ann in enumerate(annotations):
            at = f"{where}, annotation {j + 1}"
            s = _annotation(
                col,
                part,
                unit,
                task,
                expect_type(ann, dict, path, at, "an object"),
                path,
                at,
                spans,
            )
            if s is not None:
                seen.append(s)
        for j, pred in enumerate(predictions):
            at = f"{where}, prediction {j + 1}"
            seen.append(
                _prediction(
                    col,
                    part,
                    unit,
                    task,
                    expect_type(pred, dict, path, at, "an object"),
                    path,
                    at,
                    spans,
                )
            )
    _fill_unanswered(col, seen)
    notes = col.parts[part].notes
    notes += spans.notes()
    if empty_tasks:
        notes.append(f"{empty_tasks} task(s) without annotations")


def _list(task: Mapping[str, Any], key: str, path: Path, where: str) -> list[Any]:
    value = task.get(key)
    if value is None:
        return []
    return list(expect_type(value, list, path, f"{where}, '{key}'", "a list"))


def _annotation(
    col: Collected,
    part: int,
    unit: str,
    task: Mapping[str, Any],
    ann: Mapping[str, Any],
    path: Path,
    where: str,
    spans: SpanMaker,
) -> _Seen | None:
    col.parts[part].rows_read += 1
    rater = _user(col, ann.get("completed_by"))
    if rater is None:
        col.drop(part, "annotation without a user (completed_by)")
        return None
    kind = "human"
    if ann.get("ground_truth") is True:
        rater, kind = "ground_truth", "gold"
    cancelled = ann.get("was_cancelled") is True
    col.kinds.setdefault(rater, kind)
    seen = _Seen(
        part,
        unit,
        rater,
        kind,
        ann.get("updated_at") or ann.get("created_at"),
        cancelled,
        (part << 32) + col.parts[part].rows_read,
    )
    if not cancelled:
        _results(col, seen, task, ann.get("result"), path, where, spans)
    return seen


def _user(col: Collected, who: Any) -> str | None:
    if isinstance(who, Mapping):
        uid = who.get("id")
        email = who.get("email")
        if uid is None:
            return str(email) if email else None
        if email:
            col.aliases[text_id(uid)] = str(email)
        return text_id(uid)
    if who is None or isinstance(who, (list, bool)):
        return None
    return text_id(who)


def _prediction(
    col: Collected,
    part: int,
    unit: str,
    task: Mapping[str, Any],
    pred: Mapping[str, Any],
    path: Path,
    where: str,
    spans: SpanMaker,
) -> _Seen:
    col.parts[part].rows_read += 1
    version = pred.get("model_version")
    rater = str(version) if version not in (None, "") else "prediction"
    col.kinds.setdefault(rater, "model")
    seen = _Seen(
        part,
        unit,
        rater,
        "model",
        pred.get("updated_at") or pred.get("created_at"),
        False,
        (part << 32) + col.parts[part].rows_read,
    )
    _results(col, seen, task, pred.get("result"), path, where, spans)
    return seen


def _results(
    col: Collected,
    seen: _Seen,
    task: Mapping[str, Any],
    result: Any,
    path: Path,
    where: str,
    spans: SpanMaker,
) -> None:
    items = (
        [] if result is None else expect_type(result, list, path, f"{where}, 'result'", "a list")
    )
    regions = {repr(r.get("id")) for r in items if isinstance(r, dict) and _is_region(r)}
    labels: dict[str, list[Any]] = {}
    relations: list[Relation] = []
    for k, item in enumerate(items):
        at = f"{where}, result {k + 1}"
        item = expect_type(item, dict, path, at, "a result object")
        if item.get("type") == "relation":
            relations += _relation(item, seen, path, at)
            continue
        fld = item.get("from_name")
        value = item.get("value")
        if not isinstance(fld, str) or not isinstance(value, dict):
            raise format_error(path, at, "expected 'from_name' (text) and 'value' (an object)")
        rtype = item.get("type") if isinstance(item.get("type"), str) else None
        what, payload = classify(value, rtype)
        if what == "span":
            seen.answered.add(fld)
            col.cover(seen.unit, seen.rater, fld, "annotated", kind=seen.kind)
            texts = doc_texts(task.get("data"), item.get("to_name"))
            made = spans.make(
                payload, rtype, unit=seen.unit, rater=seen.rater, field=fld, texts=texts
            )
            if item.get("id") is not None:
                made = [replace(sp, id=str(item["id"])) for sp in made]
            col.add_spans(made, time=seen.time, origin=seen.seq)
        elif what == "label" and repr(item.get("id")) in regions and not _is_region(item):
            spans.stats["per-region answers (not document labels; not read)"] += 1
        elif what == "label":
            labels.setdefault(fld, []).append(payload)
        else:
            spans.stats[f"results of type {payload!r} (not labels or text spans; not read)"] += 1
    if relations:
        spans.stats["relations"] += len(relations)
        col.add_relations(relations, time=seen.time, origin=seen.seq)
    for fld, values in labels.items():
        seen.answered.add(fld)
        value = values[0] if len(values) == 1 else tuple(sorted(map(str, values)))
        col.add(seen.unit, seen.rater, fld, value, seen.part, time=seen.time, kind=seen.kind)


def _relation(item: Mapping[str, Any], seen: _Seen, path: Path, at: str) -> list[Relation]:
    """A ``relation`` result: ``from_id`` -> ``to_id``, drawn ``right``, ``left`` or ``bi``."""
    head, tail = item.get("from_id"), item.get("to_id")
    direction = item.get("direction", "right")
    if head is None or tail is None or direction not in ("right", "left", "bi"):
        raise format_error(
            path, at, "expected a relation with 'from_id', 'to_id' and a 'direction' of "
            f"'right', 'left' or 'bi'; got direction {direction!r}"
        )
    if direction == "left":
        head, tail = tail, head
    labels = item.get("labels") or [""]
    return [
        Relation(seen.unit, seen.rater, f"{head}->{tail}" + (f":{lab}" if lab else ""),
                 str(head), str(tail), str(lab), directed=direction != "bi")
        for lab in labels
    ]  # fmt: skip


def _is_region(item: Mapping[str, Any]) -> bool:
    value, rtype = item.get("value"), item.get("type")
    rtype = rtype if isinstance(rtype, str) else None
    return isinstance(value, dict) and classify(value, rtype)[0] == "span"


def _fill_unanswered(col: Collected, seen: list[_Seen]) -> None:
    """Skipped and unanswered fields: counted for each field once every field is known."""
    label_fields = [f for f in col.fields_seen if f not in col.span_fields]
    for s in seen:
        if s.kind == "model":
            continue  # a prediction covers only the fields it answers
        for fld in col.span_fields:
            if fld not in s.answered:
                col.cover(
                    s.unit, s.rater, fld, "skipped" if s.cancelled else "annotated", kind=s.kind
                )
        for fld in label_fields:
            if fld not in s.answered:
                value = Skip(SKIPPED) if s.cancelled else None
                col.add(s.unit, s.rater, fld, value, s.part, time=s.time, kind=s.kind)
    if not col.fields_seen and any(s.cancelled for s in seen):
        for s in seen:
            if s.cancelled:
                col.drop(s.part, SKIPPED)


def read_csv(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Rows of Label Studio CSV/TSV exports (the converter's ``csv2``)."""
    from accord.readers import _ls_min

    col = Collected("label_studio_csv")
    for path in paths:
        _ls_min.read_rows(col, path, _ls_min.csv_rows(path), opts, "CSV")
    return col


LABEL_STUDIO = Reader(
    "label_studio",
    "Label Studio JSON or JSON_MIN export (tasks, annotations, "
    "predictions; choices, ratings, text spans)",
    _sniff.label_studio,
    read,
    ("fields",),
)
LABEL_STUDIO_CSV = Reader(
    "label_studio_csv",
    "Label Studio CSV/TSV export (rows of JSON_MIN)",
    _sniff.label_studio_csv,
    read_csv,
    ("fields",),
)
