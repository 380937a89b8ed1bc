"""Nothing of another newsroom shows: a crawl of every kind of admin URL as newsroom B's editor
and chief, asserting that no page, list, filter, count, search, autocomplete, history, delete
confirmation, error message or "view on site" redirect carries a string of newsroom A's.

Newsroom A's data is built with words found nowhere else (``A_STRINGS``), so an assertion cannot
pass by accident; and the crawl also asserts that B's own strings do show where they belong, so
it is proven to look. A page may repeat what the crawler asked for (a search term, an id in the
URL): those echoes are taken out before looking, since they tell B nothing it did not know.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, quote_plus, urlencode

import pytest
from django.contrib import admin
from django.contrib.admin.filters import RelatedFieldListFilter
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.test import Client, RequestFactory
from django.urls import NoReverseMatch, reverse

from editions.models import Edition
from newsroom.models import Beat, Newsroom, Role
from newsroom.roles import grant_role
from stories.models import Revision, Story
from tests.workflow.conftest import StoryMaker
from verification.workflow import PublishRefused, story_add_correction, story_publish, story_submit
from webhooks.models import Webhook, WebhookDelivery

from .helpers import errors_of, new_story, page_fields, story_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]

A_EDITION = "2019-07-14T05"
A_DRAFT_ID, A_LIVE_ID, A_SHARED_ID = 987_654, 987_655, 987_656
# Every string that would tell B something of A, lowercased (pages are compared lowercased).
A_STRINGS = (
    "zanzibar",  # the newsroom's title and slug, its chief's name, its webhook's host
    "quetzal",  # the beat's title and slug
    "okapi",  # the edition's title
    A_EDITION.lower(),
    "2019-07-14",  # the draft's dateline
    "july 14, 2019",
    "14 july 2019",
    "xylophone",  # the draft's headline and slug
    "yttrium",  # the published story's headline and slug
    "wombat",  # the published story's correction
    str(A_DRAFT_ID),
    str(A_LIVE_ID),
    str(A_SHARED_ID),
)
A_SEARCHES = ("Zanzibar", "Quetzal", "Xylophone", "Yttrium", str(A_DRAFT_ID))


@dataclass
class Desk:
    """Newsroom A (what must not show) and newsroom B (whose people crawl)."""

    a: Newsroom
    b: Newsroom
    a_stories: list[Story]
    b_stories: list[Story]
    b_people: dict[str, Any] = field(default_factory=dict)


def write(maker: StoryMaker, *, slug: str, headline: str, desk_id: int, edition: str | None = None) -> Story:
    """A story whose checks pass, with its address, headline and id chosen."""
    original = maker.document

    def document(**kwargs: Any) -> dict[str, Any]:
        built = original(**kwargs)
        built.update({"slug": slug, "headline": headline, "id": str(desk_id), "beat": maker.beat_slug})
        if edition:
            built["edition"] = edition
        return built

    maker.document = document
    try:
        return maker.good()
    finally:
        maker.document = original


def publish(story: Story, chief: Any, capture: Any) -> Story:
    with capture(execute=True):
        story_submit(story=story, actor=chief.username, user=chief)
    story = Story.objects.get(pk=story.pk)
    try:
        story_publish(story=story, actor=chief.username, user=chief)
    except PublishRefused:
        # The repeat index is not built in a test's database: the chief overrides, with a reason.
        story_publish(story=story, actor=chief.username, user=chief, override_reason="Not a repeat.")
    return Story.objects.get(pk=story.pk)


def person(django_user_model: Any, username: str, newsroom: Newsroom, role: str) -> Any:
    user = django_user_model.objects.create_user(username=username, password="pw")
    grant_role(user=user, newsroom=newsroom, role=role)
    return django_user_model.objects.get(pk=user.pk)


@pytest.fixture
def desk(django_user_model, django_capture_on_commit_callbacks) -> Desk:
    capture = django_capture_on_commit_callbacks
    a = Newsroom.objects.create(slug="zanzibar-ledger", title="Zanzibar Ledger")
    Beat.objects.create(newsroom=a, slug="quetzal-beat", title="Quetzal Beat")
    b = Newsroom.objects.create(slug="bramble-courier", title="Bramble Courier")
    Beat.objects.create(newsroom=b, slug="heron-beat", title="Heron Beat")
    Edition.objects.create(key=A_EDITION, title="Okapi Edition")

    a_maker = StoryMaker(newsroom_slug=a.slug)
    a_maker.beat_slug = "quetzal-beat"
    b_maker = StoryMaker(newsroom_slug=b.slug)
    b_maker.beat_slug = "heron-beat"
    a_chief = person(django_user_model, "zanzibar-chief", a, Role.CHIEF)
    b_chief = person(django_user_model, "bramble-chief", b, Role.CHIEF)
    b_editor = person(django_user_model, "bramble-editor", b, Role.EDITOR)

    a_draft = write(
        a_maker, slug="xylophone-inquiry", headline="Xylophone inquiry", desk_id=A_DRAFT_ID, edition=A_EDITION
    )
    a_live = write(a_maker, slug="yttrium-report", headline="Yttrium report", desk_id=A_LIVE_ID, edition=A_EDITION)
    a_live = publish(a_live, a_chief, capture)
    story_add_correction(story=a_live, text="The Wombat figure was wrong.", user=a_chief)
    # A's story in the hour B's stories are in: the edition is shared, its story count is not.
    a_shared = write(a_maker, slug="xylophone-sequel", headline="Xylophone sequel", desk_id=A_SHARED_ID)
    b_draft = write(b_maker, slug="heron-draft", headline="Bramble draft story", desk_id=555_001)
    b_live = publish(
        write(b_maker, slug="heron-report", headline="Bramble live story", desk_id=555_002), b_chief, capture
    )
    for newsroom, host in ((a, "zanzibar-hooks.example.org"), (b, "bramble-hooks.example.org")):
        hook = Webhook.objects.create(newsroom=newsroom, url=f"https://{host}/in")
        WebhookDelivery.objects.create(
            webhook=hook, event="story.published", story_desk_id=A_LIVE_ID if newsroom == a else 555_002, payload="{}"
        )
    assert a_live.status == Story.Status.PUBLISHED
    assert b_live.status == Story.Status.PUBLISHED
    return Desk(
        a=a,
        b=b,
        a_stories=[Story.objects.get(pk=a_draft.pk), a_live, a_shared],
        b_stories=[Story.objects.get(pk=b_draft.pk), b_live],
        b_people={Role.EDITOR: b_editor, Role.CHIEF: b_chief},
    )


# --- The crawl ----------------------------------------------------------------------------------


@dataclass
class Visit:
    """One URL the crawler opened, what it sent (which the page may echo) and what came back."""

    url: str
    kind: str
    status: int
    final_status: int
    final_url: str
    text: str
    sent: tuple[str, ...] = ()
    response: Any = None

    def leaks(self) -> list[str]:
        text = self.text
        for value in self.sent:
            for form in {value, quote(value), quote_plus(value), quote(value, safe="")}:
                text = text.replace(form.lower(), "")
        return [needle for needle in A_STRINGS if needle in text]


class Crawler:
    def __init__(self, client: Client):
        self.client = client
        self.visits: list[Visit] = []

    def get(self, url: str, kind: str, params: dict[str, str] | None = None, *, follow: bool = True, sent=()) -> Visit:
        params = params or {}
        full = url + ("?" + urlencode(params) if params else "")
        response = self.client.get(full, follow=follow)
        return self._record(full, kind, response, [*params.values(), *sent])

    def post(self, url: str, kind: str, data: dict[str, Any], *, sent=()) -> Visit:
        return self._record(url, kind, self.client.post(url, data, follow=True), sent)

    def _record(self, url: str, kind: str, response: Any, sent: Iterable[str]) -> Visit:
        chain = getattr(response, "redirect_chain", [])
        visit = Visit(
            response=response,
            url=url,
            kind=kind,
            status=chain[0][1] if chain else response.status_code,
            final_status=response.status_code,
            final_url=chain[-1][0] if chain else url,
            text=_text(response),
            sent=tuple(str(value).lower() for value in sent),
        )
        self.visits.append(visit)
        return visit


def _text(response: Any) -> str:
    if response.has_header("Location"):
        return response["Location"].lower()
    content = getattr(response, "content", b"")
    return content.decode(errors="replace").lower()


def registered() -> Iterator[tuple[type[models.Model], admin.ModelAdmin, str]]:
    for model, model_admin in admin.site._registry.items():
        yield model, model_admin, f"{model._meta.app_label}_{model._meta.model_name}"


def as_request(user: Any) -> Any:
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def urls_of(info: str, pk: Any) -> Iterator[tuple[str, str]]:
    """Every admin page of one object: Django's and the desk's own (history, preview, steps…)."""
    for name in (
        "change",
        "history",
        "delete",
        "preview",
        "revision_diff",
        "schedule",
        "submit",
        "publish",
        "retract",
        "correct",
        "review",
        "publish_verified",
        "refetch",
    ):
        try:
            yield name, reverse(f"admin:{info}_{name}", args=[pk])
        except NoReverseMatch:
            continue


def filter_params(visit: Visit) -> Iterable[str]:
    """The query strings of every choice of every filter the page shows."""
    changelist = visit.response.context["cl"] if visit.response.context else None
    if changelist is None:
        return []
    found = []
    for spec in changelist.filter_specs:
        for choice in spec.choices(changelist):
            found.append(choice["query_string"])
    return found


def related_params(visit: Visit, a_rows: dict[type[models.Model], list[Any]]) -> Iterable[dict[str, str]]:
    """For every filter on a relation, its parameter set to each of A's rows of that model."""
    changelist = visit.response.context["cl"] if visit.response.context else None
    if changelist is None:
        return []
    found = []
    for spec in changelist.filter_specs:
        if isinstance(spec, RelatedFieldListFilter):
            for row in a_rows.get(spec.field.remote_field.model, []):
                found.append({spec.lookup_kwarg: str(row.pk)})
    return found


