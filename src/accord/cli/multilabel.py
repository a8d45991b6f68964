"""``accord multilabel``: agreement on set-valued labels, per label and on the sets."""

from __future__ import annotations

import math
from typing import Any

import click

from accord.cli._app import main
from accord.cli._common import check_options, ci_options, data_options, interval_method, load
from accord.cli._common import console as cli_console
from accord.cli._json import emit
from accord.cli._lazy import LazyChoice, ListedChoices
from accord.cli._options import deprecated_alias, shared


def _choices() -> list[str]:
    from accord.study import REGISTRY

    return sorted(n for n in REGISTRY if n != "icc")


@main.command()
@data_options
@click.option(
    "--coefficient",
    default="krippendorff_alpha",
    show_default=True,
    type=LazyChoice(_choices),
    cls=ListedChoices,
    metavar="NAME",
    help="Coefficient for each label's yes/no ratings; a two-rater one (cohen_kappa, ...) "
    "needs two raters. One of:",
)
@click.option(
    "--labels",
    multiple=True,
    metavar="LABEL...",
    help="The labels and their order (labels nobody used are kept). Default: every label used.",
)
@shared("--gold", metavar="RATER", help="Score every other rater's label sets against this "
        "rater's (precision, recall, F1 per label and averaged, Hamming loss, subset accuracy) "
        "instead of agreement.")
@deprecated_alias("--reference", "--gold")
@click.option("--empty-label", "empty_label", default=None, metavar="TEXT",
              help="The cell text that means 'no label applies' (e.g. none): scored as the "
              "empty set. An empty cell is a missing rating, unless --empty-label '' makes "
              "it the empty set.")
@ci_options
@shared("--json", help="Print the results as JSON instead.")
def multilabel(
    data: str,
    coefficient: str,
    labels: tuple[str, ...],
    gold: str | None,
    empty_label: str | None,
    confidence_level: float,
    ci_method: str,
    n_resamples: int,
    bootstrap_kind: str,
    seed: int | None,
    as_json: bool,
    **selection: Any,
) -> None:
    """Agreement on multi-label (set-valued) ratings in DATA: per label, with
    intervals, and on the sets (MASI and Jaccard alpha, mean Jaccard and Dice,
    maximum-percentage agreement).

    Each label is a yes/no question every rater answered on every unit they
    rated. Read several labels per cell with --separator, or one row per label
    with --multilabel; on single-label data each category is compared against
    the rest.

    \b
    Examples:
      accord multilabel examples/toxicity_multilabel.csv --separator ';'
      accord multilabel examples/toxicity_multilabel.csv --separator ';' --coefficient fleiss_kappa
      accord multilabel examples/toxicity_multilabel_long.csv --multilabel --json
      accord multilabel examples/toxicity_multilabel.csv --separator ';' --gold annotator_a
    """
    from accord.coefficients.multilabel import multilabel_agreement
    from accord.errors import InvalidParameterError

    check_options(confidence_level, None, None, func="accord multilabel")
    if gold is not None:
        _against_reference(data, gold, list(labels) if labels else None, as_json,
                           selection, empty_label)
        return
    try:
        ann = with_empty_set(load(data, empty_label=empty_label, **selection),
                             empty_label).require_pairable()
        method = interval_method(ci_method, n_resamples, bootstrap_kind, seed)
        res = multilabel_agreement(ann, coefficient=coefficient,
                                   labels=list(labels) if labels else None)
        intervals = {k: r.confidence_interval(confidence_level, method=method)
                     for k, r in _results(res).items()}
        macro = _macro_interval(res, confidence_level, method)
    except InvalidParameterError as exc:
        raise click.UsageError(str(exc)) from None
    if as_json:
        emit("multilabel", _document(res, intervals, macro, confidence_level, ann))
        return
    _print(res, intervals, macro, data, ann)


def _macro_interval(res: Any, level: float, method: Any) -> Any:
    """The macro mean's unit bootstrap: the CLI's bootstrap, else 1,999 resamples, seed 0
    (as in the report); None when no label has a defined figure."""
    from accord.inference import Bootstrap

    if math.isnan(res.macro):
        return None
    boot = method if isinstance(method, Bootstrap) else Bootstrap(n_resamples=1999, rng=0)
    return res.macro_interval(level, method=boot)


def _document(res: Any, intervals: dict[str, Any], macro: Any, level: float,
              ann: Any) -> dict[str, Any]:
    """The JSON: each figure the console shows, with the interval it shows, in ``results``."""
    rows = []
    for key, r in _results(res).items():
        name, _, label = key.partition(":")
        fields = {"figure": name, "label": label} if label else {"figure": key}
        rows.append({**fields, **r.to_dict(level, interval=intervals[key])})
        if key == f"label:{res.labels[-1]}":
            rows.append({"figure": "macro", "estimate": res.to_dict()["macro"],
                         "confidence_interval": None if macro is None else macro.to_dict(),
                         "left_out": [str(x) for x in res.macro_left_out]})
    doc = res.to_dict()
    return {"results": rows, "caveats": list(ann.audit.caveats),
            **{k: doc[k] for k in ("coefficient", "labels", "n_units", "n_raters", "details")}}


def _results(res: Any) -> dict[str, Any]:
    """Every AgreementResult of the answer, keyed as in the JSON output."""
    out = {f"label:{k}": r for k, r in res.per_label.items()}
    out["pooled"] = res.pooled
    out["mean_jaccard"] = res.mean_jaccard
    out["mean_dice"] = res.mean_dice
    out["max_percentage"] = res.max_percentage
    if res.masi_alpha is not None:
        out["masi_alpha"] = res.masi_alpha
        out["jaccard_alpha"] = res.jaccard_alpha
    return out


