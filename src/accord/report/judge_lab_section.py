"""The report's judge-lab sections: one per question asked of an LLM judge.

Built from the results of the judge lab (:mod:`accord.judge`), each kept at full
precision with the interval the report shows:

* **position** (:func:`accord.preferences`): per rater, the share of decisive verdicts
  for the answer shown first on the pairs seen in both orders; the interval resamples
  whole pairs (both orders together);
* **length** and **self_preference** (``preferences(..., lengths=, generators=)``): the
  judge's share, the humans' on the same pairs and the judge's excess; the length slope;
* **ranking** (:func:`accord.bradley_terry`): the strengths with their intervals, Elo;
* **calibration** (:func:`accord.judge_calibration`): Brier score, ECE, the reliability
  bins and the held-out recalibration;
* **consistency** (:func:`accord.judge_consistency`): flip rates, ICC(1,1), ICC(1,k) and
  the runs a target reliability needs (Spearman-Brown);
* **ppi** (:func:`accord.ppi_mean`): the corrected rate beside the judge-only and the
  humans-only rates;
* **panel** (:func:`accord.judge_panel`): each judge and the panel through the
  alternative annotator test, the effective number of independent judges and the
  judges' error correlations (:mod:`accord.report.judge_panel_section`).

Every figure's interval is the one the lab's sentences use (the analytic interval where
the figure has one, else the jackknife), so a section and its sentence give one figure.
The renderers are in :mod:`accord.report.render_judge_lab`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from accord.inference.results import AgreementResult
from accord.report.judge_lab_model import (
    TITLES,
    JudgeLabSection,
    LabFigure,
    LabPart,
    ReliabilityBin,
    figure,
)

__all__ = ["LAB_TYPES", "LabFigure", "LabPart", "JudgeLabSection", "judge_lab_section"]

#: The reliabilities whose runs needed the consistency table always shows; the
#: result's own target (``judge_consistency(target=)``, used by its sentence) is added.
TARGETS = (0.8, 0.9, 0.95)


def _lab_types() -> tuple[type, ...]:
    from accord.judge.bradley_terry import BradleyTerryResult
    from accord.judge.calibration import JudgeCalibration
    from accord.judge.consistency import JudgeConsistency
    from accord.judge.jury import JudgePanel
    from accord.judge.preferences import PreferenceResult

    return (PreferenceResult, BradleyTerryResult, JudgeCalibration, JudgeConsistency,
            JudgePanel)


#: What ``judge_lab=`` takes (plus an ``AgreementResult`` of :func:`accord.ppi_mean`).
LAB_TYPES = ("PreferenceResult", "BradleyTerryResult", "JudgeCalibration", "JudgeConsistency",
             "JudgePanel", "ppi_mean's AgreementResult")


def is_lab_result(x: Any) -> bool:
    """Whether ``x`` is a result the judge-lab sections are built from."""
    return isinstance(x, _lab_types()) or (isinstance(x, AgreementResult)
                                           and x.coefficient == "ppi_mean")


def judge_lab_section(results: Sequence[Any], confidence_level: float,
                      method: Any = None) -> JudgeLabSection:
    """The sections of ``results`` (judge-lab results, in order). ``method`` (a
    ``Bootstrap``) replaces the default interval of the figures that resample pairs."""
    from accord.judge.bradley_terry import BradleyTerryResult
    from accord.judge.calibration import JudgeCalibration
    from accord.judge.consistency import JudgeConsistency
    from accord.judge.jury import JudgePanel
    from accord.judge.preferences import PreferenceResult
    from accord.report.judge_panel_section import panel_part

    if method == "asymptotic":  # each figure's own analytic interval, as in its sentence
        method = None
    parts: list[LabPart] = []
    judge: str | None = None
    for res in results:
        if isinstance(res, PreferenceResult):
            judge = None if res.judge is None else str(res.judge)
            parts += _preference_parts(res, confidence_level, method)
        elif isinstance(res, BradleyTerryResult):
            parts.append(_ranking(res, confidence_level, method))
        elif isinstance(res, JudgeCalibration):
            parts.append(_calibration(res, confidence_level))
        elif isinstance(res, JudgeConsistency):
            parts.append(_consistency(res, confidence_level))
        elif isinstance(res, JudgePanel):
            parts.append(panel_part(res, confidence_level))
        else:
            parts.append(_ppi(res, confidence_level))
    return JudgeLabSection(judge, tuple(parts), confidence_level)




def _preference_parts(res: Any, level: float, method: Any) -> list[LabPart]:
    notes = tuple(res.biases.notes) if res.biases is not None else ()
    rows = []
    for rater, pb in res.per_rater.items():
        pos = res.position.get(rater)
        extra = (("pairs_both_orders", 0 if pos is None else
                  int(pos.details.get("pairs_both_orders", 0))),
                 ("pairs_one_order", None if pos is None else
                  int(pos.details.get("pairs_one_order", 0))),
                 ("same_verdict_when_swapped", pb.consistency),
                 ("pairs_swapped", pb.n_swapped))
        if pos is None:
            pos = AgreementResult(
                coefficient="position_first_share", estimate=math.nan, observed=math.nan,
                expected=math.nan, se=math.nan, n_units=0, n_raters=1,
                undefined_reason=f"{rater!r} saw no pair in both orders")
        rows.append(figure("position_first_share", "P(first shown wins)", pos, level,
                           who=str(rater), method=method, extra=extra))
    parts = [LabPart("position", TITLES["position"], position_clause(res.judge, rows, level),
                     tuple(rows), tuple(n for n in notes if "both orders" in n
                                        and not any(f.who in n for f in rows if not f.n)))]
    if res.length_bias is not None:
        figs = [figure(k, label, r, level, who=str(res.judge) if k == "length_bias" else "",
                       method=None if k == "length_slope" else method)
                for k, label, r in (
                    ("length_bias", "P(prefers the longer output), judge", res.length_bias),
                    ("length_bias_humans", "the humans, same pairs", res.length_bias_humans),
                    ("length_bias_excess", "judge minus humans", res.length_bias_excess),
                    ("length_slope", "length slope (log-odds per 100 characters)",
                     res.length_slope)) if r is not None]
        parts.append(LabPart("length", TITLES["length"], length_clause(res.judge, figs, level),
                             tuple(figs), tuple(n for n in notes if "length" in n)))
    if res.self_preference is not None:
        figs = [figure(k, label, r, level, method=method) for k, label, r in (
            ("self_preference", "P(prefers its own family), judge", res.self_preference),
            ("self_preference_humans", "the humans, same pairs", res.self_preference_humans),
            ("self_preference_excess", "judge minus humans", res.self_preference_excess))
            if r is not None]
        parts.append(LabPart("self_preference", TITLES["self_preference"],
                             self_clause(res.judge, figs, level), tuple(figs)))
    return parts


def _share(f: LabFigure) -> str:
    return f"{100 * f.estimate:.0f}%"


def _ci_pct(f: LabFigure) -> str:
    if not math.isfinite(f.ci_low):
        return ""
    return (f" ({f.confidence_level * 100:g}% CI {100 * f.ci_low:.0f}% to "
            f"{100 * f.ci_high:.0f}%)")


def position_clause(judge: Any, rows: Sequence[LabFigure], level: float) -> str:
    """The judge's position bias in words, verdict first."""
    mine = next((f for f in rows if judge is None or f.who == str(judge)), None)
    who = _who(judge)
    if mine is None or not mine.defined:
        return (f"{who}'s position bias cannot be measured: no pair was shown in both "
                "orders (show each pair both ways to measure it)")
    pairs = dict(mine.extra).get("pairs_both_orders", mine.n)
    if mine.ci_low > 0.5:
        verb, reading = "prefers", "its verdicts depend on position"
    elif mine.ci_high < 0.5:
        verb, reading = "picks", ("it prefers the second-shown output, so its verdicts "
                                  "depend on position")
    else:
        verb, reading = "picks", "no clear position preference"
    return (f"{who} {verb} the first-shown output in {_share(mine)} of decisive verdicts on "
            f"the {pairs} pairs seen in both orders{_ci_pct(mine)}: {reading}")