def crawl(user: Any) -> tuple[Crawler, dict[type[models.Model], list[Any]]]:
    client = Client()
    client.force_login(user)
    crawler = Crawler(client)
    request = as_request(user)
    visible = {model: list(model_admin.get_queryset(request)[:10]) for model, model_admin, _ in registered()}
    # What B may not see of each model: every row its admin does not show B (A's, and the site's).
    hidden = {
        model: list(model._default_manager.exclude(pk__in=model_admin.get_queryset(request).values("pk"))[:20])
        for model, model_admin, _ in registered()
    }

    crawler.get(reverse("admin:index"), "index")
    for app_label in {model._meta.app_label for model in admin.site._registry}:
        crawler.get(reverse("admin:app_list", args=[app_label]), "app index")

    for model, _model_admin, info in registered():
        changelist = reverse(f"admin:{info}_changelist")
        plain = crawler.get(changelist, "list")
        crawler.get(changelist, "list, empty search", {"q": ""})
        crawler.get(changelist, "list, all results", {"all": ""})
        facets = crawler.get(changelist, "list, facets", {"_facets": "True"})
        for term in A_SEARCHES:
            crawler.get(changelist, "list, search for A", {"q": term})
        if plain.final_status == 200 and plain.response.context:
            for query in {*filter_params(plain), *filter_params(facets)}:
                crawler.get(changelist + query, "list, filter")
            for params in related_params(plain, hidden):
                crawler.get(changelist, "list, filter on A's row", params)
                crawler.get(changelist, "list, filter on A's row with facets", {**params, "_facets": "True"})
        crawler.get(reverse(f"admin:{info}_add"), "add")
        for row in visible[model]:
            for name, url in urls_of(info, row.pk):
                crawler.get(url, f"B's {name}")
        for row in hidden[model]:
            for name, url in urls_of(info, row.pk):
                crawler.get(url, f"A's {name}", sent=[str(row.pk)])
            content_type = ContentType.objects.get_for_model(model)
            crawler.get(
                reverse("admin:view_on_site", args=[content_type.pk, row.pk]),
                "A's view on site",
                follow=False,
                sent=[str(row.pk)],
            )
        # Every relation an autocomplete could be asked about, whether the admin offers it or not.
        for source_field in model._meta.get_fields():
            if not (source_field.is_relation and source_field.concrete and source_field.remote_field):
                continue
            if source_field.remote_field.model not in admin.site._registry:
                continue
            base = {"app_label": model._meta.app_label, "model_name": model._meta.model_name}
            base["field_name"] = source_field.name
            crawler.get(reverse("admin:autocomplete"), "autocomplete", base)
            for term in A_SEARCHES:
                crawler.get(reverse("admin:autocomplete"), "autocomplete for A", {**base, "term": term})
        # A bulk action naming A's rows beside B's own acts on, and lists, B's only.
        if hidden[model] and visible[model]:
            selected = [str(row.pk) for row in [*hidden[model], *visible[model]]]
            crawler.post(
                changelist,
                "bulk delete naming A's rows",
                {"action": "delete_selected", "_selected_action": selected},
                sent=[str(row.pk) for row in hidden[model]],
            )
    # A's revisions, asked for through B's own story's history.
    own_story = visible[Story][0]
    for revision in hidden[Revision]:
        diff = reverse("admin:stories_story_revision_diff", args=[own_story.pk])
        crawler.get(diff, "A's revision through B's story", {"a": str(revision.pk), "b": "working"})
        restore = reverse("admin:stories_story_revision_restore", args=[own_story.pk, revision.pk])
        crawler.post(restore, "A's revision restored through B's story", {}, sent=[str(revision.pk)])
    return crawler, hidden


