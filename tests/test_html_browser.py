"""The HTML report in a real headless browser (Debian's Chromium driven by Playwright).

Checks: the page loads with no console error and no network request (every
request but the file itself is aborted and recorded), it shows the summary, the
decision and the worksheet, a hostile label stays text (no dialog opens), it
fits a phone's width (wide tables scroll inside their box) and hides the
navigation in print. Screenshots are kept in ``tests/artifacts/`` (git-ignored).

The report is built from a copy of the pilot in a deliberately long directory
path, so the absolute paths it shows are long wherever the repository lies.

``make test`` installs Chromium with ``.ci/install-browser`` when it is missing;
the test skips, saying why, only where no browser can be found, and fails
instead under CI (``CI`` set to ``1`` or ``true``), where a skipped browser
test would hide a broken report.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import accord

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def _unavailable(reason: str) -> None:
    """Skip, or fail under CI: there the browser test must run."""
    if _in_ci():
        pytest.fail(f"{reason} (CI is set, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


def _chromium() -> str | None:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = _chromium()
    if executable is None:
        _unavailable("no Chromium found (run `bash .ci/install-browser` as root to install "
                     "Debian's chromium); the HTML report was not checked in a browser")
    try:
        from playwright import sync_api
    except ImportError:
        _unavailable("playwright is not installed (pip install '.[test]')")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, args=ARGS)
        yield b
        b.close()


class Page:
    """A page opened on a local file, recording console errors, requests and dialogs."""

    def __init__(self, browser: Any, path: Path, width: int, height: int) -> None:
        self.url = path.resolve().as_uri()
        self.errors: list[str] = []
        self.blocked: list[str] = []
        self.dialogs: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": height})
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("dialog", self._dialog)
        self.page.route("**/*", self._route)
        self.page.goto(self.url, wait_until="load")

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def _route(self, route: Any) -> None:
        if route.request.url == self.url:
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()


LONG_DIR = ("a-clone-of-the-accord-repository-in-a-deeply-nested-project-folder/"
            "with-long-unbroken-directory-names-like-those-of-ci-runners/" + "x" * 80)


@pytest.fixture(scope="module")
def demo_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("html") / LONG_DIR
    where.mkdir(parents=True)
    for name in ("pilot.csv", "study.toml", "pilot_items.txt"):
        shutil.copy(ROOT / "examples" / name, where / name)
    ann = accord.read(where / "pilot.csv", raters=["annotator_a", "annotator_b"])
    rep = accord.report(ann, where / "study.toml")
    assert len(rep.data.source) > 200  # the page must wrap it on a phone
    path = where / "demo-report.html"
    rep.save(path)
    return path


def test_report_loads_offline_and_shows_summary_and_worksheet(browser: Any,
                                                              demo_html: Path) -> None:
    view = Page(browser, demo_html, 1200, 900)
    page = view.page
    assert view.errors == [] and view.blocked == [] and view.dialogs == []
    assert page.title() == "Pilot decision: Review spam pilot, batch 1"
    assert page.locator("#summary h2").inner_text() == "Summary"
    assert page.locator("#decision strong").inner_text() == "Decision: REJECTED"
    worksheet = page.locator("#pair-1 table").first
    assert worksheet.is_visible()
    assert worksheet.locator("thead th").all_inner_texts() == [
        "annotator_a \\ annotator_b", "genuine", "spam", "off_topic", "total"]
    assert worksheet.locator("tbody tr").first.locator("td").all_inner_texts() == [
        "62", "8", "1", "71"]
    assert "p_o = 0.8435" in worksheet.locator("caption").inner_text()
    assert page.locator("svg.plot").count() == 3
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-desktop.png"), full_page=True)
    page.close()


def test_report_fits_a_phone_and_prints_without_navigation(browser: Any,
                                                           demo_html: Path) -> None:
    view = Page(browser, demo_html, 390, 844)
    page = view.page
    assert view.errors == [] and view.blocked == []
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0  # long paths wrap
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-phone.png"), full_page=True)
    page.emulate_media(media="print")
    assert page.locator("nav").is_hidden()
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 2  # the printed report runs over pages
    (ARTIFACTS / "report.pdf").write_bytes(pdf)
    page.close()


def test_hostile_labels_stay_text(browser: Any, tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    ann = accord.Annotations.from_wide({"<img src=x onerror=alert(2)>": [evil, "ok", "ok", evil],
                                        "bob": ["ok", "ok", evil, evil]})
    path = tmp_path / "hostile.html"
    accord.report(ann).save(path)
    view = Page(browser, path, 1000, 800)
    assert view.dialogs == [] and view.errors == [] and view.blocked == []
    text = view.page.locator("#pair-1 table").first.inner_text()
    assert evil in text
    assert view.page.locator("img").count() == 0 and view.page.locator("main script").count() == 0
    view.page.close()


def test_wide_tables_on_a_phone_scroll_with_a_cue_and_show_ci_and_status(
        browser: Any, demo_html: Path) -> None:
    view = Page(browser, demo_html, 390, 844)
    page = view.page
    box = page.locator("#summary .scroll").first
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # wider than the phone: it scrolls
    assert "gradient" in box.evaluate("b => getComputedStyle(b).backgroundImage")  # edge shadow
    cue = page.locator("#summary .scroll-cue").first
    assert cue.is_visible() and "scroll sideways" in cue.inner_text()
    heads = page.locator("#summary table.coefficients thead th")
    ci = heads.nth(2)
    assert ci.inner_text() == "95% CI"
    assert ci.bounding_box()["x"] + ci.bounding_box()["width"] <= 390  # seen before scrolling
    status = page.locator("#study table.register thead th").nth(2)
    assert status.inner_text() == "status"
    status.scroll_into_view_if_needed()
    assert status.bounding_box()["x"] + status.bounding_box()["width"] <= 390
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    last = heads.last
    assert last.bounding_box()["x"] + last.bounding_box()["width"] <= 390 + 1  # reachable
    first = heads.first  # and the coefficient's name stays in view
    assert first.bounding_box()["x"] >= 0
    page.close()


def test_plot_text_stays_legible_on_a_phone(browser: Any, demo_html: Path) -> None:
    view = Page(browser, demo_html, 390, 844)
    heights = view.page.evaluate(
        "[...document.querySelectorAll('svg.plot text')]"
        ".map(t => t.getBoundingClientRect().height).filter(h => h > 0)")
    assert heights and min(heights) >= 9.5  # about 8 px type or more (it was about 5 px)
    for svg in view.page.locator("svg.plot").all():
        assert svg.bounding_box()["width"] >= 22 * 15 - 1  # never shrunk below 22rem


def test_model_against_reference_section(browser: Any, tmp_path: Path) -> None:
    """The confusion heatmap (rows = reference), per-class bars and the human ceiling,
    on a desktop and on a phone; a hostile system name stays text."""
    ann = accord.read(ROOT / "examples" / "preds.csv",
                      kinds={"gold": "gold", "model": "model", "llm": "llm"})
    path = tmp_path / "reference.html"
    accord.report(ann).save(path)
    for width, height in ((1200, 900), (390, 844)):
        view = Page(browser, path, width, height)
        page = view.page
        assert view.errors == [] and view.blocked == [] and view.dialogs == []
        assert page.locator("#reference h2").inner_text() == "Model against reference"
        confusion = page.locator("#reference table").first
        assert confusion.locator("thead th").all_inner_texts() == [
            "gold \\ model", "genuine", "off_topic", "spam", "total"]
        assert confusion.locator("tbody tr").first.locator("td").all_inner_texts() == [
            "226", "18", "20", "264"]
        for plot in ("confusion-1", "classes-1", "ceiling-1", "confusion-2"):
            assert page.locator(f'svg[data-plot="{plot}"]').is_visible()
        text = page.locator("#reference").inner_text()
        assert "near the human ceiling on these 397 units" in text
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"reference-{width}.png"), full_page=True)
        page.close()
    evil = "<img src=x onerror=alert(3)>"
    hostile = accord.Annotations.from_wide({"gold": ["a", "b", "a", "b"],
                                            evil: ["a", "b", "b", "b"]})
    hostile.kinds.update({"gold": "gold", evil: "model"})
    accord.report(hostile).save(tmp_path / "hostile-system.html")
    view = Page(browser, tmp_path / "hostile-system.html", 1000, 800)
    assert view.dialogs == [] and view.errors == []
    assert evil in view.page.locator("#reference h3").first.inner_text()
    assert view.page.locator("img").count() == 0
    view.page.close()


def test_span_section(browser: Any, tmp_path: Path) -> None:
    """Span-only data: per-label F1 per mode, the pairs, the label confusion and the
    disagreements with each rater's span text, on a desktop and on a phone; a hostile
    label and span text stay text."""
    ann = accord.read(ROOT / "examples" / "ner_spans.csv", unit="doc", rater="annotator",
                      value="label", start="start", end="end")
    path = tmp_path / "spans.html"
    accord.report(ann, seed=1).save(path)
    for width, height in ((1200, 900), (390, 844)):
        view = Page(browser, path, width, height)
        page = view.page
        assert view.errors == [] and view.blocked == [] and view.dialogs == []
        assert page.locator("#spans h2").inner_text() == "Agreement on spans"
        # 4 modes, pairs, confusion, spans, and alpha_U with gamma beside the F1
        assert page.locator("#spans table").count() == 8
        after = page.locator("#unitizing").locator(
            "xpath=following-sibling::table[1] | following-sibling::*[.//table][1]").first
        assert "alpha" in after.inner_text() and "gamma" in after.inner_text()
        strict = page.locator("#spans table").first
        assert "mode strict" in strict.locator("caption").inner_text()
        assert strict.locator("tbody th").all_inner_texts()[:2] == ["mean F1", "macro F1"]
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"spans-{width}.png"), full_page=True)
        page.close()
    evil = "<img src=x onerror=alert(4)>"
    hostile = tmp_path / "hostile-spans.csv"
    hostile.write_text(f"doc,annotator,start,end,label,text\nd1,ann,0,5,{evil},x\n"
                       f"d1,bob,0,5,PER,x\nd1,bob,9,12,LOC,x\n")
    ann = accord.read(hostile, unit="doc", rater="annotator", value="label", start="start",
                      end="end")
    accord.report(ann, seed=1).save(tmp_path / "hostile-spans.html")
    view = Page(browser, tmp_path / "hostile-spans.html", 1000, 800)
    assert view.dialogs == [] and view.errors == []
    assert evil in view.page.locator("#spans").inner_text()
    assert view.page.locator("img").count() == 0
    view.page.close()


def test_box_section(browser: Any, tmp_path: Path) -> None:
    """Box data (a long CSV with x, y, w, h): the verdict, the tables, the sweep chart and
    the most disputed images with one legend entry per annotator, on a desktop and on a
    phone, no overflow and no console error; a hostile label stays text."""
    path = tmp_path / "boxes.html"
    rep = accord.report(accord.read(ROOT / "examples" / "boxes.csv"))
    assert rep.shapes is not None
    rep.save(path)
    n_drawn = len(rep.shapes.disputed)
    for width, height in ((1200, 900), (390, 844)):
        view = Page(browser, path, width, height)
        page = view.page
        assert view.errors == [] and view.blocked == [] and view.dialogs == []
        assert page.locator("h1").inner_text() == "Agreement on boxes"
        assert page.locator("#boxes h2").inner_text() == "Agreement on boxes"
        assert page.locator("#boxes svg.plot[data-plot='box-sweep']").count() == 1
        pictures = page.locator(".box-pictures svg.plot")
        assert 1 <= pictures.count() == n_drawn <= 6
        assert pictures.first.is_visible() and pictures.first.locator("rect").count() > 0
        entries = page.locator(".box-legend .legend-entry")
        assert entries.count() == len(rep.shapes.annotators) == 3
        assert [t.split(") ", 1)[1] for t in entries.all_text_contents()] == ["ann", "bob",
                                                                          "cleo"]
        found = page.evaluate(PHONE_CHECKS)
        assert found["overflow"] <= 0 and found["clipped"] == []
        assert min(found["sizes"]) >= 11.0  # the labels beside the boxes too
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"boxes-{width}.png"), full_page=True)
        page.close()
    evil = "<img src=x onerror=alert(1)>"
    hostile = tmp_path / "hostile-boxes.csv"
    hostile.write_text(f"image,annotator,label,x,y,w,h\n{evil},ann,{evil},0,0,10,10\n"
                       f"{evil},bob,cat,1,0,10,10\ni2,bob,{evil},5,5,4,4\n")
    accord.report(accord.read(hostile)).save(tmp_path / "hostile-boxes.html")
    view = Page(browser, tmp_path / "hostile-boxes.html", 1000, 800)
    assert view.dialogs == [] and view.errors == [] and view.blocked == []
    assert evil in view.page.locator("#boxes").inner_text()
    assert view.page.locator("img").count() == 0
    view.page.close()


@pytest.mark.parametrize("kind", ["polygons", "keypoints"])
def test_polygon_and_keypoint_sections(browser: Any, tmp_path: Path, kind: str) -> None:
    """Polygon and keypoint data: the job, the sweep chart and the most disputed images
    (outlines as paths, keypoints as markers) with one legend entry per annotator, on a
    phone, no overflow, no text under 11 px and no console error."""
    from accord.readers.keypoints import keypoint_table
    from accord.readers.polygons import polygon_table

    pytest.importorskip("shapely")
    path = tmp_path / f"{kind}.html"
    rep = (accord.report(polygon_table(ROOT / "examples" / "polygons.csv"))
           if kind == "polygons" else accord.report(
               keypoint_table(ROOT / "examples" / "keypoints.csv", names=["wrist", "tip"]),
               sigmas={"wrist": 0.062, "tip": 0.05}))
    assert rep.shapes is not None
    rep.save(path)
    view = Page(browser, path, 390, 844)
    page = view.page
    assert view.errors == [] and view.blocked == [] and view.dialogs == []
    title = f"Agreement on {kind}"
    assert page.locator("h1").inner_text() == title
    assert page.locator(f"#{kind} h2").inner_text() == title
    assert page.locator(f"#{kind} svg.plot[data-plot='box-sweep']").count() == 1
    pictures = page.locator(".box-pictures svg.plot")
    assert 1 <= pictures.count() == len(rep.shapes.disputed) <= 6
    drawn = pictures.first.locator("path" if kind == "polygons" else "circle")
    assert pictures.first.is_visible() and drawn.count() > 0
    assert page.locator(".box-legend .legend-entry").count() == 3
    found = page.evaluate(PHONE_CHECKS)
    assert found["overflow"] <= 0 and found["clipped"] == []
    assert min(found["sizes"]) >= 11.0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{kind}-390.png"), full_page=True)
    page.close()


def test_multilabel_section(browser: Any, tmp_path: Path) -> None:
    """Set-valued ratings: the per-label and set tables on a desktop and on a phone, no
    overflow; a hostile label stays text."""
    ann = accord.read(ROOT / "examples" / "toxicity_multilabel.csv", label_separator=";")
    path = tmp_path / "multilabel.html"
    accord.report(ann).save(path)
    for width, height in ((1200, 900), (390, 844)):
        view = Page(browser, path, width, height)
        page = view.page
        assert view.errors == [] and view.blocked == [] and view.dialogs == []
        assert page.locator("#multilabel h2").inner_text() == "Multilabel agreement"
        per_label = page.locator("#multilabel table").nth(1)
        assert per_label.locator("thead th").all_inner_texts()[:3] == [
            "label", "ratings with it", "prevalence"]
        assert per_label.locator("tbody tr").count() == len(ann.labels)
        assert "Krippendorff's alpha, MASI distance" in page.locator("#multilabel").inner_text()
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"multilabel-{width}.png"), full_page=True)
        page.close()
    evil = "<img src=x onerror=alert(4)>"
    hostile = accord.Annotations.from_wide({"a": [(evil, "ok"), ("ok",), (evil,), ()],
                                            "b": [(evil,), ("ok",), ("ok",), ()]})
    accord.report(hostile).save(tmp_path / "hostile-multilabel.html")
    for width in (1000, 390):
        view = Page(browser, tmp_path / "hostile-multilabel.html", width, 800)
        assert view.dialogs == [] and view.errors == []
        assert evil in view.page.locator("#multilabel table").nth(1).inner_text()
        assert view.page.locator("img").count() == 0
        overflow = view.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        view.page.close()


def test_history_page(browser: Any, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from accord.cli import main
    from accord.history.store import Figure, Run, Store

    page_path = tmp_path / "history.html"
    result = CliRunner().invoke(main, ["history", str(ROOT / "examples" / "history.db"),
                                       "-o", str(page_path)])
    assert result.exit_code == 0, result.output
    for width in (1200, 390):
        view = Page(browser, page_path, width, 900)
        page = view.page
        assert view.errors == [] and view.blocked == [] and view.dialogs == []
        assert page.locator("svg#history-0").is_visible()
        assert page.locator("svg#history-0 polygon.flagged").count() == 1
        assert page.locator("svg#history-0 circle").count() == 7
        assert "below the lower control limit" in page.locator(".decision.rejected").inner_text()
        assert page.locator("#runs tbody tr").count() == 8
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"history-{width}.png"), full_page=True)
        page.close()
    store = Store(tmp_path / "hostile.db")
    for t in range(5):
        store.record(Run(f"2026-01-0{t + 1}", "<img src=x onerror=alert(1)>",
                         (Figure("cohen_kappa", 0.8 - 0.3 * (t == 4), 0.03),),
                         source="<script>alert(2)</script>"))
    hostile = tmp_path / "hostile.html"
    CliRunner().invoke(main, ["history", str(tmp_path / "hostile.db"), "-o", str(hostile)])
    view = Page(browser, hostile, 1000, 800)
    assert view.dialogs == [] and view.blocked == [] and view.errors == []
    assert "<img src=x onerror=alert(1)>" in view.page.locator("h2").first.inner_text()
    view.page.close()


# --------------------------------------------------------------------------- each job at 390 px
PHONE_CHECKS = """() => {
  const clipped = [...document.querySelectorAll('.scroll')]
    .filter(b => b.scrollWidth > b.clientWidth + 1)
    .filter(b => { const cue = b.previousElementSibling;
                   return !(cue && cue.classList.contains('scroll-cue')
                            && cue.getBoundingClientRect().height > 0); })
    .map(b => (b.querySelector('caption, th') || b).textContent.slice(0, 60));
  const sizes = [...document.querySelectorAll('svg.plot text')].map(t => {
    const m = t.getScreenCTM();
    const scale = Math.sqrt(m.a * m.a + m.b * m.b);
    return parseFloat(getComputedStyle(t).fontSize) * scale;
  }).filter(px => px > 0);
  const captionsBelow = [...document.querySelectorAll('table > caption')]
    .filter(c => c.getBoundingClientRect().top >= c.parentElement.tBodies[0]
                   .getBoundingClientRect().top)
    .map(c => c.textContent.slice(0, 60));
  const verdict = document.querySelector('header #verdict, header #decision');
  const box = verdict.getBoundingClientRect();
  return {clipped, sizes, captionsBelow, verdictBottom: box.bottom,
          verdictText: verdict.textContent,
          overflow: document.documentElement.scrollWidth - window.innerWidth};
}"""


@pytest.fixture(scope="module")
def job_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, str]]:
    from tests.test_report_jobs import JOBS

    where = tmp_path_factory.mktemp("jobs")
    out = {}
    for kind, build in JOBS.items():
        rep = build()
        assert rep.job is not None
        path = where / f"{kind}.html"
        rep.save(path)
        out[kind] = (path, rep.job.verdict)
    return out


@pytest.mark.parametrize("kind", ["raters", "reference", "judge", "study", "spans", "boxes",
                                  "label_sets", "pairwise_judge", "judge_ranking",
                                  "judge_calibration", "judge_consistency", "judge_ppi",
                                  "judge_panel"])
def test_each_job_on_a_phone(browser: Any, job_pages: dict[str, tuple[Path, str]],
                             kind: str) -> None:
    path, verdict = job_pages[kind]
    view = Page(browser, path, 390, 844)
    assert view.errors == [] and view.blocked == []
    found = view.page.evaluate(PHONE_CHECKS)
    assert found["overflow"] <= 0  # the page itself never scrolls sideways
    assert found["clipped"] == []  # every table wider than the phone says it scrolls
    # the span, consistency, PPI and panel reports have tables only
    assert bool(found["sizes"]) == (kind not in ("spans", "judge_consistency", "judge_ppi",
                                                 "judge_panel"))
    assert min(found["sizes"], default=11.0) >= 11.0  # chart text at least 11 px
    assert found["verdictBottom"] <= 844  # the answer is on the first screen
    assert found["captionsBelow"] == []  # a table's caption is read before the table
    assert verdict in " ".join(found["verdictText"].split())
    ARTIFACTS.mkdir(exist_ok=True)
    view.page.screenshot(path=str(ARTIFACTS / f"job-{kind}-phone.png"), full_page=True)
    view.page.close()


def test_annotators_section_on_a_phone(browser: Any, tmp_path: Path) -> None:
    """Five raters, one answering at random: the Annotators section on a phone names the
    flagged annotator first, its table scrolls with a cue when wider than the screen, and
    the page never scrolls sideways."""
    from tests.test_report_jobs import _crowd_with_a_random_rater

    rep = accord.report(_crowd_with_a_random_rater(), seed=3)
    assert rep.annotators is not None and rep.job is not None
    flag = rep.annotators.rows[0].flag
    assert flag is not None
    path = tmp_path / "annotators.html"
    rep.save(path)
    view = Page(browser, path, 390, 844)
    page = view.page
    assert view.errors == [] and view.blocked == [] and view.dialogs == []
    found = page.evaluate(PHONE_CHECKS)
    assert found["overflow"] <= 0 and found["clipped"] == []
    assert found["verdictBottom"] <= 844
    section = page.locator("#annotators")
    assert section.locator("h2").inner_text() == "Annotators"
    assert section.locator("p.flag").inner_text() == flag
    assert section.locator("p.flag").is_visible()
    table = section.locator("table")
    assert table.locator("tbody tr").count() == 5
    assert table.locator("tbody tr").first.locator("th, td").first.inner_text() == "rand"
    assert page.locator('nav a[href="#annotators"]').count() == 1
    # after the agreement figures (the summary), before the worksheets
    ids = page.evaluate("[...document.querySelectorAll('main > section')].map(s => s.id)")
    assert ids.index("summary") < ids.index("annotators") < ids.index("pair-1")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "annotators-phone.png"), full_page=True)
    page.close()
