"""``accord judge``: may an LLM judge replace a human annotator?"""

from __future__ import annotations

import math
from typing import Any

import click

from accord.cli._app import main
from accord.cli._common import console, data_options, load
from accord.cli._json import emit
from accord.cli._options import shared
from accord.cli._terminal import one_line


class _JudgeGroup(click.Group):
    """``accord judge DATA ...`` (no subcommand) runs ``accord judge alt DATA ...``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["alt", *args]
        return super().parse_args(ctx, args)


@main.group(cls=_JudgeGroup)
def judge() -> None:
    """Questions about an LLM judge. Without a subcommand: may the judge replace a human
    annotator (the alternative annotator test, then agreement with each human), as
    `accord judge alt`.

    \b
    Examples:
      accord judge examples/judge.csv --judge gpt4 --humans ann_a ann_b ann_c --missing ERROR
      accord judge examples/judge.csv --judge gpt4 --humans ann_a ann_b ann_c --missing ERROR --json
      accord judge examples/judge.csv --judge gpt4 --kind gpt4=llm --missing ERROR --epsilon 0.15

    \b
    The judge lab (each subcommand's --help has runnable examples):
      bias         position, length and self-preference of a pairwise judge
      rank         Bradley-Terry strengths (and Elo) from pairwise verdicts
      consistency  the same judge run several times: flip rate, ICC, runs needed
      calibration  a judge's probabilities against human labels: Brier, ECE
      ppi          a judge's pass rate corrected by a human-labelled sample
      panel        several judges combined, and how many independent judges they are
    """


@judge.command("alt")
@data_options
@click.option("--judge", "judge_name", required=True, metavar="COL",
              help="The judge's rater (column) name.")
@click.option("--humans", multiple=True, metavar="COL...",
              help="The human raters (default: every other rater of kind human).")
@click.option("--epsilon", default=0.2, show_default=True, type=float,
              help="The judge's allowance: 0.2 for expert humans, 0.15 skilled, 0.1 crowd.")
@click.option("--scoring", type=click.Choice(["accuracy", "neg_rmse", "abs_error"]),
              default=None, help="Alignment per unit (default: accuracy; neg_rmse for "
              "--level interval or ratio).")
@click.option("--test", "test_kind", type=click.Choice(["t", "wilcoxon"]), default="t",
              show_default=True, help="Per-human test; wilcoxon for fewer than 30 units.")
@click.option("--min-units", default=1, show_default=True, type=click.IntRange(min=1),
              help="Leave untested (but among the others) humans with fewer units; the "
              "authors use 30.")
@shared("--coefficient", dest="coefficient", help="Agreement coefficient of the "
        "judge-vs-human table (default: Krippendorff's alpha at the level of measurement).")
@shared("--n-resamples", help="Bootstrap resamples of the paired differences (at most 10^7).")
@shared("--seed")
@shared("--json", help="Print JSON instead.")
def alt(data: str, judge_name: str, humans: tuple[str, ...], epsilon: float,
          scoring: str | None, test_kind: str, min_units: int, coefficient: str | None,
          n_resamples: int,
          seed: int | None, as_json: bool, **selection: Any) -> None:
    """Test whether a judge (an LLM) may replace a human annotator: the alternative
    annotator test (Calderon, Reichart & Dror 2025), then the judge's agreement with
    each human next to the humans' agreement with each other.

    \b
    Examples:
      accord judge alt examples/judge.csv --judge gpt4 --humans ann_a ann_b ann_c --missing ERROR
      accord judge alt examples/judge.csv --judge gpt4 --missing ERROR --json
    """
    import accord
    from accord.cli._roles import declared, roles_found, roles_of
    from accord.errors import InvalidParameterError

    roles = roles_of(selection, judge=judge_name, humans=humans)  # the judge's kind: llm
    if humans and not selection.get("raters") and selection.get("unit") is None:
        selection["raters"] = (judge_name, *humans)
    try:
        with roles_found(None, (), judge_name):
            ann = load(data, select_raters=False, level_caveat=True,
                       **declared(selection, roles))
        chosen = list(humans) if humans else None
        kind = scoring or ("neg_rmse" if ann.level in ("interval", "ratio") else "accuracy")
        alt = accord.alt_test(ann, judge=judge_name, humans=chosen, epsilon=epsilon,
                              scoring=kind, test=test_kind,  # type: ignore[arg-type]
                              min_units=min_units)
        agree = accord.judge_agreement(
            ann, judge=judge_name, humans=chosen, coefficient=coefficient,
            method=accord.Bootstrap(n_resamples=n_resamples, rng=seed))
    except InvalidParameterError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        emit("judge alt", _document(alt, agree, ann))
        return
    _print(alt, agree, ann)


def _document(alt: Any, agree: Any, ann: Any) -> dict[str, Any]:
    """The agreement's figures as ``results``: per human the judge minus the human (with
    its interval), then the judge against the consensus and the panel's figures."""
    doc = agree.to_dict()
    rows = [{"figure": "judge_minus_human", **row} for row in doc.pop("per_human")]
    for name in ("judge_vs_consensus", "panel_without_judge", "panel_with_judge",
                 "panel_change"):
        if doc.get(name) is not None:
            rows.append({"figure": name, **doc.pop(name)})
        doc.pop(name, None)
    return {"results": rows, "caveats": list(ann.audit.caveats), "alt_test": alt.to_dict(),
            "agreement": doc, "audit": ann.audit.to_dict()}


