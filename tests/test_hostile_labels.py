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


def _label_sets(tmp_path: Path) -> tuple[Path, list[list[str]]]:
    """3,000 units, two raters, every cell a distinct set of 2-4 of 20 labels."""
    import itertools
    import random

    vocab = [f"l{i}" for i in range(20)]
    sets = [";".join(s) for k in (2, 3, 4) for s in itertools.combinations(vocab, k)]
    random.Random(0).shuffle(sets)
    rows = [[f"i{i}", a, b] for i, (a, b) in enumerate(zip(sets[:3000], sets[3000:6000]))]
    path = tmp_path / "sets.csv"
    path.write_text("item,a,b\n" + "".join(",".join(r) + "\n" for r in rows))
    return path, rows


def test_distinct_label_sets_are_not_taken_for_ids(tmp_path: Path) -> None:
    path, rows = _label_sets(tmp_path)
    code, out, err = run("multilabel", str(path), "--separator", ";")
    assert code == 0, err
    assert "3000 units, 2 raters, 20 labels" in out
    ann = accord.Annotations.from_wide({"a": [r[1] for r in rows], "b": [r[2] for r in rows]},
                                       separator=";")
    assert ann.n_units == 3000 and len(ann.labels) == 20


def test_a_column_of_distinct_text_ids_is_still_refused(tmp_path: Path) -> None:
    path = tmp_path / "ids.csv"
    path.write_text("a,b,c\n" + "".join(f"doc-{i};part {i},x,y\n" for i in range(50)))
    code, _, err = run("compute", str(path))
    assert code == 1 and "looks like ids" in err
