"""The lxml parse of one HTML page: bytes to a tree (`html`) and the parsed page that the page,
metadata and extract subpackages read (`parsed.Page`). May import `filters.core` and `filters.text`
(its tokens, for word counts); never `pipeline`.
"""
