"""Segments: a page's posts, answers, comments and items, found from its structure after extraction.

Work in progress (the pipeline does not run it yet): `units` finds the repeated units of a parsed
page and their own text; `benchmarks/segments.py` measures them against posts read by hand.
May import `filters.core`, `filters.parse` and `filters.text`; never `pipeline`.
"""
