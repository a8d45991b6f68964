"""The history store: one local SQLite file holding each run's evidence register.

A run is what one ``accord check`` (or a library call) decided about one batch:
when, on which file (and its SHA-256), under which study and revision, on how
many units and raters, each coefficient with its interval, and the decision.

The file is a SQLite database (Python's standard library) with a
``schema_version`` table; :data:`MIGRATIONS` brings an older store up to date
and a store written by a newer accord is refused, never rewritten. Each run is
written in one ``BEGIN IMMEDIATE`` transaction, so concurrent writers queue on
SQLite's lock (up to ``timeout`` seconds) and a failed write leaves nothing
behind. A file that is not a store (or is damaged) and a store that cannot be
written are refused in one sentence, and the file is left as it was. A register
recorded with the keys of JSON schema version 1 is read with today's keys
(:mod:`~accord.history.legacy_keys`), without rewriting the file.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from accord.errors import DataError
from accord.history.legacy_keys import is_current, upgrade_register
from accord.inference.display import Displayed
from accord.inference.results import AgreementResult, ConfidenceInterval

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Figure", "Run", "Store", "StoreError",
           "file_checksum"]

#: Each entry brings the schema from version ``i`` to ``i + 1``.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time TEXT NOT NULL,
        study TEXT NOT NULL,
        revision TEXT,
        source TEXT,
        checksum TEXT,
        n_units INTEGER,
        n_raters INTEGER,
        raters TEXT NOT NULL,
        decision TEXT,
        rule TEXT,
        threshold REAL,
        accord_version TEXT,
        register TEXT NOT NULL
    );
    CREATE INDEX runs_study_time ON runs (study, time);
    CREATE TABLE figures (
        run_id INTEGER NOT NULL REFERENCES runs (id),
        coefficient TEXT NOT NULL,
        rater TEXT NOT NULL,
        estimate REAL,
        se REAL,
        low REAL,
        high REAL,
        confidence_level REAL,
        method TEXT,
        n_units INTEGER,
        undefined_reason TEXT
    );
    CREATE INDEX figures_run ON figures (run_id);
    """,
)
#: The schema this accord writes.
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(DataError):
    """The history store cannot be used: not a store, damaged, newer, or not writable."""


@dataclass(frozen=True)
class Figure:
    """One coefficient of a run, with its interval (``rater`` is ``""`` for the whole batch;
    a rater's name for per-annotator figures)."""

    coefficient: str
    estimate: float
    se: float = math.nan
    low: float = math.nan
    high: float = math.nan
    confidence_level: float = 0.95
    method: str = ""
    n_units: int = 0
    rater: str = ""
    undefined_reason: str | None = None

    @classmethod
    def of(cls, result: AgreementResult, interval: ConfidenceInterval | None,
           rater: str = "") -> Figure:
        """The figure of a result and its interval."""
        ci = interval
        return cls(result.coefficient, float(result.estimate), float(result.se),
                   ci.low if ci else math.nan, ci.high if ci else math.nan,
                   ci.confidence_level if ci else math.nan, ci.method if ci else "",
                   result.n_units, rater, result.undefined_reason)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready; undefined numbers are ``None``; the interval is
        ``confidence_interval``."""
        return with_interval({k: (None if isinstance(x, float) and not math.isfinite(x) else x)
                               for k, x in vars(self).items()})


@dataclass(frozen=True)
class Run(Displayed):
    """One recorded run: a batch, its figures and the decision."""

    time: str
    study: str
    figures: tuple[Figure, ...]
    revision: str | None = None
    source: str | None = None
    checksum: str | None = None
    n_units: int | None = None
    n_raters: int | None = None
    raters: tuple[str, ...] = ()
    decision: str | None = None
    rule: str | None = None
    threshold: float | None = None
    accord_version: str | None = None
    register: dict[str, Any] = field(default_factory=dict)
    id: int | None = None

    def figure(self, coefficient: str, rater: str = "") -> Figure | None:
        """The figure of ``coefficient`` (for ``rater``), if the run has it."""
        return next((f for f in self.figures
                     if f.coefficient == coefficient and f.rater == rater), None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping of the run. A register recorded before schema version 3,
        whose result has an ``se`` but no interval, gets its figure's interval."""
        out = {k: x for k, x in vars(self).items() if k not in ("figures", "raters")}
        figures = [f.to_dict() for f in self.figures]
        result = self.register.get("result")
        if isinstance(result, dict) and "confidence_interval" not in result:
            shown = next((f["confidence_interval"] for f in figures if not f["rater"]
                          and f["coefficient"] == result.get("coefficient")), None)
            if shown is not None:
                out["register"] = {**self.register, "result": {
                    **result, "confidence_interval": shown}}
        return {**out, "raters": list(self.raters), "figures": figures}


