"""The command line starts without the heavy modules (speed is measured in
benchmarks/bench_cli_startup.py; these tests only check what is imported)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

SRC = str(Path(__file__).resolve().parents[1] / "src")
HEAVY = ("scipy", "numpy", "polars", "narwhals", "matplotlib", "rich")


def _imported_after(code: str) -> list[str]:
    probe = (f"import sys; {code}; import json; "
             f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": SRC, "PATH": ""})
    return [m for m in json.loads(out.stdout.splitlines()[-1]) if m in HEAVY]


def test_import_accord_cli_imports_no_scipy_numpy_or_dataframe_engine() -> None:
    assert _imported_after("import accord.cli") == []


def test_version_and_help_import_nothing_heavy() -> None:
    for args in (["--version"], ["--help"]):
        code = (f"from accord.cli import main; sys.argv = ['accord', *{args!r}]\n"
                "try:\n    main()\nexcept SystemExit:\n    pass")
        assert _imported_after(f"exec({code!r})") == [], args


def test_import_accord_is_lazy_but_every_public_name_resolves() -> None:
    assert _imported_after("import accord") == []
    import accord

    for name in accord.__all__:
        assert getattr(accord, name) is not None
    import accord.interpret.interpretation  # noqa: F401  (nor does accord.interpret's)
    import accord.report.output  # noqa: F401  (the subpackage does not replace the function)

    assert callable(accord.report) and accord.report.__module__ == "accord.report.build"
    assert accord.interpret.__module__ == "accord.interpret.interpretation"
    assert callable(accord.pairwise) and callable(accord.compare)


def test_lazy_choices_still_check_values_and_list_them() -> None:
    from accord.cli import main

    result = CliRunner().invoke(main, ["compute", "--help"])
    assert result.exit_code == 0 and "cohen_kappa, conger_kappa" in result.output
    pilot = str(Path(SRC).parent / "examples" / "pilot.csv")
    bad = CliRunner().invoke(main, ["compute", pilot, "--coefficient", "nope"])
    assert bad.exit_code == 2 and "'nope' is not one of" in bad.output