def length_clause(judge: Any, figs: Sequence[LabFigure], level: float) -> str:
    """The judge's length preference in words (beside the humans' when present)."""
    lb = next((f for f in figs if f.key == "length_bias"), None)
    if lb is None or not lb.defined:
        why = "" if lb is None or not lb.undefined_reason else f" ({lb.undefined_reason})"
        return f"{_who(judge)}'s length preference is undefined on these pairs{why}"
    lean = ("prefers the longer output" if lb.ci_low > 0.5 else "prefers the shorter output"
            if lb.ci_high < 0.5 else "shows no clear length preference")
    out = f"{_who(judge)} {lean} in {_share(lb)} of decisive verdicts{_ci_pct(lb)}"
    humans = next((f for f in figs if f.key == "length_bias_humans" and f.defined), None)
    if humans is not None:
        out += f", the humans in {_share(humans)} of the same pairs{_ci_pct(humans)}"
    return out


def self_clause(judge: Any, figs: Sequence[LabFigure], level: float) -> str:
    """The judge's preference for its own family's outputs in words."""
    own = next((f for f in figs if f.key == "self_preference"), None)
    if own is None or not own.defined:
        return f"{_who(judge)}'s self-preference is undefined on these pairs"
    out = (f"{_who(judge)} picks its own family's output in {_share(own)} of {own.n} pairs against "
           f"another family{_ci_pct(own)}")
    humans = next((f for f in figs if f.key == "self_preference_humans" and f.defined), None)
    if humans is not None:
        out += f", the humans in {_share(humans)}{_ci_pct(humans)}"
    return out


