from django.contrib import admin
from django.urls import include, path

# The public pages first: story pages are most requests, and the resolver tries in order.
urlpatterns = [
    path("", include("public.urls")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    # /healthz and /readyz for operators and load balancers.
    path("", include("newsroom.ops.urls")),
]
