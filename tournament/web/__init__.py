"""The web platform every app's pages and API stand on: errors and their JSON, what
every API shares (pagination, roles, links), the schema, security headers, CSRF's
answer, the body parser, the language and time zone of a request, ETags, and the
answer while the database is away (docs/architecture.md)."""
