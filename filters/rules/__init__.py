"""The decision table: every signal and every reason code, registered once.

Owns the signal registry (`signals`: the Arrow schema of `signals`) and the reason registry
(`reasons`: code, stage, predicate, params key), assembled from the declarations of the other
subpackages (`Signal`/`Rule` come from `filters.core`). A new rule is declared next to its
signal and registered in `reasons`. May import every other `filters` subpackage; none imports it
(the registries sit above what they list).
"""
