"""Argilla records exported to JSON / JSON Lines (v2 flat or nested, v1 FeedbackDataset).

Sources: argilla-io/argilla ``argilla/src/argilla/records/_io/_generic.py``,
``_io/_datasets.py``, ``_io/_json.py`` and ``records/_resource.py``; Hub cards of
Argilla 1.x datasets (e.g. ``argilla/stackoverflow_feedback_demo``).

* v2 flat (``to_datasets()`` / ``to_hub``): per question ``<q>.responses``,
  ``<q>.responses.users`` and ``<q>.responses.status`` as parallel lists; a
  question nobody answered is ``null``; suggestions ``<q>.suggestion`` (+
  ``.agent``) become a rater of kind ``"model"``;
* v2 nested (``records.to_json()``): ``responses: {q: [{"value", "user_id"}]}``
  with **no status**, so drafts and discards look final (the audit says so);
* v1 FeedbackDataset: one column per question holding ``{user_id, value,
  status}`` entries, as a list of dicts or a dict of parallel lists;
  ``<q>-suggestion`` / ``<q>-suggestion-metadata``;
* only ``submitted`` answers are labels; ``discarded`` and ``draft`` are counted;
* each question is a field; span questions (``[{start, end, label}]``) give
  spans (offsets as stored: Argilla's unit is not verified); multi-label
  answers are sorted tuples, rankings tuples in rank order;
* unit = ``id`` (v2) or ``external_id`` (v1), else the record's position;
  ``unit=`` names another key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from accord.readers import _sniff
from accord.readers._base import (
    Collected,
    Reader,
    Skip,
    as_label,
    format_error,
    json_kind,
    text_id,
)
from accord.readers._json_stream import records_of
from accord.readers.spans import Span

_STATUS_SKIP = {"discarded": "discarded", "draft": "draft (not submitted)"}


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Responses from Argilla record exports."""
    col = Collected("argilla")
    for path in paths:
        part = col.part(str(path))
        forms: set[str] = set()
        for k, (where, rec) in enumerate(records_of(path)):
            unit = _unit(rec, k, opts.get("unit"), path, where)
            forms.add(_record(col, part, path, where, unit, rec))
        if "nested" in forms:
            col.parts[part].notes.append(
                "nested records carry no response status: drafts and "
                "discarded answers cannot be told from submitted ones"
            )
    _empty_span_answers(col)
    return col


def _empty_span_answers(col: Collected) -> None:
    """``[]`` on a span question: annotated with no spans, not a label."""
    kept = []
    for j in col.judgments:
        if j.field in col.span_fields and j.value == ():
            col.cover(j.unit, j.rater, j.field, "annotated")
        else:
            kept.append(j)
    col.judgments = kept


def _unit(rec: dict[str, Any], index: int, key: str | None, path: Path, where: str) -> str:
    for k in [key] if key else ["id", "external_id"]:
        if rec.get(k) not in (None, ""):
            return text_id(rec[k])
    if key:
        raise format_error(path, where, f"expected the unit key {key!r}")
    return str(index)


def _record(
    col: Collected, part: int, path: Path, where: str, unit: str, rec: dict[str, Any]
) -> str:
    if isinstance(rec.get("responses"), dict):
        for q, answers in rec["responses"].items():
            for a in _list(answers, path, f"{where}, responses.{q}"):
                if not isinstance(a, dict):
                    raise format_error(path, f"{where}, responses.{q}", "expected answer objects")
                _answer(col, part, unit, str(q), a.get("user_id"), a.get("value"), "submitted")
        _nested_suggestions(col, part, unit, rec.get("suggestions"))
        return "nested"
    flat = [k[: -len(".responses")] for k in rec if k.endswith(".responses")]
    for q in flat:
        values = _list(rec.get(f"{q}.responses"), path, f"{where}, {q}.responses")
        users = _list(rec.get(f"{q}.responses.users"), path, f"{where}, {q}.responses.users")
        status = _list(rec.get(f"{q}.responses.status"), path, f"{where}, {q}.responses.status")
        _parallel(col, part, path, where, unit, q, values, users, status)
        _suggestion(
            col, part, unit, q, rec.get(f"{q}.suggestion"), rec.get(f"{q}.suggestion.agent")
        )
    if flat:
        return "flat"
    _v1(col, part, path, where, unit, rec)
    return "v1"


