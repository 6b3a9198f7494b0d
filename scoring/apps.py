from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = "Score sheets"

    def ready(self) -> None:
        from django.db.models.signals import post_migrate

        from .excel import tasks as _excel_tasks  # noqa: F401 - sent by their names
        from .ratings import receivers  # the ratings follow the sheets

        post_migrate.connect(receivers.catch_up, sender=self)
