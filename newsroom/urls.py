from django.contrib import admin
from django.urls import include, path

# The public story pages first: they are most requests, and the resolver tries in order.
urlpatterns = [
    path("", include("stories.urls")),
    path("admin/", admin.site.urls),
    path("", include("newsroom.site_urls")),
    path("", include("editions.urls")),
    # /healthz and /readyz for operators and load balancers.
    path("", include("newsroom.ops.urls")),
]
