"""``accord report`` and ``accord disagreements``.

``report`` writes the agreement report (console summary, and HTML, Markdown or
JSON with ``-o``); ``disagreements`` exports every unit on which the raters
differ, safe to open in a spreadsheet. ``accord check`` is in :mod:`accord.cli.check`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from accord.cli._app import main
from accord.cli._by import by_option, report_groups, split_report, with_pooled_caveat
from accord.cli._common import (
    check_options,
    ci_options,
    data_options,
    fits_raters,
    interval_method,
    load,
    read_model,
    reference_options,
)
from accord.cli._common import console as cli_console
from accord.cli._errors import cli_text
from accord.cli._json import emit
from accord.cli._options import shared
from accord.cli._outputs import writable_output
from accord.cli._report_shapes import read_shapes, shape_options
from accord.cli._roles import all_kinds, mark_reference, roles_found, roles_named
from accord.cli._span_options import span_columns, span_options
from accord.cli._terminal import echo
from accord.data._files import write_atomic
from accord.errors import InvalidParameterError, StudyError


@contextmanager
def _usage_errors() -> Iterator[None]:
    """A study file that is not valid, or an option value that does not fit the data
    (e.g. weights on text labels without --categories), is bad usage (exit 2): for
    ``check`` exit 1 must mean rejected, not mistyped."""
    try:
        yield
    except (StudyError, InvalidParameterError) as exc:
        raise click.UsageError(cli_text(str(exc))) from None


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)


def _options(func: Callable[..., Any]) -> Callable[..., Any]:
    """Coefficient options shared by report and check."""
    options = [
        shared("--weights", help="Agreement weights for ordered categories (give the order "
               "of text labels with --categories)."),
        shared("--form"),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _context_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--text and --context: columns a reviewer adjudicates with, shown beside each unit."""
    func = click.option("--context", "context_cols", multiple=True, metavar="COL",
                        help="Another column to show beside each disagreement (a comment, "
                        "a source; repeatable).")(func)
    return click.option("--text", "text_col", default=None, metavar="COL",
                        help="The column holding each item's text, shown beside its "
                        "disagreements (list, review CSV and report).")(func)


def _context(data: str, ann: Any, text: str | None, more: tuple[str, ...],
             selection: dict[str, Any]) -> tuple[Any, dict[str, dict[str, str]] | None]:
    """The annotations without the context columns as raters, and the context by unit."""
    from accord.cli._common import paths_of
    from accord.interpret.context import read_context

    cols = list(dict.fromkeys(([text] if text else []) + list(more)))
    if not cols:
        return ann, None
    if any(c in ann.raters for c in cols):  # a text column read as a rater of a wide table
        ann = ann.select([r for r in ann.raters if r not in cols])
    return ann, read_context(paths_of(data), cols, units=ann.units, unit=selection.get("unit"),
                             format=selection.get("fmt"))


@main.command()
@data_options
@span_options
@_context_options
@click.option("--study", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=None, help="Declared study protocol (TOML): evidence register and decision.")
@click.option("--iou", "iou_threshold", default=None,
              type=click.FloatRange(0.0, 1.0, min_open=True),
              help="Box or polygon data: two shapes match when their IoU is at least this "
              "[default: 0.5].")
@shape_options
@shared("--coefficient", multiple=True, metavar="NAME...",
        help="Coefficients to report (default: a sensible set).")
@_options
@click.option("--pair", "pairs", nargs=2, multiple=True, metavar="A B",
              help="Show the worksheet of this rater pair (repeatable).")
@reference_options
@ci_options
@shared("--scale")
@click.option("--top-units", default=20, show_default=True, type=click.IntRange(min=1),
              help="How many of the units with most disagreement to list (span data: "
              "how many disagreements).")
@click.option("--title", default=None, help="Report title (default: the study's).")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write the report: .html (one self-contained file), .md or .json.")
@click.option("--to", "to", type=click.Choice(["html", "markdown", "json"]), default=None,
              help="Output format when the suffix does not say (or with -o -, standard output).")
