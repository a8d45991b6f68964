"""Amazon SageMaker Ground Truth output manifests (``output.manifest``, JSON Lines).

Sources: awsdocs/amazon-sagemaker-developer-guide ``doc_source/sms-data-output.md``
(label attribute + ``<attribute>-metadata``, ``failure-reason``); the
post-annotation Lambda pattern that passes every answer through as
``{"annotationsFromAllWorkers": [{"workerId", "annotationData": {"content": "<JSON>"}}]}``
(e.g. bsantraigi/dialog-human-labeling).

* a label attribute is a key ``k`` with a ``k-metadata`` companion;
* custom workflows: one rater per ``workerId``; ``annotationData.content`` is
  JSON inside a string and is parsed a second time; each key of it is a field
  (``<attribute>.<key>``), crowd answers ``{"label": x}`` or ``{option: true}``
  become ``x`` / ``option``; empty content is missing;
* built-in tasks keep only the consolidated label: it is read as the rater
  ``"consolidated"`` of kind ``"gold"`` (not an independent rater); per-worker
  answers of built-in jobs live under ``annotations/worker-response/`` and are
  not read here;
* objects whose metadata has ``failure-reason`` are counted and dropped;
* unit = the line's 0-based index (the ``<object index>`` of the worker-response
  folders), or the key you name with ``unit="source-ref"``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from accord.readers import _sniff
from accord.readers._base import Collected, Reader, format_error, jsonl_objects, text_id
from accord.readers.mturk import answer_value

FAILED = "failed data object (metadata failure-reason)"


def read(paths: list[Path], opts: dict[str, Any]) -> Collected:
    """Answers from one or more output manifests."""
    col = Collected("sagemaker")
    empty: list[tuple[str, str, str, int]] = []
    for path in paths:
        part = col.part(str(path))
        for index, (lineno, obj) in enumerate(jsonl_objects(path)):
            unit = _unit(obj, index, opts.get("unit"), path, f"line {lineno}")
            for attr in [k for k in obj if f"{k}-metadata" in obj or k.endswith("-metadata")]:
                if attr.endswith("-metadata"):
                    attr = attr[: -len("-metadata")]
                    if attr in obj:
                        continue
                _attribute(col, part, path, f"line {lineno}", unit, attr, obj, empty)
    for unit, worker, attr, part in empty:  # empty content: missing in every field of attr
        fields = [f for f in col.fields_seen if f.startswith(f"{attr}.")] or [attr]
        for fld in fields:
            col.add(unit, worker, fld, None, part)
    if "consolidated" in col.kinds:
        col.notes.append(
            "built-in task: only the consolidated label is in the manifest (rater "
            "'consolidated', kind 'gold'); per-worker answers are in "
            "annotations/worker-response/ and are not read"
        )
    return col


def _unit(obj: dict[str, Any], index: int, key: str | None, path: Path, where: str) -> str:
    if key is None:
        return str(index)
    if obj.get(key) in (None, ""):
        raise format_error(path, where, f"expected the unit key {key!r}")
    return text_id(obj[key])


def _attribute(
    col: Collected,
    part: int,
    path: Path,
    where: str,
    unit: str,
    attr: str,
    obj: dict[str, Any],
    empty: list[tuple[str, str, str, int]],
) -> None:
    meta = obj.get(f"{attr}-metadata")
    value = obj.get(attr)
    col.parts[part].rows_read += 1
    if isinstance(meta, dict) and meta.get("failure-reason"):
        col.drop(part, FAILED)
        return
    if isinstance(value, dict) and "annotationsFromAllWorkers" in value:
        _workers(
            col,
            part,
            path,
            f"{where}, {attr}",
            unit,
            attr,
            value["annotationsFromAllWorkers"],
            empty,
        )
        return
    time = meta.get("creation-date") if isinstance(meta, dict) else None
    label = meta.get("class-name", value) if isinstance(meta, dict) else value
    if (
        isinstance(meta, dict)
        and isinstance(meta.get("class-map"), dict)
        and isinstance(value, list)
    ):
        label = tuple(sorted(str(meta["class-map"].get(str(v), v)) for v in value))
    col.add(unit, "consolidated", attr, answer_value(label), part, time=time, kind="gold")


def _workers(
    col: Collected,
    part: int,
    path: Path,
    where: str,
    unit: str,
    attr: str,
    answers: Any,
    empty: list[tuple[str, str, str, int]],
) -> None:
    if not isinstance(answers, list):
        raise format_error(path, where, "expected 'annotationsFromAllWorkers' to be a list")
    col.parts[part].rows_read += max(len(answers) - 1, 0)
    for k, ans in enumerate(answers):
        at = f"{where}, worker {k + 1}"
        if not isinstance(ans, dict) or not ans.get("workerId"):
            raise format_error(path, at, "expected an object with 'workerId'")
        content = _content(ans, path, at)
        if not content:
            empty.append((unit, str(ans["workerId"]), attr, part))
            continue
        for name, raw in content.items():
            col.add(
                unit,
                str(ans["workerId"]),
                f"{attr}.{name}",
                answer_value(raw),
                part,
                time=ans.get("submissionTime")
                if isinstance(ans.get("submissionTime"), str)
                else None,
            )


def _content(ans: dict[str, Any], path: Path, where: str) -> dict[str, Any]:
    data = ans.get("annotationData")
    raw = data.get("content") if isinstance(data, dict) else None
    if raw in (None, "", "{}"):
        return {}
    if isinstance(raw, dict):
        return raw
    try:
        parsed = json.loads(raw) if isinstance(raw, str) else None
    except (ValueError, RecursionError):
        parsed = None
    if not isinstance(parsed, dict):
        raise format_error(
            path, f"{where}, annotationData.content", "expected a JSON object encoded as a string"
        )
    return parsed


SAGEMAKER = Reader(
    "sagemaker",
    "SageMaker Ground Truth output.manifest (per-worker answers of "
    "custom workflows, or the consolidated label)",
    _sniff.sagemaker,
    read,
    (),
)
