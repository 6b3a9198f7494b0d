"""Benchmarks: each prints figures, with times as ratios against a baseline measured in
the same run (never asserted in tests). `make bench` runs them all."""
