"""A sparse count matrix in row blocks whose products run on threads.

Dawid-Skene's E and M steps are two sparse-dense products over all the ratings
(:func:`accord.annotators._em.dawid_skene`); scipy computes each on one core and
releases the GIL while it does. Split by rows into a fixed number of blocks, the E
step's product is the blocks' products stacked (row by row the same arithmetic, so the
same numbers) and the M step's is the sum of the blocks' transposed products, added in
block order. The blocks depend only on the size of the data, never on the machine, so a
fit gives the same numbers on one core or several; the threads only share the work.
On two idle cores each product takes about 0.55 of its one-block time (10^6 units,
2.4 x 10^7 ratings).

The E step (:meth:`RowBlocks.posterior`) goes through each block in chunks of
:data:`CHUNK_ROWS` units: a chunk's product is normalised while it is in cache and
written once, into the posterior, so no units x classes array of log-scores is made
(on the 4.6 x 10^7-rating crowd each such array is 76 MB, and a fresh one per
iteration cost more in page faults than the product itself). The blocks and chunks
are views of the one matrix, not copies.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from ._crowd import FloatArray, normalise_into

#: Ratings from which the count matrix is split (below it one block: the thread
#: hand-off would cost more than it saves).
SPLIT_FROM = 1 << 20
#: The number of row blocks of a split matrix.
BLOCKS = 2
#: Units per chunk of the E step (a chunk's k x CHUNK_ROWS scores stay in cache).
CHUNK_ROWS = 8192


def _view(kind: Any, data: Any, indices: Any, indptr: Any, shape: tuple[int, int]) -> Any:
    """A CSR or CSC matrix (``kind``) over these arrays as they are, not copies."""
    view = kind(shape, dtype=data.dtype)
    # set, not passed to the constructor: scipy copies an array that is a view of less
    # than half of its base (its ``prune``, also run by ``.T``), which would copy the
    # whole matrix on every product
    view.data, view.indices, view.indptr = data, indices, indptr
    return view


def _rows(matrix: Any, a: int, b: int) -> Any:
    """Rows ``a:b`` of a CSR ``matrix`` as a CSR view of its arrays (no copy)."""
    from scipy.sparse import csr_matrix

    s, e = int(matrix.indptr[a]), int(matrix.indptr[b])
    return _view(csr_matrix, matrix.data[s:e], matrix.indices[s:e],
                 matrix.indptr[a:b + 1] - matrix.indptr.dtype.type(s), (b - a, matrix.shape[1]))


def _transposed(matrix: Any) -> Any:
    """The transpose of a CSR ``matrix``: the CSC matrix over the same arrays."""
    from scipy.sparse import csc_matrix

    return _view(csc_matrix, matrix.data, matrix.indices, matrix.indptr, matrix.shape[::-1])


class RowBlocks:
    """``matrix`` (CSR, units x columns) as row blocks: ``dot`` is ``matrix @ x``,
    ``tdot`` is ``matrix.T @ y`` and ``posterior`` the rows of ``matrix @ x``
    normalised, each block's work on its own thread."""

    def __init__(self, matrix: Any) -> None:
        n = matrix.shape[0]
        blocks = BLOCKS if matrix.nnz >= SPLIT_FROM and n >= BLOCKS else 1
        self.bounds = np.linspace(0, n, blocks + 1).astype(np.int64)
        pairs = list(zip(self.bounds[:-1].tolist(), self.bounds[1:].tolist()))
        self.parts = [matrix] if blocks == 1 else [_rows(matrix, a, b) for a, b in pairs]
        self.transposed = [_transposed(p) for p in self.parts]
        self.chunks = [[(c, _rows(matrix, c, min(c + CHUNK_ROWS, b)))
                        for c in range(a, b, CHUNK_ROWS)] for a, b in pairs]
        self.shape = matrix.shape
        workers = min(len(self.parts), os.cpu_count() or 1)
        self._pool = ThreadPoolExecutor(workers) if workers > 1 else None

    def _map(self, f: Callable[[int], Any]) -> list[Any]:
        if self._pool is None:
            return [f(i) for i in range(len(self.parts))]
        return list(self._pool.map(f, range(len(self.parts))))

    def dot(self, x: FloatArray) -> FloatArray:
        """``matrix @ x`` (x: columns x k), chunk by chunk into one array."""
        out = np.empty((self.shape[0], x.shape[1]), dtype=np.float64)

        def one(i: int) -> None:
            for a, chunk in self.chunks[i]:
                out[a:a + chunk.shape[0]] = chunk @ x

        self._map(one)
        return out

    def posterior(self, x: FloatArray, add: FloatArray | None, post: FloatArray,
                  top: FloatArray, log_total: FloatArray) -> None:
        """:func:`~._crowd.normalise_into` of ``matrix @ x`` (plus ``add`` per class), a
        chunk at a time: the posterior into ``post``, the rows' maxima and log
        normalisers into ``top`` and ``log_total`` (all of length ``matrix.shape[0]``)."""
        k = x.shape[1]

        def one(i: int) -> None:
            work = np.empty((k, CHUNK_ROWS))
            for a, chunk in self.chunks[i]:
                b = a + chunk.shape[0]
                normalise_into(chunk @ x, add, post[a:b], top[a:b], log_total[a:b],
                               work[:, :b - a])

        self._map(one)

    def tdot(self, y: FloatArray) -> FloatArray:
        """``matrix.T @ y`` (y: units x k), the blocks' sums added in block order."""
        parts = self._map(lambda i: np.asarray(
            self.transposed[i] @ y[self.bounds[i]:self.bounds[i + 1]]))
        total = parts[0]
        for p in parts[1:]:
            total += p
        return total

    def column_sums(self) -> FloatArray:
        """The sum of each column (the number of ratings per column)."""
        return np.asarray(sum(np.asarray(p.sum(axis=0)).ravel() for p in self.parts))

    def close(self) -> None:
        """Stop the threads (the fit is over)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None
