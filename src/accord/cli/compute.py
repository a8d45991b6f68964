"""``accord compute``: coefficients with SE, confidence interval and interpretation."""

from __future__ import annotations

from typing import Any

import click

from accord.cli._app import main
from accord.cli._by import by_option, compute_by
from accord.cli._common import (
    check_options,
    ci_options,
    classifier_options,
    data_options,
    fits_raters,
    interval_method,
    load,
    reference_options,
    single_labels,
    with_reference,
)
from accord.cli._common import console as cli_console
from accord.cli._engine import (
    engine_coefficients,
    engine_counts,
    engine_frame,
    engine_options,
    print_engine_compute,
)
from accord.cli._errors import cli_text
from accord.cli._json import emit
from accord.cli._lazy import (
    ListedChoices,
    coefficient_names,
    coefficient_spec,
    core_coefficient,
    span_names,
)
from accord.cli._options import shared


@main.command()
@data_options
@shared("--coefficient", multiple=True, metavar="NAME...", cls=ListedChoices,
        choices=lambda: [n for n in coefficient_names() if n not in span_names()],
        accept=core_coefficient,
        help="Coefficients to compute (default: a sensible set for the data). One or more of:")
@shared("--weights", help="Agreement weights for ordered categories (weighted kappa, AC2, "
        "...); give the order of text labels with --categories (else they are sorted, with a "
        "warning).")
@shared("--form")
@ci_options
@shared("--scale", help="Interpretation scale (default: the one written for each "
        "coefficient: Krippendorff's for alpha, Koo & Li's for ICC, Landis & Koch's otherwise).")
@shared("--population-size")
@reference_options
@classifier_options
@by_option
@engine_options
@shared("--json")
def compute(
    data: str,
    coefficients: tuple[str, ...],
    weights: str | None,
    form: str | None,
    gold: str | None,
    predicted: tuple[str, ...],
    average: str | None,
    positive: str | None,
    confidence_level: float,
    ci_method: str,
    n_resamples: int,
    bootstrap_kind: str,
    seed: int | None,
    scale: str | None,
    population_size: int | None,
    by: str | None,
    engine: str | None,
    scheduler: str | None,
    master: str | None,
    as_json: bool,
    **selection: Any,
) -> None:
    """Compute agreement coefficients for DATA.

    \b
    Examples:
      accord compute examples/pilot.csv --raters annotator_a annotator_b
      accord compute examples/severity.csv --raters nurse_a nurse_b --weights quadratic \\
        --categories mild moderate severe
      accord compute examples/long.csv --unit item --rater coder --value label \\
        --ci bootstrap --seed 1
      accord compute examples/scores.csv --level interval --coefficient icc --form ICC2k --json
      accord compute examples/preds.csv --gold gold --predicted model --coefficient f1 mcc
      accord compute examples/batches.csv --raters annotator_a annotator_b --by batch
      accord compute examples/batches --raters annotator_a annotator_b --by file --json
      accord compute examples/crowd.csv --unit image --rater worker --value label \\
        --engine dask --scheduler tcp://127.0.0.1:8786

    With --engine the engine reads DATA and counts it where it runs; the coefficients are
    those computed from rater counts (Fleiss' kappa, AC1, Brennan-Prediger, percent
    agreement, nominal Krippendorff's alpha).
    """
    from accord.errors import InvalidParameterError
    from accord.interpret.selection import compute as run

    check_options(confidence_level, form, population_size, func="accord compute")
    if len(predicted) > 1:
        raise click.UsageError("compute takes one system: give one column to --predicted "
                               "(accord evaluate compares several).")
    frame = engine_frame(data, engine, scheduler, master, selection)
    if frame is not None:
        if by is not None or gold is not None or predicted or weights or form:
            raise click.UsageError("--engine counts agreement among raters: it does not take "
                                   "--by, --gold, --predicted, --weights or --form.")
        method = interval_method(ci_method, n_resamples, bootstrap_kind, seed)
        _engine_compute(str(data), frame, selection, coefficients,
                        (confidence_level, method, population_size), scale, as_json)
        return
    selection = with_reference(selection, gold, predicted)
    try:  # a bad option value is bad usage (exit 2), even when found late
        if by is not None:
            method = interval_method(ci_method, n_resamples, bootstrap_kind, seed)
            compute_by(data, by, selection, lambda a, names: run(
                a, names if names is not None else list(coefficients) or None, weights=weights,
                form=form, average=average, positive=positive),
                lambda rs: _intervals(rs, confidence_level, method, population_size), as_json)
            return
        ann = _pooled(single_labels(load(data, level_caveat=not _weighted(weights),
                                              **selection).require_pairable(), "compute"))
        fits_raters(ann, coefficients)
        method = interval_method(ci_method, n_resamples, bootstrap_kind, seed)
        results = run(ann, list(coefficients) or None, weights=weights, form=form,
                      average=average, positive=positive)
        intervals = _intervals(results, confidence_level, method, population_size)
    except InvalidParameterError as exc:
        raise click.UsageError(cli_text(str(exc))) from None
    prevalence = () if _weighted(weights) else _prevalence(ann, results)
    if as_json:
        rows = [_json_row(r, ci, scale) for r, ci in zip(results, intervals)]
        for row in rows:  # each result row says what was guessed or dropped to get it
            row["caveats"] = list(ann.audit.caveats)
            if prevalence and row["coefficient"] in _PREVALENCE_HIT:
                row["prevalence_effect"] = list(prevalence)
        emit("compute", rows)
        return
    _print(ann, results, intervals, scale, data, weights, prevalence)


