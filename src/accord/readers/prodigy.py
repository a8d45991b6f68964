"""Prodigy ``db-out`` JSON Lines: one line per answer (task + ``answer``).

Sources: https://prodi.gy/docs/api-interfaces (views and their task keys),
https://prodi.gy/docs/metrics (IAA groups by ``_input_hash``), explosion/prodigy-recipes
``example-datasets/annotated_github-issues-DOCUMENTATION-textcat.jsonl`` and
``compare.py``, pmbaumgartner/prodigy-iaa ``src/prodigy_iaa/processors.py``.

* unit = ``_input_hash`` (binary ``ner``/``spans`` teach answers judge one
  suggested span, so they use ``_task_hash``); ``unit="meta.<key>"`` or
  ``unit="<key>"`` takes your own id instead;
* rater = ``_annotator_id``, else ``_session_id``, else the file name (one
  ``db-out`` file per annotator); the audit says which was used;
* ``answer: ignore`` is a skip and ``answer: reject`` on a choice or manual
  task is counted apart (never a label); on a binary task ``accept``/``reject``
  *is* the label, and the field is the judged ``label``;
* ``choice`` views: the selected option id in ``accept``; with
  ``choice_style: multiple`` a sorted tuple of ids (empty when none applies);
  a single-choice task accepted without choosing is counted, not a label;
* ``ner_manual``/``spans_manual``: ``spans`` with code-point offsets; when
  ``tokens`` are present ``token_end`` (inclusive) is checked against
  ``end``;
* ``compare``: the preferred system, from ``mapping``;
* several ``_view_id`` in one file become separate fields;
* repeated answers: the latest ``_timestamp`` wins.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from accord.readers import _sniff
from accord.readers._base import (
    Collected,
    Reader,
    Skip,
    as_label,
    format_error,
    jsonl_objects,
    shown,
    text_id,
)
from accord.readers.spans import Span

CHOICE_VIEWS = frozenset({"choice"})
MANUAL_VIEWS = frozenset({"ner_manual", "spans_manual", "pos_manual", "relations"})
IGNORED = "skipped (answer=ignore)"
REJECTED = "rejected (answer=reject)"
NO_CHOICE = "accepted without choosing an option"


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Answers from one or more Prodigy ``db-out`` files."""
    col = Collected("prodigy")
    for path in paths:
        part = col.part(str(path))
        stats: Counter[str] = Counter()
        for lineno, task in jsonl_objects(path):
            col.parts[part].rows_read += 1
            _task(col, part, path, lineno, task, opts.get("unit"), stats)
        col.parts[part].notes += [f"{n} {what}" for what, n in sorted(stats.items())]
    return col


def _task(
    col: Collected,
    part: int,
    path: Path,
    lineno: int,
    task: dict[str, Any],
    unit_key: str | None,
    stats: Counter[str],
) -> None:
    where = f"line {lineno}"
    answer = task.get("answer")
    if answer not in ("accept", "reject", "ignore"):
        raise format_error(
            path, where, f"expected 'answer' to be accept, reject or ignore, got {shown(answer)}"
        )
    rater = _rater(task, path, stats)
    view = str(task.get("_view_id") or "classification")
    time = task.get("_timestamp") if isinstance(task.get("_timestamp"), (int, float)) else None
    if view == "review":
        col.drop(part, "review recipe output (not an independent annotation)")
        return
    if view in MANUAL_VIEWS:
        unit = _unit(task, unit_key, "_input_hash", path, where)
        _manual(col, part, unit, rater, view, task, answer, time, path, where, stats)
        return
    if view in CHOICE_VIEWS:
        unit = _unit(task, unit_key, "_input_hash", path, where)
        col.add(unit, rater, view, _choice(task, answer, path, where), part, time=time)
        return
    if view == "compare":
        unit = _unit(task, unit_key, "_input_hash", path, where)
        col.add(unit, rater, view, _compare(task, answer, path, where), part, time=time)
        return
    _binary(col, part, rater, view, task, answer, time, unit_key, path, where)


def _rater(task: dict[str, Any], path: Path, stats: Counter[str]) -> str:
    for key in ("_annotator_id", "_session_id"):
        who = task.get(key)
        if who not in (None, ""):
            stats[f"answers with the rater from {key}"] += 1
            return text_id(who)
    stats["answers without _annotator_id or _session_id: rater = file name"] += 1
    return path.stem


def _unit(task: dict[str, Any], key: str | None, default: str, path: Path, where: str) -> str:
    if key is None:
        value = task.get(default)
        if value is None:
            raise format_error(path, where, f"expected {default!r}")
        return text_id(value)
    value = task.get(key)
    if value is None and key.startswith("meta."):
        meta = task.get("meta")
        value = meta.get(key[5:]) if isinstance(meta, dict) else None
    if value is None:
        raise format_error(path, where, f"expected the unit key {key!r}")
    return text_id(value)


