"""The report of judge-lab results alone: a pairwise judge, a calibration, a consistency,
a PPI estimate or a panel of judges, with no ratings table to compute agreement on.

:func:`accord.report` sends here a :class:`~accord.judge.preferences.PreferenceResult`
of a single judge (no humans to agree with) and ``report(None, judge_lab=...)``; the
report then holds the judge-lab sections (:mod:`accord.report.judge_lab_section`)
and its job is the question they answer (:mod:`accord.report.job`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from accord.data import _validation as v
from accord.report.judge_lab_section import LAB_TYPES, is_lab_result, judge_lab_section
from accord.report.model import DataSummary, Report, Settings, UnitsSection

__all__ = ["lab_only", "lab_report", "lab_results", "unwrap"]


def lab_results(annotations: Any, judge_lab: Any, func: str) -> list[Any]:
    """The judge-lab results of a report: a PreferenceResult given as the data first,
    then ``judge_lab`` (one result or a sequence), each checked."""
    from accord.judge.preferences import PreferenceResult

    given = [] if judge_lab is None else (
        [judge_lab] if is_lab_result(judge_lab) or not isinstance(judge_lab, Sequence)
        else list(judge_lab))
    for x in given:
        if not is_lab_result(x):
            raise v.fail("judge_lab", func, f"a judge-lab result ({', '.join(LAB_TYPES)}) "
                         "or a sequence of them", x)
    first = [annotations] if isinstance(annotations, PreferenceResult) else []
    return first + [x for x in given if x is not annotations]


def unwrap(annotations: Any, judge: Any) -> tuple[Any, Any]:
    """Pairwise preferences as their normalised verdicts and their judge by default (their
    position and other biases go to the judge-lab sections); other data as given."""
    from accord.judge.preferences import PreferenceResult

    if not isinstance(annotations, PreferenceResult):
        return annotations, judge
    return annotations.annotations, annotations.judge if judge is None else judge


def lab_only(annotations: Any) -> bool:
    """Whether the report holds judge-lab sections only: no data, or the preferences of
    one judge (no second rater to agree with)."""
    from accord.judge.preferences import PreferenceResult

    if annotations is None:
        return True
    return isinstance(annotations, PreferenceResult) and annotations.annotations.n_raters < 2


def lab_report(results: Sequence[Any], settings: Settings, method: Any,
               title: str | None) -> Report:
    """The report of ``results`` alone (see the module docstring)."""
    from accord._version import __version__
    from accord.judge.preferences import PreferenceResult
    from accord.report._data import _data_summary

    if not results:
        raise v.fail("annotations", "report", "ratings, or judge-lab results in judge_lab=",
                     None)
    section = judge_lab_section(results, settings.confidence_level, method)
    prefs = next((r for r in results if isinstance(r, PreferenceResult)), None)
    first = section.parts[0]
    if prefs is not None:
        data = _data_summary(prefs.annotations)
    elif first.kind == "panel":  # the units of the judges' and humans' ratings
        data = _summary(results[0].annotations.n_units, first.title, "units")
    else:
        data = _summary(first.figures[0].n, first.title,
                        "comparisons" if first.kind == "ranking" else "items")
    return Report(
        title=title or "Judge lab", headline=section.parts[0].sentence,
        accord_version=__version__, data=data, settings=settings, coefficients=(),
        primary=None, pairs=(), raters=(), loo_coefficient=None, matrix=None,
        units=UnitsSection((), (), 0, 0), bootstrap=None, study=None, notes=(),
        judge_lab=section)


def _summary(n: int, what: str, counted: str) -> DataSummary:
    """What a report of a result without ratings says of its data: the items (or
    comparisons) counted."""
    return DataSummary(
        source=what, n_units=n, n_raters=0, raters=(), kinds=(), categories=(),
        category_counts=(), level="nominal", n_ratings=0, rows_read=n, dropped=(), notes=(),
        units_rated_once=0, units_complete=0, audit=(f"{what}: {n} {counted}",))