def _engine_compute(source: str, frame: Any, selection: dict[str, Any],
                    coefficients: tuple[str, ...], interval: tuple[float, Any, int | None],
                    scale: str | None, as_json: bool) -> None:
    """compute on an engine frame: the rater counts, then the figures from them."""
    rc, audit = engine_counts(frame, selection)
    results = engine_coefficients(rc, coefficients)
    intervals = _intervals(results, *interval)
    if as_json:
        rows = [_json_row(r, ci, scale) for r, ci in zip(results, intervals)]
        for row in rows:
            row["caveats"] = list(audit.caveats)
        emit("compute", rows)
        return
    shown = []
    for r, ci in zip(results, intervals):
        band = _grade(r, ci, scale)
        shown.append((_title(r), "undefined" if not r.defined else _fmt(r.estimate),
                      _fmt(r.se), "-" if ci is None or ci.low != ci.low
                      else f"[{ci.low:.4f}, {ci.high:.4f}]", band.grade if band else ""))
    print_engine_compute(source, rc, audit, shown, interval[0])


#: The coefficients whose chance term the prevalence of one category inflates.
_PREVALENCE_HIT = frozenset({"cohen_kappa", "scott_pi", "fleiss_kappa", "conger_kappa",
                             "krippendorff_alpha"})


def _prevalence(ann: Any, results: list[Any]) -> tuple[str, ...]:
    """The prevalence effect on kappa, said when the figures show it on nominal labels:
    kappa (Cohen's for two raters, Fleiss' for more) at least 0.10 below its
    balanced-chance form (PABAK, Brennan-Prediger), the rule of the report's
    explanation (:mod:`accord.report.explain`), whose sentences are then loaded."""
    if ann.level not in (None, "nominal") or ann.n_raters < 2:
        return ()
    got = {r.coefficient: r.estimate for r in results if r.defined}
    q = len(ann.categories)
    if "brennan_prediger" not in got and "percent_agreement" in got and q > 1:
        got["brennan_prediger"] = (got["percent_agreement"] - 1 / q) / (1 - 1 / q)
    pair = ("cohen_kappa", "pabak") if ann.n_raters == 2 else ("fleiss_kappa",
                                                                "brennan_prediger")
    if not set(pair) <= set(got) or got[pair[1]] - got[pair[0]] < 0.10:
        return ()
    from accord.report.explain import kappa_context, many_rater_prevalence

    if ann.n_raters == 2:
        from accord.tables.contingency import ContingencyTable

        ctx = kappa_context(ContingencyTable.from_annotations(ann),
                            (str(ann.raters[0]), str(ann.raters[1])))
        return ctx.explanation if "prevalence" in ctx.effects else ()
    from accord.tables.rater_counts import RaterCounts

    return many_rater_prevalence(RaterCounts.from_annotations(ann).rated())


def _pooled(ann: Any) -> Any:
    """Several files analysed as one: said on the first line (as a caveat)."""
    if len(ann.audit.parts) < 2:  # one file: nothing pooled, and no history import
        return ann
    from accord.history.split import pooled_note

    note = pooled_note(ann)
    if note is not None:
        ann.audit = ann.audit.with_caveats(note)
    return ann


def _intervals(
    results: list[Any], level: float, method: Any, population_size: int | None = None
) -> list[Any]:
    """Each result's interval; a bootstrap shows a transient progress bar on stderr."""
    if isinstance(method, str):
        return [_interval(r, level, method, population_size) for r in results]
    from dataclasses import replace

    from rich.progress import Progress

    with Progress(transient=True, console=cli_console(stderr=True)) as progress:
        out = []
        for r in results:
            task = progress.add_task(f"bootstrap {r.coefficient}", total=method.n_resamples)

            def advance(done: int, total: int, task: Any = task) -> None:
                progress.update(task, completed=done)

            out.append(_interval(r, level, replace(method, progress=advance), population_size))
    return out


def _interval(result: Any, level: float, method: Any, population_size: int | None) -> Any:
    import math

    analytic = math.isfinite(result.se) or result.analytic_interval is not None
    if method == "asymptotic" and result.defined and not analytic:
        return None  # no analytic SE: shown as "-", and --ci jackknife/bootstrap gives one
    return result.confidence_interval(level, method=method, population_size=population_size)


def _title(result: Any, data_level: str | None = None) -> str:
    """The registry title with the variant, as the report labels it (the ICC form in both
    namings, the weights, the level, or "unweighted" on ordered data)."""
    from accord.inference.results import labelled

    return labelled(coefficient_spec(result.coefficient).title, result.variant(data_level))


