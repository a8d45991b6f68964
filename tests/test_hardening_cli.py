"""The command line on hostile input: bounded time, one sentence, nothing lost in silence.

Each test reproduces a case of the hostile-input campaign of issue 26.
"""

from __future__ import annotations

import time

import pytest

from accord.cli._errors import cli_text

MB = 1_000_000
# each a 1 MB message fragment that made a pattern rescan the rest of the text
HOSTILE = {
    "one long token": "a" * MB,
    "open parentheses": "x(" * (MB // 2),
    "unclosed lists": "raters=[" * (MB // 8),
    "unclosed quotes": "raters='" * (MB // 8),
    "routes": "a (accord CLI: " * (MB // 15),
}


@pytest.mark.parametrize("text", list(HOSTILE.values()), ids=list(HOSTILE))
def test_error_text_is_rewritten_in_linear_time(text: str) -> None:
    start = time.perf_counter()
    out = cli_text(f"found values outside the declared categories: {text!r}.")
    # about 0.1-0.3 s here; the backtracking patterns took over a minute on 1 MB
    assert time.perf_counter() - start < 2.0
    assert len(out) >= len(text) // 2


def test_rewriting_still_names_the_options() -> None:
    assert cli_text("use raters=['a', 'b'] here") == "use --raters a b here"
    assert cli_text("x.y (accord CLI: accord spans) z") == "accord spans z"
