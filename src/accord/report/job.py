"""What the report was asked, and its answer in one sentence and one figure.

A report opens with the answer to the question its data pose: agreement between raters,
a model against a reference (a model card), an LLM judge against humans, a pilot decided
by a study's acceptance rule, spans, boxes, or label sets. :func:`job_of` reads that question
off the built :class:`~accord.report.model.Report`; every renderer puts the job's title,
verdict and figure first and the job's own section before the rest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    from accord.data.annotations import Annotations
    from accord.report.model import (
        CoefficientRow,
        FigureRow,
        PairAnalysis,
        Report,
        SystemEvaluation,
    )
    from accord.study.protocol import Study

__all__ = ["TITLES", "Job", "JobKind", "job_of", "raters_headline", "with_job"]

JobKind = Literal["raters", "reference", "judge", "study", "spans", "boxes", "polygons",
                  "keypoints", "label_sets",
                  "pairwise_judge", "judge_ranking", "judge_calibration", "judge_consistency",
                  "judge_ppi", "judge_panel"]

#: The first heading of each job's report (a ``title=`` given by the caller wins).
TITLES: dict[str, str] = {
    "raters": "Agreement between raters",
    "reference": "Model against reference",
    "judge": "Judge against humans",
    "study": "Pilot decision",
    "spans": "Agreement on spans",
    "boxes": "Agreement on boxes",
    "polygons": "Agreement on polygons",
    "keypoints": "Agreement on keypoints",
    "label_sets": "Agreement on label sets",
    "pairwise_judge": "Pairwise judge",
    "judge_ranking": "Ranking by a pairwise judge",
    "judge_calibration": "Judge calibration",
    "judge_consistency": "Judge consistency over repeated runs",
    "judge_ppi": "Judge rate corrected by human labels",
    "judge_panel": "Panel of judges",
}
#: The job of a report of judge-lab results alone, by its first section's kind.
LAB_JOBS: dict[str, JobKind] = {
    "position": "pairwise_judge", "length": "pairwise_judge",
    "self_preference": "pairwise_judge", "ranking": "judge_ranking",
    "calibration": "judge_calibration", "consistency": "judge_consistency", "ppi": "judge_ppi",
    "panel": "judge_panel",
}


@dataclass(frozen=True)
class Job:
    """The question the report answers and its answer.

    Attributes
    ----------
    kind : {"raters", "reference", "judge", "study", "spans", "boxes", "polygons", \
            "keypoints", "label_sets", "pairwise_judge", "judge_ranking", \
            "judge_calibration", "judge_consistency", "judge_ppi", "judge_panel"}
    title : str
        The job's heading, e.g. ``"Model against reference"``.
    verdict : str
        The answer in one sentence.
    figure_name, figure : str
        The one figure the answer rests on, as text (``"macro F1"``, ``"0.8123"``);
        ``figure`` is ``"undefined"`` when it is not a number, empty when there is none.
    """

    kind: JobKind
    title: str
    verdict: str
    figure_name: str
    figure: str

    def to_dict(self) -> dict[str, str]:
        """JSON-ready mapping."""
        return {"kind": self.kind, "title": self.title, "verdict": self.verdict,
                "figure_name": self.figure_name, "figure": self.figure}


def with_job(model: Report, title: str | None, st: Study | None) -> Report:
    """The report with its job; the job's title heads it unless ``title`` was given."""
    job = job_of(model)
    if title is None:
        title = (f"{job.title}: {st.title}" if job.kind == "study" and st is not None
                 and st.title else job.title)
    return replace(model, job=job, title=title)


def job_of(report: Report) -> Job:
    """The job of ``report``: a study first (its rule decides), then a judge, a
    reference with systems, spans, boxes, label sets; otherwise agreement between raters. A
    report of judge-lab results alone (no coefficients) answers their question."""
    if report.judge_lab is not None and report.judge_lab.parts and not report.coefficients:
        return _lab(report)
    if report.study is not None:
        return _study(report)
    if report.judge is not None:
        return _judge(report)
    if report.reference is not None and report.reference.systems:
        return _reference(report)
    if report.spans is not None:
        strict = report.spans.modes[0].f1
        return Job("spans", TITLES["spans"], report.spans.sentence,  # 3 places, as its table
                   f"span F1 ({report.spans.modes[0].mode})", _num(strict.estimate, 3))
    if report.shapes is not None:
        s = report.shapes
        kind = s.kind.name
        # the headline: the section's sentence, and what its intervals rest on if too few
        return Job(kind, TITLES[kind], report.headline,  # type: ignore[arg-type]
                   f"pairwise {s.kind.noun} F1 ({s.kind.upper} >= {s.threshold:g})",
                   _num(s.figure("f1").estimate, 3))
    if report.multilabel is not None:
        m = report.multilabel.macro
        ci = _ci(m.ci_low, m.ci_high, report.settings.confidence_level)
        verdict = (f"{report.headline.rstrip('.')}; per label, {report.multilabel.coefficient}"
                   f" is {_num(m.estimate)}{ci} ({m.name}, "
                   f"{len(report.multilabel.labels)} labels).")
        return Job("label_sets", TITLES["label_sets"], verdict, *_primary(report))
    return Job("raters", TITLES["raters"], report.headline, *_primary(report))


