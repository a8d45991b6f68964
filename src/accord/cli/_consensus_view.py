"""``--consensus`` of ``accord boxes``, ``accord polygons`` and ``accord keypoints``: its
options, the CSV it writes and the summary it prints."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from accord.cli._common import console as cli_console
from accord.cli._shapes_view import _num

F = TypeVar("F", bound=Callable[..., Any])

#: Consensus shapes shown on the console without -o.
SHOWN = 20
#: The columns every consensus CSV ends with.
MORE = ("support", "n_annotators", "spread", "label_share", "tied_labels")


@dataclass(frozen=True)
class View:
    """How one shape's consensus is named, written and shown.

    ``noun`` names the shapes ("boxes"); ``key`` is the audit's count of them
    (``consensus_<key>``); ``fused`` says what a group becomes (for --help); ``shape``
    gives a row's shape cells for the CSV (after image and label) and ``show`` the cells
    of the console table under ``heads``.
    """

    noun: str
    key: str
    fused: str
    fusion: str
    shape: Callable[[dict[str, Any]], list[Any]]
    heads: tuple[str, ...]
    show: Callable[[dict[str, Any]], list[str]]


def consensus_options(view: View, kept: str) -> Callable[[F], F]:
    """--consensus, -o/--output, --quorum and --fusion; ``kept`` names the columns whose
    names the CSV keeps."""
    options = [
        click.option("--consensus", is_flag=True, default=False,
                     help=f"Also write the consensus {view.noun} to -o FILE.csv: the groups "
                     f"of matched {view.noun} (as for alpha) that a quorum of the annotators "
                     f"drew, each with its majority label and {view.fused}."),
        click.option("-o", "--output", default=None, metavar="FILE.csv",
                     type=click.Path(dir_okay=False),
                     help=f"With --consensus: the CSV of consensus {view.noun} (written "
                     f"atomically; {kept})."),
        click.option("--quorum", default=0.5, show_default=True,
                     type=click.FloatRange(0.0, 1.0, min_open=True),
                     help="With --consensus: the share of the annotators a group needs, "
                     f"rounded up to a count of {view.noun} (CVAT's rule)."),
        click.option("--fusion", default="weighted", show_default=True,
                     type=click.Choice(["weighted", "mean"]),
                     help=f"With --consensus: {view.fusion}."),
    ]  # fmt: skip

    def apply(func: F) -> F:
        for option in reversed(options):
            func = option(func)
        return func

    return apply


def check_output(output: str | None, consensus: bool, noun: str) -> None:
    """-o without --consensus is a usage error."""
    if output is not None and not consensus:
        raise click.UsageError(f"-o writes the consensus {noun}: add --consensus.")


def summary(cons: Any, output: str | None, names: Sequence[str], view: View) -> dict[str, Any]:
    """Write the CSV when asked; the consensus block of the JSON document."""
    if output is not None:
        write(output, cons.rows(), names, view)
    return {**cons.to_dict(), "output": output}


def write(path: str, rows: list[dict[str, Any]], names: Sequence[str], view: View) -> None:
    """The consensus shapes as a CSV, the tied labels joined by ``|``."""
    from accord.cli.annotators import _write_rows

    lines = ([r["image"], r["label"], *view.shape(r), r["support"], r["n_annotators"],
              repr(r["spread"]), repr(r["label_share"]), "|".join(r["tied_labels"])]
             for r in rows)  # fmt: skip
    _write_rows(path, [*names, *MORE], lines)


def show(doc: dict[str, Any], names: Sequence[str], view: View) -> None:
    """The consensus table (without -o) and one line of counts."""
    from rich.table import Table
    from rich.text import Text

    console = cli_console()
    audit, rows = doc["audit"], doc["results"]
    if doc["output"] is None:
        t = Table(title=f"Consensus {view.noun}", title_justify="left")
        for head in (*names[:2], *view.heads, "support", "spread", "label share"):
            t.add_column(head, justify="left" if head in names[:2] else "right")
        for r in rows[:SHOWN]:
            t.add_row(Text(r["image"]), Text(r["label"]), *view.show(r),
                      f"{r['support']}/{r['n_annotators']}", _num(r["spread"]),
                      _num(r["label_share"]))  # fmt: skip
        console.print(t)
    below = ", ".join(f"support {r['support']}: {r['count']}"
                      for r in audit["below_quorum_by_support"])  # fmt: skip
    where = (f"written to {doc['output']}" if doc["output"] is not None else
             f"the first {min(len(rows), SHOWN)} shown; -o FILE.csv writes them all")
    console.print(Text(
        f"Consensus: {audit[f'consensus_{view.key}']} {view.noun} (at least "
        f"{doc['required']} of {doc['n_annotators']} annotators, fusion {doc['fusion']}), "
        f"{where}; {audit['below_quorum']} groups below quorum{f' ({below})' if below else ''}"
        f"; {audit['groups_tied']} with a tied label."))


def _float(x: Any) -> Any:
    return x if isinstance(x, (str, int)) else repr(x)


BOX_VIEW = View(
    "boxes", "boxes", "fused coordinates",
    "the fused coordinates, weighted by each annotator's mean pairwise F1, or the plain mean",
    lambda r: [_float(r[k]) for k in ("x", "y", "w", "h")],
    ("x", "y", "w", "h"), lambda r: [f"{r[k]:.1f}" for k in ("x", "y", "w", "h")],
)  # fmt: skip
POLYGON_VIEW = View(
    "polygons", "polygons", "the region at least half of them cover (by weight)",
    "the members' weights in the majority of area: each annotator's mean pairwise F1, or "
    "1 each",
    lambda r: [json.dumps(r["polygon"]), r["wkt"], repr(r["area"])],
    ("area",), lambda r: [f"{r['area']:.1f}"],
)  # fmt: skip
KEYPOINT_VIEW = View(
    "objects", "objects", "each keypoint the weighted mean of the members who labelled it",
    "the members' weights in the mean of each point and the vote on its visibility: each "
    "annotator's mean pairwise F1, or 1 each",
    lambda r: [json.dumps(r["keypoints"]), repr(r["area"])],
    ("points",), lambda r: [f"{sum(1 for v in r['keypoints'][2::3] if v)}"
                            f"/{len(r['keypoints']) // 3}"],
)  # fmt: skip
