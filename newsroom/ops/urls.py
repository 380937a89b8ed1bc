from django.urls import path

from . import views
from .metrics import metrics_view

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    # Prometheus; only for METRICS_ALLOWED_IPS or the METRICS_TOKEN bearer (newsroom/ops/metrics.py).
    path("metrics", metrics_view, name="metrics"),
]
