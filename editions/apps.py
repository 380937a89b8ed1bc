from django.apps import AppConfig


class EditionsConfig(AppConfig):
    name = "editions"
