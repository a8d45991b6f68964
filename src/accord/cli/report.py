"""``accord report``, ``accord check`` and ``accord disagreements``.

``report`` writes the agreement report (console summary, and HTML, Markdown or
JSON with ``-o``); ``check`` is the acceptance gate for pipelines and CI (exit
0 accepted, 1 rejected or undefined, 2 bad usage); ``disagreements`` exports
every unit on which the raters differ, safe to open in a spreadsheet.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from accord.cli._app import main
from accord.cli._common import (
    check_options,
    ci_options,
    data_options,
    interval_method,
    load,
    single_labels,
)
from accord.cli._common import console as cli_console
from accord.coefficients import REGISTRY
from accord.errors import InvalidParameterError, StudyError
from accord.weights import WEIGHT_NAMES


@contextmanager
def _usage_errors() -> Iterator[None]:
    """A study file that is not valid, or an option value that does not fit the data
    (e.g. weights on text labels without --categories), is bad usage (exit 2): for
    ``check`` exit 1 must mean rejected, not mistyped."""
    try:
        yield
    except (StudyError, InvalidParameterError) as exc:
        raise click.UsageError(str(exc)) from None


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)


def _options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Coefficient options shared by report and check."""
    options = [
        click.option("--weights", default=None, type=click.Choice(WEIGHT_NAMES),
                     help="Agreement weights for ordered categories (give the order of "
                     "text labels with --categories)."),
        click.option("--form", default=None, metavar="FORM",
                     help="ICC form, e.g. ICC2 or ICC(A,1)."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@main.command()
@data_options
@click.option("--study", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Declared study protocol (TOML): evidence register and decision.")
@click.option("--coefficient", "coefficients", multiple=True, type=click.Choice(sorted(REGISTRY)),
              metavar="NAME...", help="Coefficients to report (default: a sensible set).")
@_options
@click.option("--pair", "pairs", nargs=2, multiple=True, metavar="A B",
              help="Show the worksheet of this rater pair (repeatable).")
@ci_options
@click.option("--scale", default=None, metavar="NAME",
              help="Interpretation scale (default: the one written for each coefficient).")
@click.option("--top-units", default=20, show_default=True, type=click.IntRange(min=1),
              help="How many of the units with most disagreement to list.")
@click.option("--title", default=None, help="Report title (default: the study's).")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write the report: .html (one self-contained file), .md or .json.")
@click.option("--to", "to", type=click.Choice(["html", "markdown", "json"]), default=None,
              help="Output format when the suffix does not say (or with -o -, standard output).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the console summary.")
@click.pass_context
def report(ctx: click.Context, /, data: str, study: Path | None, coefficients: tuple[str, ...],
           weights: str | None, form: str | None, pairs: tuple[tuple[str, str], ...],
           confidence_level: float, ci_method: str, n_resamples: int, bootstrap_kind: str,
           seed: int | None, scale: str | None, top_units: int, title: str | None,
           output: str | None, to: str | None, quiet: bool, **selection: Any) -> None:
    """Write the agreement report of DATA, optionally against a declared study.

    \b
    Examples:
      accord report pilot.csv --raters annotator_a annotator_b
      accord report pilot.csv --study study.toml -o report.html
      accord report long.csv --unit item --rater coder --value label -o report.md
      accord report pilot.csv --ci bootstrap --seed 1 -o report.json
    """
    import accord
    from accord.report.output import format_for, render

    check_options(confidence_level, form, None, func="accord report")
    _check_output(output, to)
    with _usage_errors():
        st = accord.load_study(study) if study is not None else None
    ann = single_labels(load(data, **selection), "report")
    method = None
    if st is None or _given(ctx, "ci_method"):
        method = interval_method(ci_method, n_resamples, bootstrap_kind, seed)
    level = confidence_level if st is None or _given(ctx, "confidence_level") else None
    with _usage_errors():
        rep = accord.report(
            ann, st, coefficients=list(coefficients) or None, weights=weights, form=form,
            pairs=list(pairs) or None, confidence_level=level, method=method, seed=seed,
            scale=scale, top_units=top_units, title=title,
        )
    to_stdout = output == "-"
    if to_stdout and to is None:
        raise click.UsageError("-o - writes to standard output: choose a format with --to.")
    if not quiet and not to_stdout:

        cli_console().print(rep)
    if output is None:
        return
    fmt = to if to is not None else format_for(Path(output))
    if to_stdout:
        click.echo(render(rep, fmt), nl=False)
        return
    path = Path(output)
    path.write_text(render(rep, fmt), encoding="utf-8")
    click.echo(f"report written to {path.resolve()}")


def _check_output(output: str | None, to: str | None) -> None:
    """Before any work: the output file name and --to must agree on one format."""
    from accord.report.output import SUFFIXES

    if output is None or output == "-":
        return
    by_suffix = SUFFIXES.get(Path(output).suffix.lower())
    if to is None and by_suffix is None:
        raise click.UsageError(f"-o {output}: name a .html, .md or .json file, or choose the "
                               "format with --to.")
    if to is not None and by_suffix is not None and by_suffix != to:
        raise click.UsageError(f"-o {output} names a {by_suffix} file but --to is {to}: drop "
                               "--to or change the file name.")


@main.command()
@data_options
@click.option("--study", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Declared study protocol (TOML) holding the metric and the rule.")
@click.option("--coefficient", "coefficients", multiple=True, type=click.Choice(sorted(REGISTRY)),
              metavar="NAME", help="The coefficient to check (without --study).")
@click.option("--min", "minimum", type=float, default=None,
              help="The threshold: accepted when the value is at least this.")
@click.option("--on", "on", type=click.Choice(["estimate", "lower-ci"]), default="estimate",
              show_default=True, help="Compare the estimate or the lower confidence limit.")
@_options
@ci_options
@click.pass_context
def check(ctx: click.Context, /, data: str, study: Path | None, coefficients: tuple[str, ...],
          minimum: float | None, on: str, weights: str | None, form: str | None,
          confidence_level: float, ci_method: str, n_resamples: int, bootstrap_kind: str,
          seed: int | None, **selection: Any) -> None:
    """Accept or reject DATA against a rule; print the decision in one line.

    Exit status: 0 accepted, 1 rejected or undefined (an undefined value is never
    accepted), 2 bad usage (including an invalid study file).

    \b
    Examples:
      accord check pilot.csv --study study.toml
      accord check pilot.csv --raters annotator_a annotator_b --coefficient cohen_kappa --min 0.8
      accord check pilot.csv --coefficient cohen_kappa --min 0.6 --on lower-ci
    """
    from accord.study import AcceptanceRule, Metric, evaluate, load_study

    check_options(confidence_level, form, None, func="accord check")
    if study is not None:
        if coefficients or minimum is not None or _given(ctx, "on"):
            raise click.UsageError("give either --study or --coefficient/--min/--on, not both.")
        with _usage_errors():
            st = load_study(study)
        ann = load(data, **selection)
        with _usage_errors():
            line, accepted = _check_study(st, ann)
    else:
        if len(coefficients) != 1 or minimum is None:
            raise click.UsageError("name the rule: --study FILE, or --coefficient NAME --min X "
                                   "[--on lower-ci].")
        metric = Metric(coefficients[0], weights=weights, level=selection.get("level"),
                        form=form, confidence_level=confidence_level,
                        interval=ci_method,
                        n_resamples=n_resamples, bootstrap_kind=bootstrap_kind, seed=seed)
        rule = AcceptanceRule(coefficients[0], minimum, on=on)  # type: ignore[arg-type]
        ann = load(data, **selection).require_pairable()
        with _usage_errors():
            decision = _quiet(lambda: evaluate(ann, metric, rule).decision)
        line, accepted = decision.line(), decision.accepted
    click.echo(line)
    sys.exit(0 if accepted else 1)


def _check_study(st: Any, ann: Any) -> tuple[str, bool]:
    from accord.report.register import study_section

    prepared, notes = st.prepare(ann)
    prepared.require_pairable()
    section = _quiet(lambda: study_section(st, ann, prepared, notes))
    line = section.decision.line()
    if section.deviations:
        line += f" [{len(section.deviations)} protocol deviation(s): see accord report]"
    return line, bool(section.decision.accepted)


def _quiet(func: Callable[[], Any]) -> Any:
    """Run ``func``; an undefined coefficient shows in the decision line, not as a warning."""
    import warnings

    from accord.errors import DegenerateDataWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return func()


@main.command()
@data_options
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write the CSV here (default: standard output).")
@click.option("--sort", "order", type=click.Choice(["data", "disagreement"]), default="data",
              show_default=True, help="Units in file order, or most disagreement first.")
@click.option("--limit", default=None, type=click.IntRange(min=1),
              help="Only the first N units (after sorting).")
def disagreements(data: str, output: str | None, order: str, limit: int | None,
                  **selection: Any) -> None:
    """Every unit of DATA on which the raters differ, with all labels, as CSV.

    Columns: unit, one per rater (empty = not rated), n_ratings, agreement (share
    of agreeing rater pairs) and empty adjudicated/comment columns for the
    review. Cells a spreadsheet would read as a formula (starting with = + - @,
    a tab or a carriage return) are prefixed with a quote.

    \b
    Examples:
      accord disagreements pilot.csv --raters annotator_a annotator_b -o review.csv
      accord disagreements long.csv --unit item --rater coder --value label --sort disagreement
    """
    from accord.disagreements import disagreements as find

    ann = load(data, **selection).require_pairable()
    found = find(ann, order=order, limit=limit)  # type: ignore[arg-type]
    if output is None or output == "-":
        click.echo(found.to_csv(), nl=False)
        return
    found.to_csv(output)
    click.echo(f"{found.n_disagreements} of {found.n_compared} compared units have a "
               f"disagreement; {len(found)} written to {Path(output).resolve()}")
