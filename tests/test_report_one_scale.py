"""One coefficient, one figure; one interpretation scale per table, named in its header.

The coefficient table reads every row on the scale of the coefficient the report is
about (its primary), so ordinal alpha and kappa are never graded on two scales side by
side; a second figure of the same coefficient says, in its own line, why it differs.
"""

from __future__ import annotations

import io

from rich.console import Console

import accord
from accord.interpret.interpretation import interpret

A = [1, 2, 3, 4, 2, 3, 1, 4, 2, 2, 3, 3, 4, 1, 2, 3]
B = [1, 3, 3, 4, 2, 2, 2, 4, 1, 2, 4, 3, 3, 1, 2, 2]


def test_every_row_is_read_on_the_primary_s_scale_named_in_the_header() -> None:
    rep = accord.report(accord.Annotations.from_pairs(A, B, level="ordinal"))
    assert rep.primary == "krippendorff_alpha"
    graded = [r for r in rep.coefficients if r.interpretation is not None]
    assert len(graded) >= 3
    assert {r.interpretation.scale for r in graded} == {"krippendorff"}  # type: ignore[union-attr]
    kappa = next(r for r in graded if r.coefficient == "cohen_kappa")
    # the band is the scale's own reading of the estimate (accord.interpret, Krippendorff 2004)
    res = next(x for x in rep.results if x.coefficient == "cohen_kappa")
    assert kappa.interpretation.band == interpret(res, "krippendorff").band  # type: ignore[union-attr]
    title = graded[0].interpretation.scale_title  # type: ignore[union-attr]
    assert f"<th>interpretation ({title})</th>" in rep.to_html()
    assert f"| interpretation ({title}) |" in rep.to_markdown()
    console = Console(width=400, record=True, color_system=None, file=io.StringIO())
    console.print(rep)
    assert f"band ({title})" in console.export_text()


def test_a_declared_scale_still_wins() -> None:
    rep = accord.report(accord.Annotations.from_pairs(A, B, level="ordinal"),
                        scale="landis_koch")
    graded = [r for r in rep.coefficients if r.interpretation is not None]
    assert {r.interpretation.scale for r in graded} == {"landis_koch"}  # type: ignore[union-attr]


def test_a_second_figure_of_ac1_says_on_its_line_why_it_differs() -> None:
    a = ["x", "y", "x", "x", "y", "x", None]
    b = ["x", "y", "y", "x", "y", "x", "x"]
    rep = accord.report(accord.Annotations.from_pairs(a, b))
    row = next(r for r in rep.coefficients if r.coefficient == "gwet_ac1")
    assert row.n_units == 7 and rep.pairs[0].context.n == 6
    md = rep.to_markdown()
    line = next(x for x in md.splitlines() if x.startswith("| Gwet's AC1 on the"))
    assert f"on the 6 units both rated (the coefficient table's {row.estimate:.4f} counts " \
           "all 7)" in line
