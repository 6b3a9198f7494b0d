from django.apps import AppConfig


class BracketsConfig(AppConfig):
    name = "brackets"
    verbose_name = "Knockout"
