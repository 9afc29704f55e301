"""Where a run's files live: local paths or object storage, the work directory and shard writers.

Owns storage paths (`storage`), the work directory and its manifest (`workdir`), Parquet writing
and publishing (`writers`) and the row schema (`schema`). May import `filters`; never
`pipeline.stages`.
"""
