"""``accord polygons`` and ``accord keypoints``: agreement between annotators on outlines
(exact IoU) and on keypoints (OKS), as ``accord boxes`` gives it on boxes."""

from __future__ import annotations

from typing import Any

import click

from accord.cli._app import main
from accord.cli._consensus_view import (
    KEYPOINT_VIEW,
    POLYGON_VIEW,
    View,
    check_output,
    consensus_options,
)
from accord.cli._consensus_view import show as show_consensus
from accord.cli._consensus_view import summary as consensus_summary
from accord.cli._options import shared
from accord.cli._shapes_view import (
    KEYPOINTS,
    POLYGONS,
    Shape,
    column_options,
    emit_json,
    other_shapes,
    print_agreement,
    refuse_unused,
    sweep_option,
)

_THRESHOLD = click.FloatRange(0.0, 1.0, min_open=True)


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@column_options
@click.option("--polygon", default="polygon", show_default=True, metavar="COL",
              help="Tables: the outline column, as JSON text: a flat [x1, y1, x2, y2, ...] "
              "list, a list of [x, y] pairs, or a list of flat lists for an object in "
              "several parts (COCO's segmentation).")
@click.option("--iou", "iou_threshold", default=0.5, show_default=True, type=_THRESHOLD,
              help="Two outlines can match when their IoU is at least this.")
@consensus_options(POLYGON_VIEW, "the image, label and polygon columns keep their --unit, "
                   "--label and --polygon names; wkt holds the region exactly, holes "
                   "included")
@sweep_option("IoU")
@shared("--confidence-level")
@shared("--n-resamples")
@shared("--seed", help="Seed of the bootstrap over images (default 0: the same intervals "
        "on every run).")
