"""Reading inputs: every record of every WARC, ARC or HTML file, accounted for.

Owns input discovery (`readers`), archives and gzip members, resynchronisation after damage,
decoding, byte ranges and the record model. A new input format goes here. May import
`pipeline.store` (to open local or object-storage paths) and `filters`; never `pipeline.stages`.
"""
