"""The click group behind ``accord``; a command registers itself on :data:`main` when its
module is imported, which happens when the command is first looked up (:class:`LazyCommands`)."""

from __future__ import annotations

import contextlib
import errno
import importlib
import os
import sys
import warnings
from collections.abc import Iterator, MutableMapping, Sequence
from typing import Any

import click

from accord._version import __version__
from accord.cli._commands import COMMANDS
from accord.cli._errors import cli_text
from accord.cli._terminal import echo, visible
from accord.errors import AccordError, DegenerateDataWarning, UndeclaredOrderWarning

#: ``ctx.meta`` key: the exit status of an error (1 by default; ``check`` makes every
#: error that is not a decision 2, so that 1 always means rejected or undefined).
ERROR_STATUS = "accord.error_status"

# Options that take several values: ``--raters A B C`` is read as ``--raters A --raters B ...``.
MULTI_VALUE = (
    "--raters", "--categories", "--coefficient", "--missing", "--kinds", "--predicted",
    "--humans", "--prevalence", "--rater-rates", "--labels", "--judges", "--family",
    "--names", "--sigmas",
)


def expand_multi(args: Sequence[str], known: frozenset[str] | None = None) -> list[str]:
    """Let multi-value options take space-separated values, as in ``--raters A B``.

    Values run until the next option: a token starting with ``-`` that is not a
    number and, when ``known`` lists the command's options, is one of them (so
    ``--categories -neg pos`` keeps the label ``-neg``). Commas separate values
    only in a lone word (``--raters a,b``); two or more words are the values as
    written (``--categories 'a,b' c`` is the labels ``a,b`` and ``c``), and so is
    ``--option=value`` (``--predicted=model,v2``) and a value with a space in it
    (``--missing "no answer, skipped"``, ``--humans "Smith, J"``).

    >>> expand_multi(["--missing", "no answer, skipped", "--raters", "a,b"])
    ['--missing', 'no answer, skipped', '--raters', 'a', '--raters', 'b']
    >>> expand_multi(["--categories", "a,b", "c", "--predicted=model,v2"])
    ['--categories', 'a,b', '--categories', 'c', '--predicted', 'model,v2']
    """
    out: list[str] = []
    current: str | None = None
    words: list[str] = []
    for tok in args:
        if _is_option(tok) and (current is None or known is None
                                or tok.partition("=")[0] in known):
            out += _flush(current, words)
            name, eq, val = tok.partition("=")
            current, words = (name if name in MULTI_VALUE else None), []
            if current and eq:
                _some(current, len(val))
                out += [current, val]
                current = None
                continue
            if current:
                continue
            out.append(tok)
        elif current is not None:
            words.append(tok)
        else:
            out.append(tok)
    out += _flush(current, words)
    return out


def _flush(option: str | None, words: list[str]) -> list[str]:
    """The ``option value`` pairs of the words that followed a multi-value option."""
    if option is None:
        return []
    values = _values(words[0]) if len(words) == 1 else [w for w in words if w]
    _some(option, len(values))
    return [x for v in values for x in (option, v)]


def _some(option: str | None, given: int) -> None:
    """A multi-value option given no value is refused (it would read as not given)."""
    if option is not None and given == 0:
        raise click.UsageError(f"{option} needs at least one value after it "
                               f"(e.g. {option} A B, or {option} A,B; a value holding a "
                               f"comma: {option}=A,B).")


def _values(tok: str) -> list[str]:
    """One word split on commas; a value with a space in it stays whole."""
    if any(c.isspace() for c in tok):
        return [tok]
    return [v for v in tok.split(",") if v]


def _known_options(group: click.Group, args: Sequence[str]) -> frozenset[str] | None:
    """The options of the command named first in ``args`` (None when there is none)."""
    command = group.commands.get(args[0]) if args else None
    if command is None:
        return None
    commands = [command]
    if isinstance(command, click.Group):  # its subcommand, or every one (a default route)
        sub = command.commands.get(args[1]) if len(args) > 1 else None
        commands = [sub] if sub is not None else list(command.commands.values())
    names = {"--help", "-h"}
    for param in (p for c in commands for p in c.params):
        names.update(getattr(param, "opts", ()))
        names.update(getattr(param, "secondary_opts", ()))
    return frozenset(names)


def _is_option(tok: str) -> bool:
    if not tok.startswith("-") or tok == "-":
        return False
    try:
        float(tok)
    except ValueError:
        return True
    return False


