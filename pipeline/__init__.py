"""corpus-filter: raw web crawls (WARC/ARC/HTML) -> clean article datasets.

`pipeline` holds the I/O and orchestration (readers, stages, writers, executors, CLI);
`filters` holds the pure signal and decision code.
"""

__version__ = "0.1.0"
