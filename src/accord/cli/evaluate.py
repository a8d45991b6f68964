"""``accord evaluate``: a model (or an annotator) against reference labels."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

import click
from click.core import ParameterSource

from accord.cli._app import main
from accord.cli._by import by_option
from accord.cli._common import (
    check_options,
    ci_options,
    data_options,
    load,
    reference_options,
    single_labels,
    with_reference,
)
from accord.cli._common import console as cli_console
from accord.cli._json import emit
from accord.cli._options import shared
from accord.cli._terminal import visible

#: The console shows the confusion matrix up to this many classes, the per-class rows
#: up to the second number; --json always has everything.
MAX_MATRIX, MAX_CLASS_ROWS = 30, 200

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


@main.command()
@data_options
@reference_options
@click.option("--humans", multiple=True, metavar="COL...",
              help="Human annotators set against the same reference (the human ceiling); "
              "with exports, raters of kind human are used by default.")
@click.option("--ceiling-figure", default="accuracy", show_default=True, metavar="NAME",
              help="The figure of the human ceiling, e.g. accuracy, macro.f1, kappa; for box "
              "tables f1 (default there), precision or recall.")
@click.option("--box", nargs=4, default=None, metavar="X Y W H",
              help="Box tables: the columns of x, y, width and height (COCO's bbox order); "
              "a table with columns x, y, w, h is read as boxes without it.")
@click.option("--score", default=None, metavar="COL",
              help="Box tables: the column of the system's confidence scores, for COCO's "
              "AP, AP50 and AP75.")
@click.option("--iou", "iou_threshold", default=None, type=click.FloatRange(0.0, 1.0,
              min_open=True), help="Box tables: two boxes match when their IoU is at least "
              "this (default 0.5).")
@shared("--positive", help="The positive class of a binary task (shown first in the "
        "summary).")
@ci_options
@by_option
@shared("--json", help="Print the evaluation as JSON instead.")
@click.pass_context
def evaluate(ctx: click.Context, /, data: str, gold: str | None, predicted: tuple[str, ...],
             humans: tuple[str, ...], ceiling_figure: str, box: tuple[str, ...] | None,
             score: str | None, iou_threshold: float | None, positive: str | None,
             confidence_level: float, ci_method: str, n_resamples: int, bootstrap_kind: str,
             seed: int | None, by: str | None, as_json: bool, **selection: Any) -> None:
    """Evaluate system labels in DATA against reference labels.

    Prints the confusion matrix (rows = reference), the per-class table and the
    summary (accuracy, balanced accuracy, macro/micro/weighted F1, Matthews
    correlation, kappa) with intervals: Wilson for proportions, a bootstrap over
    the confusion-matrix cells for the rest (unless --ci says otherwise), the
    majority-class and chance baselines, McNemar's test between systems and,
    when human annotators are present, the human ceiling. Units without a
    reference label are not evaluated and are counted.

    A box table (one row per box: image, annotator, label, x, y, w, h; see
    --box) evaluates each --predicted annotator's boxes against --gold's:
    precision, recall and F1 at --iou, per label, COCO's AP with --score, each
    with a bootstrap interval over images; the other annotators whose boxes carry
    no score (or --humans) give the human ceiling, with a paired bootstrap over
    images of each difference.

    \b
    Examples:
      accord evaluate examples/preds.csv --gold gold --predicted model
      accord evaluate examples/preds.csv --gold gold --predicted model llm --json
      accord evaluate examples/preds.csv --gold gold --predicted model --humans ann_a ann_b
      accord evaluate examples/preds.csv --gold gold --predicted llm --ci bootstrap --seed 1
      accord evaluate examples/batches --gold annotator_a --predicted annotator_b --by file
      accord evaluate examples/boxes_model.csv --gold gold --predicted detector --score score
      accord evaluate examples/boxes_model.csv --gold gold --predicted detector --json
    """
    import accord
    from accord.errors import InvalidParameterError

    check_options(confidence_level, None, None, func="accord evaluate")
    from accord.cli._evaluate_boxes import evaluate_boxes_cli, is_box_table

    paths = tuple(getattr(data, "paths", (data,)))
    if is_box_table(paths, box, score is not None or iou_threshold is not None):
        options = {**selection, "positive": positive, "by": by, "bootstrap_kind": bootstrap_kind}
        given = {k: x for k, x in options.items() if _given(ctx, k)}
        evaluate_boxes_cli(paths, gold=gold, predicted=predicted, humans=humans,
                           ceiling_figure=ceiling_figure if _given(ctx, "ceiling_figure")
                           else None, box=box, score=score, iou=iou_threshold, given=given,
                           ci=(confidence_level, ci_method, _given(ctx, "ci_method"),
                               n_resamples, seed), as_json=as_json)
        return
    selection = with_reference(selection, gold, predicted, humans)
    # every rater is read (reference, systems and people) unless raters or --kinds are named
    named = bool(selection.get("raters")) or _given(ctx, "kinds")
    if by is not None:
        _evaluate_by(data, by, named, selection, gold, predicted, positive, ceiling_figure,
                     (confidence_level, ci_method, n_resamples, bootstrap_kind, seed),
                     _given(ctx, "ci_method"), as_json)
        return
    loaded = load(data, select_raters=named, **selection)
    if loaded.spans is not None and gold is not None:
        _spans(loaded, data, gold, predicted, confidence_level, n_resamples, seed, as_json)
        return
    ann = single_labels(loaded, "evaluate")  # --gold's kind declared at reading
    explicit = _given(ctx, "ci_method")
    boot = accord.Bootstrap(n_resamples=n_resamples, kind=bootstrap_kind,  # type: ignore[arg-type]
                            rng=0 if seed is None else seed)
    method: Any = None if not explicit else boot if ci_method == "bootstrap" else ci_method
    if gold is None and list(ann.kinds.values()).count("gold") != 1:
        raise click.UsageError(f"name the reference column with --gold: {_golds(ann)}.")
    # one --predicted column: one Evaluation, printed as Evaluation.to_dict()
    systems: Any = predicted[0] if len(predicted) == 1 else (list(predicted) or None)
    try:
        evs = accord.evaluate(ann, reference=gold, systems=systems, positive=positive,
                              ceiling_figure=ceiling_figure, method=boot)
        out = evs.to_dict(confidence_level, method=method, bootstrap=boot)
    except InvalidParameterError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        emit("evaluate", _document(out))
        return
    if "systems" not in out:
        out = {"reference": out["reference"], "systems": {out["system"]: out}, "mcnemar": []}
    _print(cli_console(), out, ann.audit.lines())


def _evaluate_by(data: str, by: str, named: bool, selection: dict[str, Any], gold: str | None,
                 predicted: tuple[str, ...], positive: str | None, ceiling_figure: str,
                 ci: tuple[Any, ...], explicit: bool, as_json: bool) -> None:
    """``--by``: the evaluation of each group (column value or file) and of the pooled data."""
    import accord
    from accord.cli._by import evaluate_by
    from accord.errors import InvalidParameterError

    if gold is None:
        raise click.UsageError("--by needs the reference column named with --gold.")
    level, ci_method, n_resamples, bootstrap_kind, seed = ci
    boot = accord.Bootstrap(n_resamples=n_resamples, kind=bootstrap_kind,
                            rng=0 if seed is None else seed)
    method: Any = None if not explicit else boot if ci_method == "bootstrap" else ci_method
    systems: Any = predicted[0] if len(predicted) == 1 else (list(predicted) or None)

    def loader(path: Any) -> Any:
        return single_labels(load(path, select_raters=named, **selection), "evaluate")

    def run(ann: Any) -> Any:
        ev = accord.evaluate(ann, reference=gold, systems=systems, positive=positive,
                             ceiling_figure=ceiling_figure, method=boot)
        out = ev.to_dict(level, method=method, bootstrap=boot)
        if "systems" not in out:
            out = {"reference": out["reference"], "systems": {out["system"]: out}}
        return out

    try:
        evaluate_by(data, by, loader, run, as_json)
    except InvalidParameterError as exc:
        raise click.UsageError(str(exc)) from None


def _spans(ann: Any, data: str, gold: str, predicted: tuple[str, ...], level: float,
           n_resamples: int, seed: int | None, as_json: bool) -> None:
    """Span data: each --predicted rater against --gold, as ``accord spans --gold`` shows it
    (strict matching)."""
    from accord.cli._spans_view import _against, _Ci
    from accord.cli.spans import _check, _dropped, _print

    _check(ann, data, gold)
    model = _against(ann, "strict", gold, [gold, *predicted] if predicted else None,
                     _Ci(level, n_resamples, seed))
    _dropped(model, ann)
    if as_json:
        from accord.cli.spans import _document as spans_document

        emit("evaluate", spans_document(model["json"]))
        return
    _print(model, data)


def _document(out: dict[str, Any]) -> dict[str, Any]:
    """One evaluation per system in ``results``; the reference, the humans and McNemar's
    tests of several systems beside."""
    if "systems" not in out:
        return {"results": [out]}
    rest = {k: v for k, v in out.items() if k != "systems"}
    return {"results": list(out["systems"].values()), **rest}


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)


def _golds(ann: Any) -> str:
    golds = [r for r, kind in ann.kinds.items() if kind == "gold"]
    if golds:
        return f"the raters of kind gold are {golds!r}"
    return f"no rater is of kind gold (the raters are {list(ann.raters)!r})"


def _fmt(x: Any, digits: int = 4) -> str:
    return "undefined" if x is None else f"{x:.{digits}f}"


def _ci(fig: dict[str, Any]) -> str:
    ci = fig["confidence_interval"]
    if ci["low"] is None:
        return ""
    return f"{_fmt(ci['low'], 3)} to {_fmt(ci['high'], 3)}"


def _print(console: Console, out: dict[str, Any], audit: list[str]) -> None:
    for line in audit:
        console.print(line, markup=False, highlight=False)
    for system, ev in out["systems"].items():
        console.print()
        console.print(f"[bold]{system}[/] against [bold]{out['reference']}[/]: "
                      f"{ev['n_units']} units, {len(ev['categories'])} classes",
                      highlight=False)
        for note in ev["notes"]:
            console.print(f"  note: {note}", markup=False, highlight=False)
        k = len(ev["categories"])
        if k <= MAX_MATRIX:
            console.print(_confusion(ev))
        else:
            console.print(f"confusion matrix: {k} classes, too many to show here; --json has "
                          "its non-empty cells", markup=False, highlight=False)
        console.print(_per_class(ev))
        if k > MAX_CLASS_ROWS:
            console.print(f"per class: the first {MAX_CLASS_ROWS} of {k} classes shown; --json "
                          "has every class", markup=False, highlight=False)
        console.print(_summary(ev))
        for sentence in _sentences(ev):
            console.print(sentence, markup=False, highlight=False)
    for test in out["mcnemar"]:
        if "pvalue" in test:
            console.print(f"McNemar's exact test, {test['system_a']} vs {test['system_b']}: "
                          f"{test['b']} units right only under {test['system_a']}, {test['c']} "
                          f"only under {test['system_b']}, p = {test['pvalue']:.4g}",
                          markup=False, highlight=False)


def _confusion(ev: dict[str, Any]) -> Table:
    from rich.table import Table

    cats = [_label(c) for c in ev["categories"]]
    cm = ev["confusion_matrix"]
    table = Table(title="confusion matrix (rows = reference, columns = predicted)",
                  title_justify="left")
    table.add_column("reference \\ predicted")
    for c in [*cats, "total"]:
        table.add_column(c, justify="right")
    for label, row, total in zip(cats, cm["counts"], cm["row_totals"]):
        table.add_row(label, *(f"{x:g}" for x in row), f"{total:g}")
    table.add_row("total", *(f"{x:g}" for x in cm["col_totals"]), f"{cm['n']:g}")
    return table


def _per_class(ev: dict[str, Any]) -> Table:
    from rich.table import Table

    table = Table(title="per class", title_justify="left")
    for head in ("class", "support", "precision", "recall", "F1", "specificity"):
        table.add_column(head, justify="left" if head == "class" else "right")
    for label, row in itertools.islice(ev["per_class"].items(), MAX_CLASS_ROWS):
        cells = [_cell(row[f]) for f in ("precision", "recall", "f1", "specificity")]
        table.add_row(_label(label), str(row["support"]), *cells)
    for avg in ("macro", "micro", "weighted"):
        cells = [_cell(ev[avg][f]) for f in ("precision", "recall", "f1", "specificity")]
        table.add_row(f"{avg} average", "", *cells)
    return table


def _label(label: Any) -> str:
    """A label on one console line: newlines and escapes spelled out, markup inert."""
    from rich.markup import escape

    return escape(visible(str(label), keep=""))


def _cell(fig: dict[str, Any]) -> str:
    """``0.946 (0.909-0.968)``: the estimate and its interval, short enough for a table."""
    if fig["estimate"] is None:
        return "undefined"
    ci = fig["confidence_interval"]
    if ci["low"] is None:
        return _fmt(fig["estimate"], 3)
    return f"{_fmt(fig['estimate'], 3)} ({_fmt(ci['low'], 3)}-{_fmt(ci['high'], 3)})"


def _summary(ev: dict[str, Any]) -> Table:
    from rich.table import Table

    level = ev["accuracy"]["confidence_interval"]["confidence_level"]
    table = Table(title="summary", title_justify="left")
    for head in ("figure", "estimate", f"{level:.0%} CI", "method"):
        table.add_column(head, justify="left" if head in ("figure", "method") else "right")
    for name in ("accuracy", "balanced_accuracy", "mcc", "kappa"):
        fig = ev[name]
        table.add_row(name.replace("_", " "), _fmt(fig["estimate"]), _ci(fig),
                      fig["confidence_interval"]["method"])
    b = ev["baselines"]
    table.add_row(f"majority class ({_label(b['majority_class'])})",
                  _fmt(b["majority_accuracy"]), "", "baseline")
    table.add_row("chance accuracy p_e", _fmt(b["chance_accuracy"]), "", "baseline")
    return table


def _sentences(ev: dict[str, Any]) -> list[str]:
    b = ev["baselines"]
    out = [s for s in (b["chance_note"], b["majority_note"]) if s]
    for name in ("accuracy", "balanced_accuracy", "mcc", "kappa"):
        if ev[name]["undefined_reason"]:
            out.append(f"{name}: undefined: {ev[name]['undefined_reason']}")
    if ev["ceiling"] is not None:
        out.append(ev["ceiling"]["sentence"])
    return out
