"""How tasks run: local worker processes or Ray, memory budgets and timings.

A new executor goes here (`executors.Executor`). May import `pipeline.store`; never
`pipeline.stages`.
"""