@pytest.fixture(params=[Role.EDITOR, Role.CHIEF])
def b_user(request, desk) -> Any:
    return desk.b_people[request.param]


def test_newsroom_b_s_people_see_nothing_of_newsroom_a_on_any_admin_page(desk, b_user):
    crawler, hidden = crawl(b_user)

    leaks = {(visit.kind, visit.url): visit.leaks() for visit in crawler.visits if visit.leaks()}
    assert leaks == {}
    # A's rows are refused or not found (a redirect back with "doesn't exist"), never shown.
    opened = [
        (visit.kind, visit.url, visit.status)
        for visit in crawler.visits
        if visit.kind.startswith("A's") and visit.kind != "A's view on site"
        if visit.status not in (302, 403, 404) or (visit.status == 302 and not visit.final_url.startswith("/admin/"))
    ]
    assert opened == []
    # "View on site" of A's rows is not found: no redirect to where they are (or would be).
    on_site = {visit.url: visit.status for visit in crawler.visits if visit.kind == "A's view on site"}
    assert on_site
    assert on_site == dict.fromkeys(on_site, 404)
    # The crawl had A's rows to try: stories, versions, the beat, the edition, runs, webhooks.
    assert {model._meta.label for model, rows in hidden.items() if rows} >= {
        "stories.Story",
        "stories.PublishedVersion",
        "stories.Revision",
        "stories.Correction",
        "newsroom.Newsroom",
        "newsroom.Beat",
        "editions.Edition",
        "verification.VerificationRun",
        "webhooks.Webhook",
    }
    searched = {
        visit.url: visit.response.context["cl"].result_count
        for visit in crawler.visits
        if visit.kind == "list, search for A" and visit.final_status == 200
    }
    assert searched
    assert searched == dict.fromkeys(searched, 0)
    through_own = [visit.status for visit in crawler.visits if visit.kind.startswith("A's revision")]
    assert through_own
    assert set(through_own) == {404}
    assert_b_s_own_strings_show(crawler, b_user)
    assert_b_s_counts_are_b_s(crawler, desk)


