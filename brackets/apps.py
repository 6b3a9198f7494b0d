from django.apps import AppConfig


class BracketsConfig(AppConfig):
    name = "brackets"
    verbose_name = "Knockout"

    def ready(self) -> None:
        from . import receivers  # noqa: F401 - connects the sheet signals
