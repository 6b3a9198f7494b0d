"""Benchmarks: each prints figures, with times as ratios against a baseline measured in
the same run (never asserted in tests). `make bench` runs them all and ends with a
table of figures against the goals of docs/performance.md (bench/runner.py); what
they share is in bench/core.py."""
