"""Read annotation exports as they come: tables and the files annotation tools write.

:func:`read` detects the format from the file's content and name (or takes
``format=``), reads it with one small module per format, and returns
:class:`~accord.data.annotations.Annotations` with an audit of what was read, used,
skipped and dropped, per file. :func:`formats` lists the readers.

Reading never executes anything from a file: JSON is parsed with :mod:`json`,
tables with Polars; nothing is unpickled or evaluated.
"""

from accord.readers._describe import describe, summary
from accord.readers._read import UNEXPECTED_NOTE, detect, formats, read, scan

__all__ = ["UNEXPECTED_NOTE", "describe", "detect", "formats", "read", "scan", "summary"]
