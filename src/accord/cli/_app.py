"""The click group behind ``accord``; commands register themselves on :data:`main`."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence
from typing import Any

import click

from accord import __version__
from accord.errors import AccordError, DegenerateDataWarning, UndeclaredOrderWarning

# Options that take several values: ``--raters A B C`` is read as ``--raters A --raters B ...``.
MULTI_VALUE = ("--raters", "--categories", "--coefficient", "--missing", "--kinds")


def expand_multi(args: Sequence[str]) -> list[str]:
    """Let multi-value options take space-separated values, as in ``--raters A B``.

    Values run until the next option (a token starting with ``-`` that is not a
    number); commas also separate.
    """
    out: list[str] = []
    current: str | None = None
    for tok in args:
        if _is_option(tok):
            name, eq, val = tok.partition("=")
            current = name if name in MULTI_VALUE else None
            if current and eq:
                out += [x for v in val.split(",") if v for x in (current, v)]
                continue
            if current:
                continue
            out.append(tok)
        elif current is not None:
            out += [x for v in tok.split(",") if v for x in (current, v)]
        else:
            out.append(tok)
    return out


def _is_option(tok: str) -> bool:
    if not tok.startswith("-") or tok == "-":
        return False
    try:
        float(tok)
    except ValueError:
        return True
    return False


class AccordGroup(click.Group):
    """A click group that expands multi-value options and turns AccordError into one line."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, expand_multi(args))

    def invoke(self, ctx: click.Context) -> Any:
        caught: list[warnings.WarningMessage] = []
        try:
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", DegenerateDataWarning)
                    warnings.simplefilter("always", UndeclaredOrderWarning)
                    return super().invoke(ctx)
            finally:
                # after the recording block: a warning passed on here must not be recorded
                # into the list being read (that loop would never end)
                _report_warnings(caught)
        except AccordError as exc:
            click.echo(f"accord: error: {exc}", err=True)
            sys.exit(1)
        except OSError as exc:  # a missing file, a directory, no permission, a full disk
            where = f": {exc.filename}" if exc.filename else ""
            click.echo(f"accord: error: {exc.strerror or exc}{where}", err=True)
            sys.exit(1)


def _report_warnings(caught: list[warnings.WarningMessage]) -> None:
    """Undefined coefficients and an undeclared category order become one line each on
    stderr; other warnings pass through."""
    seen: set[str] = set()
    for w in caught:
        if issubclass(w.category, (DegenerateDataWarning, UndeclaredOrderWarning)):
            text = str(w.message)
            if text not in seen:
                seen.add(text)
                click.echo(f"accord: warning: {text}", err=True)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


@click.group(cls=AccordGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="accord")
def main() -> None:
    """accord: how far annotators agree, with the evidence behind the number.

    \b
    Commands read a CSV/TSV file or a tool export (Label Studio, Prodigy, doccano, ...):
      compute        coefficients with SE, confidence interval and interpretation
      table          the two-rater worksheet (contingency table with marginals)
      inspect        what accord read from a file: raters, units, categories, audit
      report         the full agreement report (console, HTML, Markdown, JSON)
      check          pass/fail against a declared threshold (exit 0 / 1)
      disagreements  every unit where raters differ, for adjudication

    \b
    Wide data, one column per rater:
      accord compute examples/pilot.csv --raters annotator_a annotator_b
    Long data, one row per rating:
      accord compute examples/long.csv --unit item --rater coder --value label

    Errors print one line on stderr; exit status 1 for bad data, 2 for bad usage.
    """
