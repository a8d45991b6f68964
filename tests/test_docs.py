"""The README's and the documentation site's examples run and print what they say.

Every ```python block of README.md and docs/**/*.md runs (``python engines`` blocks run
in the engines lane's own tests, not here), in a temporary folder that sees the
checkout's ``examples/`` and ``tests/`` (so a block that writes a file writes it there);
the comment lines after a ``print(...)`` are the output it promises. Every ``$ accord``
line of a ```console block (and every line of the README's bare shell blocks) runs
through the CLI from the repository root. The API reference names every public name,
the CLI reference is what the click commands say now, and the site's navigation lists
every page.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
SHELL_DOCS = [README, ROOT / "examples" / "README.md", *sorted(DOCS.rglob("*.md"))]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _name(doc: Path) -> str:
    return doc.relative_to(ROOT).as_posix()


def _page_blocks() -> dict[str, list[str]]:
    """Every ```python block of each page, in page order."""
    return {_name(doc): re.findall(r"^```python\n(.*?)^```", doc.read_text(encoding="utf-8"),
                                   re.S | re.M) for doc in PAGES}


PAGE_BLOCKS = _page_blocks()
# (page, position on the page): a page reads like a notebook, so block i runs after
# blocks 0..i-1 of the same page, in one namespace
BLOCKS = [(page, i) for page, blocks in PAGE_BLOCKS.items() for i in range(len(blocks))]


def _shell_lines() -> list[tuple[str, str]]:
    """Every command line of the shell blocks: bare fences or sh/bash in the README and
    examples/README.md, and the ``$ `` lines of ```console blocks anywhere."""
    out = []
    for doc in SHELL_DOCS:
        fence: str | None = None  # the language of the open block, "" for none
        for line in doc.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                fence = line[3:].strip() if fence is None else None
            elif fence == "console" and line.startswith("$ "):
                out.append((_name(doc), line[2:]))
            elif fence in ("", "sh", "bash", "shell") and line.strip() and DOCS not in doc.parents:
                out.append((_name(doc), line))
    return out


SHELL = _shell_lines()


def _expected(block: str) -> list[str]:
    """Comment lines right after a print(...) line are that print's expected output."""
    out, after_print = [], False
    for line in block.splitlines():
        if line.startswith("# ") and after_print:
            out.append(line[2:])
            continue
        after_print = line.lstrip().startswith("print(")
    return out


@pytest.mark.parametrize("doc,position", BLOCKS, ids=[f"{d}:{i}" for d, i in BLOCKS])
def test_python_block_runs_and_prints_what_it_says(doc: str, position: int, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    for shared in ("examples", "tests"):
        os.symlink(ROOT / shared, tmp_path / shared)
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    with contextlib.redirect_stdout(io.StringIO()):
        for earlier in PAGE_BLOCKS[doc][:position]:
            exec(compile(earlier, doc, "exec"), namespace)  # noqa: S102 - our docs
    block = PAGE_BLOCKS[doc][position]
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(block, doc, "exec"), namespace)  # noqa: S102 - our docs
    printed = buf.getvalue().splitlines()
    it = iter(printed)
    for line in _expected(block):
        assert any(p.strip() == line.strip() for p in it), (
            f"{doc} promises {line!r}; got {printed}"
        )


def _split(line: str) -> tuple[list[str], int]:
    """The words of a command line and the exit status it documents (``# exit 1``)."""
    command, _, comment = line.partition(" #")
    status = re.search(r"\bexit (\d)", comment)
    return shlex.split(command), int(status.group(1)) if status else 0


