"""Path converters. `<id:pk>` is an id the databases can hold (at most 18 digits,
under PostgreSQL's bigint and SQLite's 64-bit integer): a longer number in an address
is a 404, never an overflow in the database."""


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
