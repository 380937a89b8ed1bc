from django.contrib import admin
from django.urls import include, path, re_path

from api.mcp_server import endpoint as mcp_endpoint
from api.views import NoEndpoint
from newsroom.admin import view_on_site

# The public pages first: story pages are most requests, and the resolver tries in order.
urlpatterns = [
    path("", include("public.urls")),
    # Before the admin's own: "view on site" only for what the user may open (newsroom/admin.py).
    path("admin/r/<int:content_type_id>/<path:object_id>/", admin.site.admin_view(view_on_site)),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    # Anything else under /api/ (/api/ itself, /api/v2/) answers in the API's error shape.
    re_path(r"^api(?:/|$)", NoEndpoint.as_view()),
    # The MCP server for agents, with the API's tokens and roles (api/mcp_server.py).
    path("mcp/", mcp_endpoint, name="mcp"),
    # /healthz and /readyz for operators and load balancers.
    path("", include("newsroom.ops.urls")),
]

# A bad Host under /api/ is a 400 in the API's error shape.
handler400 = "api.errors.bad_request"
