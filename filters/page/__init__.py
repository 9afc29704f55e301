"""One HTML page before extraction: what its URL and its markup say about it.

Owns URL rules and registered domains, the article score, page classes (JS shell, cookie wall,
paywall), product and structure signals. The parse is `filters.parse`; the page-type model that
reads these signals is `filters.page_model`. A new signal read from the page's HTML or URL goes here.
May import `filters.core`, `filters.text` (tokens), `filters.parse`, `filters.metadata` and
`filters.extract`; never `pipeline`.
"""
