"""The main text of a page: the extraction cascade and what it cleans.

Owns the cascade (trafilatura and readability-lxml, best of two, called through their public
APIs), the DOM fallback, consent-widget cleanup and boilerplate-block removal. A new extractor or
a new way to choose between them goes here. May import `filters.core`, `filters.parse`
and `filters.text`; never `pipeline`.
"""