@click.option("-q", "--quiet", is_flag=True, help="Do not print the console summary.")
@shared("--json", help="Print the report as JSON on standard output instead (as -o - --to "
        "json, with schema_version and command).")
@click.option("--record", "record", type=click.Path(dir_okay=False, path_type=Path),
              default=None, metavar="STORE", help="Append this run's figures (with their "
              "intervals) and the study's decision to the history store STORE (see accord "
              "history).")
@click.option("--judge", "judge_name", default=None, metavar="COL",
              help="A rater (an LLM) to test as a replacement for a human: adds the "
              "alternative annotator test; the rest of the report is about the humans.")
@click.option("--epsilon", default=0.2, show_default=True, type=float,
              help="With --judge: the allowance, 0.2 expert, 0.15 skilled, 0.1 crowd humans.")
@shared("--family", help="A pairwise-preference file: a generator of the judge's own family "
        "(repeat): adds self-preference.")
@shared("--consensus-method", help="The consensus of the Annotators section (three or more "
        "raters): majority vote, Wawa, one-coin, Dawid-Skene, GLAD or MACE.")
@shared("--accelerate")
@click.option("--model", "model_file", default=None, metavar="FILE_OR_COLUMNS",
              help="A model's class probabilities (a CSV, or a top label and confidence "
              "per unit: a CSV, or two columns of DATA, LABEL,CONFIDENCE), read as by the "
              "consensus command's --model: one more annotator of the Annotators section's "
              "consensus; the section adds the model as an annotator and the units to "
              "relabel first. Not with --consensus-method glad.")
