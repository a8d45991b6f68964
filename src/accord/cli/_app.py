"""The click group behind ``accord``; commands register themselves on :data:`main`."""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import click

from accord import __version__
from accord._terminal import echo, visible
from accord.cli._errors import cli_text
from accord.errors import AccordError, DegenerateDataWarning, UndeclaredOrderWarning

#: ``ctx.meta`` key: the exit status of an error (1 by default; ``check`` makes every
#: error that is not a decision 2, so that 1 always means rejected or undefined).
ERROR_STATUS = "accord.error_status"

# Options that take several values: ``--raters A B C`` is read as ``--raters A --raters B ...``.
MULTI_VALUE = (
    "--raters", "--categories", "--coefficient", "--missing", "--kinds", "--predicted",
    "--humans", "--prevalence", "--rater-rates",
)


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
        ctx.meta["accord.args"] = list(args)  # to name the files in a last-resort error
        return super().parse_args(ctx, expand_multi(args))

    def invoke(self, ctx: click.Context) -> Any:
        caught: list[warnings.WarningMessage] = []
        status = 1
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
                status = ctx.meta.get(ERROR_STATUS, 1)
        except click.ClickException as exc:  # usage errors too: in the CLI's own words
            vars(exc)["message"] = visible(cli_text(exc.message))
            raise
        except AccordError as exc:
            echo(f"accord: error: {cli_text(str(exc))}", err=True)
            sys.exit(status)
        except OSError as exc:  # a missing file, a directory, no permission, a full disk
            where = f": {exc.filename}" if exc.filename else ""
            echo(f"accord: error: {exc.strerror or exc}{where}", err=True)
            sys.exit(status)
        except MemoryError:  # numpy's _ArrayMemoryError too
            echo(f"accord: error: out of memory{_sizes(ctx)}; select fewer raters (--raters) "
                 "or a sample of the units, split the file, or use a machine with more "
                 "memory.", err=True)
            sys.exit(status)
        except (OverflowError, FloatingPointError, RecursionError) as exc:
            what = "nested too deeply" if isinstance(exc, RecursionError) else "too large"
            echo(f"accord: error: a value in the data{_sizes(ctx)} is {what} to compute "
                 f"with ({type(exc).__name__}: {str(exc)[:120]}).", err=True)
            sys.exit(status)
        except (click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:
            # never a traceback (ACCORD_DEBUG=1 shows it), and a gate never exits 1
            # (rejected) on a crash: check sets its error status to 2
            if os.environ.get("ACCORD_DEBUG"):
                raise
            first = visible((str(exc).strip().splitlines() or [""])[0][:300])
            echo(f"accord: error: unexpected {type(exc).__name__}: {first} "
                 "(a defect in accord: please report it; ACCORD_DEBUG=1 shows the traceback)",
                 err=True)
            sys.exit(status)


def _sizes(ctx: click.Context) -> str:
    """`` while reading NAME (N bytes)`` for the files named on the command line."""
    files = []
    for arg in ctx.meta.get("accord.args", []):
        try:
            if os.path.isfile(arg):
                files.append(f"{arg} ({os.path.getsize(arg):,} bytes)")
        except (OSError, ValueError):
            continue
    return f" with {', '.join(files)}" if files else ""


def _report_warnings(caught: list[warnings.WarningMessage]) -> None:
    """Undefined coefficients and an undeclared category order become one line each on
    stderr; other warnings pass through."""
    seen: set[str] = set()
    for w in caught:
        if issubclass(w.category, (DegenerateDataWarning, UndeclaredOrderWarning)):
            text = str(w.message)
            if text not in seen:
                seen.add(text)
                echo(f"accord: warning: {cli_text(text)}", err=True)
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
      check          pass/fail against a declared threshold (exit 0 / 1; 2: no decision)
      evaluate       a model (or annotator) against reference labels: F1, MCC, baselines
      disagreements  every unit where raters differ, for adjudication
      judge          may an LLM judge replace a human annotator (alt-test, ceiling)
      consensus      one label per unit from a crowd (majority, Dawid-Skene, GLAD, MACE)
      annotators     per-annotator accuracy with intervals; who to check first
      multilabel     multi-label (set-valued) ratings: per label and on the sets
      plan           how many units to rate (interval width, lower limit, power)
      spans          agreement on spans (pairwise F1), or spans against a --gold rater

    \b
    Wide data, one column per rater:
      accord compute examples/pilot.csv --raters annotator_a annotator_b
    Long data, one row per rating:
      accord compute examples/long.csv --unit item --rater coder --value label

    Errors print one line on stderr; exit status 1 for bad data, 2 for bad usage.
    """
