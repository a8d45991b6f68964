"""The two sparse products of a Dawid-Skene iteration, and what a different layout gains.

Each EM iteration of :func:`accord.consensus` (``method="dawid_skene"``) is an E step
``A @ X`` and an M step ``A.T @ T``, with ``A`` the units x (worker, label) count matrix
(one entry per rating), ``X`` the (worker, label) x classes table of log-probabilities
and ``T`` the units x classes posterior (``accord.annotators._blocks``). On the crowd of
``_crowd_data.py`` (9,000 workers, 5 labels: ``X`` is 1.8 MB, beyond a 1 MB L2 cache)
this script times, in CPU seconds (best of ``--repeat``, one thread), the products as
accord computes them (scipy's ``csr_matvecs`` / ``csc_matvecs``) against:

* the columns split into 2, 4 or 8 blocks of workers (each block's table a fraction
  of the cache), the partial E products added;
* one matrix per label (a 9,000 x 5 table each, 360 KB), the five E products added;
* the same loops compiled by numba (if installed; not a dependency of accord), in the
  order scipy runs them, so the same floats to the bit (checked).

Usage::

    python benchmarks/bench_em_products.py              # 475,000 units, 11.4 M ratings
    python benchmarks/bench_em_products.py --units 118750
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp
from _crowd_data import crowd_arrays

K = 5


def best(f: Callable[[], Any], repeat: int) -> float:
    out = np.inf
    for _ in range(repeat):
        t0 = time.process_time()
        f()
        out = min(out, time.process_time() - t0)
    return out


def numba_kernels() -> tuple[Any, Any] | None:
    import sys

    here = sys.path.pop(0)  # benchmarks/coverage.py would shadow the package numba imports
    try:
        import numba
    except ImportError:
        return None
    finally:
        sys.path.insert(0, here)

    @numba.njit(nogil=True)
    def e_dot(indptr: Any, indices: Any, x: Any, out: Any) -> None:  # pragma: no cover
        k = x.shape[1]
        for i in range(indptr.shape[0] - 1):
            for c in range(k):
                out[i, c] = 0.0
            for jj in range(indptr[i], indptr[i + 1]):
                j = indices[jj]
                for c in range(k):
                    out[i, c] += x[j, c]

    @numba.njit(nogil=True)
    def m_dot(indptr: Any, indices: Any, y: Any, out: Any) -> None:  # pragma: no cover
        k = y.shape[1]
        for i in range(indptr.shape[0] - 1):
            for jj in range(indptr[i], indptr[i + 1]):
                j = indices[jj]
                for c in range(k):
                    out[j, c] += y[i, c]

    return e_dot, m_dot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--units", type=int, default=475_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    unit, worker, label = crowd_arrays(args.units)
    n, w = args.units, 9000
    rng = np.random.default_rng(0)
    x = np.log(rng.dirichlet(np.ones(K), size=w * K))
    t = rng.dirichlet(np.ones(K), size=n)
    a = sp.csr_matrix((np.ones(unit.shape[0]), (unit, worker * K + label)), shape=(n, w * K))
    a.sort_indices()
    e0, m0 = best(lambda: a @ x, args.repeat), best(lambda: a.T @ t, args.repeat)
    print(f"{a.nnz:,} ratings, {n:,} units; CPU s per product (best of {args.repeat})")
    print(f"{'layout':<34}{'E step':>9}{'M step':>9}{'E ns/rating':>13}{'x scipy (E+M)':>15}")

    def row(name: str, e: float, m: float) -> None:
        print(f"{name:<34}{e:>9.4f}{m:>9.4f}{e / a.nnz * 1e9:>13.2f}{(e + m) / (e0 + m0):>15.2f}")

    row("scipy, one matrix (accord)", e0, m0)
    for parts in (2, 4, 8):
        cuts = (np.linspace(0, w, parts + 1).astype(int) * K).tolist()
        blocks = [(a[:, p:q].tocsr(), np.ascontiguousarray(x[p:q]))
                  for p, q in zip(cuts[:-1], cuts[1:])]
        e = sum(best(lambda b=b, xb=xb: b @ xb, args.repeat) for b, xb in blocks)
        m = sum(best(lambda b=b: b.T @ t, args.repeat) for b, _ in blocks)
        row(f"scipy, {parts} column blocks of workers", e, m)
    per = [sp.csr_matrix((np.ones(int((label == c).sum())), (unit[label == c], worker[label == c])),
                         shape=(n, w)) for c in range(K)]
    xs = [np.ascontiguousarray(x[np.arange(w) * K + c]) for c in range(K)]

    def e_per() -> Any:
        out = per[0] @ xs[0]
        for c in range(1, K):
            out += per[c] @ xs[c]
        return out

    row("scipy, one matrix per label", best(e_per, args.repeat),
        best(lambda: [p.T @ t for p in per], args.repeat))
    kernels = numba_kernels()
    if kernels is None:
        print("numba is not installed: no compiled row")
        return
    e_dot, m_dot = kernels
    out, acc = np.empty((n, K)), np.zeros((w * K, K))
    e_dot(a.indptr, a.indices, x, out)
    m_dot(a.indptr, a.indices, t, acc)
    same = np.array_equal(out, a @ x) and np.array_equal(acc, a.T @ t)

    def m_numba() -> None:
        acc[:] = 0.0
        m_dot(a.indptr, a.indices, t, acc)

    row("numba, scipy's loops", best(lambda: e_dot(a.indptr, a.indices, x, out), args.repeat),
        best(m_numba, args.repeat))
    print(f"numba's products equal scipy's to the bit: {same}")


if __name__ == "__main__":
    main()
