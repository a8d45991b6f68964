"""Label Studio JSON_MIN and CSV/TSV rows: one flat record per non-cancelled annotation.

Layout from the converter (HumanSignal/label-studio-converter:
``label_studio_converter/converter.py`` ``convert_to_json_min`` and
``exports/csv2.py``): ``id`` (task), ``annotator``, ``annotation_id``,
``created_at``, ``updated_at``, ``lead_time``, the task's data keys, and one
key per control tag (``from_name``) holding a bare string (a single choice)
or a list of value dicts. CSV cells hold the lists as compact JSON; rows end
with CRLF; a task without annotations is one row with an empty ``annotator``.

Which keys are questions and which are task data is not written down in
these exports. A key is taken as a question when its values are lists of
value dicts, or when it is text that differs between annotators of one task
or repeats across tasks; the audit lists the choice, and ``fields=[...]``
overrides it.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from accord.data._columns import NON_RATER_NAMES
from accord.readers._base import Collected, format_error, read_text, text_id
from accord.readers._ls_values import SpanMaker, classify, doc_texts

META = frozenset(
    {
        "id",
        "annotator",
        "annotation_id",
        "created_at",
        "updated_at",
        "lead_time",
        "drafts",
        "predictions",
        "agreement",
        "total_annotations",
        "cancelled_annotations",
        "total_predictions",
        "project",
        "updated_by",
        "inner_id",
        "file_upload",
        "storage_filename",
        "comment_count",
        "unresolved_comment_count",
        "last_comment_updated_at",
        "history",
    }
)
LOST = (
    "{flavor} export: cancelled (skipped) annotations are not exported and the "
    "ground-truth flag is lost, so skips cannot be counted and reference annotations "
    "look like an ordinary user's"
)


def read_rows(
    col: Collected,
    path: Path,
    rows: list[tuple[str, dict[str, Any]]],
    opts: dict[str, Any],
    flavor: str,
) -> None:
    """Add the annotations of JSON_MIN / CSV ``rows`` to ``col``."""
    part = col.part(str(path))
    fields, data_keys = split_keys(rows, opts.get("fields"), path)
    p = col.parts[part]
    p.notes.append(LOST.format(flavor=flavor))
    p.notes.append(f"questions (fields): {sorted(fields)!r}; task data: {sorted(data_keys)!r}")
    spans = SpanMaker()
    unannotated = 0
    for where, row in rows:
        if "id" not in row or row["id"] in (None, ""):
            raise format_error(path, where, "expected the task 'id'")
        annotator = row.get("annotator")
        if annotator in (None, ""):
            unannotated += 1
            continue
        p.rows_read += 1
        unit, rater = text_id(row["id"]), text_id(annotator)
        time = row.get("updated_at") or row.get("created_at")
        texts = doc_texts({k: row[k] for k in data_keys if k in row})
        origin = (part << 32) + p.rows_read
        for fld, is_span in fields.items():
            _field(col, part, unit, rater, fld, is_span, row.get(fld), (time, origin), texts, spans)
    p.notes += spans.notes()
    if unannotated:
        p.notes.append(f"{unannotated} task(s) without annotations")


def _field(
    col: Collected,
    part: int,
    unit: str,
    rater: str,
    fld: str,
    is_span: bool,
    raw: Any,
    when: tuple[Any, int],
    texts: list[str],
    spans: SpanMaker,
) -> None:
    time, origin = when
    items = raw if isinstance(raw, list) else ([] if raw in (None, "") else [raw])
    if is_span:
        col.cover(unit, rater, fld, "annotated")
        for item in items:
            if isinstance(item, dict) and classify(item, None)[0] == "span":
                col.add_spans(
                    spans.make(item, None, unit=unit, rater=rater, field=fld, texts=texts),
                    time=time,
                    origin=origin,
                )
        return
    labels = []
    for item in items:
        if isinstance(item, dict):
            what, payload = classify(item, None)
            if what == "label":
                labels.append(payload)
        else:
            labels.append(item)
    value = (
        None if not labels else labels[0] if len(labels) == 1 else tuple(sorted(map(str, labels)))
    )
    col.add(unit, rater, fld, value, part, time=time)


def split_keys(
    rows: list[tuple[str, dict[str, Any]]], declared: Sequence[str] | None, path: Path
) -> tuple[dict[str, bool], list[str]]:
    """Question keys (with whether each holds spans) and task-data keys."""
    keys = list(dict.fromkeys(k for _, row in rows for k in row if k not in META))
    if declared is not None:
        absent = [k for k in declared if k not in keys]
        if absent:
            raise format_error(path, None, f"fields {absent!r} not found; the keys are {keys!r}")
        chosen = list(declared)
    else:
        chosen = [k for k in keys if _is_question(k, rows)]
    fields = {k: _holds_spans(k, rows) for k in chosen}
    return fields, [k for k in keys if k not in fields]


def _values(key: str, rows: list[tuple[str, dict[str, Any]]]) -> list[tuple[Any, Any]]:
    return [
        (row.get("id"), row[key])
        for _, row in rows
        if row.get(key) not in (None, "") and row.get("annotator") not in (None, "")
    ]


def _is_question(key: str, rows: list[tuple[str, dict[str, Any]]]) -> bool:
    pairs = _values(key, rows)
    if not pairs or key.lower() in NON_RATER_NAMES:
        return False
    values = [x for _, x in pairs]
    if all(isinstance(x, list) for x in values):
        return all(isinstance(i, dict) for x in values for i in x) and any(values)
    if not all(isinstance(x, str) for x in values):
        return False
    per_task: dict[str, set[str]] = {}
    for task, x in pairs:
        per_task.setdefault(repr(task), set()).add(x)
    if any(len(s) > 1 for s in per_task.values()):
        return True
    return len(set(values)) < 0.9 * len(per_task)


def _holds_spans(key: str, rows: list[tuple[str, dict[str, Any]]]) -> bool:
    for _, x in _values(key, rows):
        if isinstance(x, list) and any(
            isinstance(i, dict) and classify(i, None)[0] == "span" for i in x
        ):
            return True
    return False


def csv_rows(path: Path, *, parse_json: bool = True) -> list[tuple[str, dict[str, Any]]]:
    """Rows of a CSV/TSV file as text (JSON-looking cells parsed when ``parse_json``)."""
    text = read_text(path)
    first = text.split("\n", 1)[0]
    sep = "\t" if path.suffix.lower() == ".tsv" or first.count("\t") > first.count(",") else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    try:
        header = next(reader, None)
        if not header:
            return []
        out = []
        for row in reader:
            where = f"line {reader.line_num}"
            if not row:
                continue
            if len(row) != len(header):
                raise format_error(
                    path, where, f"expected {len(header)} cells as in the header, got {len(row)}"
                )
            out.append((where, {k: _cell(c) if parse_json else c for k, c in zip(header, row)}))
        return out
    except csv.Error as exc:
        from accord.readers._engine_errors import csv_problem

        raise format_error(path, f"line {reader.line_num}",
                           f"{csv_problem(exc)}; expected a CSV export") from None


def _cell(cell: str) -> Any:
    stripped = cell.strip()
    if stripped[:1] in ("[", "{"):
        try:
            return json.loads(stripped)
        except (ValueError, RecursionError):
            return cell
    return cell
