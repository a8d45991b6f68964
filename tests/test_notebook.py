"""The example notebook runs in a real Jupyter kernel, and every result it shows is HTML
that carries the figures (the kernel imports this checkout's accord)."""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

import pytest

import accord
from tests import test_html_browser
from tests.test_html_browser import Page

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
NOTEBOOK = EXAMPLES / "notebook.ipynb"
browser = test_html_browser.browser  # the Chromium fixture (skips, or fails under CI, without it)


def test_the_notebook_is_stored_without_outputs() -> None:
    import nbformat
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(not c.outputs and c.execution_count is None for c in code)


@pytest.fixture(scope="module")
def executed() -> Any:
    """The notebook run by a python3 kernel in ``examples/``."""
    import nbclient
    import nbformat
    src = str(ROOT / "src")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    with pytest.MonkeyPatch.context() as mp, warnings.catch_warnings():
        mp.setenv("PYTHONPATH", os.pathsep.join(
            p for p in (src, os.environ.get("PYTHONPATH", "")) if p))
        # jupyter_client warns about its own set-up (paths, TCP without encryption)
        warnings.simplefilter("ignore")
        client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=600,
                                         resources={"metadata": {"path": str(EXAMPLES)}})
        client.execute()
    return nb


def _outputs(nb: Any) -> dict[str, dict[str, str]]:
    """The rich output of each code cell, by the cell's last line."""
    out = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert not [o for o in cell.outputs if o.output_type == "error"], cell.source
        shown = [o for o in cell.outputs if o.output_type in ("execute_result", "display_data")]
        if shown:
            out[cell.source.splitlines()[-1]] = dict(shown[-1]["data"])
    return out


@pytest.mark.slow
def test_the_notebook_runs_and_each_result_shows_html_with_its_figures(executed: Any) -> None:
    shown = _outputs(executed)
    assert len(shown) >= 9
    missing = [line for line, data in shown.items() if "text/html" not in data]
    assert not missing, f"shown without HTML: {missing}"

    pilot = accord.read(EXAMPLES / "pilot.csv")
    kappa = accord.cohen_kappa(pilot.select(raters=["annotator_a", "annotator_b"]))
    ci = kappa.confidence_interval(0.95)
    card = shown["kappa"]["text/html"]
    assert f"{kappa.estimate:.4f}" in card and f"{ci.low:.4f} to {ci.high:.4f}" in card
    assert "Landis &amp; Koch" in card and f"n_units {kappa.n_units}" in card
    assert shown["kappa"]["text/plain"].startswith(f"cohen_kappa, estimate = {kappa.estimate:.4f}")
    assert f"{ci.low:.4f} to {ci.high:.4f}" in shown["kappa.confidence_interval(0.95)"]["text/html"]

    pairs = accord.pairwise(pilot)
    assert all(f"{x:.4f}" in shown["pairs"]["text/html"] for x in pairs.pair_estimates)
    frame = shown["pairs.to_frame()"]["text/html"]
    assert "estimate" in frame and "ci_low" in frame  # each pair's figure with its interval
    for res in pairs.results.values():
        ci = res.confidence_interval(0.95)
        assert f"{ci.low:.6f}" in frame and f"{ci.high:.6f}" in frame

    preds = accord.read(EXAMPLES / "preds.csv")
    model = accord.evaluate(preds, reference="gold", systems="model")
    assert f"{model.accuracy.estimate:.4f}" in shown["model"]["text/html"]
    assert "precision_ci_low" in shown["model.to_frame()"]["text/html"]

    crowd = accord.read(EXAMPLES / "crowd.csv", unit="image", rater="worker", value="label")
    flagged = accord.annotators(crowd, n_resamples=200).flagged
    assert flagged and all(str(r.name) in shown["workers"]["text/html"] for r in flagged)
    assert "posterior" in shown["labels.to_frame().head()"]["text/html"]

    report = shown["accord.report(pilot)"]["text/html"]
    assert report.startswith('<div class="accord-report">') and "<script" not in report
    assert f"{accord.fleiss_kappa(pilot).estimate:.4f}" in report


@pytest.mark.slow
@pytest.mark.parametrize("width", [390, 1280])
def test_the_rendered_notebook_fits_a_phone_and_a_laptop(executed: Any, browser: Any,
                                                        tmp_path: Path, width: int) -> None:
    import nbconvert
    body, _ = nbconvert.HTMLExporter(template_name="lab").from_notebook_node(executed)
    path = tmp_path / "notebook.html"
    path.write_text(body, encoding="utf-8")
    view = Page(browser, path, width, 900)
    page = view.page
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    boxes = page.evaluate("""() => [...document.querySelectorAll('.accord-card, .accord-report')]
        .map(e => [e.getBoundingClientRect().right, e.scrollWidth - e.clientWidth])""")
    assert len(boxes) >= 7
    for right, spill in boxes:
        assert right <= width and spill <= 0  # wide tables scroll inside their own box
    assert not view.dialogs
    page.close()
