"""JSON rendering of the report, at full precision, following ``report/schema.json``.

The document carries ``schema_version`` (``3``, the version of every command's
``--json``); a change that removes or renames a field increments it. Undefined
numbers are ``null``. The keys are those of ``AgreementResult.to_dict()`` and the
commands' JSON: an interval is ``confidence_interval`` (``{low, high,
confidence_level, method, ...}``), p_o and p_e are ``observed_agreement`` and
``expected_agreement``, D_o and D_e (Krippendorff's alpha and the other
coefficients of the form 1 - D_o / D_e) ``observed_disagreement`` and
``expected_disagreement``. The report model keeps its attribute names
(``ci_low``, ``observed``); they are renamed here, once.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from importlib import resources
from typing import Any

import numpy as np

from accord.data.audit import reason_counts
from accord.inference.results import DISAGREEMENT_COEFFICIENTS
from accord.report.model import SCHEMA_ID, SCHEMA_VERSION, Report

__all__ = ["render_json", "report_dict", "schema"]

_MODEL_MODULE = "accord.report.model"


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) every report document validates against."""
    text = resources.files("accord.report").joinpath("schema.json").read_text(encoding="utf-8")
    out: dict[str, Any] = json.loads(text)
    return out


def report_dict(report: Report) -> dict[str, Any]:
    """The report as JSON-ready data: its coefficients under ``results``, as in every
    command's document (the model's result objects are left out; every row has the figures)."""
    out: dict[str, Any] = {"$schema": SCHEMA_ID, "schema_version": SCHEMA_VERSION,
                           "caveats": list(report.data.caveats)}
    body = _plain(report, report.settings.confidence_level)
    body.pop("left_out", None)  # its sentences are in notes
    body["data"]["dropped"] = reason_counts(dict(report.data.dropped))
    body["data"]["n_missing"] = report.data.n_missing
    body["data"]["n_skipped"] = report.data.n_skipped
    if report.study is not None:
        body["study"]["disposition"] = dict(report.study.disposition)
    shapes = body.pop("shapes", None)
    if report.shapes is not None:  # under the shape's name: boxes, polygons or keypoints
        body[report.shapes.kind.name] = shapes
    for key in ("judge", "multilabel", "spans", "annotators", "judge_lab", "groups"):
        if body.get(key) is None:
            body.pop(key, None)
    # the coefficients are the figures of the report: under results, as in every command
    out.update({("results" if k == "coefficients" else k): v for k, v in body.items()})
    return out


def render_json(report: Report, *, indent: int | None = 2) -> str:
    """The JSON document; ``NaN`` never appears (undefined is ``null``)."""
    return json.dumps(report_dict(report), indent=indent, allow_nan=False, ensure_ascii=False)


def _plain(x: Any, level: float) -> Any:
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x) if math.isfinite(x) else None
    if is_dataclass(x) and type(x).__module__ == _MODEL_MODULE:
        return _keys({f.name: _plain(getattr(x, f.name), level) for f in fields(x)
                      if f.name != "results"}, level, type(x).__name__)
    if hasattr(x, "to_dict"):
        return _plain(x.to_dict(), level)
    if isinstance(x, Mapping):
        return _keys({str(k): _plain(val, level) for k, val in x.items()}, level, "")
    if isinstance(x, (list, tuple, np.ndarray)):
        return [_plain(val, level) for val in x]
    return str(x)


#: The worksheet's and kappa context's p_o and p_e (always agreements), as in accord table.
_RENAMED = {"p_o": "observed_agreement", "p_e": "expected_agreement",
            "weighted_p_o": "weighted_observed_agreement",
            "weighted_p_e": "weighted_expected_agreement"}

#: Figures that travel with an interval and move into ``confidence_interval``.
_CI_PARTS = ("confidence_level", "method", "n_excluded")


def _keys(row: dict[str, Any], level: float, kind: str) -> dict[str, Any]:
    """The shared names: ``confidence_interval`` for ``ci_low``/``ci_high``, the family's
    ``observed_*``/``expected_*`` for ``observed``/``expected``, ``observed_agreement`` and
    ``expected_agreement`` for a worksheet's ``p_o``/``p_e``, and the evidence register's
    ``observed_in_data`` (what the data showed, a sentence, not a figure)."""
    if kind == "RegisterRow":
        return {("observed_in_data" if k == "observed" else k): v for k, v in row.items()}
    out: dict[str, Any] = {}
    family = ("disagreement" if row.get("coefficient") in DISAGREEMENT_COEFFICIENTS
              else "agreement")
    for key, value in row.items():
        if key == "ci_low" and "ci_high" in row:
            ci = {"low": value, "high": row["ci_high"],
                  "confidence_level": row.get("confidence_level", level)}
            ci.update({k: row[k] for k in _CI_PARTS[1:] if k in row})
            out["confidence_interval"] = ci
        elif key in ("observed", "expected") and "coefficient" in row:
            out[f"{key}_{family}"] = value
        elif key in _RENAMED and kind in ("Worksheet", "KappaContext"):  # not a label
            out[_RENAMED[key]] = value
        elif not (key == "ci_high" or ("ci_low" in row and key in _CI_PARTS)):
            out[key] = value
    return out