class LazyCommands(MutableMapping[str, click.Command]):
    """The commands of ``accord``: every name in :data:`COMMANDS` is listed, and a
    command's module is imported when the command itself is first looked up (its
    decorator then registers it here)."""

    def __init__(self, loaded: MutableMapping[str, click.Command]) -> None:
        self._loaded = dict(loaded)

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded and name in COMMANDS:
            for module in COMMANDS[name][0]:
                importlib.import_module(f"accord.cli.{module}")
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(set(COMMANDS) | set(self._loaded)))

    def __len__(self) -> int:
        return len(set(COMMANDS) | set(self._loaded))


class AccordGroup(click.Group):
    """A click group that expands multi-value options and turns AccordError into one line;
    it imports only the module of the command that runs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(self.commands)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list of ``--help`` from the stored short helps (no command imported)."""
        names = [n for n in self.list_commands(ctx) if n in COMMANDS]
        if not names:
            return
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = [(n, click.Command(n, help=COMMANDS[n][1]).get_short_help_str(limit))
                for n in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["accord.args"] = list(args)  # to name the files in a last-resort error
        try:
            expanded = expand_multi(args, _known_options(self, args))
        except click.UsageError as exc:  # an option with no value: --json gets it too
            _json_error(ctx, exc.format_message(), exc.exit_code)
            raise
        return super().parse_args(ctx, expanded)

    def invoke(self, ctx: click.Context) -> Any:
        _refuse_closed_stdout(ctx.meta.get("accord.args", []))
        caught: list[warnings.WarningMessage] = []
        status = 1
        try:
            try:
                with warnings.catch_warnings(record=True) as caught:
                    # every warning is recorded (once per place, whatever filters the
                    # caller set) and said after the command in its own words
                    warnings.simplefilter("default")
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
            _json_error(ctx, exc.format_message(), exc.exit_code)
            raise
        except AccordError as exc:
            _fail(ctx, cli_text(str(exc)), status, keep="")
        except OSError as exc:  # a missing file, a directory, no permission, a full disk
            where = (f": {exc.filename}" if exc.filename else
                     " (writing the output)" if exc.errno == errno.ENOSPC else "")
            _fail(ctx, f"{exc.strerror or exc}{where}", status)
        except MemoryError:  # numpy's _ArrayMemoryError too
            sizes = _sizes(ctx)
            advice = ("select fewer raters (--raters) or a sample of the units, split the "
                      "file, or use a machine with more memory" if sizes else
                      "ask for less (fewer units, raters or resamples) or use a machine with "
                      "more memory")
            _fail(ctx, f"out of memory{sizes}; {advice}.", status)
        except (OverflowError, FloatingPointError, RecursionError) as exc:
            what = ("is nested too deeply to read (lists or objects hundreds of levels deep)"
                    if isinstance(exc, RecursionError)
                    else "is too large to compute with (beyond the range of a 64-bit number)")
            _fail(ctx, f"a value in the data{_sizes(ctx)} {what}.", status)
        except (click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:
            # never a traceback (ACCORD_DEBUG=1 shows it), and a gate never exits 1
            # (rejected) on a crash: check sets its error status to 2
            if os.environ.get("ACCORD_DEBUG"):
                raise
            first = visible((str(exc).strip().splitlines() or [""])[0][:300])
            _fail(ctx, f"unexpected {type(exc).__name__}: {first} (a defect in accord: please "
                  "report it; ACCORD_DEBUG=1 shows the traceback)", status)


def _fail(ctx: click.Context, message: str, status: int, keep: str = "\n") -> None:
    """One line on stderr (and, with --json, the error document on stdout), then exit."""
    echo(f"accord: error: {message}", err=True, keep=keep)
    _json_error(ctx, message, status)
    sys.exit(status)


def _json_error(ctx: click.Context, message: str, status: int) -> None:
    """With ``--json`` on the command line, the error as a JSON object on stdout."""
    args = ctx.meta.get("accord.args", [])
    if "--json" not in args or sys.stdout is None:
        return
    from accord.cli._json import error_document

    # standard output may be what failed (a full disk): stderr has said it then
    with contextlib.suppress(OSError):
        click.echo(error_document(_command_name(ctx, args), visible(message), status))


def _command_name(ctx: click.Context, args: Sequence[str]) -> str:
    """``compute``, or ``judge bias`` for a subcommand (``judge alt`` when it is implied)."""
    group = ctx.command
    command = group.commands.get(args[0]) if isinstance(group, click.Group) and args else None
    if not isinstance(command, click.Group):
        return args[0] if args else "accord"
    sub = args[1] if len(args) > 1 and args[1] in command.commands else "alt"
    return f"{args[0]} {sub}"


def _refuse_closed_stdout(args: Sequence[str]) -> None:
    """With standard output closed, a command that writes its result there would write
    nothing and exit 0: say so instead (exit 1), unless the result goes to ``-o FILE``."""
    if sys.stdout is not None:
        return
    to_file = any(a in ("-o", "--output") or a.startswith(("--output=", "-o")) and a != "-o-"
                  for a in args)
    if not to_file:
        echo("accord: error: standard output is closed, so the result cannot be written; "
             "keep it open or write to a file with -o FILE where the command has it.",
             err=True)
        sys.exit(1)


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
    """Every warning becomes one line on stderr (each text once), in the command line's
    words (``max_iter=`` is ``--max-iter``), never Python's ``file:line: Category:`` form
    pointing into accord or click: the warning bridge of the command line."""
    seen: set[str] = set()
    for w in caught:
        text = warning_text(w.category, str(w.message))
        if text not in seen:
            seen.add(text)
            echo(f"accord: warning: {text}", err=True, keep="")


def warning_text(category: type[Warning], message: str) -> str:
    """A warning as the command line says it.

    Examples
    --------
    >>> from accord.errors import ConvergenceWarning
    >>> warning_text(ConvergenceWarning, "mace did not converge (raise max_iter= or tol=).")
    'mace did not converge (raise --max-iter N or --tol X).'
    >>> print(warning_text(RuntimeWarning, "overflow encountered in exp"))  # doctest: +ELLIPSIS
    overflow encountered in exp: some values are too extreme to compute with exactly; ...
    """
    if issubclass(category, RuntimeWarning) and "encountered in" in message:
        return (f"{message}: some values are too extreme to compute with exactly; a figure "
                "they reach may be undefined or rounded")
    return cli_text(message)


def version_line() -> str:
    """``accord X (numpy A, scipy B, polars C; Python D)``: the versions a figure was
    computed with, read from the installed packages' metadata (nothing is imported)."""
    from importlib import metadata

    def installed(name: str) -> str:
        try:
            return f"{name} {metadata.version(name)}"
        except metadata.PackageNotFoundError:
            return f"{name} not installed"

    deps = ", ".join(installed(name) for name in ("numpy", "scipy", "polars"))
    return f"accord {__version__} ({deps}; Python {sys.version.split()[0]})"


def _print_version(ctx: click.Context, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        echo(version_line())
        ctx.exit()


@click.group(cls=AccordGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _, value: _print_version(ctx, value),
              help="Show the version of accord and of numpy, scipy and polars, and exit.")
def main() -> None:
    """accord: how far annotators agree, with the evidence behind the number.

    \b
    Commands read a CSV/TSV file or a tool export (Label Studio, Prodigy, doccano, ...):
      compute        coefficients with SE, confidence interval and interpretation
      table          the two-rater worksheet (contingency table with marginals)
      inspect        what accord read from a file: raters, units, categories, audit
      report         the full agreement report (console, HTML, Markdown, JSON)
      check          pass/fail against a threshold (exit 0/1; 2: no decision; 3: drift)
      compare        agreement between batches: the difference with its interval
      history        the runs recorded in a history store, with control limits
      evaluate       a model (or annotator) against reference labels: F1, MCC, baselines
      disagreements  every unit where raters differ, for adjudication
      judge          may an LLM judge replace a human annotator (alt-test, ceiling); and
                     its biases, rankings, consistency, calibration, PPI and panels
      consensus      one label per unit from a crowd (majority, Dawid-Skene, GLAD, MACE)
      annotators     per-annotator accuracy with intervals; who to check first
      multilabel     multi-label (set-valued) ratings: per label and on the sets
      plan           how many units to rate (interval width, lower limit, power)
      spans          agreement on spans (pairwise F1), or spans against a --gold rater
      boxes          agreement on boxes: pairwise F1, mean IoU, alpha on matched objects
      polygons       agreement on polygons: the same figures on the outlines' exact IoU
      keypoints      agreement on keypoints: the same figures on COCO's OKS

    \b
    Wide data, one column per rater:
      accord compute examples/pilot.csv --raters annotator_a annotator_b
    Long data, one row per rating:
      accord compute examples/long.csv --unit item --rater coder --value label

    Errors print one line on stderr; exit status 1 for bad data, 2 for bad usage.
    """