def assert_b_s_counts_are_b_s(crawler: Crawler, desk: Desk) -> None:
    """Counts count B's rows: the list's total, and the stories B has in an edition A shares."""
    stories = reverse("admin:stories_story_changelist")
    searched = crawler.get(stories, "list, one of B's", {"q": "Bramble draft"})
    assert searched.response.context["cl"].result_count == 1
    assert searched.response.context["cl"].full_result_count == 2
    assert "2 total" in searched.text
    editions = crawler.get(reverse("admin:editions_edition_changelist"), "edition list").response.context["cl"]
    shared = desk.b_stories[0].edition_id
    assert desk.a_stories[2].edition_id == shared
    assert {edition.key: edition.own_story_total for edition in editions.result_list} == {shared: 2}


def page(crawler: Crawler, kind: str, url: str) -> str:
    return next(visit.text for visit in crawler.visits if visit.kind == kind and visit.url == url)


def assert_b_s_own_strings_show(crawler: Crawler, b_user: Any) -> None:
    """The crawl looked: B's own rows show in the lists, filters, autocompletes and pages it read."""
    stories = reverse("admin:stories_story_changelist")
    for text in (page(crawler, "list", stories), page(crawler, "list, empty search", stories + "?q=")):
        assert "bramble draft story" in text
        assert "bramble live story" in text
        assert "bramble courier" in text  # a column and a filter
        assert "heron beat" in text
    assert "heron beat" in page(crawler, "list", reverse("admin:newsroom_beat_changelist"))
    assert "bramble live story" in page(crawler, "list", reverse("admin:stories_publishedversion_changelist"))
    autocomplete = [visit.text for visit in crawler.visits if visit.kind == "autocomplete"]
    assert any("bramble courier" in text for text in autocomplete)
    assert any("heron beat" in text for text in autocomplete)
    own = [visit.text for visit in crawler.visits if visit.kind == "B's change" and visit.final_status == 200]
    assert any("bramble draft story" in text for text in own)
    if b_user.username == "bramble-chief":
        webhooks = reverse("admin:webhooks_webhook_changelist")
        assert "bramble-hooks.example.org" in page(crawler, "list", webhooks)
        # The confirmation of deleting A's webhook and B's is about B's alone (which a chief
        # cannot delete: its delivery log is kept).
        confirmation = next(
            visit for visit in crawler.visits if visit.kind == "bulk delete naming A's rows" and visit.url == webhooks
        )
        assert "cannot delete webhook" in confirmation.text
        assert {hook.url for hook in confirmation.response.context["queryset"]} == {
            "https://bramble-hooks.example.org/in"
        }