def now() -> str:
    """The current time, ISO 8601 in UTC (seconds)."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def file_checksum(paths: str | Sequence[str]) -> str:
    """SHA-256 of a file (of several files or a folder's files: of their digests in order)."""
    items = [paths] if isinstance(paths, str) else list(paths)
    files: list[Path] = []
    for p in map(Path, items):
        files += sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
    digests = []
    for f in files:
        h = hashlib.sha256()
        with f.open("rb") as stream:
            while block := stream.read(1 << 20):
                h.update(block)
        digests.append(h.hexdigest())
    if len(digests) == 1:
        return digests[0]
    return hashlib.sha256("\n".join(digests).encode()).hexdigest()


class Store:
    """A history store in one SQLite file.

    Parameters
    ----------
    path : str or path
        The file; created with the current schema when it does not exist and
        ``create`` is true.
    create : bool
        Create a missing store (for writing) or refuse (for reading).
    timeout : float
        Seconds a writer waits for another writer's lock.

    Examples
    --------
    >>> import accord, tempfile, pathlib
    >>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "project.db")
    >>> k = accord.cohen_kappa(["a", "b", "a", "b", "a"], ["a", "b", "a", "a", "a"])
    >>> run_id = store.record_result(k, study="pilot study", threshold=0.6)
    >>> [(r.study, round(r.figures[0].estimate, 4), r.decision) for r in store.runs()]
    [('pilot study', 0.5455, 'rejected')]
    """

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True,
                 timeout: float = 60.0) -> None:
        self.path = Path(path)
        self.timeout = timeout
        new = not self.path.exists()
        if new:
            if not create:
                raise StoreError(f"{self.path}: no history store here; `accord check ... "
                                 "--record FILE` creates one.")
            self._writable()
        try:
            with self._connect(write=False) as con:
                self._check(con)
        except StoreError:
            if new:  # a store that could not be created leaves no empty file behind
                _remove_if_empty(self.path)
            raise

    # ------------------------------------------------------------------ opening
    def _writable(self) -> None:
        where = self.path if self.path.exists() else self.path.parent
        if not os.access(where if str(where) else ".", os.W_OK):
            raise StoreError(f"{self.path}: the history store cannot be written here "
                             "(read-only file or folder); nothing was recorded.")

    @contextmanager
    def _connect(self, *, write: bool) -> Iterator[sqlite3.Connection]:
        try:
            if write or not self.path.exists():
                con = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None)
            else:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                con = sqlite3.connect(uri, uri=True, timeout=self.timeout,
                                      isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot open the history store ({exc}).") from None
        try:
            yield con
        except sqlite3.DatabaseError as exc:
            raise self._refusal(exc) from None
        finally:
            con.close()

    def _refusal(self, exc: sqlite3.Error) -> StoreError:
        text = str(exc)
        if "readonly" in text or "read-only" in text:
            return StoreError(f"{self.path}: the history store cannot be written (read-only "
                              "file or folder); nothing was recorded.")
        if "full" in text or "disk I/O" in text:
            return StoreError(f"{self.path}: the disk is full or failed while writing the "
                              f"history store ({text}); nothing was recorded and the store "
                              "was left as it was.")
        if "locked" in text or "busy" in text:
            return StoreError(f"{self.path}: the history store stayed locked by another "
                              f"writer for {self.timeout:g} s; nothing was recorded.")
        return StoreError(f"{self.path}: not an accord history store, or a damaged one "
                          f"({text}); it was left as it is.")

    def _check(self, con: sqlite3.Connection) -> None:
        """Refuse a file that is not a store, or a newer schema; migrate an older one."""
        version = _version(con)
        if version is None:
            tables = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")]
            if tables:
                raise StoreError(f"{self.path}: a SQLite database but not an accord history "
                                 f"store (its tables: {', '.join(tables)}); it was left as "
                                 "it is.")
            version = 0
        problem = con.execute("PRAGMA quick_check(1)").fetchone()[0]
        if problem != "ok":  # a damaged store is never written to
            raise StoreError(f"{self.path}: a damaged accord history store ({problem}); it "
                             "was left as it is (restore it from a backup).")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: written by a newer accord (store schema "
                             f"{version}; this accord reads up to {SCHEMA_VERSION}); "
                             "upgrade accord to use it; it was left as it is.")
        if version < SCHEMA_VERSION:
            self._migrate()

    def _migrate(self) -> None:
        self._writable()
        with self._connect(write=True) as con, _transaction(con):
            version = _version(con) or 0  # another writer may have migrated meanwhile
            if version == 0:
                con.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER "
                            "NOT NULL)")
                con.execute("INSERT INTO schema_version VALUES (0)")
            for step in MIGRATIONS[version:]:
                for statement in filter(str.strip, step.split(";")):
                    con.execute(statement)
            con.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    # ------------------------------------------------------------------ writing
    def record(self, run: Run) -> int:
        """Append ``run`` (one transaction) and return its id."""
        self._writable()
        with self._connect(write=True) as con, _transaction(con):
            cur = con.execute(
                "INSERT INTO runs (time, study, revision, source, checksum, n_units, n_raters,"
                " raters, decision, rule, threshold, accord_version, register) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run.time, run.study, run.revision, run.source, run.checksum, run.n_units,
                 run.n_raters, json.dumps(list(run.raters)), run.decision, run.rule,
                 run.threshold, run.accord_version, json.dumps(run.register, default=str)))
            run_id = int(cur.lastrowid or 0)
            con.executemany(
                "INSERT INTO figures VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(run_id, f.coefficient, f.rater, _real(f.estimate), _real(f.se),
                  _real(f.low), _real(f.high), _real(f.confidence_level), f.method,
                  f.n_units, f.undefined_reason) for f in run.figures])
        return run_id

    def record_result(
        self, result: AgreementResult, *, study: str = "", interval: ConfidenceInterval | None
        = None, threshold: float | None = None, revision: str | None = None,
        source: str | None = None, checksum: str | None = None, time: str | None = None,
    ) -> int:
        """Record one result (its asymptotic interval when none is given) as a run;
        with ``threshold``, the decision "estimate >= threshold"."""
        from accord._version import __version__

        if interval is None and result.defined and math.isfinite(result.se):
            interval = result.confidence_interval()
        decision = None
        if threshold is not None:
            decision = ("undefined" if not result.defined else
                        "accepted" if result.estimate >= threshold else "rejected")
        rule = None if threshold is None else f"{result.coefficient} >= {threshold:g}"
        return self.record(Run(
            time or now(), study, (Figure.of(result, interval),), revision, source, checksum,
            result.n_units, result.n_raters, (), decision, rule, threshold, __version__,
            {"result": result.to_dict()}))

    # ------------------------------------------------------------------ reading
    def runs(self, study: str | None = None, *, registers: bool = True) -> list[Run]:
        """The runs in time order (then in the order recorded), of one study or all.

        ``registers=False`` leaves each run's ``raters`` and ``register`` empty (not read
        nor parsed): the figures, decisions and sources are all a chart or the history
        page needs, read from a store of 10^5 runs in a fraction of the time.
        """
        with self._connect(write=False) as con:
            where, args = ("WHERE study = ?", (study,)) if study is not None else ("", ())
            heavy = "raters" if registers else "'[]'", "register" if registers else "'{}'"
            rows = con.execute(f"SELECT id, time, study, revision, source, checksum, n_units,"
                               f" n_raters, {heavy[0]}, decision, rule, threshold,"
                               f" accord_version, {heavy[1]} FROM runs {where}"
                               " ORDER BY time, id", args).fetchall()
            figs: dict[int, list[Figure]] = {}
            for row in con.execute("SELECT * FROM figures ORDER BY rowid"):
                try:
                    figs.setdefault(row[0], []).append(Figure(
                        row[1], _float(row[3]), _float(row[4]), _float(row[5]),
                        _float(row[6]), _float(row[7]), row[8] or "", int(row[9] or 0),
                        row[2], row[10]))
                except (TypeError, ValueError) as exc:
                    raise StoreError(f"{self.path}: a damaged accord history store (a figure "
                                     f"of run {row[0]}: {exc}); it was left as it is."
                                     ) from None
            return [self._run(r, figs) for r in rows]

    def _run(self, r: Sequence[Any], figs: dict[int, list[Figure]]) -> Run:
        """One row of ``runs`` as a :class:`Run`; a cell that is not what accord wrote
        (invalid JSON, a wrong type) refuses the store in one sentence."""
        try:
            raters, register = json.loads(r[8]), json.loads(r[13])
            if not isinstance(raters, list) or not isinstance(register, dict):
                raise TypeError("raters must be a JSON list and register a JSON object")
            return Run(r[1], r[2], tuple(figs.get(r[0], ())), r[3], r[4], r[5], r[6], r[7],
                       tuple(map(str, raters)), r[9], r[10], r[11], r[12],
                       register if is_current(r[13]) else upgrade_register(register), r[0])
        except (TypeError, ValueError) as exc:
            raise StoreError(f"{self.path}: a damaged accord history store (run {r[0]}: "
                             f"{exc}); it was left as it is.") from None

    def studies(self) -> list[str]:
        """The study names in the store, in order of their first run."""
        return list(dict.fromkeys(r.study for r in self.runs()))


