"""Pure signal and decision code: from a record's bytes to numbers, and from numbers to reasons.

Subpackages by concern: `page` (the parse and page-level signals), `metadata`, `extract` (the
main-text cascade), `text` (text signals), `corpus` (de-duplication keys, splits) and `rules`
(the signal and reason registries). Nothing here reads files or knows about runs: `filters`
never imports `pipeline`, `benchmarks` or `samplegen` (tests/test_layout.py).
"""
