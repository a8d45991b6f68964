"""What ``accord boxes``, ``accord polygons`` and ``accord keypoints`` share: the options
that select a table's columns, the console view of the figures, and the sentence that
sends a file of one shape to the command of that shape."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from accord.cli._common import console as cli_console

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Shape:
    """A command's names: ``noun`` (what the audit counts), ``count`` (its audit key),
    ``measure`` ("IoU", "OKS") and ``mean`` (the key of the mean similarity)."""

    noun: str
    count: str
    measure: str
    mean: str

    @property
    def figures(self) -> tuple[str, str, str]:
        """The figures of the whole data set, in the order the console shows them."""
        return ("f1", self.mean, "alpha")

    @property
    def threshold(self) -> str:
        """The key of the threshold in each figure: ``iou_threshold``, ``oks_threshold``."""
        return f"{self.measure.lower()}_threshold"


BOXES = Shape("boxes", "boxes", "IoU", "mean_iou")
POLYGONS = Shape("polygons", "objects", "IoU", "mean_iou")
KEYPOINTS = Shape("keypoint objects", "objects", "OKS", "mean_oks")

#: The command that compares each shape :func:`accord.readers.shape_formats.shapes_held`
#: names.
COMMAND_OF = {"boxes": "accord boxes", "polygons": "accord polygons",
              "keypoints": "accord keypoints"}


def column_options(func: F) -> F:
    """``--unit``, ``--rater`` and ``--label``: a table's columns, or an export's annotator
    key (the same in the three commands)."""
    for option in reversed((
        click.option("--unit", default="image", show_default=True, metavar="COL",
                     help="Tables: the image column."),
        click.option("--rater", default="annotator", show_default=True, metavar="COL",
                     help="Tables: the annotator column; one COCO or CVAT file holding "
                     "every annotator: the key or attribute naming who drew each shape "
                     "(COCO: in the annotation, its attributes or its image)."),
        click.option("--label", default="label", show_default=True, metavar="COL",
                     help="Tables: the label column."),
    )):  # fmt: skip
        func = option(func)
    return func


def sweep_option(measure: str) -> Callable[[F], F]:
    """``--sweep-intervals``: the sweep's figures with their intervals in ``--json``."""
    return click.option(
        "--sweep-intervals", is_flag=True, default=False,
        help=f"Also give the figures over the {measure} thresholds 0.50 to 0.95 their "
        "bootstrap intervals in --json (without it: their estimates only).")  # fmt: skip


def redirect(held: Sequence[str], source: str) -> str:
    """``run accord polygons FILES`` (or ``accord keypoints FILES``, ...) for the shapes
    held."""
    runs = [f"{COMMAND_OF[k]} {source}" for k in held]
    return "run " + " or ".join(runs)


def the(files: Sequence[str]) -> str:
    """``the file holds`` (``the folder holds``) or ``the files hold``."""
    from pathlib import Path

    if len(files) > 1:
        return "the files hold"
    return "the folder holds" if Path(files[0]).is_dir() else "the file holds"


def other_shapes(shape: str, files: Sequence[str]) -> tuple[str, ...]:
    """The other shapes (``"boxes"``, ``"polygons"``, ``"keypoints"``) the exports
    ``files`` hold; exports that hold others but no ``shape`` are refused in one sentence
    that names the command to run."""
    from accord.errors import DataError
    from accord.readers.shape_formats import shapes_held

    held = shapes_held(files)
    others = tuple(k for k in held if k != shape)
    if others and shape not in held:
        source = " ".join(files)
        raise DataError(f"{source}: {the(files)} {' and '.join(others)}, not {shape}: "
                        f"{redirect(others, source)}.")  # fmt: skip
    return others


_TABLES = {".csv", ".tsv", ".parquet", ".pq"}


def given(name: str) -> bool:
    """Whether the option ``name`` (its parameter name) was given, not defaulted."""
    from click.core import ParameterSource

    source = click.get_current_context().get_parameter_source(name)
    return source not in (None, ParameterSource.DEFAULT)