def _list(value: Any, path: Path, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise format_error(path, where, f"expected a list, got {json_kind(value)}")
    return value


def _parallel(
    col: Collected,
    part: int,
    path: Path,
    where: str,
    unit: str,
    q: str,
    values: list[Any],
    users: list[Any],
    status: list[Any],
) -> None:
    if users and len(users) != len(values) or status and len(status) != len(values):
        raise format_error(
            path,
            f"{where}, {q}.responses",
            "expected parallel lists of the same length (responses, users, status)",
        )
    for i, value in enumerate(values):
        who = users[i] if users else None
        _answer(col, part, unit, q, who, value, status[i] if status else "submitted")


def _v1(col: Collected, part: int, path: Path, where: str, unit: str, rec: dict[str, Any]) -> None:
    for q, entries in rec.items():
        if isinstance(entries, dict) and {"user_id", "value"} <= set(entries):
            users, values = (
                _list(entries["user_id"], path, f"{where}, {q}.user_id"),
                _list(entries["value"], path, f"{where}, {q}.value"),
            )
            status = _list(entries.get("status"), path, f"{where}, {q}.status")
            _parallel(col, part, path, where, unit, q, values, users, status)
        elif (
            isinstance(entries, list)
            and entries
            and all(isinstance(e, dict) and "value" in e and "status" in e for e in entries)
        ):
            for e in entries:
                _answer(col, part, unit, q, e.get("user_id"), e.get("value"), e.get("status"))
        elif q.endswith("-suggestion") and entries is not None:
            meta = rec.get(f"{q}-metadata")
            agent = meta.get("agent") if isinstance(meta, dict) else None
            _suggestion(col, part, unit, q[: -len("-suggestion")], entries, agent)


def _answer(
    col: Collected, part: int, unit: str, q: str, user: Any, value: Any, status: Any
) -> None:
    col.parts[part].rows_read += 1
    rater = text_id(user) if user not in (None, "") else "unknown user"
    if isinstance(status, str) and status in _STATUS_SKIP:
        col.add(unit, rater, q, Skip(_STATUS_SKIP[status]), part)
        return
    if _is_spans(value):
        col.cover(unit, rater, q, "annotated")
        col.add_spans(
            [
                Span(unit, rater, int(s["start"]), int(s["end"]), str(s["label"]), field=q)
                for s in value
            ],
            origin=(part << 32) + col.parts[part].rows_read,
        )
        return
    col.add(unit, rater, q, _label(value), part)


def _is_spans(value: Any) -> bool:
    return (
        isinstance(value, list)
        and bool(value)
        and all(
            isinstance(s, dict)
            and isinstance(s.get("start"), int)
            and isinstance(s.get("end"), int)
            and "label" in s
            for s in value
        )
    )


def _label(value: Any) -> Any:
    if (
        isinstance(value, list)
        and value
        and all(isinstance(r, dict) and "rank" in r for r in value)
    ):
        ordered = sorted(value, key=_rank_key)
        return tuple(str(r.get("value")) for r in ordered)  # a ranking keeps its order
    return as_label(value)


def _rank_key(r: dict[str, Any]) -> tuple[int, float, str]:
    rank = r.get("rank")
    if isinstance(rank, (int, float)) and not isinstance(rank, bool):
        return (0, float(rank), "")
    return (1, 0.0, repr(rank))


def _suggestion(col: Collected, part: int, unit: str, q: str, value: Any, agent: Any) -> None:
    if value is None:
        return
    rater = f"suggestion:{agent}" if agent else "suggestion"
    col.kinds.setdefault(rater, "model")
    _answer(col, part, unit, q, rater, value, "submitted")


def _nested_suggestions(col: Collected, part: int, unit: str, suggestions: Any) -> None:
    if isinstance(suggestions, dict):
        for q, s in suggestions.items():
            if isinstance(s, dict):
                _suggestion(col, part, unit, str(q), s.get("value"), s.get("agent"))


ARGILLA = Reader(
    "argilla",
    "Argilla records as JSON/JSONL (v2 flat or nested, v1 FeedbackDataset); submitted answers only",
    _sniff.argilla,
    read,
    (),
)
