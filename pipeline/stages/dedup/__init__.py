"""De-duplication of select (docs/filters.md, "De-duplication"; docs/scale.md), as a declared
pass graph: one module a pass, each declaring the key rows it is fed, what its task reads and
what it writes (`spec.Pass`); `graph.ROUNDS` orders them and `graph.diagram` draws them.

Candidates are the rows that pass every other rule, in one deterministic global order: capture
time, then reading order (unknown capture times last). Each pass runs over hash partitions
(`partitions`): the driver writes key rows, one task per partition decides.
1. **Record ids** (`ids`), over every row: copies of one `WARC-Record-ID` keep one id, the first
   copy that passes every other rule (else the first); the others get ids of their own and `dup.record`.
2. **URL** and **exact** groups (`groups`), **CDC** fractions (`cdc`: Rabin fingerprints, Manber
   1994, per host) and **near**-duplicate pairs (`near`: buckets, pairs, verification), joined
   into clusters by union-find.
3. **One keeper** (`driver`, `filters.corpus.keepers.keep_first`): a candidate is kept unless its
   CDC fraction is over the limit or it shares a key or a near cluster with an earlier **kept**
   page, so every `dup.url`, `dup.exact` and `dup.near` points at a kept page and a cluster never
   reaches two splits (docs/dataset.md).
4. **Cross-split overlap** (`cross_split`, `dataset.cross_split`): a validation or test page
   contained at the threshold in a kept train page names it (`filters.corpus.near`); train pages
   never lose here.

The dataset step's per-site balance (`pipeline.stages.balance`) is one more round after these,
declared the same way. The pure decisions are in `filters/corpus/`; this package runs them over
partitions. May import every other `pipeline` subpackage and `filters`, as the stages do; the
stages' other modules import it, never the other way round except `pipeline.stages.dataset`
(the split the sketches carry).
"""

from pipeline.stages.dedup.driver import Duplicates, Passes
from pipeline.stages.dedup.graph import ROUNDS
from pipeline.stages.dedup.keys import compact_columns, id_columns

__all__ = ["ROUNDS", "Duplicates", "Passes", "compact_columns", "id_columns"]