@by_option
@click.pass_context
def report(ctx: click.Context, /, data: str, study: Path | None, coefficients: tuple[str, ...],
           weights: str | None, form: str | None, pairs: tuple[tuple[str, str], ...],
           gold: str | None, predicted: tuple[str, ...], confidence_level: float,
           ci_method: str, n_resamples: int, bootstrap_kind: str, seed: int | None,
           scale: str | None, top_units: int, title: str | None,
           output: str | None, to: str | None, quiet: bool, as_json: bool,
           record: Path | None, judge_name: str | None, epsilon: float,
           family: tuple[str, ...], by: str | None, text_col: str | None,
           context_cols: tuple[str, ...], consensus_method: str, accelerate: bool,
           model_file: str | None, iou_threshold: float | None, **selection: Any) -> None:
    """Write the agreement report of DATA, optionally against a declared study.

    A pairwise-preference file (AlpacaEval annotations.json, or the JSONL/CSV read by
    "accord judge bias") gives the pairwise judge's report: its position, length and
    self-preference (--family), and the Bradley-Terry ranking of the generators.

    \b
    Examples:
      accord report examples/pilot.csv --raters annotator_a annotator_b
      accord report examples/pilot.csv --study examples/study.toml -o report.html
      accord report examples/pilot.csv --study examples/study.toml -q --record project.db
      accord report examples/long.csv --unit item --rater coder --value label -o report.md
      accord report examples/pilot.csv --ci bootstrap --seed 1 -o report.json
      accord report examples/preds.csv --gold gold --predicted model llm -o models.html
      accord report examples/toxicity_multilabel.csv --separator ';' -o multilabel.html
      accord report examples/judge.csv --judge gpt4 --missing ERROR --seed 1 -o judge.html
      accord report examples/ner_spans.csv --unit doc --rater annotator --label label \\
          --start start --end end --seed 1 -o spans.html
      accord report examples/alpaca_eval_slice.json --family gpt4 -o judge-lab.html
      accord report examples/crowd.csv --unit image --rater worker --value label \\
          --consensus-method mace -o crowd.html
      accord report examples/crowd.csv --unit image --rater worker --value label \\
          --model examples/crowd_model.csv -o crowd.html
      accord report examples/boxes.csv --seed 1 -o boxes.html
      accord report examples/boxes.csv --iou 0.75 -o boxes.html
      accord report examples/polygons.csv --polygon polygon --seed 1 -o polygons.html
      accord report examples/keypoints.csv --keypoints keypoints --names wrist tip \\
          --sigmas wrist=0.062 tip=0.05 -o keypoints.html
    """
    import accord

    check_options(confidence_level, form, None, func="accord report")
    if as_json and (output not in (None, "-") or to not in (None, "json")):
        raise click.UsageError("--json prints the report on standard output: drop -o/--to, "
                               "or use -o FILE.json without --json.")
    _check_output(output, to)
    writable_output(output, data, study, record)
    from accord.cli._common import paths_of
    from accord.judge.pairs_io import is_pairwise, mixed_folder, read_pairwise

    one = paths_of(data)
    if isinstance(one, str) and mixed_folder(one):
        read_pairwise(one)  # says which file is not pairwise annotations
    if isinstance(one, str) and is_pairwise(one):
        crowd = "--consensus-method" if _given(ctx, "consensus_method") else (
            "--accelerate" if accelerate else None) or (
            "--model" if model_file else None)  # the Annotators section's options
        _refuse_for_pairs(study, gold, by, record, coefficients, {**selection, "crowd": crowd})
        method = interval_method(ci_method, n_resamples, bootstrap_kind, seed)
        rep = pairwise_report(one, judge_name, family, confidence_level, method, seed, title)
        _write(rep, output, to, quiet, as_json)
        return
    if family:
        raise click.UsageError("--family names the judge's own generators in a "
                               "pairwise-preference file; DATA is not one.")
    with _usage_errors():
        st = accord.load_study(study) if study is not None else None
    shape_opts = {k: selection.pop(k) for k in ("polygon_col", "keypoints_col", "area_col",
                                                 "keypoint_names", "sigmas", "oks_threshold")}
    shaped = read_shapes(data, selection, shape_opts, by=by)
    spans = span_columns(selection)

    def reader(path: Any) -> Any:
        return load(path, select_raters=judge_name is None, span_columns=spans,
                    level_caveat=weights in (None, "identity") and (
                        st is None or st.metric.level is None),
                    **all_kinds(selection, gold, predicted, judge_name))

    split = None
    with roles_found(gold, predicted, judge_name):
        if shaped is not None:
            ann = shaped
        elif by is None:
            ann = reader(data)
        else:  # the group column is a role: the pooled data are read without it
            _refuse_by((record, gold, judge_name, spans))
            with _usage_errors():
                split = split_report(data, by, reader)
            ann = split[1]
    ann = mark_reference(with_pooled_caveat(ann, by), gold, predicted)
    ann, context = _context(data, ann, text_col, context_cols, selection)
    fits_raters(ann, coefficients)
    probabilities = None if model_file is None else read_model(
        model_file, data, selection.get("unit"))[0]
    method = None
    if st is None or _given(ctx, "ci_method"):
        method = interval_method(ci_method, n_resamples, bootstrap_kind, seed)
    level = confidence_level if st is None or _given(ctx, "confidence_level") else None
    with _usage_errors():
        rep = accord.report(
            ann, st, coefficients=list(coefficients) or None, weights=weights, form=form,
            pairs=list(pairs) or None, confidence_level=level, method=method, seed=seed,
            scale=scale, top_units=top_units, title=title, judge=judge_name, epsilon=epsilon,
            context=context, annotators_accelerate=accelerate,
            annotators_model=probabilities,
            annotators_method=consensus_method if _given(ctx, "consensus_method") else None,
            iou_threshold=iou_threshold, oks_threshold=shape_opts["oks_threshold"],
            sigmas=shape_opts["sigmas"],
        )
    if by is not None and split is not None:  # the groups first, the pooled figures after
        with _usage_errors():
            rep = report_groups(rep, by, split[0], split[2], dict(
                weights=weights, form=form, confidence_level=level, method=method,
                seed=seed, scale=scale))
    rep = replace(rep, notes=tuple(cli_text(n) for n in rep.notes))  # --pair, not pairs=
    rep = roles_named(rep, gold if gold is not None else judge_name)
    recorder: Callable[[], str] | None = None
    if record is not None:  # after the console summary, before the file
        from functools import partial

        from accord.cli._record import record_report

        recorder = partial(record_report, record, rep, st, data, None if as_json else ann)
    _write(rep, output, to, quiet, as_json, recorder)


