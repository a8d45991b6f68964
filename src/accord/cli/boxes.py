"""``accord boxes``: agreement between annotators on boxes (F1, mean IoU, alpha), and with
``--consensus`` the consensus boxes written to a CSV."""

from __future__ import annotations

from typing import Any

import click

from accord.cli._app import main
from accord.cli._consensus_view import BOX_VIEW, check_output, consensus_options
from accord.cli._consensus_view import show as show_consensus
from accord.cli._consensus_view import summary as consensus_summary
from accord.cli._options import shared
from accord.cli._shapes_view import (
    _TABLES,
    BOXES,
    column_options,
    emit_json,
    other_shapes,
    print_agreement,
    redirect,
    refuse_unused,
    sweep_option,
    the,
)


def _box_formats() -> list[str]:
    """The box readers' formats (``--format``), loaded when the option is checked."""
    from accord.readers.box_formats import BOX_FORMATS

    return sorted(BOX_FORMATS)


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@column_options
@click.option("--box", nargs=4, default=("x", "y", "w", "h"), show_default=True,
              metavar="X Y W H", help="Tables: the columns of x, y, width and height (COCO's "
              "bbox order).")
@shared("--format", choices=_box_formats,
        help="The tool whose export FILE... is, where its content does not tell (a COCO "
        "file not named .json, say): coco, cvat, label_studio_boxes or yolo (default: "
        "detected; a table needs none).")
@click.option("--sizes", default=None, metavar="CSV",
              type=click.Path(exists=True, dir_okay=False),
              help="YOLO: a CSV of image, width, height, to read the boxes in pixels (and "
              "name each image by its file name); without it boxes stay in fractions of "
              "the image.")
@click.option("--iou", "iou_threshold", default=0.5, show_default=True,
              type=click.FloatRange(0.0, 1.0, min_open=True),
              help="Two boxes can match when their IoU is at least this.")
@consensus_options(BOX_VIEW, "the image, label and box columns keep their --unit, "
                   "--label and --box names")
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
    fmt: str | None,
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
    detected by content (--format names the tool where it does not tell): COCO JSON
    or CVAT XML, one file per annotator (COCO: named by the file; CVAT: the job's
    assignee) or one file with the annotator in each box (--rater names the key or
    attribute); Label Studio JSON with rectangles (the annotator is completed_by); a
    YOLO folder holding one folder per annotator.
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

    check_output(output, consensus, "boxes")
    writable_output(output, *files)
    held = other_shapes("boxes", files)
    refuse_unused(files, (("unit", "--unit"), ("label", "--label"), ("box", "--box")),
                  consensus=consensus, as_json=as_json)
    data: Any = files[0] if len(files) == 1 else list(files)
    if sizes is not None or fmt is not None:
        data = _export(data, files, fmt, sizes, rater)
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
        summary = consensus_summary(cons, output, (unit, label, *box), BOX_VIEW)
    if as_json:
        emit_json("boxes", doc, BOXES, **({} if summary is None else {"consensus": summary}))
        return
    source = " ".join(files)
    also = [] if not held else [
        f"{the(files)} {' and '.join(held)} as well: to compare them, "
        f"{redirect(held, source)}."]  # fmt: skip
    print_agreement(doc, source, BOXES, also)
    if summary is not None:
        show_consensus(summary, (unit, label, *box), BOX_VIEW)


def _export(data: Any, files: tuple[str, ...], fmt: str | None, sizes: str | None,
            rater: str) -> Any:
    """What ``accord.read`` gives for the export ``files`` read as ``--format`` (YOLO with
    ``--sizes``): its boxes, read as box_agreement reads a detected export."""
    from pathlib import Path

    import accord

    source = " ".join(files)
    if sizes is not None and fmt not in (None, "yolo"):
        raise click.UsageError(f"--sizes gives the image sizes of YOLO label folders, not "
                               f"of --format {fmt}: leave --sizes out.")
    if sizes is not None and not all(Path(f).is_dir() for f in files):
        what = "is not a folder" if len(files) == 1 else "are not all folders"
        raise click.UsageError(f"--sizes gives the image sizes of YOLO label folders, and "
                               f"{source} {what}: leave --sizes out.")
    if any(Path(f).suffix.lower() in _TABLES for f in files):
        raise click.UsageError(f"--format names the tool of an export, and {source} holds a "
                               "table (read by its columns): leave --format out.")
    if fmt in (None, "yolo"):
        return accord.read(data, format="yolo", sizes=sizes)
    return accord.read(data, format=fmt, shapes="boxes",
                       rater=rater if len(files) == 1 else None)
