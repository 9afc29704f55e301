"""`pipeline sample --out DIR`: write the bundled sample (docs/development.md, "Bundled sample").

The generator is a test-fixture builder, not part of the pipeline: it lives in the top-level
`samplegen` package and its prose and page data in `data/sample-src/`, and is imported only
when the command runs.
"""

from __future__ import annotations

from pathlib import Path


def write_sample(out_dir: Path) -> list[dict]:
    """Write the sample into `out_dir` and return its manifest entries."""
    from samplegen.write import write_sample as build

    return build(out_dir)
