from django.urls import path

from . import views

edition = "editions/<str:edition>/"

urlpatterns = [
    path(edition, views.edition_detail, name="edition"),
    path(edition + "index.json", views.edition_json, name="edition-json"),
]
