from django.apps import AppConfig


class ManifestsConfig(AppConfig):
    name = "manifests"
