"""Amazon Mechanical Turk batch results CSV: one row per assignment (HIT x worker).

Sources: the batch results header (``HITId``, ``HITTypeId``, ..., ``WorkerId``,
``AssignmentStatus``, ``SubmitTime``, ``Input.*``, ``Answer.*``) as found in
public result files and the MTurk API guide (RetrievingResults); answer shapes of
crowd-html-elements (``crowd-form``: one ``Answer.taskAnswers`` JSON array such as
``[{"sentiment": {"label": "Negative"}}]``; ``answer-format="flatten-objects"``:
``Answer.<name>.label`` or ``Answer.<name>.<option>`` booleans; radio groups
``{"<name>": {"<value>": true}}``).

* unit = ``HITId``, or the input column you name with ``unit="Input.id"``;
* rater = ``WorkerId``; ``AssignmentStatus=Rejected`` rows are counted and dropped;
* each answer (``Answer.<name>``, ``Answer.<name>.label``, the groups of
  ``Answer.<name>.<option>`` booleans, or the keys of ``Answer.taskAnswers``)
  is a field; choose one with ``field=``;
* a worker who answered a HIT twice: the latest ``SubmitTime`` wins; HITs with
  fewer submitted assignments than ``MaxAssignments`` are counted in the audit.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

from accord.readers import _sniff
from accord.readers._base import Collected, Reader, Skip, as_label, format_error
from accord.readers._ls_min import csv_rows

REJECTED = "rejected (AssignmentStatus=Rejected)"
_TRUE = ("true", "True", "TRUE", True)


def answer_value(raw: Any) -> Any:
    """A crowd element's answer as a label: ``{"label": x}`` -> x; ``{opt: true}`` -> opt."""
    if isinstance(raw, dict):
        if "label" in raw and not isinstance(raw["label"], (dict, list)):
            return raw["label"]
        chosen = [k for k, x in raw.items() if x in _TRUE]
        if chosen and all(isinstance(x, bool) or x in ("true", "false") for x in raw.values()):
            return chosen[0] if len(chosen) == 1 else as_label(chosen)
        if not chosen and all(x is False or x == "false" for x in raw.values()):
            return None
        return as_label(raw)
    if isinstance(raw, list):
        return as_label(raw)
    if raw in ("", "{}", "[]"):
        return None
    return raw


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Assignments from one or more MTurk batch results files."""
    col = Collected("mturk")
    unit_key = opts.get("unit") or "HITId"
    for path in paths:
        rows = csv_rows(path, parse_json=False)
        part = col.part(str(path))
        if rows and ("WorkerId" not in rows[0][1] or unit_key not in rows[0][1]):
            raise format_error(
                path,
                "line 1",
                f"expected the columns 'WorkerId' and {unit_key!r} of an MTurk batch results file",
            )
        submitted: Counter[str] = Counter()
        max_assign: dict[str, int] = {}
        for where, row in rows:
            col.parts[part].rows_read += 1
            _row(col, part, path, where, row, unit_key, submitted, max_assign)
        short = sum(1 for h, m in max_assign.items() if submitted[h] < m)
        if short:
            col.parts[part].notes.append(
                f"{short} HIT(s) with fewer usable assignments than MaxAssignments"
            )
    return col


def _row(
    col: Collected,
    part: int,
    path: Path,
    where: str,
    row: dict[str, Any],
    unit_key: str,
    submitted: Counter[str],
    max_assign: dict[str, int],
) -> None:
    unit, worker = str(row.get(unit_key) or ""), str(row.get("WorkerId") or "")
    if not unit or not worker:
        raise format_error(path, where, f"expected a {unit_key} and a WorkerId")
    hit = str(row.get("HITId") or unit)
    m = str(row.get("MaxAssignments") or "")
    if m.isdigit():
        max_assign[hit] = int(m)
    rejected = str(row.get("AssignmentStatus", "")).strip() == "Rejected"
    if not rejected:
        submitted[hit] += 1
    time = _time(row.get("SubmitTime"))
    for fld, value in _answers(row, path, where).items():
        col.add(unit, worker, fld, Skip(REJECTED) if rejected else value, part, time=time)
    if rejected and not _answers(row, path, where):
        col.drop(part, REJECTED)


def _answers(row: dict[str, Any], path: Path, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    groups: dict[str, dict[str, Any]] = defaultdict(dict)
    for key, cell in row.items():
        if not key.startswith("Answer."):
            continue
        name = key[len("Answer.") :]
        if name == "taskAnswers":
            out.update(_task_answers(cell, path, where))
        elif name.endswith(".label"):
            out[name[: -len(".label")]] = answer_value(cell)
        elif "." in name:
            head, _, option = name.rpartition(".")
            groups[head][option] = cell
        else:
            out[name] = answer_value(cell)
    for head, options in groups.items():
        out.setdefault(head, answer_value({k: str(x).lower() for k, x in options.items()}))
    return out


def _task_answers(cell: Any, path: Path, where: str) -> dict[str, Any]:
    if cell in (None, ""):
        return {}
    try:
        data = json.loads(cell)
    except (ValueError, RecursionError, TypeError):
        raise format_error(
            path, f"{where}, Answer.taskAnswers", "expected a JSON array of answer objects"
        ) from None
    items = data if isinstance(data, list) else [data]
    out: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, dict):
            raise format_error(
                path, f"{where}, Answer.taskAnswers", "expected a JSON array of answer objects"
            )
        for name, raw in item.items():
            out[str(name)] = answer_value(raw)
    return out


def _time(value: Any) -> str | None:
    """``Mon May 13 10:51:16 PDT 2024`` as a sortable string (the zone is dropped)."""
    if not isinstance(value, str) or not value.strip():
        return None
    parts = value.split()
    if len(parts) == 6:
        try:
            stamp = datetime.strptime(" ".join(parts[:4] + parts[5:]), "%a %b %d %H:%M:%S %Y")
            return stamp.isoformat()
        except ValueError:
            return value
    return value


MTURK = Reader(
    "mturk",
    "Amazon Mechanical Turk batch results CSV (Answer.* fields; rejected assignments dropped)",
    _sniff.mturk,
    read,
    (),
)
