from django.urls import path

from . import views

urlpatterns = [
    path("terms/reuse/", views.reuse_terms, name="reuse-terms"),
    path(".well-known/reuse.json", views.reuse_json, name="reuse-json"),
]