def _choice(task: dict[str, Any], answer: str, path: Path, where: str) -> Any:
    if answer == "ignore":
        return Skip(IGNORED)
    if answer == "reject":
        return Skip(REJECTED)
    accept = task.get("accept", [])
    if not isinstance(accept, list):
        raise format_error(
            path, where, f"expected 'accept' to be a list of option ids, got {shown(accept)}"
        )
    config = task.get("config")
    multiple = isinstance(config, dict) and config.get("choice_style") == "multiple"
    if not accept and not multiple:
        return Skip(NO_CHOICE)
    if len(accept) == 1 and not multiple:
        return as_label(accept[0])
    return as_label(accept)


def _compare(task: dict[str, Any], answer: str, path: Path, where: str) -> Any:
    if answer == "ignore":
        return Skip(IGNORED)
    mapping = task.get("mapping")
    if not isinstance(mapping, dict):
        raise format_error(path, where, "expected 'mapping' (which system is accept/reject)")
    chosen = [system for system, side in mapping.items() if side == answer]
    if len(chosen) != 1:
        raise format_error(
            path, where, f"expected one system mapped to {answer!r}, got mapping {mapping!r}"
        )
    return str(chosen[0])


def _binary(
    col: Collected,
    part: int,
    rater: str,
    view: str,
    task: dict[str, Any],
    answer: str,
    time: Any,
    unit_key: str | None,
    path: Path,
    where: str,
) -> None:
    label = task.get("label")
    spans = task.get("spans")
    if label is None and isinstance(spans, list) and len(spans) == 1 and isinstance(spans[0], dict):
        label = spans[0].get("label")
        unit = _unit(task, unit_key, "_task_hash", path, where)
    else:
        unit = _unit(task, unit_key, "_input_hash", path, where)
    fld = str(label) if label is not None else view
    value: Any = Skip(IGNORED) if answer == "ignore" else answer
    col.add(unit, rater, fld, value, part, time=time)


def _manual(
    col: Collected,
    part: int,
    unit: str,
    rater: str,
    view: str,
    task: dict[str, Any],
    answer: str,
    time: Any,
    path: Path,
    where: str,
    stats: Counter[str],
) -> None:
    fld = view
    if answer != "accept":
        col.cover(unit, rater, fld, "skipped")
        col.drop(part, IGNORED if answer == "ignore" else REJECTED)
        return
    col.cover(unit, rater, fld, "annotated")
    spans = task.get("spans") or []
    if not isinstance(spans, list):
        raise format_error(path, where, "expected 'spans' to be a list")
    tokens = task.get("tokens") if isinstance(task.get("tokens"), list) else None
    text = task.get("text") if isinstance(task.get("text"), str) else None
    made = [
        _span(s, tokens, text, unit, rater, fld, path, f"{where}, span {k + 1}", stats)
        for k, s in enumerate(spans)
    ]
    col.add_spans(made, time=time, origin=(part << 32) + col.parts[part].rows_read)


def _span(
    s: Any,
    tokens: list[Any] | None,
    text: str | None,
    unit: str,
    rater: str,
    fld: str,
    path: Path,
    where: str,
    stats: Counter[str],
) -> Span:
    if not isinstance(s, dict):
        raise format_error(path, where, "expected a span object")
    start, end = s.get("start"), s.get("end")
    if (
        tokens is not None
        and isinstance(s.get("token_start"), int)
        and isinstance(s.get("token_end"), int)
    ):
        try:
            t0, t1 = tokens[s["token_start"]], tokens[s["token_end"]]  # token_end is inclusive
            by_tokens = (int(t0["start"]), int(t1["end"]))
        except (IndexError, KeyError, TypeError, ValueError, OverflowError):
            raise format_error(
                path,
                where,
                "expected token_start/token_end to index 'tokens' (token_end inclusive)",
            ) from None
        if start is None or end is None:
            start, end = by_tokens
        elif (start, end) != by_tokens:
            stats["spans whose offsets disagree with their tokens (offsets kept)"] += 1
    if not (isinstance(start, int) and isinstance(end, int)) or not 0 <= start <= end:
        raise format_error(
            path, where, "expected integer offsets 0 <= start <= end, got "
            f"{shown(start)}, {shown(end)}"
        )
    span_text = text[start:end] if text is not None else None
    return Span(unit, rater, start, end, str(s.get("label")), field=fld, text=span_text)


PRODIGY = Reader(
    "prodigy", "Prodigy db-out JSONL (binary, choice, manual spans, compare)", _sniff.prodigy,
    read, (),
)