def _write(rep: Any, output: str | None, to: str | None, quiet: bool, as_json: bool,
           recorder: Callable[[], str] | None = None) -> None:
    """The report on standard output as JSON, or the console summary and the file;
    ``recorder`` appends the run to the history store and returns its line."""
    from accord.report.output import format_for, render

    if as_json:
        import json

        if recorder is not None:
            recorder()
        emit("report", json.loads(render(rep, "json")))
        return
    to_stdout = output == "-"
    if to_stdout and to is None:
        raise click.UsageError("-o - writes to standard output: choose a format with --to.")
    if not quiet and not to_stdout:
        cli_console().print(rep)
    if recorder is not None:
        line = recorder()
        if not to_stdout:
            echo(line)
    if output is None:
        return
    fmt = to if to is not None else format_for(Path(output))
    if to_stdout:
        _to_stdout(render(rep, fmt))
        return
    path = write_atomic(output, render(rep, fmt))
    echo(f"report written to {path.resolve()}")


def pairwise_report(data: str, judge_name: str | None, family: tuple[str, ...],
                    level: float, method: Any, seed: int | None, title: str | None) -> Any:
    """The pairwise judge's report of a preference file: its biases, as accord judge bias
    measures them, and the Bradley-Terry ranking of the generators."""
    import accord
    from accord.cli.judge_lab import _only_rater
    from accord.judge.pairs_io import read_pairwise

    table = read_pairwise(data)
    judge = judge_name or _only_rater(table.columns["rater"])
    prefs = accord.preferences(
        table.columns, judge=judge, lengths=("len_first", "len_second"),
        generators=("first", "second") if family else None, family=list(family) or None,
        confidence_level=level)
    c = table.columns
    mine = [(a, b, w) for a, b, w, r in zip(c["first"], c["second"], c["winner"], c["rater"])
            if w is not None and r == judge]
    bt = accord.bradley_terry(mine)
    rep = accord.report(prefs, judge_lab=[bt], confidence_level=level, method=method,
                        seed=seed, title=title)
    others = len(set(c["rater"])) - 1
    ranked = ([f"The ranking uses the judge's {len(mine)} verdicts; the {others} other "
               "rater(s)' verdicts are left out of it."] if others else [])
    return replace(rep, notes=(*table.notes(), *ranked, *rep.notes))


def _refuse_for_pairs(study: Path | None, gold: str | None, by: str | None,
                      record: Path | None, coefficients: tuple[str, ...],
                      selection: dict[str, Any]) -> None:
    """Options about ratings tables have no meaning for a preference file: bad usage."""
    given = [flag for flag, value in (("--study", study), ("--gold", gold), ("--by", by),
                                      ("--record", record), ("--coefficient", coefficients),
                                      ("--raters", selection.get("raters")))
             if value] + [f for f in [selection.get("crowd")] if f]
    if given:
        raise click.UsageError(f"DATA is a pairwise-preference file, so {given[0]} does not "
                               "apply: its report holds the judge's biases and the ranking "
                               "(see accord judge bias and accord judge rank).")


def _refuse_by(refused: tuple[Any, ...]) -> None:
    if any(x for x in refused):
        raise click.UsageError("--by groups the agreement coefficients of the report; it does "
                               "not combine with --record (use check --by --record), --gold "
                               "(use evaluate --by), --judge or span data.")


def _on_terminal() -> bool:
    return sys.stdout.isatty()


def _to_stdout(text: str) -> None:
    """A document on standard output: control characters spelled out on a terminal,
    exactly as written into a pipe or a file (click would strip colour-like codes)."""
    if _on_terminal():
        echo(text, nl=False, keep="\r\n")
    else:
        click.echo(text, nl=False, color=True)



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


