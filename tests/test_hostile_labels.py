"""Labels that look alike but are not equal: counted apart, and said in one caveat."""

from __future__ import annotations

from pathlib import Path

import pytest

import accord
from accord.data._lookalike import skeleton
from tests.conftest import run_cli as run

CYRILLIC_CAT = "\u0441at"  # Cyrillic es, then Latin "at"
NFC, NFD = "caf\u00e9", "cafe\u0301"


@pytest.mark.parametrize(("a", "b"), [("cat", "cat "), ("cat", CYRILLIC_CAT), (NFC, NFD),
                                      ("cat", "\uff43\uff41\uff54"), ("a  b", "a b")])
def test_look_alike_labels_are_counted_apart_and_said(a: str, b: str) -> None:
    assert skeleton(a) == skeleton(b) and a != b
    ann = accord.Annotations.from_wide({"r1": [a, "dog", a], "r2": [b, "dog", a]})
    assert len(ann.categories) == 3  # kept as written: two spellings may be meant
    caveats = [c for c in ann.audit.caveats if c.startswith("look-alike labels")]
    assert len(caveats) == 1 and ascii(a) in caveats[0] and ascii(b) in caveats[0]


def test_distinct_labels_raise_no_caveat() -> None:
    ann = accord.Annotations.from_wide({"r1": ["cat", "Cat", "dog"], "r2": ["cat", "dog", "1"]})
    assert not any(c.startswith("look-alike") for c in ann.audit.caveats)


def test_the_command_line_says_it_first(tmp_path: Path) -> None:
    path = tmp_path / "look.csv"
    path.write_text(f"item,a,b\n1,cat,cat \n2,{CYRILLIC_CAT},cat\n3,{NFC},{NFD}\n4,dog,dog\n",
                    encoding="utf-8")
    code, out, _ = run("compute", str(path), "--raters", "a", "b")
    assert code == 0
    first = out.splitlines()[0]
    assert first.startswith("caveat: look-alike labels: 2 group(s) of categories differ")
    assert "'cat' and 'cat ' and '\\u0441at'" in first and "'cafe\\u0301' and 'caf\\xe9'" in first
    assert "6 categories" in out
