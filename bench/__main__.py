"""`python -m bench`: see bench/runner.py."""

import sys

from bench.runner import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