def _print(alt: Any, agree: Any, ann: Any) -> None:
    from rich.table import Table

    out = console()
    for line in ann.audit.lines():
        out.print(one_line(line), markup=False, highlight=False)
    won = sum(h.won for h in alt.per_human.values())
    verdict = "may replace" if alt.passed else "may not replace"
    out.print()
    out.print(one_line(
        f"{alt.judge} {verdict} a human annotator here: it won against {won} of "
        f"{alt.n_tested} humans (winning rate {alt.winning_rate:.2f}; it passes at 0.50) "
        f"with epsilon {alt.epsilon:g}, on {alt.n_units} units. Average advantage "
        f"probability (rho, to rank judges): {alt.advantage_probability:.3f}."),
        markup=False, highlight=False)
    t = Table(title=f"Alternative annotator test ({alt.scoring}, {alt.test}-test, "
                    f"Benjamini-Yekutieli at {alt.fdr:g})")
    for col in ("human", "units", "judge at least as good", "p-value", "adjusted p", "won"):
        t.add_column(col)
    for h in alt.per_human.values():
        t.add_row(str(h.human), str(h.n_units), _f(h.advantage_probability), _p(h.pvalue),
                  _p(h.adjusted_pvalue), "yes" if h.won else "no")
    out.print(t)
    for note in alt.notes:
        out.print(one_line(f"note: {note}"), markup=False, highlight=False)
    _print_agreement(out, agree)


def _print_agreement(out: Any, agree: Any) -> None:
    from rich.table import Table

    t = Table(title=f"{agree.coefficient} against the other humans' consensus "
                    f"({agree.level}), judge minus human with a paired bootstrap interval")
    for col in ("human", "judge vs human", "judge vs others", "human vs others",
                "difference", "interval"):
        t.add_column(col)
    for r in agree.rows():
        t.add_row(str(r["human"]), _f(r["judge_vs_human"]), _f(r["judge_vs_others"]),
                  _f(r["human_vs_others"]), _f(r["difference"]),
                  f"{_f(r['low'])} to {_f(r['high'])}")
    out.print(t)
    out.print(f"The judge against the other humans: {_f(agree.judge_level)} on average; a "
              f"human against the others (the ceiling): {_f(agree.ceiling)}.",
              markup=False, highlight=False)
    if agree.panel_with_judge is not None:
        out.print(f"The humans' {agree.coefficient}: {_f(agree.panel_without_judge.estimate)};"
                  f" with the judge as one more rater: {_f(agree.panel_with_judge.estimate)}.",
                  markup=False, highlight=False)
    for note in agree.notes:
        out.print(one_line(f"note: {note}"), markup=False, highlight=False)


def _f(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3f}"


def _p(x: float) -> str:
    return "undefined" if not math.isfinite(x) else f"{x:.3g}"
