"""One HTML page before extraction: the parse and what it says about itself.

Owns URL rules and registered domains, the article score, page classes (JS shell, cookie wall,
paywall), product and structure signals; the parse itself is `filters.parse`, the page-type model
that reads these signals `filters.page_model`. A new signal read from the page's HTML or URL goes here.
May import `filters.core`, `filters.parse`, `filters.metadata` and `filters.extract`; never `pipeline`.
"""
