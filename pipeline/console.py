"""The `pipeline` console script's entry point: the command line, imported only when it runs.

Worker processes start with `spawn`, which runs the main program again in each of them (as
`__mp_main__`). With `pipeline.cli` as the script's import, every worker imported the whole
command line (params, storage, the stages: about 0.15 s of CPU) before the modules it preloads;
through this module a worker imports only the modules its tasks need (docs/benchmarks.md, "A
one-page run").
"""

from __future__ import annotations


def main() -> int:
    from pipeline.cli import main as run_command_line

    return run_command_line()
