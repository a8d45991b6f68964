"""``accord check``: the acceptance gate for pipelines and CI.

Exit status 0 means accepted, 1 rejected or undefined (an undefined value is
never accepted), 2 anything that is not a decision: bad usage, an invalid study
file, unreadable data, a rater column that does not exist, too many or
too few raters for the coefficient, or a layout or level that accord would
have had to guess; 3 a drift alarm (``--against-history``): the rule accepts
the batch, and its agreement dropped below the control limit of the study's
earlier batches. A pipeline can therefore read 1 as "the data failed the
rule" and nothing else, and the decision line begins with the same word
(ACCEPTED, REJECTED, UNDEFINED, DRIFT ALARM).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import click

from accord.cli._app import ERROR_STATUS, main
from accord.cli._by import by_option, with_pooled_caveat
from accord.cli._check_by import check_by
from accord.cli._common import (
    check_options,
    ci_options,
    classifier_options,
    data_options,
    load,
    reference_options,
    with_reference,
)
from accord.cli._errors import cli_text
from accord.cli._json import emit
from accord.cli._options import shared
from accord.cli._record import (
    decision_line,
    exit_status,
    history_line,
    record_options,
    record_run,
)
from accord.cli._span_options import span_columns, span_options
from accord.cli._terminal import echo
from accord.cli.report import _given, _options, _quiet, _usage_errors
from accord.data._names import GUESSED_LAYOUT, GUESSED_LEVEL


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A threshold must be a finite number: ``nan`` would reject everything silently."""
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number; give a threshold such as "
                                 "0.8.")
    return value


#: Exit status of every outcome that is not a decision.
NOT_A_DECISION = 2


