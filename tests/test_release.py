"""The release: one version, the files the wheel needs, `make dist` and `make docs`, and
what `accord --version` says. (CI builds the wheel and runs it from a fresh virtualenv
with `.ci/smoke-wheel`; these tests check the pieces that can be checked quickly.)"""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

import accord
from accord.cli import main

ROOT = Path(__file__).resolve().parents[1]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_version_is_written_once_and_the_release_files_agree() -> None:
    source = (ROOT / "src" / "accord" / "_version.py").read_text(encoding="utf-8")
    assert re.findall(r'^__version__ = "([^"]+)"$', source, re.M) == [accord.__version__]
    assert "version" in PYPROJECT["project"]["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "accord._version.__version__"}
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert re.findall(r"^version: (\S+)$", cff, re.M) == [accord.__version__]
    assert re.search(r"^cff-version: 1\.2\.0$", cff, re.M)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert versions[0] in ("Unreleased", accord.__version__)
    assert accord.__version__ in versions, "CHANGELOG.md has no section for this version"


def test_version_flag_names_accord_numpy_scipy_and_polars() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    deps = ", ".join(f"{name} {metadata.version(name)}" for name in ("numpy", "scipy", "polars"))
    python = ".".join(map(str, sys.version_info[:3]))
    assert result.output == f"accord {accord.__version__} ({deps}; Python {python})\n"


def test_every_data_file_of_the_package_goes_into_the_wheel() -> None:
    """A file under src/accord that is not Python must match a package-data pattern, or
    the wheel leaves it out and only an installed accord notices."""
    patterns = PYPROJECT["tool"]["setuptools"]["package-data"]["accord"]
    package = ROOT / "src" / "accord"
    data = [p.relative_to(package).as_posix() for p in package.rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts]
    assert data, "the package has data files (datasets, the report's CSS)"
    left_out = [f for f in data if not any(fnmatch.fnmatch(f, pat) for pat in patterns)]
    assert left_out == [], f"add these to [tool.setuptools.package-data]: {left_out}"


def test_build_and_docs_tools_are_declared_in_extras() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    assert any(d.startswith("build") for d in extras["dist"])
    assert {re.split(r"[\[<>=]", d)[0] for d in extras["docs"]} >= {
        "mkdocs", "mkdocs-material", "mkdocstrings", "mkdocstrings-python"}


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_dist_and_docs_run_the_standard_tools(tmp_path: Path) -> None:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").touch()

    def plan(target: str) -> str:
        return subprocess.run(["make", "-n", target], cwd=tmp_path, capture_output=True,
                              text=True, check=True).stdout

    dist = plan("dist")
    assert "pip install --quiet -c constraints.txt -e '.[dist]'" in dist
    assert ".venv/bin/python -m build --outdir dist ." in dist
    docs = plan("docs")
    assert "pip install --quiet -c constraints.txt -e '.[docs]'" in docs
    assert "bash .ci/fetch-doc-assets" in docs
    assert ".venv/bin/mkdocs build --strict" in docs


def test_ci_builds_the_site_and_runs_the_wheel_outside_the_checkout() -> None:
    steps = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
             if line and not line.startswith(("#", "set ", "cd ", "export "))]
    assert steps == ["make test", "make docs", "make test-slow", "make test-engines",
                     "make test-cluster", "make dist", "bash .ci/smoke-wheel"]
    smoke = (ROOT / ".ci" / "smoke-wheel").read_text()
    assert 'cd "$WORK"' in smoke and "--version" in smoke and "--doctest-modules" in smoke
