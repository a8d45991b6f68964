"""``accord evaluate`` on a box table: each --predicted annotator's boxes against --gold's.

Precision, recall and F1 at the IoU threshold (overall and per label) and, with
``--score``, COCO's AP, AP50 and AP75 (:func:`accord.evaluate_boxes`), each with a
bootstrap interval over images; and, when human annotators are in the table, the
human ceiling: each human's figure against the same reference beside the system's,
with the paired bootstrap of each difference.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from accord.cli._common import console as cli_console
from accord.cli._json import emit

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

DEFAULT_BOX = ("x", "y", "w", "h")
TABLES = (".csv", ".tsv", ".parquet", ".pq")

#: Options of the label evaluation that a box table does not take, by parameter name.
LABEL_ONLY = {"fmt": "--format", "field": "--field", "raters": "--raters",
              "categories": "--categories", "level": "--level", "missing": "--missing",
              "duplicates": "--duplicates", "multilabel": "--multilabel",
              "label_separator": "--separator", "kinds": "--kinds", "rater_kinds": "--kind",
              "positive": "--positive", "by": "--by", "bootstrap_kind": "--bootstrap-kind"}


def columns(path: str) -> list[str]:
    """The column names of a CSV/TSV or Parquet file (empty for anything else)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if not p.is_file() or suffix not in TABLES:
        return []
    if suffix in (".parquet", ".pq"):
        import polars as pl

        try:
            return list(pl.read_parquet_schema(p))
        except Exception:  # not a Parquet file after all: the ordinary reader says so
            return []
    with p.open(newline="", encoding="utf-8-sig", errors="replace") as fh:
        first = next(csv.reader(fh, delimiter="\t" if suffix == ".tsv" else ","), [])
    return [c.strip() for c in first]


def is_box_table(paths: tuple[str, ...], box: tuple[str, ...] | None, asked: bool) -> bool:
    """Box mode: asked for (``--box``, ``--score`` or ``--iou``), or one table holding the
    four box columns x, y, w, h."""
    if asked or box is not None:
        return True
    return len(paths) == 1 and set(DEFAULT_BOX) <= set(columns(paths[0]))


def evaluate_boxes_cli(paths: tuple[str, ...], *, gold: str | None,
                       predicted: tuple[str, ...], humans: tuple[str, ...],
                       ceiling_figure: str | None, box: tuple[str, ...] | None,
                       score: str | None, iou: float | None, given: dict[str, Any],
                       ci: tuple[float, str, bool, int, int | None], as_json: bool) -> None:
    """Read the box table once, evaluate each system, print or emit."""
    import accord
    from accord.errors import DataError
    from accord.images.detection_ceiling import FIGURES, default_humans
    from accord.readers.boxes import box_table

    level, ci_method, ci_explicit, n_resamples, seed = ci
    gold = _refuse(paths, gold, predicted, given, ci_method if ci_explicit else None)
    if ceiling_figure is not None and ceiling_figure not in FIGURES:
        raise click.UsageError(f"--ceiling-figure for boxes is one of {', '.join(FIGURES)} "
                               "(AP has no human ceiling: a human's boxes carry no scores); "
                               f"got {ceiling_figure!r}.")
    unit, rater, label = (given.get("unit") or "image", given.get("rater") or "annotator",
                          given.get("value") or "label")
    try:
        t = box_table(paths[0], unit=unit, rater=rater, label=label, box=box or DEFAULT_BOX,
                      score=score, func="accord evaluate")
    except DataError as exc:
        raise DataError(f"{paths[0]}, read as a box table (one row per box; --box, --score "
                        f"and --iou are for boxes): {exc}") from None
    _roles(t.raters, rater, gold, predicted, humans)
    chosen, models = (humans, ()) if humans else default_humans(t, (gold, *predicted))
    if ceiling_figure is not None and not chosen:
        raise click.UsageError(f"--ceiling-figure {ceiling_figure} asks for a human ceiling, "
                               "and the table holds no human annotator besides --gold and "
                               "--predicted; name them with --humans.")
    results = []
    for system in predicted:
        det = accord.evaluate_boxes(
            t, reference=gold, system=system, score=score,
            iou_threshold=0.5 if iou is None else iou, confidence_level=level,
            n_resamples=n_resamples, rng=seed, humans=list(chosen),
            ceiling_figure=ceiling_figure)
        results.append(det.to_dict())
    note = _no_ceiling(chosen, models)
    if as_json:
        emit("evaluate", {"results": results, "reference": gold, "humans": list(chosen),
                          "notes": [note] if note else []})
        return
    _print(cli_console(), results, note)


def _refuse(paths: tuple[str, ...], gold: str | None, predicted: tuple[str, ...],
            given: dict[str, Any], ci_method: str | None) -> str:
    """The options and inputs a box evaluation cannot take, each said in a sentence; the
    reference annotator."""
    refused = [flag for name, flag in LABEL_ONLY.items() if given.get(name)]
    if ci_method is not None and ci_method != "bootstrap":
        refused.append(f"--ci {ci_method}")
    if refused:
        raise click.UsageError(f"{', '.join(refused)} do(es) not apply to a box table: its "
                               "figures have bootstrap intervals over images; drop them.")
    if len(paths) != 1 or Path(paths[0]).suffix.lower() not in TABLES:
        raise click.UsageError("a box evaluation reads one table (CSV, TSV or Parquet) with "
                               "one row per box; got " + ", ".join(paths) + ".")
    if gold is None or not predicted:
        raise click.UsageError("a box table needs the reference annotator named with --gold "
                               "and the system(s) with --predicted.")
    return gold


