"""De-duplication of select (docs/filters.md, "De-duplication"; docs/scale.md) as a declared pass
graph: one module a pass, each declaring its key rows, what its task reads and writes
(`spec.Pass`); `graph.ROUNDS` orders them, `graph.diagram` draws them. Candidates are the rows
that pass every other rule, in one global order (capture time, then reading order); each pass runs
over hash partitions (`partitions`), one task a partition.
1. **Record ids** (`ids`), every row: copies of one `WARC-Record-ID` keep one id; the others get
   ids of their own and `dup.record`.
2. **URL** and **exact** groups (`groups`), **CDC** fractions (`cdc`: Rabin fingerprints per
   host) and **near** pairs (`near`: buckets, pairs, verification), joined by union-find.
3. **One keeper** (`driver`, `filters.corpus.keepers.keep_first`): every `dup.url`, `dup.exact`
   and `dup.near` points at a kept page, and a cluster never reaches two splits (docs/dataset.md).
4. **Cross-split overlap** (`cross_split`): a validation or test row contained at the threshold in
   a kept train row names it; the split is the one each row is written to (`UnitKind.split`).
The per-site balance (`pipeline.stages.balance`) is one more round after these. The pure
decisions are in `filters/corpus/`; this package runs them over partitions, and the stages
import it, never the other way round.
"""

from pipeline.stages.dedup.driver import Duplicates, Passes
from pipeline.stages.dedup.graph import ROUNDS
from pipeline.stages.dedup.keys import compact_columns, id_columns

__all__ = ["ROUNDS", "Duplicates", "Passes", "compact_columns", "id_columns"]
