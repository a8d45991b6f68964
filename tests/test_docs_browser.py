"""The documentation site in a headless browser at a phone's width (390 px).

The site is built by MkDocs into a temporary folder (about 15 s, so the test is in the
slow lane, which CI runs after ``make docs`` has installed the docs extra) and opened
from ``file://``: every request outside the built site is aborted and recorded, so a
CDN font or script would fail the test. Each page must load with no console error,
show its title, and fit the width (wide tables and code blocks scroll inside their own
box, the page itself does not). Opened from disk as a reader would open
``site/index.html``: a navigation link lands on a page (a file, not a folder's listing),
the search answers without a server, and the formulas of the API reference are drawn
(MathML), not shown as LaTeX. Screenshots go to ``tests/artifacts/`` (git-ignored).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

# the report's browser fixture: Debian's Chromium, skipped outside CI when it is missing
from tests.test_html_browser import ARTIFACTS, _unavailable, browser  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
PAGES = {
    "index.html": "accord",
    "getting-started.html": "Getting started",
    "traps.html": "The traps",
    "conventions.html": "Conventions",
    "reference/api.html": "API reference",
    "reference/cli.html": "CLI reference",
}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    try:
        import mkdocs  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError:
        _unavailable("the docs extra is not installed (pip install '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    fetched = subprocess.run(["bash", str(ROOT / ".ci" / "fetch-doc-assets")], cwd=ROOT,
                             capture_output=True, text=True)
    assert fetched.returncode == 0, fetched.stderr[-3000:]
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                            "--site-dir", str(out)], cwd=ROOT, capture_output=True, text=True,
                           env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert built.returncode == 0, built.stderr[-3000:]
    return out


@pytest.mark.parametrize("page,title", PAGES.items(), ids=list(PAGES))
def test_page_loads_offline_and_fits_a_phone(browser: Any, site: Path, page: str,  # noqa: F811
                                             title: str) -> None:
    errors: list[str] = []
    view, blocked = _offline_page(browser, site, 390)
    view.set_viewport_size({"width": 390, "height": 844})
    view.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    view.on("pageerror", lambda exc: errors.append(str(exc)))
    view.goto((site / page).resolve().as_uri(), wait_until="load")
    assert blocked == [], f"{page} asked the network for {blocked}"
    assert errors == [], f"{page}: {errors}"
    assert view.locator("article h1").first.inner_text().startswith(title)
    width = view.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{page} is {width} px wide at a 390 px viewport"
    ARTIFACTS.mkdir(exist_ok=True)
    view.screenshot(path=str(ARTIFACTS / f"docs-{page.replace('/', '-')}.png"))
    view.close()


def _offline_page(browser: Any, site: Path, width: int) -> tuple[Any, list[str]]:  # noqa: F811
    """A page whose every request outside the site is aborted and recorded."""
    blocked: list[str] = []
    root = site.resolve().as_uri()

    def route(r: Any) -> None:
        if r.request.url.startswith(root + "/"):
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    view = browser.new_page(viewport={"width": width, "height": 900})
    view.route("**/*", route)
    return view, blocked


def test_a_navigation_link_opens_a_page_from_disk(browser: Any, site: Path) -> None:  # noqa: F811
    view, blocked = _offline_page(browser, site, 1280)
    view.goto((site / "index.html").resolve().as_uri(), wait_until="load")
    links = view.locator("nav.md-nav--primary a.md-nav__link[href]")
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    pages = [h for h in hrefs if not h.startswith("#")]
    assert pages and all(h.split("#")[0].endswith(".html") for h in pages), pages
    view.locator("nav.md-nav--primary a.md-nav__link[href$='guide/annotators.html']").first.click()
    view.wait_for_load_state("load")
    assert view.url.endswith("/guide/annotators.html")
    assert view.locator("article h1").first.inner_text().startswith("Annotators")
    assert blocked == []
    view.close()


def test_the_search_answers_from_disk(browser: Any, site: Path) -> None:  # noqa: F811
    view, blocked = _offline_page(browser, site, 1280)
    view.goto((site / "index.html").resolve().as_uri(), wait_until="load")
    view.locator("input.md-search__input").click()
    view.keyboard.type("Krippendorff")
    results = view.locator(".md-search-result__item")
    results.first.wait_for(timeout=15000)
    assert results.count() > 0
    assert "Krippendorff" in view.locator(".md-search-result").inner_text()
    assert blocked == []
    view.close()


def test_the_formulas_are_drawn_not_shown_as_latex(browser: Any, site: Path) -> None:  # noqa: F811
    view, blocked = _offline_page(browser, site, 390)
    view.goto((site / "reference" / "api.html").resolve().as_uri(), wait_until="load")
    formulas = view.locator("article div.math math")
    assert formulas.count() >= 15  # the .. math:: directives of the public docstrings
    assert view.locator("article math").count() >= 25  # with the inline :math: roles
    box = formulas.first.bounding_box()
    assert box is not None and box["height"] > 15  # a fraction is taller than a text line
    text = view.locator("article").inner_text()
    assert "\\frac" not in text and ".. math::" not in text
    assert view.evaluate("document.documentElement.scrollWidth") <= 390
    ARTIFACTS.mkdir(exist_ok=True)
    formulas.first.scroll_into_view_if_needed()
    view.screenshot(path=str(ARTIFACTS / "docs-formula.png"))
    assert blocked == []
    view.close()


def test_the_traps_pictures_are_drawn_from_the_pages_tables(tmp_path: Path) -> None:
    """docs/_tools/trap_figures.py draws every picture docs/traps.md shows, and nothing
    else (slow: matplotlib draws six figures)."""
    sys.path.insert(0, str(ROOT / "docs" / "_tools"))
    try:
        import trap_figures
    finally:
        sys.path.remove(str(ROOT / "docs" / "_tools"))
    written = {p.name for p in trap_figures.main(tmp_path)}
    page = (ROOT / "docs" / "traps.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\]\(assets/traps/([\w-]+\.svg)\)", page))
    checked_in = {p.name for p in (ROOT / "docs" / "assets" / "traps").glob("*.svg")}
    assert written == shown == checked_in
    assert all((tmp_path / name).read_text().lstrip().startswith("<?xml") for name in written)