@shared("--json", help="Print the figures as JSON instead.")
def polygons(
    files: tuple[str, ...],
    unit: str,
    rater: str,
    label: str,
    polygon: str,
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
    """Agreement between annotators on polygons in FILE...: pairwise F1, mean IoU of the
    matched outlines and Krippendorff's alpha on the matched objects, per label, per pair
    and over the IoU thresholds 0.50 to 0.95, with bootstrap intervals over images.

    The IoU is the exact overlap of the outlines (shapely, the images extra). FILE is a
    long table (CSV or Parquet, one row per outline) or a tool's export, detected by
    content: COCO JSON (segmentation polygons) or CVAT XML (<polygon>), one file per
    annotator (COCO: named by the file; CVAT: the job's assignee) or one file with the
    annotator in each annotation (--rater names the key or attribute); Label Studio
    JSON with polygonlabels (the annotator is completed_by).

    \b
    Examples:
      accord polygons examples/polygons.csv --unit image --rater annotator \\
          --label label --polygon polygon --iou 0.5
      accord polygons examples/polygons.csv --iou 0.75 --json
      accord polygons examples/polygons.csv --json --sweep-intervals
      accord polygons examples/polygons_coco/ann.json examples/polygons_coco/bob.json
      accord polygons examples/polygons.csv --consensus --quorum 0.5 -o consensus.csv
    """
    import accord

    _check(output, consensus, files, "polygons", "polygons")
    refuse_unused(files, (("unit", "--unit"), ("label", "--label"), ("polygon", "--polygon")),
                  consensus=consensus, as_json=as_json)
    res = accord.polygon_agreement(
        _data(files), unit=unit, rater=rater, label=label, polygon=polygon,
        iou_threshold=iou_threshold, confidence_level=confidence_level,
        n_resamples=n_resamples, rng=0 if seed is None else seed,
        sweep_intervals=sweep_intervals,
    )  # fmt: skip
    cons = None if not consensus else accord.polygon_consensus(
        _data(files), unit=unit, rater=rater, label=label, polygon=polygon,
        iou_threshold=iou_threshold, quorum=quorum,
        fusion=fusion,  # type: ignore[arg-type]
    )  # fmt: skip
    _show("polygons", res, files, POLYGONS, as_json,
          (cons, output, (unit, label, polygon, "wkt", "area"), POLYGON_VIEW))


def _sigmas(ctx: click.Context, param: click.Parameter,
            value: tuple[str, ...]) -> dict[str, float] | None:  # fmt: skip
    """``NAME=S`` pairs; the sigma is what follows the last ``=``."""
    out: dict[str, float] = {}
    for item in value:
        name, eq, text = item.rpartition("=")
        try:
            sigma = float(text)
        except ValueError:
            sigma = float("nan")
        if not eq or not name or not sigma > 0 or sigma == float("inf"):
            raise click.BadParameter(f"expected NAME=SIGMA with a positive number (e.g. "
                                     f"wrist=0.062), got {item!r}.")  # fmt: skip
        out[name] = sigma
    return out or None


@main.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@column_options
@click.option("--keypoints", "keypoints_column", default="keypoints", show_default=True,
              metavar="COL", help="Tables: the keypoints column, as JSON text: COCO's flat "
              "[x1, y1, v1, x2, y2, v2, ...] list (v 0: not labelled, 1: hidden, 2: "
              "visible).")
@click.option("--area", default="area", show_default=True, metavar="COL",
              help="Tables: the object's area column (the OKS scale).")
@click.option("--names", multiple=True, metavar="NAME...",
              help="The keypoints' names, in the list's order (tables, CVAT points, Label "
              "Studio); default: COCO's 17 person keypoints (a COCO file's category gives "
              "its own).")
@click.option("--sigmas", multiple=True, metavar="NAME=S...", callback=_sigmas,
              help="Each keypoint's sigma in the OKS (e.g. --sigmas wrist=0.062 "
              "tip=0.05); default: COCO's for its 17 person keypoints.")
@click.option("--visible", default="either", show_default=True,
              type=click.Choice(["either", "both"]),
              help="The keypoints an OKS counts: those either annotator labelled (a point "
              "only one labelled adds 0), or those both labelled (placement only).")
@click.option("--oks", "oks_threshold", default=0.5, show_default=True, type=_THRESHOLD,
              help="Two objects can match when their OKS is at least this.")
@consensus_options(KEYPOINT_VIEW, "the image, label, keypoints and area columns keep their "
                   "--unit, --label, --keypoints and --area names")
@sweep_option("OKS")
@shared("--confidence-level")
@shared("--n-resamples")
@shared("--seed", help="Seed of the bootstrap over images (default 0: the same intervals "
        "on every run).")
@shared("--json", help="Print the figures as JSON instead.")
def keypoints(
    files: tuple[str, ...],
    unit: str,
    rater: str,
    label: str,
    keypoints_column: str,
    area: str,
    names: tuple[str, ...],
    sigmas: dict[str, float] | None,
    visible: str,
    oks_threshold: float,
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
    """Agreement between annotators on keypoints in FILE...: pairwise F1, mean OKS of the
    matched objects and Krippendorff's alpha on the matched objects, per label, per pair
    and over the OKS thresholds 0.50 to 0.95, with bootstrap intervals over images.

    The similarity is COCO's Object Keypoint Similarity, made symmetric between two
    annotators (the scale is the mean of the two areas). FILE is a long table (CSV or
    Parquet, one row per object) or a tool's export, detected by content: COCO keypoint
    JSON or CVAT XML (<skeleton> or <points>), one file per annotator (COCO: named by
    the file; CVAT: the job's assignee) or one file with the annotator in each
    annotation (--rater names the key or attribute); Label Studio JSON with
    keypointlabels (the annotator is completed_by).

    \b
    Examples:
      accord keypoints examples/keypoints.csv --names wrist tip \\
          --sigmas wrist=0.062 tip=0.05 --oks 0.5
      accord keypoints examples/keypoints.csv --names wrist tip \\
          --sigmas wrist=0.062 tip=0.05 --visible both --json
      accord keypoints examples/keypoints_coco/ann.json examples/keypoints_coco/bob.json
      accord keypoints examples/keypoints.csv --names wrist tip \\
          --sigmas wrist=0.062 tip=0.05 --consensus -o consensus.csv
    """
    import accord

    _check(output, consensus, files, "keypoints", "objects")
    refuse_unused(files, (("unit", "--unit"), ("label", "--label"),
                          ("keypoints_column", "--keypoints"), ("area", "--area")),
                  consensus=consensus, as_json=as_json)
    if names and _coco(files):
        raise click.UsageError("--names names the keypoints of a table, CVAT points or Label "
                               "Studio; a COCO file names them in its category's keypoints "
                               "list: leave --names out.")
    common: dict[str, Any] = {
        "unit": unit, "rater": rater, "label": label, "keypoints": keypoints_column,
        "area": area, "names": list(names) or None, "sigmas": sigmas, "visible": visible,
        "oks_threshold": oks_threshold}  # fmt: skip
    res = accord.keypoint_agreement(
        _data(files), **common, confidence_level=confidence_level,
        n_resamples=n_resamples, rng=0 if seed is None else seed,
        sweep_intervals=sweep_intervals,
    )  # fmt: skip
    cons = None if not consensus else accord.keypoint_consensus(
        _data(files), **common, quorum=quorum, fusion=fusion)  # type: ignore[arg-type]
    _show("keypoints", res, files, KEYPOINTS, as_json,
          (cons, output, (unit, label, keypoints_column, area), KEYPOINT_VIEW))


def _coco(files: tuple[str, ...]) -> bool:
    """Whether ``files`` are COCO exports (tables and other tools are not)."""
    from pathlib import Path

    from accord.readers.shape_formats import shape_format

    if any(Path(f).suffix.lower() in {".csv", ".tsv", ".parquet", ".pq"} or Path(f).is_dir()
           for f in files):
        return False
    try:
        return shape_format([Path(f) for f in files], "accord keypoints") == "coco"
    except (OSError, ValueError):
        return False  # the reader says what is wrong with the files


def _data(files: tuple[str, ...]) -> Any:
    return files[0] if len(files) == 1 else list(files)


def _check(output: str | None, consensus: bool, files: tuple[str, ...], command: str,
           noun: str) -> None:  # fmt: skip
    """-o only with --consensus and not over an input; files of another shape named."""
    from accord.cli._outputs import writable_output

    check_output(output, consensus, noun)
    writable_output(output, *files)
    other_shapes(command, files)


def _show(
    command: str, res: Any, files: tuple[str, ...], shape: Shape, as_json: bool,
    consensus: tuple[Any, str | None, tuple[str, ...], View],
) -> None:  # fmt: skip
    """The figures, and the consensus when it was asked for (written to -o when given)."""
    cons, output, names, view = consensus
    doc = res.to_dict()
    summary = None if cons is None else consensus_summary(cons, output, names, view)
    if as_json:
        emit_json(command, doc, shape, **({} if summary is None else {"consensus": summary}))
        return
    print_agreement(doc, " ".join(files), shape)
    if summary is not None:
        show_consensus(summary, names, view)