@pytest.mark.parametrize("doc,line", SHELL, ids=[f"{d}:{i}" for i, (d, _) in enumerate(SHELL)])
def test_shell_line_runs_as_written(doc: str, line: str, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``accord`` lines run through the CLI from the repository root (outputs go to a
    temporary folder); ``make``, ``pip`` and ``source`` lines name targets, extras and
    files that exist; any other command is an error here."""
    words, status = _split(line)
    program, args = words[0], words[1:]
    if program in ("accord", ".venv/bin/accord"):
        from click.testing import CliRunner

        from accord.cli import main

        for i, word in enumerate(args[:-1]):
            if word in ("-o", "--output", "--record", "--report") and args[i + 1] != "-":
                args[i + 1] = str(tmp_path / Path(args[i + 1]).name)
        monkeypatch.chdir(ROOT)
        result = CliRunner().invoke(main, args)
        assert result.exit_code == status, f"{doc}: {line!r} exited {result.exit_code}: " \
            f"{result.output[-2000:]}"
        return
    if program == "make":
        targets = re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M)
        assert all(t in targets for t in args), f"{doc}: {line!r}: no such make target"
    elif program == "pip":
        assert args[0] == "install", line
        extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
            "optional-dependencies"]
        for spec in (a for a in args[1:] if not a.startswith("-")):
            path, _, named = spec.partition("[")
            if path.startswith("dist/"):  # a wheel `make dist` builds
                assert re.fullmatch(r"dist/accord-\*\.whl", path), line
                continue
            assert (ROOT / path).joinpath("pyproject.toml").exists(), line
            for extra in named.rstrip("]").split(",") if named else []:
                assert extra in extras, f"{doc}: {line!r}: no extra {extra!r}"
    elif program == "source":
        assert args == [".venv/bin/activate"], line  # what `make demo` creates
    elif program == "python":
        assert (ROOT / args[0]).exists(), line
    else:
        pytest.fail(f"{doc}: {line!r}: a shell line this test does not know how to check")


def test_readme_has_the_two_setup_commands() -> None:
    text = README.read_text(encoding="utf-8")
    assert "make demo" in text and "make test" in text


def test_readme_is_a_short_front_door_with_examples() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250, "README.md is the front door: move detail to docs/"
    assert sum(doc == "README.md" for doc, _ in BLOCKS) >= 3


def test_every_public_name_is_in_the_api_reference() -> None:
    import accord

    page = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^::: accord\.[\w.]*?\.?(\w+)$", page, re.M))
    missing = sorted(set(accord.__all__) - documented)
    assert not missing, f"docs/reference/api.md lacks the public names {missing}: add " \
        "a '::: accord._api.NAME' line for each"


def test_the_cli_reference_is_what_the_commands_say() -> None:
    sys.path.insert(0, str(DOCS / "_tools"))
    try:
        import cli_reference
    finally:
        sys.path.remove(str(DOCS / "_tools"))
    current = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert current == cli_reference.render(), "docs/reference/cli.md is stale: run " \
        "python docs/_tools/cli_reference.py"


def test_every_page_is_in_the_navigation() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s+([\w/.-]+\.md)\s*$", config, re.M))
    pages = {p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md")
             if not p.relative_to(DOCS).as_posix().startswith("_")} - {"README.md"}
    assert pages - listed == set(), f"pages missing from mkdocs.yml's nav: {pages - listed}"


def test_the_readme_links_to_files_that_exist() -> None:
    """The README is read on the repository's page, outside the site, so MkDocs' link
    check does not see it: each relative link must name a file of the checkout."""
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README.read_text(encoding="utf-8"))
    local = [link for link in links if "://" not in link]
    assert local, "the README links into the site"
    missing = [link for link in local if not (ROOT / link).exists()]
    assert missing == [], f"README.md links to missing files: {missing}"


def test_sphinx_roles_and_math_become_markdown_in_the_api_reference() -> None:
    """Formulas become MathML (drawn by the browser, no script or network); the other
    roles become inline code. Markdown markup inside a formula's text is an entity."""
    sys.path.insert(0, str(DOCS / "_tools"))
    try:
        import griffe_rst
    finally:
        sys.path.remove(str(DOCS / "_tools"))
    text = ("Kappa.\n\n.. math:: \\kappa = x\n\nSee :class:`~accord.Annotations`, "
            ":func:`accord.read` and :math:`p_o`.\n\n    .. math::\n\n        a = b\n\n    c")
    kappa = ('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><mrow>'
             '<mi>&#x003BA;</mi><mo>&#x0003D;</mo><mi>x</mi></mrow></math>')
    p_o = ('<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><msub>'
           '<mi>p</mi><mi>o</mi></msub></mrow></math>')
    a_b = ('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><mrow>'
           '<mi>a</mi><mo>&#x0003D;</mo><mi>b</mi></mrow></math>')
    assert griffe_rst.rewrite(text).splitlines() == [
        "Kappa.", "", f'<div class="math">{kappa}</div>', "",
        f"See `Annotations`, `accord.read` and {p_o}.", "",
        f'    <div class="math">{a_b}</div>', "", "    c"]
    assert griffe_rst.mathml("\\text{a_b*c}") == (
        '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow>'
        '<mtext>a&#95;b&#42;c</mtext></mrow></math>')


def test_doctests_outside_an_examples_section_become_code_blocks() -> None:
    """Their output (``[0.7, 0.32]``) would otherwise be read as a Markdown link, which
    fails the --strict build."""
    sys.path.insert(0, str(DOCS / "_tools"))
    try:
        import griffe_rst
    finally:
        sys.path.remove(str(DOCS / "_tools"))
    text = ("Pair.\n\n>>> f()\n[0.7, 0.32]\n\nExamples\n--------\n>>> g()\n1")
    assert griffe_rst.rewrite(text).splitlines() == [
        "Pair.", "", "```pycon", ">>> f()", "[0.7, 0.32]", "```", "",
        "Examples", "--------", ">>> g()", "1"]


# The longest run of prose a page may have with no heading of any level between (words
# outside code blocks and tables, whose rows a reader scans by their first cell): a
# reader looking for their question meets a heading at least this often. A guide whose
# questions are bold lead-ins of one long section (556 words under one heading) fails.
PROSE_WITHOUT_A_HEADING = 500
# The changelog keeps Keep a Changelog's headings (a version, then Added, Changed, ...):
# it is read by version and grows with every change, so its lists run long by design.
LOGS = {"changelog.md"}


def _nav_pages() -> list[str]:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config[config.index("\nnav:"):]
    return re.findall(r":\s+([\w/.-]+\.md)\s*$", nav, re.M)


def _outline(page: str) -> list[tuple[str, int]]:
    """A page's headings outside code blocks, each with the number of prose words under
    it before the next heading (the page's text before its first heading is under "").
    A snippet line (``--8<-- "FILE"``) stands for FILE's text, as the site shows it."""
    text = re.sub(r'^--8<-- "([^"]+)"$', lambda m: (ROOT / m.group(1)).read_text(encoding="utf-8"),
                  (DOCS / page).read_text(encoding="utf-8"), flags=re.M)
    sections: list[tuple[str, int]] = [("", 0)]
    fence: str | None = None
    for line in text.splitlines():
        opening = re.match(r"\s*(`{3,}|~{3,})", line)
        if opening:
            mark = opening.group(1)
            if fence is None:
                fence = mark
            elif mark.startswith(fence) and line.strip() == mark:
                fence = None
            continue
        if fence is not None or line.lstrip().startswith("|"):
            continue
        if re.match(r"#{1,6} ", line):
            sections.append((line, 0))
        else:
            head, words = sections[-1]
            sections[-1] = (head, words + len(line.split()))
    return sections


def test_every_page_has_one_title_of_its_own() -> None:
    """Exactly one H1 per page of the navigation, and no two pages share one."""
    titles: dict[str, list[str]] = {}
    wrong = []
    for page in _nav_pages():
        h1 = [head[2:].strip() for head, _ in _outline(page) if head.startswith("# ")]
        if len(h1) != 1:
            wrong.append(f"docs/{page} has {len(h1)} H1 titles: {h1}")
        for title in h1:
            titles.setdefault(title, []).append(f"docs/{page}")
    wrong += [f"{' and '.join(pages)} share the title {title!r}"
              for title, pages in titles.items() if len(pages) > 1]
    assert wrong == [], "\n".join(wrong)


def test_no_page_runs_long_without_a_heading() -> None:
    long = [f"docs/{page}: {words} words under {head or 'the page top'!r}"
            for page in _nav_pages() if page not in LOGS for head, words in _outline(page)
            if words > PROSE_WITHOUT_A_HEADING]
    assert long == [], f"more than {PROSE_WITHOUT_A_HEADING} words of prose with no " \
        "heading (give the questions it answers headings of their own):\n" + "\n".join(long)
