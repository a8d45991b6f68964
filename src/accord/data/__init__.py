"""The canonical data: :class:`Annotations`, how it is built and coded, and its checks.

Building and id coding, duplicates, label sets, frames, encodings, files, validation
and category weights. The bottom layer: it imports only :mod:`accord.errors`.
"""
