"""The story page in admin: the whole story on one page, cites chosen from the store, checks
beside the text, a diff from the live version, a preview, and a bounded cost."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from newsroom.models import Beat, Newsroom, Role
from newsroom.roles import grant_role
from stories import desk
from stories.models import Cite, ListItem, Paragraph, Section, Story
from stories.paths import describe_path, part_of
from tests.factories import CiteFactory, EditionFactory, KeyFactFactory, ParagraphFactory, SectionFactory
from tests.workflow.conftest import StoryMaker
from verification.workflow import story_publish, story_submit

from .helpers import add_cites, errors_of, new_story, page_fields, story_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk_setup(editor, stories: StoryMaker) -> dict[str, Any]:
    newsroom = Newsroom.objects.get(slug=stories.newsroom_slug)
    beat = Beat.objects.create(newsroom=newsroom, slug="harbour", title="Harbour")
    edition = EditionFactory()
    manifest = stories.manifest(
        {"h-1": "The harbour authority dredged 4 berths in March.", "h-2": "Ferry traffic rose 12% after it."}
    )
    return {"newsroom": newsroom, "beat": beat, "edition": edition, "manifest": manifest}


def write(client: Any, setup: dict[str, Any], **changes: Any) -> Any:
    m = setup["manifest"].manifest_id
    data = new_story(
        page_fields(client, story_url()),
        newsroom=setup["newsroom"],
        beat=setup["beat"],
        edition=setup["edition"].key,
        headline="Harbour dredging ends",
        key_facts=[("The authority dredged 4 berths.", [(m, ["h-1"])])],
        sections=[
            ("What happened", [("The authority dredged 4 berths in March.", [(m, ["h-1"])])]),
            (
                "What it means",
                [
                    ("Ferry traffic rose 12% after it.", [(m, ["h-2"])]),
                    ("Both are **facts** from the authority.", [(m, ["h-2", "h-1"])]),
                ],
            ),
        ],
    )
    data.update(changes)
    return client.post(story_url(), data)


def test_an_editor_writes_a_whole_story_on_one_page(client, editor, desk_setup):
    client.force_login(editor)

    response = write(client, desk_setup)

    assert response.status_code == 302, errors_of(response)
    story = Story.objects.get(headline="Harbour dredging ends")
    # The id is the next free one, the dateline its edition's day, the slug as suggested.
    assert story.desk_id == 1
    assert story.dateline == desk_setup["edition"].starts_at.date()
    assert story.revisions.count() == 1
    assert story.content_hash
    document = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
    assert [section["heading"] for section in document["sections"]] == ["What happened", "What it means"]
    assert [len(section["paragraphs"]) for section in document["sections"]] == [1, 2]
    assert document["sections"][1]["paragraphs"][1]["cites"] == [
        {"manifest_id": desk_setup["manifest"].manifest_id, "claim_ids": ["h-2", "h-1"]}
    ]
    assert document["key_facts"][0]["cites"][0]["claim_ids"] == ["h-1"]
    # Each part belongs to the story it was written in.
    assert set(Paragraph.objects.values_list("story_id", flat=True)) == {story.pk}
    assert set(Cite.objects.values_list("story_id", flat=True)) == {story.pk}


def test_the_next_free_id_is_given_when_none_is_typed(client, editor, desk_setup, stories):
    taken = stories.good()  # 70000-something
    client.force_login(editor)

    assert write(client, desk_setup).status_code == 302
    assert Story.objects.get(headline="Harbour dredging ends").desk_id == taken.desk_id + 1


def test_a_manifest_the_store_lacks_is_refused_until_the_editor_says_so(client, editor, desk_setup):
    client.force_login(editor)

    refused = write(client, desk_setup, **{"sections-0-paragraphs-0-cites-0-manifest_id": "404404"})

    assert refused.status_code == 200
    assert any(error.startswith("manifest 404404 is not in the store;") for error in errors_of(refused))
    assert not Story.objects.filter(headline="Harbour dredging ends").exists()

    allowed = write(
        client,
        desk_setup,
        **{
            "sections-0-paragraphs-0-cites-0-manifest_id": "404404",
            "sections-0-paragraphs-0-cites-0-claim_ids": ["typed-1"],
            "sections-0-paragraphs-0-cites-0-not_in_store": "on",
        },
    )
    assert allowed.status_code == 302, errors_of(allowed)
    assert Cite.objects.filter(manifest_id="404404", claim_ids=["typed-1"]).exists()


def test_a_claim_not_in_the_chosen_manifest_is_an_error_naming_it(client, editor, desk_setup):
    client.force_login(editor)

    response = write(client, desk_setup, **{"sections-1-paragraphs-0-cites-0-claim_ids": ["h-2", "9999"]})

    assert response.status_code == 200
    assert f"9999 is not a claim of manifest {desk_setup['manifest'].manifest_id}" in errors_of(response)
    assert not Story.objects.exists() or not Story.objects.filter(headline="Harbour dredging ends").exists()


def test_a_single_bare_claim_id_is_a_list_of_one(client, editor, desk_setup):
    client.force_login(editor)

    response = write(client, desk_setup, **{"key_facts-0-cites-0-claim_ids": "h-2"})

    assert response.status_code == 302, errors_of(response)
    assert Cite.objects.get(key_fact__isnull=False).claim_ids == ["h-2"]


def test_a_cite_row_lists_only_its_chosen_claims_in_the_cite_s_order(client, editor, desk_setup):
    # The manifest's other claims are fetched when the box is opened (tests/browser/test_desk.py).
    client.force_login(editor)
    assert write(client, desk_setup).status_code == 302
    page = client.get(story_url(Story.objects.get())).content.decode()

    both = page.split('name="sections-1-paragraphs-1-cites-0-claim_ids"', 1)[1].split("</select>", 1)[0]
    assert both.count("<option") == 2
    assert both.index('value="h-2" selected') < both.index('value="h-1" selected')
    one = page.split('name="sections-0-paragraphs-0-cites-0-claim_ids"', 1)[1].split("</select>", 1)[0]
    assert one.count("<option") == 1
    assert 'value="h-1" selected' in one
    assert 'value="h-2"' not in one


def test_a_beat_of_another_newsroom_is_refused(client, django_user_model, desk_setup):
    other = Newsroom.objects.create(slug="south-desk", title="South desk")
    foreign_beat = Beat.objects.create(newsroom=other, slug="glaciers", title="Glaciers")
    both = django_user_model.objects.create_user(username="both", password="pw")
    grant_role(user=both, newsroom=desk_setup["newsroom"], role=Role.EDITOR)
    grant_role(user=both, newsroom=other, role=Role.EDITOR)
    client.force_login(both)

    response = write(client, desk_setup, beat=str(foreign_beat.pk))

    assert response.status_code == 200
    assert any("belongs to another newsroom" in error for error in errors_of(response))


def test_the_form_offers_and_accepts_only_the_user_s_newsrooms_and_beats(client, editor, desk_setup):
    other = Newsroom.objects.create(slug="south-desk", title="South desk")
    foreign_beat = Beat.objects.create(newsroom=other, slug="glaciers", title="Glaciers")
    client.force_login(editor)

    form = client.get(story_url()).context["adminform"].form
    assert list(form.fields["newsroom"].queryset) == [desk_setup["newsroom"]]
    assert foreign_beat not in form.fields["beat"].queryset
    response = write(client, desk_setup, newsroom=str(other.pk), beat=str(foreign_beat.pk))
    assert response.status_code == 200
    assert Story.objects.filter(newsroom=other).count() == 0


def test_sections_and_paragraphs_are_reordered_without_a_collision(client, editor, desk_setup):
    client.force_login(editor)
    assert write(client, desk_setup).status_code == 302
    story = Story.objects.get()
    data = page_fields(client, story_url(story))
    # Swap the two sections, and the two paragraphs of the second, as dragging them does.
    data |= {"sections-0-position": "1", "sections-1-position": "0"}
    data |= {"sections-1-paragraphs-0-position": "1", "sections-1-paragraphs-1-position": "0", "_save": "Save"}

    response = client.post(story_url(story), data)

    assert response.status_code == 302, errors_of(response)
    assert list(story.sections.values_list("heading", flat=True)) == ["What it means", "What happened"]
    first = story.sections.get(position=0)
    assert [p.markdown[:4] for p in Paragraph.objects.filter(section=first).order_by("position")] == ["Both", "Ferr"]
    assert story.revisions.count() == 2


def test_a_new_paragraph_is_added_to_an_existing_section(client, editor, desk_setup):
    client.force_login(editor)
    assert write(client, desk_setup).status_code == 302
    story = Story.objects.get()
    data = page_fields(client, story_url(story))
    prefix = "sections-0-paragraphs"
    data |= {f"{prefix}-TOTAL_FORMS": "2", f"{prefix}-1-position": "1", f"{prefix}-1-markdown": "A new one."}
    add_cites(data, f"{prefix}-1-cites", [(desk_setup["manifest"].manifest_id, ["h-1"])])
    data["_save"] = "Save"

    response = client.post(story_url(story), data)

    assert response.status_code == 302, errors_of(response)
    added = Paragraph.objects.get(markdown="A new one.")
    assert (added.story_id, added.section.heading, added.position) == (story.pk, "What happened", 1)
    assert added.cites.get().story_id == story.pk


def test_each_list_is_an_ordered_list_of_its_own(client, editor, desk_setup):
    client.force_login(editor)
    assert write(client, desk_setup).status_code == 302
    story = Story.objects.get()
    data = page_fields(client, story_url(story))
    for prefix, text in (("list_items", "Who pays?"), ("list_items-2", "Port planners"), ("list_items-4", "2019")):
        data |= {f"{prefix}-TOTAL_FORMS": "1", f"{prefix}-0-position": "0", f"{prefix}-0-text": text}
    data["_save"] = "Save"

    assert client.post(story_url(story), data).status_code == 302
    document = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
    assert document["unresolved"] == ["Who pays?"]
    assert document["decision_card"] == {"useful_for": ["Port planners"], "not_for": [], "compare_against": ["2019"]}
    assert ListItem.objects.get(text="Port planners").kind == ListItem.Kind.USEFUL_FOR


def test_an_image_needs_its_alt_text(client, editor, desk_setup):
    client.force_login(editor)
    assert write(client, desk_setup).status_code == 302
    story = Story.objects.get()
    data = page_fields(client, story_url(story))
    data |= {"images-TOTAL_FORMS": "1", "images-0-position": "0", "images-0-url": "https://example.org/a.png"}
    data |= {"images-0-alt": "", "images-0-caption": "A berth", "images-0-credit": "Port", "_save": "Save"}

    response = client.post(story_url(story), data)

    assert response.status_code == 200
    assert "This field is required." in errors_of(response)


def test_each_paragraph_shows_its_markdown_as_readers_will_see_it(client, editor, desk_setup):
    client.force_login(editor)
    write(client, desk_setup, **{"sections-0-paragraphs-0-markdown": "Dredged **4** berths <script>alert(1)</script>"})
    page = client.get(story_url(Story.objects.get())).content.decode()

    assert (
        '<div class="desk-preview"><p>Dredged <strong>4</strong> berths &lt;script&gt;alert(1)&lt;/script&gt;' in page
    )
    assert "<script>alert(1)" not in page


def test_the_last_run_s_problems_sit_beside_the_paragraph_they_concern(
    client, editor, stories, django_capture_on_commit_callbacks
):
    story = stories.bad()  # cites a claim its manifest lacks
    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=story, actor="editor", user=editor)
    client.force_login(editor)

    page = client.get(story_url(story)).content.decode()

    manifest_id = story.cites.first().manifest_id
    beside = f"Section 1, paragraph 1, cite 1: claim not-a-claim is not a claim of manifest {manifest_id}"
    assert beside in page
    assert "Key fact 1, cite 1: claim not-a-claim" in page
    # The run's state and its age at the top.
    assert "FAILED" in page
    assert "ago" in page.split("FAILED", 1)[1][:600]
    assert "sections[0].paragraphs[0]" not in page.split('class="desk-problems"', 1)[1][:2000]


def test_the_page_shows_what_the_working_copy_changes_from_the_live_version(
    client, chief, stories, django_capture_on_commit_callbacks
):
    story = stories.good()
    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=story, actor="chief", user=chief)
    story_publish(story=story, actor="chief", user=chief)
    client.force_login(chief)
    data = page_fields(client, story_url(story))
    data |= {"headline": "A <b>new</b> headline", "_save": "Save"}
    assert client.post(story_url(story), data).status_code == 302

    page = client.get(story_url(story)).content.decode()

    assert "the working copy has changes readers do not get" in page
    assert (
        '<tr class="desk-diff-added"><td class="desk-diff-sign">+</td>'
        "<td><pre>Headline: A &lt;b&gt;new&lt;/b&gt; headline" in page
    )
    assert '<tr class="desk-diff-removed">' in page


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("sections[1].paragraphs[0].cites[0]", "Section 2, paragraph 1, cite 1"),
        ("key_facts[2]", "Key fact 3"),
        ("$", "The story"),
        ("headline", "Headline"),
    ],
)
def test_paths_are_told_in_words(path, words):
    assert describe_path(path) == words


def test_a_problem_is_shown_beside_its_key_fact_or_paragraph():
    assert part_of("sections[1].paragraphs[0].cites[0]") == "sections[1].paragraphs[0]"
    assert part_of("key_facts[0].cites[1]") == "key_facts[0]"
    assert part_of("headline") is None


def test_the_preview_link_shows_the_working_copy_never_cached(client, editor, stories):
    story = stories.good()
    client.force_login(editor)
    page = client.get(story_url(story)).content.decode()
    preview_url = reverse("admin:stories_story_preview", args=[story.pk])
    assert f'href="{preview_url}"' in page

    preview = client.get(preview_url)

    assert preview.status_code == 200
    assert story.headline in preview.content.decode()
    assert {"private", "no-store"} <= {part.strip() for part in preview["Cache-Control"].split(",")}
    assert preview["X-Robots-Tag"] == "noindex, nofollow"


def test_the_manifest_autocomplete_shows_title_publisher_and_date(client, editor, desk_setup):
    client.force_login(editor)
    manifest = desk_setup["manifest"]

    found = client.get(reverse("admin:stories_story_manifests"), {"term": manifest.title}).json()
    claims = client.get(reverse("admin:stories_story_claims"), {"manifest_id": manifest.manifest_id}).json()

    assert found["results"] == [
        {
            "id": manifest.manifest_id,
            "text": f"{manifest.title} — {manifest.source_name}, {manifest.published_date} ({manifest.manifest_id})",
        }
    ]
    assert [claim["id"] for claim in claims["results"]] == ["h-1", "h-2"]
    assert claims["results"][1]["text"] == "h-2: Ferry traffic rose 12% after it."
    assert client.get(reverse("admin:stories_story_claims"), {"manifest_id": "nope"}).json()["found"] is False


def test_the_autocomplete_needs_a_role_in_some_newsroom(client, django_user_model, desk_setup):
    stranger = django_user_model.objects.create_user(username="stranger", password="pw", is_staff=True)
    client.force_login(stranger)

    assert client.get(reverse("admin:stories_story_manifests"), {"term": "a"}).status_code == 403
    assert client.get(reverse("admin:stories_story_claims"), {"manifest_id": "x"}).status_code == 403


def test_publishing_a_published_story_says_there_is_nothing_to_do(
    client, chief, stories, django_capture_on_commit_callbacks
):
    story = stories.good()
    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=story, actor="chief", user=chief)
    story_publish(story=story, actor="chief", user=chief)
    client.force_login(chief)

    response = client.post(reverse("admin:stories_story_publish", args=[story.pk]), follow=True)

    assert "Already published, nothing to do" in response.content.decode()


def test_the_admin_carries_the_site_s_name_and_a_dashboard_of_what_needs_an_editor(
    client, editor, stories, django_capture_on_commit_callbacks, settings
):
    failed = stories.bad()
    with django_capture_on_commit_callbacks(execute=True):
        story_submit(story=failed, actor="editor", user=editor)
    draft = stories.good()
    Story.objects.filter(pk=draft.pk).update(created_at=draft.created_at.replace(year=draft.created_at.year - 1))
    scheduled = stories.good()
    Story.objects.filter(pk=scheduled.pk).update(publish_at=timezone.now() + timedelta(hours=2))
    client.force_login(editor)

    page = client.get(reverse("admin:index")).content.decode()

    assert settings.SITE_NAME in page
    assert "Django administration" not in page
    assert "Checks failed" in page
    assert f"{failed.desk_id}: {failed.headline}" in page
    assert "Drafts older than a day" in page
    assert f"{draft.desk_id}: {draft.headline}" in page
    assert "Scheduled" in page
    assert f"{scheduled.desk_id}: {scheduled.headline}" in page
    assert "?publish_at__isnull=False" in page


def big_story(story: Story, *, sections: int, paragraphs: int, cites: int, facts: int) -> Story:
    for number in range(facts):
        fact = KeyFactFactory(story=story, position=number + 1)
        for position in range(cites):
            Cite.objects.create(story=story, key_fact=fact, position=position, manifest_id="m-1", claim_ids=["c-1"])
    for s_number in range(sections):
        section = SectionFactory(story=story, position=s_number + 1)
        for p_number in range(paragraphs):
            paragraph = ParagraphFactory(section=section, position=p_number)
            for position in range(cites):
                CiteFactory(paragraph=paragraph, position=position, manifest_id="m-1", claim_ids=["c-1"])
    return story


@pytest.mark.parametrize("rows", [False, True], ids=["one text", "rows"])
def test_the_story_page_costs_the_same_queries_for_a_small_and_a_large_story(client, editor, stories, rows):
    small = big_story(stories.good(), sections=1, paragraphs=1, cites=1, facts=1)
    large = big_story(stories.good(), sections=8, paragraphs=6, cites=3, facts=6)
    assert Cite.objects.filter(story=large).count() > 150
    client.force_login(editor)
    client.get(story_url(small, rows=rows))  # sessions, permissions and content types warmed alike

    counts = []
    for story in (small, large):
        with CaptureQueriesContext(connection) as queries:
            page = client.get(story_url(story, rows=rows))
        assert page.status_code == 200
        assert ('name="body"' in page.content.decode()) is not rows
        counts.append(len(queries))

    assert counts[0] == counts[1], counts
    assert counts[1] <= 45, counts


def test_no_section_page_is_left_to_save_a_paragraph_into_another_story(client, editor, stories):
    story = stories.good()
    client.force_login(editor)
    section = Section.objects.filter(story=story).first()

    assert client.get(f"/admin/stories/section/{section.pk}/change/").status_code == 404
    assert client.get("/admin/stories/paragraph/add/").status_code == 404
    assert json.loads(json.dumps(Cite.objects.first().claim_ids)) == ["c-" + str(story.desk_id - 70_000)]