def _lab(report: Report) -> Job:
    """The judge lab's question: the pairwise judge's position and length preferences,
    the ranking, the calibration, the consistency, the corrected rate or the panel."""
    assert report.judge_lab is not None  # job_of checked it
    lab = report.judge_lab
    kind = LAB_JOBS[lab.parts[0].kind]
    if kind != "pairwise_judge":
        part = lab.parts[0]
        main = part.figures[0]
        name = {"judge_ranking": f"log-strength of {main.who}",
                "judge_calibration": "expected calibration error",
                "judge_consistency": "ICC(1,1) of one run",
                "judge_ppi": "corrected rate",
                "judge_panel": "panel's alt-test winning rate"}[kind]
        if kind == "judge_panel":  # the alt-test decides, as for one judge
            panel = part.figure("winning_rate", "panel") or main
            return Job(kind, TITLES[kind], part.sentence, name, _num(panel.estimate, 2))
        if kind == "judge_calibration":
            main = part.figure("ece") or main
        if kind == "judge_consistency":
            main = part.figure("icc") or main
        return Job(kind, TITLES[kind], part.sentence, name, _num(main.estimate, 3))
    verdict = _pairwise_verdict(report)
    position = lab.part("position")
    mine = None if position is None else next(
        (f for f in position.figures if f.defined and f.who in ("", lab.judge)), None)
    if mine is not None:
        return Job(kind, TITLES[kind], verdict, "P(first shown wins)", _num(mine.estimate, 3))
    length = lab.part("length")
    lb = None if length is None else length.figure("length_bias")
    if lb is not None and lb.defined:
        return Job(kind, TITLES[kind], verdict, "P(prefers the longer output)",
                   _num(lb.estimate, 3))
    return Job(kind, TITLES[kind], verdict, "", "")


def _pairwise_verdict(report: Report) -> str:
    """One sentence about the judge: a measured position bias first, then its length and
    self-preference (an unmeasured position bias last); later clauses say "it"."""
    assert report.judge_lab is not None
    lab = report.judge_lab
    parts = [p for p in lab.parts if p.kind in ("position", "length", "self_preference")]
    position = lab.part("position")
    if position is not None and not any(f.defined for f in position.figures):
        parts = [p for p in parts if p is not position] + [position]
    who = "The judge" if lab.judge is None else lab.judge
    clauses = [parts[0].sentence] + [_it(p.sentence, who) for p in parts[1:]]
    return "; ".join(clauses) + "."


def _it(clause: str, who: str) -> str:
    if clause.startswith(f"{who}'s "):
        return "its " + clause[len(who) + 3:]
    if clause.startswith(f"{who} "):
        return "it " + clause[len(who) + 1:]
    return clause


def _primary(report: Report) -> tuple[str, str]:
    row = next((r for r in report.coefficients if r.coefficient == report.primary), None)
    if row is None:
        return "", ""
    return row.label, _num(row.estimate) if row.defined else "undefined"


def _study(report: Report) -> Job:
    assert report.study is not None  # job_of checked it
    return Job("study", TITLES["study"], report.study.decision.line(),
               *_primary(report))


def _judge(report: Report) -> Job:
    assert report.judge is not None  # job_of checked it
    alt = report.judge.alt
    verdict = ("passes" if alt.passed else "does not pass")
    replace = ("may replace a human annotator on these data" if alt.passed
               else "should not replace a human annotator yet")
    text = (f"{alt.judge} {verdict} the alternative annotator test at epsilon = "
            f"{alt.epsilon:g}: winning rate {_num(alt.winning_rate, 2)} (0.50 passes), "
            f"advantage probability {_num(alt.advantage_probability, 3)} over "
            f"{alt.n_tested} humans; it {replace}.")
    return Job("judge", TITLES["judge"], text, "winning rate", _num(alt.winning_rate, 2))


