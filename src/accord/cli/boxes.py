"""``accord boxes``: agreement between annotators on boxes (F1, mean IoU, alpha), and with
``--consensus`` the consensus boxes written to a CSV."""

from __future__ import annotations

from typing import Any

import click

from accord.cli._app import main
from accord.cli._common import console as cli_console
from accord.cli._options import shared
from accord.cli._shapes_view import (
    BOXES,
    _num,
    column_options,
    emit_json,
    other_shapes,
    print_agreement,
    redirect,
    sweep_option,
    the,
)


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@column_options
@click.option("--box", nargs=4, default=("x", "y", "w", "h"), show_default=True,
              metavar="X Y W H", help="Tables: the columns of x, y, width and height (COCO's "
              "bbox order).")
@click.option("--sizes", default=None, metavar="CSV",
              type=click.Path(exists=True, dir_okay=False),
              help="YOLO: a CSV of image, width, height, to read the boxes in pixels (and "
              "name each image by its file name); without it boxes stay in fractions of "
              "the image.")
@click.option("--iou", "iou_threshold", default=0.5, show_default=True,
              type=click.FloatRange(0.0, 1.0, min_open=True),
              help="Two boxes can match when their IoU is at least this.")
@click.option("--consensus", is_flag=True, default=False,
              help="Also write the consensus boxes to -o FILE.csv: the groups of matched "
              "boxes (as for alpha) that a quorum of the annotators drew, each with its "
              "majority label and fused coordinates.")
@click.option("-o", "--output", default=None, metavar="FILE.csv", type=click.Path(dir_okay=False),
              help="With --consensus: the CSV of consensus boxes (written atomically; the "
              "image, label and box columns keep their --unit, --label and --box names).")
@click.option("--quorum", default=0.5, show_default=True,
              type=click.FloatRange(0.0, 1.0, min_open=True),
              help="With --consensus: the share of the annotators a group needs, rounded up "
              "to a count of boxes (CVAT's rule).")
@click.option("--fusion", default="weighted", show_default=True,
              type=click.Choice(["weighted", "mean"]),
              help="With --consensus: the fused coordinates, weighted by each annotator's "
              "mean pairwise F1, or the plain mean.")
@sweep_option("IoU")
@shared("--confidence-level")
@shared("--n-resamples")
@shared("--seed", help="Seed of the bootstrap over images (default 0: the same intervals "
        "on every run).")