def _fmt(x: float, digits: int = 3) -> str:
    return "undefined" if math.isnan(x) else f"{x:.{digits}f}"


def _ci(ci: Any) -> str:
    if math.isnan(ci.low):
        return "-"
    return f"[{ci.low:.3f}, {ci.high:.3f}]"


def _caveats(con: Any, ann: Any) -> None:
    """What accord had to guess, on the first lines of the output."""
    for caveat in ann.audit.caveats:
        con.print(f"caveat: {caveat}", style="bold yellow", highlight=False, markup=False)


def _print(res: Any, intervals: dict[str, Any], macro: Any, data: str, ann: Any) -> None:
    con = cli_console()
    _caveats(con, ann)
    con.print(f"{data}: {res.n_units} units, {res.n_raters} raters, {len(res.labels)} labels"
              f"{'' if ann.set_valued else ' (single-label data: each category against the rest)'}")
    level = next(iter(intervals.values())).confidence_level if intervals else 0.95
    from rich.table import Table

    table = Table(title=f"per label: {res.coefficient}")
    for col in ("label", "estimate", f"{level:.0%} CI", "note"):
        table.add_column(col, overflow="fold")
    for label, r in res.per_label.items():
        table.add_row(str(label), _fmt(r.estimate), _ci(intervals[f"label:{label}"]),
                      r.undefined_reason or "")
    con.print(table)
    lines = [
        f"macro mean over labels: {_fmt(res.macro)}"
        + ("" if macro is None or math.isnan(macro.low) else
           f" {_ci(macro)} (bootstrap over units, every label of a unit together)")
        + (f" (left out, undefined: {', '.join(map(str, res.macro_left_out))})"
           if res.macro_left_out else ""),
        f"pooled over (unit, label) items: {_fmt(res.pooled.estimate)} "
        f"{_ci(intervals['pooled'])} (items of one unit are not independent: descriptive)",
    ]
    for name in ("masi_alpha", "jaccard_alpha"):
        r = getattr(res, name)
        if r is None:
            lines.append(f"{name.replace('_', ' ')}: {res.details['set_alpha']}")
        else:
            lines.append(f"{name.replace('_', ' ')} on the sets: {_fmt(r.estimate)} "
                         f"{_ci(intervals[name])}")
    lines += [
        f"mean pairwise Jaccard: {_fmt(res.mean_jaccard.estimate)} "
        f"{_ci(intervals['mean_jaccard'])}; mean pairwise Dice: "
        f"{_fmt(res.mean_dice.estimate)} {_ci(intervals['mean_dice'])}",
        "maximum-percentage agreement (raters share a label): "
        f"{_fmt(res.max_percentage.estimate)} {_ci(intervals['max_percentage'])}",
    ]
    for line in lines:
        con.print(line, highlight=False)
    for line in ann.audit.lines():
        con.print(line, highlight=False, markup=False)


def _against_reference(data: str, reference: str, labels: list[str] | None, as_json: bool,
                       selection: dict[str, Any], empty_label: str | None) -> None:
    from accord.multilabel.metrics import evaluate_raters

    ann = with_empty_set(load(data, empty_label=empty_label, **selection), empty_label)
    evaluations = evaluate_raters(ann, reference, labels=labels)
    if not evaluations:
        raise click.UsageError(
            f"--gold {reference} leaves no other rater to score; the raters read are "
            f"{list(map(str, ann.raters))!r} (name others with --raters).")
    if as_json:
        emit("multilabel", {"results": [{"rater": str(k), **e.to_dict()}
                                        for k, e in evaluations.items()],
                            "caveats": list(ann.audit.caveats), "reference": reference})
        return
    from rich.table import Table

    con = cli_console()
    _caveats(con, ann)
    for rater, ev in evaluations.items():
        table = Table(title=f"{rater} against {reference} ({ev.n_units} units)")
        for col in ("label", "precision", "recall", "F1", "support"):
            table.add_column(col)
        for label, m in ev.per_label.items():
            table.add_row(str(label), _fmt(m["precision"]), _fmt(m["recall"]), _fmt(m["f1"]),
                          f"{m['support']:.0f}")
        for avg, m in ev.averages.items():
            table.add_row(f"{avg} average", _fmt(m["precision"]), _fmt(m["recall"]),
                          _fmt(m["f1"]), "")
        con.print(table)
        con.print(f"Hamming loss {_fmt(ev.hamming_loss)}; subset accuracy "
                  f"{_fmt(ev.subset_accuracy)}", highlight=False)
        for note in ev.notes:
            con.print(f"note: {note}", highlight=False, markup=False)


def with_empty_set(ann: Any, text: str | None) -> Any:
    """Without ``--empty-label``, a caveat when empty cells of label sets were read as
    missing ratings, naming --empty-label; with it, the ratings as read (the reader
    scored the label, or the empty cell, as the empty set, and said so)."""
    if text is None:
        missing = ann.audit.dropped.get("missing value", 0)
        if missing and ann.set_valued:
            ann.audit = ann.audit.with_caveats(
                f"{missing} empty cell(s) read as missing ratings, not as the empty set: to "
                "score 'no label applies', pass --empty-label '' (an empty cell) or write a "
                "marker such as none and pass --empty-label none")
    return ann