def _reference(report: Report) -> Job:
    assert report.reference is not None  # job_of checked it
    systems = report.reference.systems
    best = max(systems, key=lambda s: _value(s, "macro F1"))
    level = report.settings.confidence_level
    f1 = _summary(best, "macro F1")
    acc = _summary(best, "accuracy")
    lead = best.system if len(systems) == 1 else (
        f"{best.system}, the best of {len(systems)} systems by macro F1,")
    ci = "" if f1 is None else _ci(f1.ci_low, f1.ci_high, level)
    f1_text = "undefined" if f1 is None or f1.undefined_reason else _num(f1.estimate)
    acc_text = "undefined" if acc is None or acc.undefined_reason else _num(acc.estimate)
    text = (f"{lead} against {best.reference}: macro F1 {f1_text}{ci} on {best.n_units:,} "
            "units; "
            f"accuracy {acc_text} vs {_num(best.majority_accuracy)} for always predicting the "
            f"majority class {best.majority_class!r}{_ceiling(best)}.")
    return Job("reference", TITLES["reference"], text, f"macro F1 ({best.system})", f1_text)


def _ceiling(s: SystemEvaluation) -> str:
    """Where the system's figure lies against the humans' on the same reference, read as
    the human ceiling reads it: "below" only when every paired interval of the difference
    lies below 0, so the verdict never contradicts the evidence under it."""
    if not s.ceiling or s.ceiling_figure is None:
        return ""
    system = s.ceiling[0].estimate
    humans = [r.estimate for r in s.ceiling[1:]
              if r.name != "human-human agreement" and math.isfinite(r.estimate)]
    if not humans or not math.isfinite(system):
        return ""
    low, high = min(humans), max(humans)
    them = (f"the human annotator ({_num(low)}, {s.ceiling_figure})" if len(humans) == 1
            else f"the human annotators' range ({_num(low)} to {_num(high)}, "
            f"{s.ceiling_figure})")
    if s.ceiling_outcome == "above" or (s.ceiling_outcome is None and system > high):
        where = "above"
    elif s.ceiling_outcome == "below" or (s.ceiling_outcome is None and system < low):
        where = "clearly below"
    elif low <= system <= high:
        where = "within"
    else:  # outside the humans' figures, but the paired interval of the difference holds 0
        return (f"; not clearly below {them} against the same reference (the paired "
                "interval of the difference includes 0)")
    return f"; {where} {them} against the same reference"


def _summary(s: SystemEvaluation, name: str) -> FigureRow | None:
    return next((r for r in s.summary if r.name == name), None)


def _value(s: SystemEvaluation, name: str) -> float:
    row = _summary(s, name)
    x = math.nan if row is None or row.undefined_reason else row.estimate
    return x if math.isfinite(x) else -math.inf


def _ci(low: float, high: float, level: float) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return ""
    return f" ({level * 100:g}% CI {_num(low)} to {_num(high)})"


def _num(x: float, digits: int = 4) -> str:
    return f"{x:.{digits}f}" if math.isfinite(x) else "undefined"


def raters_headline(ann: Annotations, rows: Sequence[CoefficientRow], primary: str | None,
                    pairs: Sequence[PairAnalysis] = ()) -> str:
    """The raters' answer: how often they agree and the primary coefficient on its scale."""
    who = (f"{ann.raters[0]} and {ann.raters[1]}" if ann.n_raters == 2
           else f"{ann.n_raters} raters")
    pa = next((r for r in rows if r.coefficient == "percent_agreement" and r.defined), None)
    if pa is not None and ann.n_raters == 2:
        both = int((np.bincount(ann.codes[0], minlength=ann.n_units) == 2).sum())
        ws = pairs[0].worksheet if pairs else None
        if pa.variant and ws is not None:
            head = (f"{who} agree exactly on {100 * ws.p_o:.1f}% of the {both} units both "
                    f"rated ({pa.variant}: agreement {100 * pa.estimate:.1f}%)")
        else:
            head = f"{who} agree on {100 * pa.estimate:.1f}% of the {both} units both rated"
    elif pa is not None:
        head = (f"{who} rated {ann.n_units} units (pairwise agreement "
                f"{100 * pa.estimate:.1f}%)")
    else:
        head = f"{who} rated {ann.n_units} units"
    row = next((r for r in rows if r.coefficient == primary), None)
    if row is None:
        return head + "."
    if not row.defined:
        return f"{head}; {row.label} is undefined: {row.undefined_reason}."
    ci = ""
    if math.isfinite(row.ci_low):
        ci = f" ({_pct(row.confidence_level)} CI {row.ci_low:.4f} to {row.ci_high:.4f})"
    band = ""
    if row.interpretation is not None and row.interpretation.defined:
        band = f", {row.interpretation.grade} on {row.interpretation.scale_title}"
    return f"{head}; {row.label} = {row.estimate:.4f}{ci}{band}."


def _pct(level: float) -> str:
    return f"{level * 100:g}%"
