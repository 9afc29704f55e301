"""What every other `filters` subpackage shares, importing none of them: the `Signal`/`Rule`
declarations (`declarations`) and the word lists (`vocabulary`, `phrases`).

A leaf: it imports nothing of `filters` or `pipeline`, so any subpackage may import it without a
circle (tests/test_layout.py).
"""