def _version(con: sqlite3.Connection) -> int | None:
    try:
        row = con.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.OperationalError as exc:
        if "no such table" in str(exc):
            return None
        raise
    if row is None:
        return None
    try:
        return int(row[0])
    except (TypeError, ValueError):
        raise sqlite3.DatabaseError(f"its schema_version is {row[0]!r}, not a whole "
                                    "number") from None


@contextmanager
def _transaction(con: sqlite3.Connection) -> Iterator[None]:
    con.execute("BEGIN IMMEDIATE")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:  # SQLite may have rolled back itself (a full disk does)
            con.execute("ROLLBACK")
        raise


def _remove_if_empty(path: Path) -> None:
    try:
        if path.stat().st_size == 0:
            path.unlink()
    except OSError:
        pass


def _real(x: float) -> float | None:
    return float(x) if x is not None and math.isfinite(x) else None


def _float(x: Any) -> float:
    return math.nan if x is None else float(x)


def with_interval(row: dict[str, Any]) -> dict[str, Any]:
    """``low``, ``high``, ``confidence_level`` and ``method`` as one ``confidence_interval``
    (where the flat row had them), in the place ``low`` held."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if key == "low":
            out["confidence_interval"] = {k: row.get(k) for k in
                                          ("low", "high", "confidence_level", "method")}
        elif key not in ("high", "confidence_level", "method"):
            out[key] = value
    return out
