"""`python -m bench`: run every benchmark and print its figures."""

from bench import deal_api

if __name__ == "__main__":
    deal_api.main()
