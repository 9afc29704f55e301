"""Segments: a page's posts, questions, answers, comments and items, each a unit of the dataset
(docs/segments.md; docs/benchmarks.md, "Segments").

`segments.page_segments(body, text, article)` is the pipeline's entry, run after extraction on every
page (and on pages the pre-extraction gate turned away, from the DOM alone); `units` finds the
repeated units of a page's structure (schema.org microdata, same-shape siblings) and their own text.
Generic markup only: no site rules. Pure and read-only: the tree is never modified.
May import `filters.core`, `filters.parse` and `filters.text`; never `pipeline`.
"""