def _roles(raters: tuple[str, ...], rater: str, gold: str, predicted: tuple[str, ...],
           humans: tuple[str, ...]) -> None:
    """--gold, --predicted and --humans name annotators of the table, each in one role."""
    from accord.errors import DataError

    for role, names in (("--gold", (gold,)), ("--predicted", predicted), ("--humans", humans)):
        missing = [n for n in names if n not in raters]
        if missing:
            raise DataError(f"{role}: {missing!r} not in the {rater!r} column; the "
                            f"annotators are {list(raters)!r}.")
    if gold in predicted:
        raise click.UsageError(f"{gold!r} is the reference (--gold); it cannot also be a "
                               "system (--predicted).")
    both = [h for h in humans if h == gold or h in predicted]
    if both:
        raise click.UsageError(f"--humans {both!r} also named by --gold or --predicted: a "
                               "human of the ceiling is neither the reference nor a system.")


def _no_ceiling(humans: tuple[str, ...], models: tuple[str, ...]) -> str | None:
    """What the console and --json say about who is in the human ceiling, if needed."""
    scored = (f"{', '.join(models)} drew scored boxes, taken as "
              f"{'a model' if len(models) == 1 else 'models'}")
    if humans:
        return f"human ceiling: {', '.join(humans)} ({scored}, left out)" if models else None
    return ("no human ceiling: the table holds no human annotator besides the reference and "
            f"the system(s){f' ({scored})' if models else ''}; name them with --humans")


def _cell(fig: dict[str, Any] | None) -> tuple[str, str]:
    if fig is None:
        return "no scores", ""
    if fig["estimate"] is None:
        return "undefined", ""
    ci = fig.get("confidence_interval") or {}
    span = "" if ci.get("low") is None else f"{ci['low']:.3f} to {ci['high']:.3f}"
    return f"{fig['estimate']:.4f}", span


def _print(console: Console, results: list[dict[str, Any]], note: str | None) -> None:
    audit = results[0]["audit"]
    console.print(f"read {audit.get('rows', 0)} rows: {audit.get('boxes', 0)} boxes on "
                  f"{audit.get('images', 0)} images"
                  + (f", {audit['no_box_rows']} rows saying an image was seen with no box"
                     if audit.get("no_box_rows") else ""), markup=False, highlight=False)
    for d in audit.get("dropped", []):
        console.print(f"skipped {d['count']}: {d['reason']}", markup=False, highlight=False)
    for n in audit.get("notes", []):
        console.print(f"note: {n}", markup=False, highlight=False)
    for res in results:
        thr = res["f1"]["iou_threshold"]
        console.print()
        console.print(f"[bold]{res['system']}[/] against [bold]{res['reference']}[/]: "
                      f"{res['audit'].get('images', 0)} images, IoU {thr:g}", highlight=False)
        console.print(_figures(res))
        console.print(_per_label(res))
        for name in ("precision", "recall", "f1"):
            if res[name]["undefined_reason"]:
                console.print(f"{name}: undefined: {res[name]['undefined_reason']}",
                              markup=False, highlight=False)
        if res["ceiling"] is not None:
            console.print(_ceiling(res["ceiling"]))
            console.print(res["ceiling"]["sentence"], markup=False, highlight=False)
    if note:
        console.print(note, markup=False, highlight=False)


def _figures(res: dict[str, Any]) -> Table:
    from rich.table import Table

    level = res["f1"]["confidence_interval"]["confidence_level"]
    table = Table(title="figures (bootstrap over images)", title_justify="left")
    for head in ("figure", "estimate", f"{level:.0%} CI"):
        table.add_column(head, justify="left" if head == "figure" else "right")
    for name, key in (("precision", "precision"), ("recall", "recall"), ("F1", "f1"),
                      ("AP (COCO, IoU 0.50:0.95)", "ap"), ("AP50", "ap50"), ("AP75", "ap75")):
        table.add_row(name, *_cell(res[key]))
    return table


def _per_label(res: dict[str, Any]) -> Table:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="per label", title_justify="left")
    for head in ("label", "precision", "recall", "F1"):
        table.add_column(head, justify="left" if head == "label" else "right")
    for row in res["per_label"]:
        cells = []
        for k in ("precision", "recall", "f1"):
            est, span = _cell(row[k])
            cells.append(est if not span else f"{est[:5]} ({span.replace(' to ', '-')})")
        table.add_row(escape(str(row["f1"]["label"])), *cells)
    return table


def _ceiling(c: dict[str, Any]) -> Table:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"human ceiling: {c['figure']} against the same reference, on "
                  f"{c['n_units']} images", title_justify="left")
    for head in ("annotator", c["figure"], "system - human (95% CI)", "p"):
        table.add_column(head, justify="left" if head == "annotator" else "right")
    table.add_row(f"{escape(c['system'])} (system)", *_est(c["system_result"]), "", "")
    for human, fig in c["humans"].items():
        diff = c["comparisons"].get(human, {}).get("difference")
        d_est, d_ci = _cell(diff) if diff else ("", "")
        p = None if diff is None else diff.get("pvalue")
        shown = f"{d_est[:6]} ({d_ci})" if d_ci else d_est
        table.add_row(escape(human), *_est(fig), shown, "" if p is None else f"{p:.3g}")
    if c["human_agreement"] is not None:
        table.add_row("humans pairwise (F1)", *_est(c["human_agreement"]), "", "")
    return table


def _est(fig: dict[str, Any]) -> tuple[str]:
    return ("undefined" if fig["estimate"] is None else f"{fig['estimate']:.4f}",)
