"""Segments: a page's posts, questions, answers, comments and items, each a unit of the dataset
(docs/segments.md; docs/benchmarks.md, "Segments").

`segments.page_segments(body, text, json_ld)` is the pipeline's entry, run after extraction
on every page (and on pages the pre-extraction gate turned away, from the DOM alone); `units` finds
the units of a page's structure (schema.org microdata, posts marked by their ids, same-shape siblings)
and their own text; `jsonld` reads the contributions a page's JSON-LD states, for pages whose markup
gives none. Generic markup only: no site rules. Pure and read-only: the tree is never modified.
May import `filters.core`, `filters.parse`, `filters.text` and `filters.metadata` (JSON-LD values);
never `pipeline`.
"""