@shared("--json", help="Print the figures as JSON instead.")
def boxes(
    files: tuple[str, ...],
    unit: str,
    rater: str,
    label: str,
    box: tuple[str, str, str, str],
    sizes: str | None,
    iou_threshold: float,
    consensus: bool,
    output: str | None,
    quorum: float,
    fusion: str,
    sweep_intervals: bool,
    confidence_level: float,
    n_resamples: int,
    seed: int | None,
    as_json: bool,
) -> None:
    """Agreement between annotators on boxes in FILE...: pairwise F1, mean IoU of the
    matched boxes and Krippendorff's alpha on the matched objects, per label, per pair
    and over the IoU thresholds 0.50 to 0.95, with bootstrap intervals over images.

    FILE is a long table (CSV or Parquet, one row per box) or a tool's export,
    detected by content: COCO JSON or CVAT XML, one file per annotator (COCO: named
    by the file; CVAT: the job's assignee) or one file with the annotator in each
    box (--rater names the key or attribute); Label Studio JSON with rectangles
    (the annotator is completed_by); a YOLO folder holding one folder per annotator.
    For polygons and keypoints, run the polygons and keypoints commands.

    \b
    Examples:
      accord boxes examples/boxes.csv --unit image --rater annotator --label label \\
          --box x y w h --iou 0.5
      accord boxes examples/boxes.csv --iou 0.75 --json
      accord boxes examples/boxes.csv --json --sweep-intervals
      accord boxes examples/boxes_coco/ann.json examples/boxes_coco/bob.json \\
          examples/boxes_coco/cleo.json
      accord boxes examples/boxes_cvat/job_41.xml examples/boxes_cvat/job_42.xml
      accord boxes examples/boxes_label_studio.json
      accord boxes examples/boxes_yolo --sizes examples/boxes_yolo/sizes.csv
      accord boxes examples/boxes.csv --consensus --quorum 0.5 -o consensus.csv
    """
    import accord
    from accord.cli._outputs import writable_output

    if output is not None and not consensus:
        raise click.UsageError("-o writes the consensus boxes: add --consensus.")
    writable_output(output, *files)
    held = other_shapes("boxes", files)
    data: Any = files[0] if len(files) == 1 else list(files)
    if sizes is not None:
        data = accord.read(data, format="yolo", sizes=sizes)
    res = accord.box_agreement(
        data, unit=unit, rater=rater, label=label, box=box, iou_threshold=iou_threshold,
        confidence_level=confidence_level, n_resamples=n_resamples,
        rng=0 if seed is None else seed, sweep_intervals=sweep_intervals,
    )  # fmt: skip
    doc = res.to_dict()
    summary = None
    if consensus:
        cons = accord.box_consensus(data, unit=unit, rater=rater, label=label, box=box,
                                    iou_threshold=iou_threshold, quorum=quorum,
                                    fusion=fusion)  # type: ignore[arg-type]
        if output is not None:
            _write_consensus(output, cons, (unit, label, *box))
        summary = {**cons.to_dict(), "output": output}
    if as_json:
        emit_json("boxes", doc, BOXES, **({} if summary is None else {"consensus": summary}))
        return
    source = " ".join(files)
    also = [] if not held else [
        f"{the(files)} {' and '.join(held)} as well: to compare them, "
        f"{redirect(held, source)}."]  # fmt: skip
    print_agreement(doc, source, BOXES, also)
    if summary is not None:
        _print_consensus(summary, (unit, label, *box))


def _write_consensus(path: str, cons: Any, names: tuple[str, ...]) -> None:
    """The consensus boxes as a CSV, the tied labels joined by ``|``."""
    from accord.cli.annotators import _write_rows

    keys = ("image", "label", "x", "y", "w", "h")
    more = ("support", "n_annotators", "spread", "label_share", "tied_labels")
    rows = ([*(r[k] if isinstance(r[k], (str, int)) else repr(r[k]) for k in keys),
             r["support"], r["n_annotators"], repr(r["spread"]), repr(r["label_share"]),
             "|".join(r["tied_labels"])] for r in cons.rows())  # fmt: skip
    _write_rows(path, [*names, *more], rows)


def _print_consensus(summary: dict[str, Any], names: tuple[str, ...]) -> None:
    from rich.table import Table
    from rich.text import Text

    console = cli_console()
    audit, rows = summary["audit"], summary["results"]
    if summary["output"] is None:
        t = Table(title="Consensus boxes", title_justify="left")
        for head in (*names, "support", "spread", "label share"):
            t.add_column(head, justify="left" if head in names[:2] else "right")
        for r in rows[:_SHOWN]:
            t.add_row(Text(r["image"]), Text(r["label"]),
                      *(f"{r[k]:.1f}" for k in ("x", "y", "w", "h")),
                      f"{r['support']}/{r['n_annotators']}", _num(r["spread"]),
                      _num(r["label_share"]))  # fmt: skip
        console.print(t)
    below = ", ".join(f"support {r['support']}: {r['count']}"
                      for r in audit["below_quorum_by_support"])  # fmt: skip
    where = (f"written to {summary['output']}" if summary["output"] is not None else
             f"the first {min(len(rows), _SHOWN)} shown; -o FILE.csv writes them all")
    console.print(Text(
        f"Consensus: {audit['consensus_boxes']} boxes (at least {summary['required']} of "
        f"{summary['n_annotators']} annotators, fusion {summary['fusion']}), {where}; "
        f"{audit['below_quorum']} groups below quorum{f' ({below})' if below else ''}; "
        f"{audit['groups_tied']} with a tied label."))


#: Consensus boxes shown on the console without -o.
_SHOWN = 20