def _ranking(bt: Any, level: float, method: Any = None) -> LabPart:
    """The strengths with Fisher-information intervals, or ``method``'s (a Bootstrap
    refits the model on resampled comparisons, shared by every strength)."""
    elo = bt.elo()
    figs = [figure("strength", "log-strength", bt.strength[i], level, who=str(i),
                   method=method, extra=(("elo", elo[i].estimate),)) for i in bt.ranking()]
    if bt.order_effect is not None:
        figs.append(figure("order_effect", "advantage of being shown first (log-odds)",
                           bt.order_effect, level, method=method))
    notes = (f"{bt.n_comparisons} comparisons, {bt.n_ties} ties; log-strength has mean "
             "zero; Elo = 1000 + 400 log-strength / ln 10.",)
    sentence = bt.sentence(level) if method is None else bt.sentence(level, method=method)
    return LabPart("ranking", TITLES["ranking"], sentence, tuple(figs), notes)


def _calibration(cal: Any, level: float) -> LabPart:
    figs = [figure("brier", "Brier score", cal.brier, level),
            figure("ece", "expected calibration error", cal.ece, level)]
    rec = cal.recalibration
    if rec is not None:
        figs += [figure("brier_before", f"Brier on the check half ({rec.n_check}), before",
                        rec.brier_before, level),
                 figure("brier_after", f"after {rec.method} fitted on the other {rec.n_fit}",
                        rec.brier_after, level),
                 figure("ece_before", "ECE on the check half, before", rec.ece_before, level),
                 figure("ece_after", f"after {rec.method}", rec.ece_after, level)]
    bins = tuple(ReliabilityBin(b.low, b.high, b.n, b.mean_score, b.observed_rate)
                 for b in cal.bins)
    return LabPart("calibration", TITLES["calibration"], cal.sentence(level), tuple(figs),
                   bins=bins)


def _consistency(c: Any, level: float) -> LabPart:
    figs = [figure("flip_rate", "flip rate (runs disagree)", c.flip_rate, level)]
    if c.threshold_flip_rate is not None:
        figs.append(figure("threshold_flip_rate", "pass in some runs, fail in others",
                           c.threshold_flip_rate, level))
    figs += [figure("within_item_variance", "within-item variance", c.within_item_variance,
                    level),
             figure("icc", "ICC(1,1): one run", c.icc, level),
             figure("icc_k", f"ICC(1,{c.n_runs}): mean of the runs (Spearman-Brown)", c.icc_k,
                    level)]
    for target in sorted({*TARGETS, c.target}):
        need = c.runs_needed(target, confidence_level=level)
        mine = " (the target)" if target == c.target else ""
        figs.append(figure("runs_needed", f"runs needed for reliability {target:g}{mine}", need,
                           level, extra=(("runs", need.details.get("runs")),
                                         ("target", target))))
    notes = (f"{c.n_items_dropped} item(s) with fewer than two runs are not counted.",) \
        if c.n_items_dropped else ()
    return LabPart("consistency", TITLES["consistency"], c.sentence(level),
                   tuple(figs), notes)


def _ppi(est: AgreementResult, level: float) -> LabPart:
    """The corrected rate beside the humans-only rate (classical SE) and the judge-only
    rate (its SE as a binomial share when the judge's labels are 0/1, which ``expected``
    in [0, 1] cannot prove: the interval is a sampling interval only, blind to the
    judge's bias, which is what the correction is for)."""
    from scipy import stats

    from accord.judge.sentences import ppi_sentence

    z = float(stats.norm.ppf(0.5 + level / 2.0))
    d = est.details
    n_lab, n_unl = int(d.get("n_labelled", 0)), int(d.get("n_unlabelled", 0))
    humans_se = float(d.get("classical_se", math.nan))
    figs = [figure("ppi_mean", "corrected rate (PPI)", est, level,
                   extra=(("lam", d.get("lam")), ("effective_n", d.get("effective_n"))))]
    figs.append(LabFigure("humans_only", "humans alone (labelled items)", "", est.observed,
                          est.observed - z * humans_se, est.observed + z * humans_se, level,
                          "asymptotic", n_lab, None))
    p = est.expected
    judge_se = math.sqrt(p * (1 - p) / n_unl) if 0 <= p <= 1 and n_unl else math.nan
    figs.append(LabFigure("judge_only", "judge alone (unlabelled items, uncorrected)", "", p,
                          p - z * judge_se, p + z * judge_se, level, "asymptotic", n_unl, None))
    notes = ("The judge-only interval is a sampling interval of a 0/1 rate and ignores the "
             "judge's bias; the corrected rate's interval accounts for it.",)
    return LabPart("ppi", TITLES["ppi"], ppi_sentence(est, level), tuple(figs), notes)


def _who(judge: Any) -> str:
    return "The judge" if judge is None else str(judge)
