"""Decisions across pages: de-duplication keys, Rabin CDC chunks, splits, eras and site balance.

Pure functions over keys and counts; `pipeline.stages` runs them over a whole run. May import
`filters.core`, `filters.text` (tokens, for shingles) and `filters.page`; never `pipeline`.
"""
