"""The decision table and its vocabularies: every signal and every reason code, declared once.

Owns `Signal`/`Rule` declarations, the signal registry (the Arrow schema of `signals`), the
reason registry (`reasons`: code, stage, predicate, params key) and the shared word lists. A new
rule is declared here or next to its signal and registered in `reasons`. The other `filters`
subpackages may import this one.
"""