def _json_row(result: Any, ci: Any, scale: str | None = None) -> dict[str, Any]:
    row = result.to_dict()
    row["confidence_interval"] = None if ci is None else ci.to_dict()
    band = _grade(result, ci, scale)
    row["interpretation"] = None if band is None else {
        "scale": band.scale, "band": band.band, "grade": band.grade}
    return row


def _grade(result: Any, ci: Any, scale: str | None) -> Any:
    """The interpretation of one row on its scale (the declared one, else its family's),
    graded on the interval shown when the scale grades intervals (Koo & Li); None for a
    figure no scale grades."""
    from accord.interpret.interpretation import default_scale, graded, interpret

    if not graded(result.coefficient):
        return None
    usable = ci is not None and ci.low == ci.low and ci.high == ci.high
    return interpret(result, scale=scale or default_scale(result.coefficient),
                     interval=ci if usable else None)


def _fmt(x: float, digits: int = 4) -> str:
    return "-" if x is None or x != x else f"{x:.{digits}f}"


def _result_notes(r: Any, ci: Any) -> list[str]:
    """Why a figure is undefined, its own note (``details["note"]``), excluded resamples."""
    out = []
    if r.undefined_reason:
        out.append(f"{r.coefficient}: undefined: {r.undefined_reason}")
    if isinstance(r.details.get("note"), str):
        out.append(f"{r.coefficient}: {r.details['note']}")
    if ci is not None and ci.n_excluded:
        out.append(f"{r.coefficient}: {ci.n_excluded} resamples undefined and excluded")
    return out


def _print(
    ann: Any, results: list[Any], intervals: list[Any], scale: str | None, source: str,
    weights: str | None = None, prevalence: tuple[str, ...] = (),
) -> None:
    from rich.table import Table
    from rich.text import Text


    console = cli_console()
    for caveat in ann.audit.caveats:
        console.print(Text(f"caveat: {caveat}"), style="bold yellow")
    console.print(
        Text(
            f"{source}: {ann.n_units} units, {ann.n_raters} raters, "
            f"{len(ann.categories)} categories ({_level(ann.level, weights)})"
        ),
        soft_wrap=True,
    )
    level = next((ci.confidence_level for ci in intervals if ci is not None), 0.95)
    table = Table(show_header=True)
    for head in ("coefficient", "estimate", "SE", f"{level:.0%} CI", "interpretation"):
        table.add_column(
            head,
            justify="left" if head in ("coefficient", "interpretation") else "right",
            no_wrap=head not in ("coefficient", "interpretation"),
        )
    notes = []
    caveats: dict[str, str] = {}
    for r, ci in zip(results, intervals):
        ci_text = "-" if ci is None or ci.low != ci.low else f"[{ci.low:.4f}, {ci.high:.4f}]"
        band = _grade(r, ci, scale)
        if band is not None:
            caveats.setdefault(band.scale_title, band.caveat)
        table.add_row(
            Text(_title(r, ann.level or ("ordinal" if _weighted(weights) else None))),
            "undefined" if not r.defined else _fmt(r.estimate),
            _fmt(r.se),
            ci_text,
            Text(band.grade if band else ""),
        )
        notes += _result_notes(r, ci)
    console.print(table)
    if prevalence:  # the trap beside the figures it bears on, before the fine print
        console.print(Text("prevalence: " + " ".join(prevalence)), style="yellow")
    for note in notes:
        console.print(Text(note))
    if intervals and any(ci is not None for ci in intervals):
        method = next(ci.method for ci in intervals if ci is not None)
        console.print(Text(f"intervals: {method}"))
    for title, caveat in caveats.items():
        console.print(Text(f"{title}: {caveat}"), style="dim")
    for line in ann.audit.lines():
        console.print(Text(line), style="dim", soft_wrap=True)
    if ann.n_raters == 2:
        from accord.tables.contingency import ContingencyTable

        wtable = ContingencyTable.from_annotations(ann)
        text = wtable.worksheet(rater_names=(str(ann.raters[0]), str(ann.raters[1])))
        console.print(Text(_weighted_worksheet(text, wtable, weights)))


def _weighted(weights: str | None) -> bool:
    return weights not in (None, "identity")


def _level(level: str | None, weights: str | None) -> str:
    """The level the coefficients used: weights declare an ordered scale."""
    if not _weighted(weights):
        return level or "nominal"
    return f"{level or 'ordinal'}, {weights} weights"


def _weighted_worksheet(text: str, table: Any, weights: str | None) -> str:
    """The worksheet, with the weighted p_o, p_e and kappa (those of the coefficients
    above) before its unweighted line when weights apply."""
    if not _weighted(weights):
        return text
    import warnings

    from accord.coefficients import cohen_kappa
    from accord.errors import DegenerateDataWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        k = cohen_kappa(table, weights=weights)
    *grid, plain = text.splitlines()
    kappa = _fmt(k.estimate) if k.defined else "undefined"
    line = (f"{weights} weights: p_o = {_fmt(k.observed)}   p_e = {_fmt(k.expected)}   "
            f"kappa = {kappa}")
    return "\n".join([*grid, line, f"unweighted: {plain}"])
