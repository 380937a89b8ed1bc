"""Bad input is a clear message naming where it is, never a traceback: JSON documents given to
import_desk, and search queries."""

from __future__ import annotations

import json

import pytest

from newsroom.jsonfiles import JsonInputError, parse_json
from stories.models import Story
from tests.stories.helpers import run_command, seed, variant

LIMIT = 100_000


def test_a_lone_surrogate_is_refused_with_its_path():
    with pytest.raises(JsonInputError) as refused:
        parse_json('{"sections": [{"heading": "ok"}, {"heading": "bad \\ud800 half"}]}', limit=LIMIT)

    assert refused.value.at == "sections[1].heading"
    assert str(refused.value) == (
        "sections[1].heading: holds \\ud800, half of a UTF-16 surrogate pair with no other half, which is not text"
    )


def test_a_lone_surrogate_in_a_key_is_refused_with_its_path():
    with pytest.raises(JsonInputError) as refused:
        parse_json('{"labels": {"tr\\udc00ust": 1}}', limit=LIMIT)

    assert refused.value.at == "labels.tr\\udc00ust"
    assert "is a key holding \\udc00" in str(refused.value)


@pytest.mark.parametrize("data", ['{"dek": "a\ud800"}', b'{"dek": "a\\uDBFF"}', '{"dek": "a\\udfff"}'])
def test_a_lone_surrogate_is_found_however_the_document_arrives(data):
    with pytest.raises(JsonInputError) as refused:
        parse_json(data, limit=LIMIT)

    assert refused.value.at == "dek"


def test_a_whole_surrogate_pair_is_text_and_kept():
    assert parse_json('{"headline": "\\ud83d\\ude00"}', limit=LIMIT) == {"headline": "\U0001f600"}


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ('{"headline": "a", "headline": "b"}', "headline"),
        ('{"sections": [{"heading": "x", "paragraphs": [], "heading": "y"}]}', "heading"),
    ],
)
def test_a_key_twice_in_one_object_is_refused_naming_the_key(text, key):
    with pytest.raises(JsonInputError, match=f"the key '{key}' appears twice in one object"):
        parse_json(text, limit=LIMIT)


def test_equal_keys_in_different_objects_are_fine():
    assert parse_json('[{"a": 1}, {"a": 2}]', limit=LIMIT) == [{"a": 1}, {"a": 2}]


@pytest.mark.django_db
@pytest.mark.usefixtures("seed_site_texts")
def test_import_desk_reports_each_bad_line_of_a_batch_and_imports_the_good_ones(tmp_path):
    good_one = seed("agent-training-stack")
    good_two = seed("agentic-rl-production")
    surrogate = json.dumps(variant(good_one, id="9001", slug="surrogate")).replace(
        '"headline": "', '"headline": "\\ud800', 1
    )
    assert "\\ud800" in surrogate  # the JSON escape, as a writer's tool would send it
    duplicate = json.dumps(variant(good_one, id="9002", slug="duplicate"))[:-1] + ', "slug": "again"}'
    batch = tmp_path / "batch.jsonl"
    batch.write_text("\n".join([json.dumps(good_one), surrogate, duplicate, json.dumps(good_two)]) + "\n")

    run = run_command("import_desk", "--draft", str(batch))

    assert not run.ok
    assert run.error == "2 imported (2 created, 0 updated, 0 unchanged), 2 failed"
    assert f"{batch}:2: headline: holds \\ud800, half of a UTF-16 surrogate pair" in run.stderr
    assert f"{batch}:3: $: the key 'slug' appears twice in one object" in run.stderr
    assert "Traceback" not in run.stderr
    assert set(Story.objects.values_list("slug", flat=True)) == {good_one["slug"], good_two["slug"]}


@pytest.mark.django_db
@pytest.mark.usefixtures("seed_site_texts")
def test_import_desk_reports_a_lone_surrogate_in_a_single_document(tmp_path):
    path = tmp_path / "story.json"
    document = seed()
    document["sections"][0]["paragraphs"][1]["markdown"] = "before \ud800 after"
    path.write_text(json.dumps(document))  # ensure_ascii: the surrogate is written as \ud800

    run = run_command("import_desk", str(path))

    assert not run.ok
    assert f"{path}: sections[0].paragraphs[1].markdown: holds \\ud800" in run.stderr
    assert not Story.objects.exists()


# What a browser or a script may put in a search query: NUL and other control characters,
# bytes that are not UTF-8, a lone surrogate's UTF-8 form, and PostgreSQL tsquery syntax.
BAD_QUERIES = [
    "%00",
    "agent%00training",
    "%00%00%00",
    "%01%02%1b%7f",
    "%FF%FE",
    "%ED%A0%80",
    "%C0%80",
    "%5C",
    "'",
    "%22",
    "%22%22%22",
    "-",
    "-%22%22",
    "%3A*",
    "%26%7C!(",
    "a%3A*%20%26%20!b",
    "<script>",
    "x" * 5000,
]


def assert_answers_without_error(client, query: str) -> None:
    response = client.get(f"/search/?q={query}")
    assert response.status_code in (200, 400), (query, response.status_code)
    if response.status_code == 200:
        assert b"<h1" in response.content  # the normal search page


@pytest.mark.django_db
@pytest.mark.parametrize("query", BAD_QUERIES)
def test_search_answers_any_query_without_a_server_error(client, query):
    assert_answers_without_error(client, query)


@pytest.mark.parametrize("query", BAD_QUERIES)
def test_search_answers_any_query_without_a_server_error_on_postgresql(client, require_postgres, query):
    assert_answers_without_error(client, query)


def test_a_control_character_in_a_search_separates_words_as_a_space_does(client, require_postgres, demo_story):
    with_control = client.get("/search/?q=hardening%01probe")
    with_space = client.get("/search/?q=hardening%20probe")

    assert with_control.status_code == 200
    assert demo_story.headline in with_space.content.decode()
    assert demo_story.headline in with_control.content.decode()


@pytest.mark.django_db
def test_a_nul_in_a_search_is_a_400_as_in_any_query_parameter(client):
    # newsroom.unstorable: PostgreSQL cannot store U+0000, so no route reads it.
    assert client.get("/search/?q=hardening%00probe").status_code == 400


@pytest.fixture
def demo_story(db, site_url) -> Story:
    from tests.factories import StoryFactory, publish_story

    story = StoryFactory(status=Story.Status.DRAFT, headline="The hardening probe story")
    return publish_story(story)
