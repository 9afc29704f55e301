"""What a run shows: the report's figures and `index.html`, and the dataset card.

Reads a run's shards and `stats.json`; never re-runs a stage. May import `pipeline.store`,
`pipeline.run` and `filters`.
"""
