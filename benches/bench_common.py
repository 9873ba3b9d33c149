"""What the numpy comparison scripts share: the benches' seeded data and timing."""

import re
import subprocess
import time

import numpy as np


def hash_(i):
    """(i * 2654435761) mod 2^32 >> 7, as benches/*.rs compute it."""
    return ((i * np.uint64(2_654_435_761)) & np.uint64(0xFFFF_FFFF)) >> np.uint64(7)


def best_of(f, repeat=5):
    """Best wall time of `repeat` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best


def criterion_times(bench, profile):
    """Runs `cargo bench --bench <bench>` and returns {bench id: seconds per iteration}."""
    command = ["cargo", "bench", "--bench", bench]
    if profile != "release":
        command += ["--profile", profile]
    command += ["--", "--output-format", "bencher"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return {
        name: int(ns.replace(",", "")) / 1e9
        for name, ns in re.findall(r"test (\S+) \.\.\. bench:\s+([\d,]+) ns/iter", out)
    }
