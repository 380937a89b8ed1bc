from django.urls import path, register_converter

from . import views


class IsoDateConverter:
    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(IsoDateConverter, "isodate")

urlpatterns = [
    path("", views.home, name="home"),
    path("stories/<isodate:date>/<slug:slug>/", views.story_detail, name="story"),
    path("stories/<isodate:date>/<slug:slug>/index.json", views.story_json, name="story-json"),
    path("n/<slug:newsroom>/", views.newsroom_detail, name="newsroom"),
    path("n/<slug:newsroom>/<slug:beat>/", views.beat_detail, name="beat"),
]