def refuse_unused(files: Sequence[str], columns: Sequence[tuple[str, str]], *,
                  consensus: bool, as_json: bool) -> None:
    """Refuse, in one sentence, an option that would be ignored: a table's ``columns``
    (``(parameter, flag)``) with a tool's export, ``--rater`` with one export file per
    annotator, ``--quorum``/``--fusion`` without ``--consensus``, and
    ``--sweep-intervals`` without ``--json``."""
    exports = not any(Path(f).suffix.lower() in _TABLES for f in files)
    source = " ".join(files)
    for param, flag in columns:
        if exports and given(param):
            what = "is a tool export" if len(files) == 1 else "are tool exports"
            raise click.UsageError(
                f"{flag} names a column of a table, but {source} {what} (an export names its "
                f"own images, annotators, labels and shapes): leave {flag} out.")
    if exports and len(files) > 1 and given("rater"):
        raise click.UsageError(
            "--rater names the key or attribute of the annotator in one export file holding "
            "every annotator; with one file per annotator each file's annotator is its own "
            "(COCO: the file's name; CVAT: the job's assignee): leave --rater out.")
    for param, flag in (("quorum", "--quorum"), ("fusion", "--fusion")):
        if not consensus and given(param):
            raise click.UsageError(f"{flag} applies to the consensus: add --consensus.")
    if not as_json and given("sweep_intervals"):
        raise click.UsageError("--sweep-intervals gives the sweep's intervals in --json (the "
                               "console shows the sweep's estimates only): add --json.")


def emit_json(command: str, doc: dict[str, Any], shape: Shape, **extra: Any) -> None:
    """The figures under ``results`` (each with its ``figure`` name), the rest beside."""
    from accord.cli._json import emit

    rest = {k: v for k, v in doc.items() if k not in shape.figures}
    emit(command, {"results": [{"figure": k, **doc[k]} for k in shape.figures], **rest,
                   **extra})  # fmt: skip


def _num(x: Any) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def _cells(fig: dict[str, Any]) -> list[str]:
    ci = fig["confidence_interval"]
    return [_num(fig["estimate"]), f"{_num(ci['low'])} to {_num(ci['high'])}"]


def print_agreement(doc: dict[str, Any], source: str, shape: Shape,
                    notes: Sequence[str] = ()) -> None:  # fmt: skip
    """The figures, per label, per pair and over the thresholds, as tables."""
    from rich.text import Text

    console = cli_console()
    audit = doc["audit"]
    thr = doc["f1"][shape.threshold]
    console.print(Text(f"{source}: {audit['images']} images, {len(audit['annotators'])} "
                       f"annotators, {audit[shape.count]} {shape.noun}; {shape.measure} >= "
                       f"{thr:g}"), style="bold")  # fmt: skip
    for row in audit.get("dropped", []):
        console.print(Text(f"note: skipped: {row['reason']}: {row['count']}"), style="dim")
    for note in [*audit.get("notes", []), *notes]:
        console.print(Text(f"note: {note}"), style="dim")
    _print_tables(doc, shape)


def _print_tables(doc: dict[str, Any], shape: Shape) -> None:
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    console = cli_console()
    level = doc["f1"]["confidence_interval"]["confidence_level"]
    mean_title = f"mean {shape.measure}"
    main_t = Table(title="Agreement", title_justify="left")
    for head in ("figure", "estimate", f"{level:.0%} interval (bootstrap over images)"):
        main_t.add_column(head, justify="left" if head == "figure" else "right")
    for name, title in (("f1", "F1 (mean over pairs)"), (shape.mean, f"{mean_title}, matched"),
                        ("alpha", "alpha on matched objects")):  # fmt: skip
        main_t.add_row(title, *_cells(doc[name]))
    console.print(main_t)
    for title, rows, key in (("Per label", doc["per_label"], "label"),
                             ("Per pair", doc["pairs"], "annotators")):
        t = Table(title=title, title_justify="left")
        for head in (key, "F1", "interval", mean_title):
            t.add_column(head, justify="left" if head == key else "right")
        for row in rows:
            who = row["f1"][key]
            name = who if isinstance(who, str) else " / ".join(who)
            t.add_row(Text(name), *_cells(row["f1"]), _num(row[shape.mean]["estimate"]))
        console.print(t)
    sweep = Table(title=f"Over {shape.measure} thresholds", title_justify="left")
    for head in (f"{shape.measure} >=", "F1", mean_title, "alpha"):
        sweep.add_column(escape(head), justify="right")
    for row in doc["sweep"]:
        sweep.add_row(f"{row['f1'][shape.threshold]:.2f}", _num(row["f1"]["estimate"]),
                      _num(row[shape.mean]["estimate"]), _num(row["alpha"]["estimate"]))
    console.print(sweep)