def _quiet(func: Callable[[], Any]) -> Any:
    """Run ``func``; an undefined coefficient shows in the decision line, not as a warning."""
    import warnings

    from accord.errors import DegenerateDataWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateDataWarning)
        return func()


@main.command()
@data_options
@_context_options
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Write the CSV here (default: standard output).")
@click.option("--sort", "order", type=click.Choice(["data", "disagreement"]), default="data",
              show_default=True, help="Units in file order, or most disagreement first.")
@click.option("--limit", default=None, type=click.IntRange(min=1),
              help="Only the first N units (after sorting).")
@shared("--json", help="Print the units as JSON on standard output instead of CSV (one "
        "object per unit: its ratings, n_ratings and agreement).")
def disagreements(data: str, output: str | None, order: str, limit: int | None,
                  text_col: str | None, context_cols: tuple[str, ...], as_json: bool,
                  **selection: Any) -> None:
    """Every unit of DATA on which the raters differ, with all labels, as CSV.

    Columns: unit, the --text and --context columns (the item's text, a comment:
    what the reviewer adjudicates with), one per rater (empty = not rated),
    n_ratings, agreement (share of agreeing rater pairs) and empty
    adjudicated/comment columns for the
    review. With more than 50 raters (a crowd): unit, n_ratings, agreement,
    labels (each with its count), ratings (rater=label; ...), adjudicated and
    comment. Cells a spreadsheet would read as a formula (starting with = + - @,
    after any blanks, or with a control character) are prefixed with a quote;
    cells holding a comma, quote or line break are quoted; numbers stay numbers.

    \b
    Examples:
      accord disagreements examples/pilot.csv --raters annotator_a annotator_b -o review.csv
      accord disagreements examples/long.csv --unit item --rater coder --value label \\
        --sort disagreement
      accord disagreements examples/judge.csv --raters ann_a ann_b ann_c \\
        --context gpt4_rationale -o review.csv
    """
    from accord.interpret.disagreements import disagreements as find

    writable_output(output, data)
    ann, context = _context(data, load(data, **selection), text_col, context_cols, selection)
    ann = ann.require_pairable()
    found = find(ann, order=order, limit=limit, context=context)  # type: ignore[arg-type]
    found = replace(found, unit_name=selection.get("unit") or "unit")
    if as_json:
        if output is not None:
            raise click.UsageError("--json prints on standard output: drop -o, or drop --json "
                                   "for the CSV file.")
        emit("disagreements", _disagreements_json(ann, found))
        return
    for caveat in ann.audit.caveats:  # standard error when standard output is the CSV
        click.echo(f"caveat: {caveat}", err=output is None or output == "-")
    if found.listed:
        click.echo(f"note: {ann.n_raters} raters: each unit's ratings are listed in the "
                   "'ratings' column (rater=label; ...) and its labels counted in 'labels', "
                   "instead of one column per rater", err=output is None or output == "-")
    if output is None or output == "-":
        for piece in found.csv_chunks():
            _to_stdout(piece)
        return
    found.write_csv(output)
    echo(f"{found.n_disagreements} of {found.n_compared} compared units have a "
               f"disagreement; {len(found)} written to {Path(output).resolve()}")


def _disagreements_json(ann: Any, found: Any) -> dict[str, Any]:
    """One object per unit: its ratings by rater (label sets written ``a;b``, the empty
    set ``{}``), n_ratings and agreement, as in the CSV without the review columns."""
    from accord.data._sets import label_text

    units = []
    for u in found:
        raters = u.raters if u.raters is not None else found.raters
        units.append({"unit": str(u.unit), "ratings": {
            str(r): None if x is None else label_text(x) for r, x in zip(raters, u.labels)},
            "n_ratings": u.n_ratings, "agreement": u.agreement})
    return {"caveats": list(ann.audit.caveats), "n_compared": found.n_compared,
            "n_disagreements": found.n_disagreements, "results": units}