def test_view_on_site_leads_to_a_published_story_s_page_and_to_a_draft_s_preview(client, desk):
    client.force_login(desk.b_people[Role.EDITOR])
    draft, live = desk.b_stories
    content_type = ContentType.objects.get_for_model(Story)

    to_draft = client.get(reverse("admin:view_on_site", args=[content_type.pk, draft.pk]))
    to_live = client.get(reverse("admin:view_on_site", args=[content_type.pk, live.pk]))

    assert to_draft.status_code == 302
    assert to_draft["Location"] == reverse("admin:stories_story_preview", args=[draft.pk])
    assert to_live.status_code == 302
    assert to_live["Location"] == live.get_absolute_url()
    for story in desk.a_stories:
        assert client.get(reverse("admin:view_on_site", args=[content_type.pk, story.pk])).status_code == 404


@pytest.mark.parametrize(
    "posted",
    [
        {"newsroom": "a"},
        {"beat": "a"},
        {"edition": A_EDITION, "headline": ""},
        {"desk_id": str(A_DRAFT_ID)},
        {"slug": "xylophone-inquiry", "dateline": "2019-07-14", "edition": A_EDITION},
    ],
    ids=["a-newsroom", "a-beat", "a-edition", "a-desk-id", "a-address"],
)
def test_b_s_story_form_given_a_s_rows_refuses_them_without_naming_anything_of_a(client, desk, posted):
    client.force_login(desk.b_people[Role.EDITOR])
    a_beat = Beat.objects.get(newsroom=desk.a)
    b_beat = Beat.objects.get(newsroom=desk.b)
    posted = {
        name: {"newsroom": str(desk.a.pk), "beat": str(a_beat.pk)}.get(name, value) if value == "a" else value
        for name, value in posted.items()
    }
    fields = page_fields(client, story_url())
    data = new_story(
        fields,
        newsroom=desk.b,
        beat=b_beat,
        edition=desk.b_stories[0].edition_id,
        headline="Bramble third story",
        sections=[],
    )

    response = client.post(story_url(), {**data, **posted})

    assert response.status_code == 200  # the form again, with its errors
    assert errors_of(response)
    sent = tuple(value.lower() for value in posted.values())
    assert Visit(story_url(), "post", 200, 200, story_url(), _text(response), sent).leaks() == []
    assert not Story.objects.filter(headline="Bramble third story").exists()


@pytest.mark.parametrize("step", ["submit", "publish", "retract", "correct", "review"])
def test_a_step_on_a_s_story_is_not_found_like_a_story_that_does_not_exist(client, desk, step):
    client.force_login(desk.b_people[Role.CHIEF])

    answers = {
        story_pk: client.post(reverse(f"admin:stories_story_{step}", args=[story_pk]), {"reason": "r"}).status_code
        for story_pk in (desk.a_stories[0].pk, 10**9)
    }

    assert answers == {desk.a_stories[0].pk: 404, 10**9: 404}
