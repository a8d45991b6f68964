"""The report's section on a panel of judges (:func:`accord.judge_panel`).

Built from a :class:`~accord.judge.jury.JudgePanel` at full precision, verdict first
(the panel's own sentence: whether the panel passes the alternative annotator test,
which judges pass alone, and how many independent judges the panel is worth):

* per judge and for the panel (who ``"panel"``): the alt-test's winning rate
  (``winning_rate``, with whether it passes, the humans won and tested, epsilon, the
  FDR, the test, the scoring and every human's figures) and the advantage probability
  (``advantage_probability``); a test's outcome has no interval;
* the effective number of independent judges (``effective_judges``) with the interval
  its sentence gives (from its jackknife SE), the mean of the judges' error correlations
  (``mean_error_correlation``) and each pair's (``error_correlation``, who and ``with``).
"""

from __future__ import annotations

import math
from typing import Any

from accord.report.judge_lab_model import TITLES, LabFigure, LabPart, figure

__all__ = ["panel_part"]


def panel_part(p: Any, level: float) -> LabPart:
    """The section of the panel ``p`` (a ``JudgePanel``) at ``level``."""
    figs: list[LabFigure] = []
    for who, alt in p.alt_tests.items():
        figs += _alt_figures(str(who), alt, level)
    k_eff = p.effective_judges
    figs.append(figure("effective_judges", "effective number of independent judges", k_eff,
                       level, extra=(("judges", len(p.judges)),)))
    figs += _correlations(p, k_eff, level)
    return LabPart("panel", TITLES["panel"], p.sentence(level), tuple(figs), _notes(p))


def _alt_figures(who: str, alt: Any, level: float) -> list[LabFigure]:
    """The alt-test of one judge (or the panel): its winning rate and advantage
    probability, neither with an interval (a test's outcome, not an estimate)."""
    won = sum(h.won for h in alt.per_human.values())
    extra = (("passed", alt.passed), ("humans_won", won), ("humans_tested", alt.n_tested),
             ("epsilon", alt.epsilon), ("fdr", alt.fdr), ("test", alt.test),
             ("scoring", alt.scoring),
             ("per_human", [h.to_dict() for h in alt.per_human.values()]))
    return [LabFigure("winning_rate", "alt-test winning rate", who, alt.winning_rate,
                      math.nan, math.nan, level, "", alt.n_units, None, extra),
            LabFigure("advantage_probability", "advantage probability", who,
                      alt.advantage_probability, math.nan, math.nan, level, "", alt.n_units,
                      None)]


def _correlations(p: Any, k_eff: Any, level: float) -> list[LabFigure]:
    """The mean of the judges' error correlations (what ``k_eff`` is computed from) and
    each pair's, without an interval."""
    corr = p.error_correlation
    k, n = len(p.judges), k_eff.n_units
    mean = k_eff.observed
    why = None if math.isfinite(mean) else (
        k_eff.undefined_reason or "some judge's errors against the humans do not vary")
    out = [LabFigure("mean_error_correlation", "mean error correlation between judges", "",
                     mean, math.nan, math.nan, level, "", n, why)]
    for a in range(k):
        for b in range(a + 1, k):
            r = float(corr[a, b])
            out.append(LabFigure(
                "error_correlation", f"error correlation, {p.judges[a]} and {p.judges[b]}",
                str(p.judges[a]), r, math.nan, math.nan, level, "", n,
                None if math.isfinite(r) else "a judge's errors do not vary (0/0)",
                (("with", str(p.judges[b])),)))
    return out


def _notes(p: Any) -> tuple[str, ...]:
    """What the figures mean, the panel's ties, and the alt-tests' own caveats."""
    alt = next(iter(p.alt_tests.values()))
    how = ("the judges' majority label" if p.combine == "majority"
           else "the judges' mean score")
    error = ("disagreement with the humans' majority label" if p.combine == "majority"
             else "the judge's score minus the humans' mean")
    notes = [f"The panel's verdict on a unit is {how}; each judge and the panel are tested "
             f"against the {len(p.humans)} humans at epsilon = {alt.epsilon:g} "
             f"(Benjamini-Yekutieli FDR {alt.fdr:g}, {alt.test} test); a judge passes when "
             "it wins against at least half of them. The winning rate and the advantage "
             "probability are a test's outcome and have no interval.",
             "Effective number of independent judges: k / (1 + (k - 1) r), r the mean "
             f"correlation of the judges' errors (Kish 1965), an error being {error}"
             + _where(p.effective_judges)]
    if p.n_panel_ties:
        notes.append(f"{p.n_panel_ties} unit(s) have a tied majority and no panel verdict.")
    for who, res in p.alt_tests.items():
        notes += [f"{who}: {n}" for n in res.notes]
    return tuple(notes)


def _where(k_eff: Any) -> str:
    """The end of the effective-size note: the units and interval, or why it is undefined."""
    if not k_eff.defined:
        return f"; it is undefined here: {k_eff.undefined_reason}."
    return (f" on the {k_eff.n_units} units every judge and a human rated; its interval comes "
            "from the jackknife SE over units.")
