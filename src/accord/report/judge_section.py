"""The report's LLM-judge section: may the judge replace a human annotator?

Built from :func:`accord.alt_test` and :func:`accord.judge_agreement` (pairwise
preferences get their position, length and self-preference sections from
:mod:`accord.report.judge_lab_section`); the renderers show the same text cells
(:func:`cells`), each escaping them for its medium. The verdict itself is the job's
(:mod:`accord.report.job`): the section gives the evidence, not the verdict again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from accord.data.annotations import Annotations
from accord.judge._scoring import Scoring
from accord.judge.agreement import JudgeAgreement, judge_agreement
from accord.judge.alt_test import AltTestResult, alt_test

__all__ = ["JudgeSection", "cells", "declared_judge", "judge_section"]


@dataclass(frozen=True)
class JudgeSection:
    """The judge against the humans, in words and two tables.

    Attributes
    ----------
    judge : str
    sentence : str
        The decision in words a product owner can act on.
    alt : AltTestResult
    agreement : JudgeAgreement
    """

    judge: str
    sentence: str
    alt: AltTestResult = field(repr=False)
    agreement: JudgeAgreement = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping at full precision."""
        return {"judge": self.judge, "sentence": self.sentence,
                "alt_test": self.alt.to_dict(), "agreement": self.agreement.to_dict()}


def judge_section(ann: Annotations, judge: Any, humans: Sequence[Any] | None, epsilon: float,
                  seed: int | None) -> JudgeSection:
    """Run both analyses on ``ann`` (judge included) and phrase the decision."""
    from accord.inference import Bootstrap

    scoring: Scoring = "neg_rmse" if ann.level in ("interval", "ratio") else "accuracy"
    alt = alt_test(ann, judge=judge, humans=humans, epsilon=epsilon, scoring=scoring)
    agree = judge_agreement(ann, judge=judge, humans=humans,
                            method=Bootstrap(n_resamples=2000, rng=seed))
    return JudgeSection(str(judge), _sentence(alt, agree), alt, agree)


def _sentence(alt: AltTestResult, agree: JudgeAgreement) -> str:
    verdict = ("may replace a human annotator" if alt.passed
               else "should not replace a human annotator yet")
    level = _level(agree)
    return (f"{alt.judge} {verdict} on these data: {_won(alt)}; winning rate "
            f"{alt.winning_rate:.2f}, where 0.50 passes; {alt.n_units} units."
            + (f" {level}" if level else ""))


def _won(alt: AltTestResult) -> str:
    won = sum(h.won for h in alt.per_human.values())
    return (f"for {won} of {alt.n_tested} humans, the judge represents the other humans "
            f"about as well as that human does or better (a shortfall below epsilon = "
            f"{alt.epsilon:g} is allowed, false-discovery rate {alt.fdr:g})")


def _level(agree: JudgeAgreement) -> str:
    """The judge against the human ceiling, in words ('' when either is undefined)."""
    if not (math.isfinite(agree.judge_level) and math.isfinite(agree.ceiling)):
        return ""
    closer = ("closer to" if agree.judge_level > agree.ceiling
              else "further from" if agree.judge_level < agree.ceiling else "as close to")
    return (f"Against the other humans' consensus it scores {_f(agree.judge_level)}, "
            f"{closer} them than a human is ({_f(agree.ceiling)}, {agree.coefficient}).")


def cells(section: JudgeSection) -> dict[str, Any]:
    """The section as text: the alt-test and agreement tables and the summary lines."""
    alt, agree = section.alt, section.agreement
    alt_head = ["human", "units", "judge at least as good", "p-value", "adjusted p", "won"]
    alt_rows = [[str(h.human), str(h.n_units), _f(h.advantage_probability), _p(h.pvalue),
                 _p(h.adjusted_pvalue), "yes" if h.won else "no"]
                for h in alt.per_human.values()]
    agr_head = ["human", "judge vs human", "judge vs others", "human vs others",
                "judge minus human", "interval"]
    agr_rows = [[str(r["human"]), _f(r["judge_vs_human"]), _f(r["judge_vs_others"]),
                 _f(r["human_vs_others"]), _f(r["difference"]),
                 f"{_f(r['low'])} to {_f(r['high'])}"] for r in agree.rows()]
    level = _level(agree)
    lines = [f"Alternative annotator test ({alt.scoring}, {alt.test}-test, Benjamini-"
             f"Yekutieli at {alt.fdr:g}): {_won(alt)}; {alt.n_units} units.",
             *([level] if level else [])]
    if agree.panel_with_judge is not None and agree.panel_without_judge is not None:
        lines.append(f"The humans' {agree.coefficient}: "
                     f"{_f(agree.panel_without_judge.estimate)}; with the judge as one more "
                     f"rater: {_f(agree.panel_with_judge.estimate)}.")
    notes = [*alt.notes, *agree.notes]
    out = {"alt_head": alt_head, "alt_rows": alt_rows, "agr_head": agr_head,
           "agr_rows": agr_rows, "lines": lines, "notes": notes,
           "agr_title": f"{agree.coefficient} against the other humans' consensus "
                        f"({agree.level}); the interval is a paired bootstrap over units"}
    return out


def _f(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"


def _p(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3g}"


def declared_judge(ann: Annotations, judge: Any, study: Any) -> Any:
    """``judge=``, or the rater the declared kinds make the judge (one of kind llm beside
    two or more humans, no reference: :func:`accord.data._roles.job_of_kinds`)."""
    from accord.data._roles import job_of_kinds
    from accord.report.spans_section import has_spans

    if judge is not None or study is not None or has_spans(ann) or ann.set_valued:
        return judge
    job, who = job_of_kinds(ann.kinds, ann.raters)
    return who if job == "judge" else None
