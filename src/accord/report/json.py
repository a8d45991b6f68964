"""JSON rendering of the report, at full precision, following ``report/schema.json``.

The document carries ``schema_version`` (currently ``"1"``); a change that
removes or renames a field increments it. Undefined numbers are ``null``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from importlib import resources
from typing import Any

import numpy as np

from accord.report.model import SCHEMA_ID, SCHEMA_VERSION, Report

__all__ = ["render_json", "report_dict", "schema"]

_MODEL_MODULE = "accord.report.model"


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every report document validates against."""
    text = resources.files("accord.report").joinpath("schema.json").read_text(encoding="utf-8")
    out: dict[str, Any] = json.loads(text)
    return out


def report_dict(report: Report) -> dict[str, Any]:
    """The report as JSON-ready data (``results`` are left out; every row has the figures)."""
    out: dict[str, Any] = {"$schema": SCHEMA_ID, "schema_version": SCHEMA_VERSION,
                           "caveats": list(report.data.caveats)}
    body = _plain(report)
    body["data"]["dropped"] = dict(report.data.dropped)
    body["data"]["n_missing"] = report.data.n_missing
    body["data"]["n_skipped"] = report.data.n_skipped
    if report.study is not None:
        body["study"]["disposition"] = dict(report.study.disposition)
    for key in ("judge", "multilabel", "spans", "annotators"):
        if body.get(key) is None:
            body.pop(key, None)
    out.update(body)
    return out


def render_json(report: Report, *, indent: int | None = 2) -> str:
    """The JSON document; ``NaN`` never appears (undefined is ``null``)."""
    return json.dumps(report_dict(report), indent=indent, allow_nan=False, ensure_ascii=False)


def _plain(x: Any) -> Any:
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(x) else None
    if is_dataclass(x) and type(x).__module__ == _MODEL_MODULE:
        return {f.name: _plain(getattr(x, f.name)) for f in fields(x) if f.name != "results"}
    if hasattr(x, "to_dict"):
        return _plain(x.to_dict())
    if isinstance(x, Mapping):
        return {str(k): _plain(val) for k, val in x.items()}
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_plain(val) for val in x]
    return str(x)