@main.command()
@data_options
@span_options
@click.option("--study", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Declared study protocol (TOML) holding the metric and the rule.")
@shared("--coefficient", multiple=True, help="The coefficient to check (without --study).")
@click.option("--min", "minimum", type=float, default=None, callback=_finite,
              help="The threshold: accepted when the value is at least this.")
@click.option("--on", "on", type=click.Choice(["estimate", "lower-ci"]), default="estimate",
              show_default=True, help="Compare the estimate or the lower confidence limit.")
@_options
@reference_options
@classifier_options
@ci_options
@click.option("--mode", "span_mode", type=click.Choice(["strict", "exact", "partial", "type"]),
              default=None, help="span_f1: when two spans agree (default strict).")
@record_options
@by_option
@shared("--json", help="Print the decision with its figures as one JSON object.")
@click.pass_context
def check(ctx: click.Context, /, data: str, study: Path | None, coefficients: tuple[str, ...],
          minimum: float | None, on: str, weights: str | None, form: str | None,
          gold: str | None, predicted: tuple[str, ...], average: str | None,
          positive: str | None, confidence_level: float, ci_method: str, n_resamples: int,
          bootstrap_kind: str, seed: int | None, span_mode: str | None, as_json: bool,
          record: Path | None, against_history: bool, by: str | None,
          **selection: Any) -> None:
    """Accept or reject DATA against a rule; print the decision in one line.

    Exit status: 0 accepted, 1 rejected or undefined (an undefined value is never
    accepted), 2 anything that is not a decision: bad usage, an invalid study
    file, unreadable data, a column that does not exist, a coefficient that does
    not fit the raters, or columns or a level of measurement that were not named
    and would have to be guessed; 3 a drift alarm: accepted by the rule, and below
    the control limit of the earlier batches (--against-history).

    \b
    Examples:
      accord check examples/pilot.csv --study examples/study.toml
      accord check examples/pilot.csv --raters annotator_a annotator_b --coefficient cohen_kappa --min 0.8
      accord check examples/pilot.csv --raters annotator_a annotator_b --coefficient cohen_kappa --min 0.6 --on lower-ci --json
      accord check examples/preds.csv --gold gold --predicted model --coefficient f1 --min 0.8
      accord check examples/ner_spans.csv --unit doc --rater annotator --label label --start start --end end --coefficient span_f1 --min 0.6 --on lower-ci --ci bootstrap --seed 1
      accord check examples/batches/batch3.csv --raters annotator_a annotator_b --coefficient cohen_kappa --min 0.6 --record project.db --against-history
      accord check examples/batches.csv --raters annotator_a annotator_b --coefficient cohen_kappa --min 0.6 --by batch
    """  # noqa: E501
    from accord.study.protocol import AcceptanceRule, Metric, evaluate, load_study

    ctx.meta[ERROR_STATUS] = NOT_A_DECISION
    if against_history and record is None:
        raise click.UsageError("--against-history needs --record STORE: the store holds the "
                               "earlier batches.")
    check_options(confidence_level, form, None, func="accord check")
    _check_bootstrap(ci_method, n_resamples, seed)
    if len(predicted) > 1:
        raise click.UsageError("check decides on one system: give one column to --predicted.")
    selection = with_reference(selection, gold, predicted)
    spans = span_columns(selection)
    st: Any = None
    if study is not None:
        if coefficients or minimum is not None or _given(ctx, "on"):
            raise click.UsageError("give either --study or --coefficient/--min/--on, not both.")
        with _usage_errors():
            st = load_study(study)

        def decide(ann: Any) -> tuple[Any, int, Any, list[str]]:
            caveats = _refuse_guesses(ann, st, selection)
            with _usage_errors():
                return (*_check_study(st, ann), caveats)
    else:
        if len(coefficients) != 1 or minimum is None:
            raise click.UsageError("name the rule: --study FILE, or --coefficient NAME --min X "
                                   "[--on lower-ci].")
        metric = Metric(coefficients[0], weights=weights, level=selection.get("level"),
                        form=form, confidence_level=confidence_level, average=average,
                        positive=positive, interval=ci_method,
                        n_resamples=n_resamples, bootstrap_kind=bootstrap_kind, seed=seed,
                        mode=span_mode)
        rule = AcceptanceRule(coefficients[0], minimum, on=on)  # type: ignore[arg-type]

        def decide(ann: Any) -> tuple[Any, int, Any, list[str]]:
            ann = _pairable(ann, coefficients[0])
            caveats = _refuse_guesses(ann, None, selection)
            with _usage_errors():
                decision = _quiet(lambda: evaluate(ann, metric, rule).decision)
            return decision, 0, ann.raters, caveats

    def read(path: Any) -> Any:
        study_level = st is not None and st.metric.level is not None
        return load(path, span_columns=spans, level_caveat=not study_level
                    and weights in (None, "identity"), **selection)

    if by is not None:
        check_by(data, by, read, decide, st, record, against_history, as_json)
    ann = with_pooled_caveat(read(data))
    decision, deviations, used, caveats = decide(ann)
    history = None if record is None else record_run(
        record, decision, st, data, used, caveats, against_history, annotations=ann)
    _print(decision, deviations, caveats, used, data, as_json, history)
    sys.exit(exit_status(decision.accepted, history))



def _check_bootstrap(ci_method: str, n_resamples: int, seed: int | None) -> None:
    """Bootstrap options are checked even when the rule does not need the interval:
    a mistyped option is never silently ignored by the gate."""
    if ci_method != "bootstrap":
        return
    if n_resamples < 1:
        raise click.BadParameter(f"must be a positive integer; got {n_resamples}.",
                                 param_hint="--n-resamples")
    if seed is not None and seed < 0:
        raise click.BadParameter(f"must be a non-negative integer; got {seed}.",
                                 param_hint="--seed")


def _print(decision: Any, deviations: int, caveats: list[str], raters: Any, data: str,
           as_json: bool, history: dict[str, Any] | None = None) -> None:
    if as_json:
        row = decision.to_dict()
        row.update(accepted=decision.accepted, line=decision_line(decision, history),
                   n_units=decision.result.n_units, n_raters=decision.result.n_raters)
        out: dict[str, Any] = {
            "results": [row], "accepted": decision.accepted,
            "exit_status": exit_status(decision.accepted, history), "data": data,
            "raters": [str(r) for r in raters], "caveats": caveats,
            "protocol_deviations": deviations}
        if history is not None:
            out.update(history=history)
        emit("check", out)
        return
    for caveat in caveats:
        echo(f"caveat: {caveat}")
    line = decision_line(decision, history)
    if deviations:
        line += f" [{deviations} protocol deviation(s): see accord report]"
    echo(line)
    if history is not None:
        for line in history_line(history).splitlines():
            echo(line)


def _refuse_guesses(ann: Any, st: Any, selection: dict[str, Any]) -> list[str]:
    """A decision is only taken on columns and a level someone named (exit 2 otherwise).

    Returns the caveats to print: a layout the study protocol confirms (two of
    its declared annotators are rater columns) is no longer a guess.
    """
    declared = (st.annotators.names or ()) if st is not None else ()
    confirmed = sum(1 for n in declared if n in {str(r) for r in ann.raters}) >= 2
    caveats = [cli_text(c) for c in ann.audit.caveats]
    if ann.audit.guessed_layout and not confirmed:
        guess = next(c for c in caveats if c.startswith(GUESSED_LAYOUT))
        what = guess.removeprefix(f"{GUESSED_LAYOUT}: ").split("; name", 1)[0]
        raise click.UsageError(
            f"{ann.audit.source}: check decides only on named columns, and these were "
            f"guessed ({what}); pass --raters A B for a wide table or --unit COL --rater COL "
            "--value COL for a long one, or declare the annotators in the study protocol.")
    level_named = selection.get("level") is not None or (
        st is not None and st.metric.level is not None)
    if ann.audit.guessed_level and not level_named:
        guess = next(c for c in caveats if c.startswith(GUESSED_LEVEL))
        raise click.UsageError(
            f"{ann.audit.source}: check decides only on a named level of measurement "
            f"({guess}); pass --level LEVEL or declare the level in the study protocol.")
    return [c for c in caveats if not (confirmed and c.startswith(GUESSED_LAYOUT))]


def _pairable(ann: Any, coefficient: str) -> Any:
    """Labels two raters gave the same units, or spans for a span coefficient."""
    from accord.study import registered

    return ann if registered(coefficient).family == "spans" else ann.require_pairable()


def _check_study(st: Any, ann: Any) -> tuple[Any, int, tuple[Any, ...]]:
    from accord.report.register import study_section
    from accord.study import registered

    if registered(st.metric.coefficient).family == "spans":  # no register of labels to show
        ev = _quiet(lambda: st.evaluate(ann))
        return ev.decision, 0, ev.annotations.raters
    prepared, notes = st.prepare(ann)
    prepared.require_pairable()
    section = _quiet(lambda: study_section(st, ann, prepared, notes))
    return section.decision, len(section.deviations), prepared.raters
