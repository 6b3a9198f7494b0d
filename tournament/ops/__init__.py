"""Running the site: health, logs, mail, the worker's queue, the version and the
releases (docs/architecture.md, docs/deploy.md)."""
