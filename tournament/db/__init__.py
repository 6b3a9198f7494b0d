"""What the database and the shared cache are asked beyond the ORM's models: the shared
cache bypassed when down, many rows at once, statements planned once
(docs/architecture.md)."""
