"""The example tournaments (``examples/*.toml``) each finish within a minute on two cores: timed
with ``pytest tests/bench/test_bench_examples.py --benchmark-enable`` (one round each, two worker
processes). A normal test run skips them (each takes up to a minute);
``tests/tournament/test_tournament_run.py`` checks every example is valid and plays.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import load_config, run_tournament

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.toml"))


@pytest.mark.bench
@pytest.mark.parametrize("name", EXAMPLES)
def test_example_tournament(benchmark, tmp_path: Path, name: str) -> None:
    if benchmark.disabled:
        pytest.skip("a whole example tournament: timed only with --benchmark-enable")
    config = load_config(ROOT / "examples" / name)
    runs = iter(range(1_000))

    def run() -> int:
        return run_tournament(config, tmp_path / f"out{next(runs)}", workers=2).played

    played = benchmark.pedantic(run, rounds=1, iterations=1)
    assert played > 0
    assert benchmark.stats.stats.max < 60, f"{name} took {benchmark.stats.stats.max:.0f} s (the target: a minute)"
