from django.urls import path, re_path

from . import desk, docs, hooks, views, writing

urlpatterns = [
    path("", views.ApiIndex.as_view(), name="api-index"),
    path("newsrooms/", views.NewsroomList.as_view(), name="api-newsroom-list"),
    path("newsrooms/<slug:slug>/", views.NewsroomDetail.as_view(), name="api-newsroom-detail"),
    path("beats/", views.BeatList.as_view(), name="api-beat-list"),
    path("beats/<int:pk>/", views.BeatDetail.as_view(), name="api-beat-detail"),
    path("editions/", views.EditionList.as_view(), name="api-edition-list"),
    path("editions/<str:id>/", views.EditionDetail.as_view(), name="api-edition-detail"),
    path("stories/", views.StoryList.as_view(), name="api-story-list"),
    path("stories/<str:id>/", views.StoryDetail.as_view(), name="api-story-detail"),
    path("stories/<str:id>/publish/", writing.StoryPublish.as_view(), name="api-story-publish"),
    path("stories/<str:id>/corrections/", writing.StoryCorrections.as_view(), name="api-story-corrections"),
    path("stories/<str:id>/retract/", writing.StoryRetract.as_view(), name="api-story-retract"),
    path("me/", writing.Me.as_view(), name="api-me"),
    path("runs/<int:id>/", writing.RunDetail.as_view(), name="api-run-detail"),
    path("changes/", views.ChangeList.as_view(), name="api-change-list"),
    path("desk/stories/", desk.DeskStoryList.as_view(), name="api-desk-story-list"),
    path("desk/stories/<str:id>/", desk.DeskStoryDetail.as_view(), name="api-desk-story-detail"),
    path("desk/stories/<str:id>/runs/", desk.DeskStoryRuns.as_view(), name="api-desk-story-runs"),
    path("webhooks/", hooks.WebhookList.as_view(), name="api-webhook-list"),
    path("webhooks/<int:id>/", hooks.WebhookDetail.as_view(), name="api-webhook-detail"),
    path("webhooks/<int:id>/ping/", hooks.WebhookPing.as_view(), name="api-webhook-ping"),
    path("webhooks/<int:id>/deliveries/", hooks.WebhookDeliveries.as_view(), name="api-webhook-deliveries"),
    path(
        "webhooks/<int:id>/deliveries/<int:delivery_id>/redeliver/",
        hooks.WebhookRedeliver.as_view(),
        name="api-webhook-redeliver",
    ),
    path("manifests/", views.ManifestList.as_view(), name="api-manifest-list"),
    path("manifests/<str:manifest_id>/", views.ManifestDetail.as_view(), name="api-manifest-detail"),
    path("schema/", docs.Schema.as_view(), name="api-schema"),
    path("docs/", docs.SwaggerDocs.as_view(url_name="api-schema"), name="api-docs"),
    path("redoc/", docs.RedocDocs.as_view(url_name="api-schema"), name="api-redoc"),
    re_path(r"^.*$", views.NoEndpoint.as_view(), name="api-no-endpoint"),
]
