from django.urls import path

from . import views

urlpatterns = [
    path("editions/<str:edition>/", views.edition_detail, name="edition"),
]
