"""What a page declares about itself: title, author, dates, language, description.

Owns metadata in the order JSON-LD > Open Graph > Twitter > meta (`fields`), JSON-LD reading,
date parsing and byline cleaning. May import `filters.core` and `filters.parse`; never `pipeline`.
"""
