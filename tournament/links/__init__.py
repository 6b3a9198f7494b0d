"""Table and team links: pages and API access without an account (docs/links.md)."""
