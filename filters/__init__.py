"""Pure signal and decision code: from a record's bytes to numbers, and from numbers to reasons.

Subpackages by concern, leaves first: `core` (declarations, word lists), `parse` (the lxml parse),
`text` (text signals), `metadata`, `extract` (the main-text cascade), `page` (page-level signals),
`page_model` (the page-type model), `corpus` (de-duplication keys, splits) and `rules` (the signal
and reason registries, above all the others). No two subpackages import each other, directly or
around a circle. Nothing here knows about runs or reads files but the model files shipped with
it: `filters` never imports `pipeline`, `benchmarks` or `samplegen` (tests/test_layout.py).
"""
