"""A client that takes gzip gets every kept page compressed, compressed once: a story's page and
twins as the gzip form stored beside them when they were rendered, other pages when the page
cache keeps them. A client that does not gets the bytes as they are; each form has its own
ETag and says that it varies by Accept-Encoding."""

from __future__ import annotations

import gzip
from importlib import import_module

import pytest
from django.apps import apps

from newsroom.pagecache import accepts_gzip, etag_of, gzip_etag, gzipped
from stories.models import PublishedVersion
from stories.services import story_add_correction, story_retract

from .routes import AGENTIC, LISTINGS, NEWSROOM, PUBLIC_ROUTES, TRAINING
from .test_story_page_queries import STORY_PAGE_QUERIES

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd"}  # what browsers send
STORY_FORMS = {"": "page_html", "index.json": "document", "index.md": "markdown"}


@pytest.mark.parametrize(
    ("header", "takes_gzip"),
    [
        ("gzip, deflate, br, zstd", True),
        ("deflate, GZIP;q=1.0", True),
        ("gzip;q=0.5", True),
        ("gzip;q=0", False),  # a weight of zero refuses it
        ("gzip; q=0.000, identity", False),
        ("identity", False),
        ("br, zstd", False),
        ("", False),
    ],
)
def test_a_client_takes_gzip_when_its_accept_encoding_names_it_without_refusing_it(rf, header, takes_gzip):
    assert accepts_gzip(rf.get("/", HTTP_ACCEPT_ENCODING=header)) is takes_gzip


@pytest.mark.parametrize("form", STORY_FORMS)
def test_a_story_form_is_sent_as_its_stored_gzip_form_to_a_client_that_takes_gzip(
    client, demo, django_assert_num_queries, form
):
    version = demo["agent-training-stack"].live_version
    stored = getattr(version, STORY_FORMS[form])

    with django_assert_num_queries(STORY_PAGE_QUERIES):  # the gzip form instead of the text
        response = client.get(TRAINING + form, **GZIP)

    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert response.content == bytes(getattr(version, STORY_FORMS[form] + "_gzip"))
    assert gzip.decompress(response.content) == stored.encode()
    assert len(response.content) < len(stored.encode()) / 2
    assert response["Content-Length"] == str(len(response.content))
    assert response["ETag"] == gzip_etag(getattr(version, STORY_FORMS[form] + "_etag"))
    assert response["Vary"] == "Accept-Encoding"


@pytest.mark.parametrize("form", STORY_FORMS)
def test_a_client_that_does_not_take_gzip_still_gets_the_bytes_as_they_are(client, demo, form):
    version = demo["agent-training-stack"].live_version

    response = client.get(TRAINING + form, HTTP_ACCEPT_ENCODING="gzip;q=0, identity")

    assert "Content-Encoding" not in response
    assert response.content == getattr(version, STORY_FORMS[form]).encode()
    assert response["ETag"] == etag_of(response.content)
    assert response["Vary"] == "Accept-Encoding"


def test_each_form_is_kept_in_the_page_cache_on_its_own(client, demo, django_assert_num_queries):
    with django_assert_num_queries(STORY_PAGE_QUERIES):
        compressed = client.get(TRAINING, **GZIP)
    with django_assert_num_queries(STORY_PAGE_QUERIES):  # not answered with the compressed page
        plain = client.get(TRAINING)

    with django_assert_num_queries(0):
        again_compressed = client.get(TRAINING, **GZIP)
        again_plain = client.get(TRAINING)

    assert again_compressed.content == compressed.content
    assert again_compressed["Content-Encoding"] == "gzip"
    assert again_plain.content == plain.content == gzip.decompress(compressed.content)
    assert "Content-Encoding" not in again_plain


def test_a_conditional_request_is_answered_for_the_form_it_names(client, demo):
    compressed = client.get(TRAINING, **GZIP)
    plain = client.get(TRAINING)
    assert compressed["ETag"] != plain["ETag"]

    assert client.get(TRAINING, HTTP_IF_NONE_MATCH=compressed["ETag"], **GZIP).status_code == 304
    # The other form's tag names other bytes: the whole page again.
    assert client.get(TRAINING, HTTP_IF_NONE_MATCH=plain["ETag"], **GZIP).status_code == 200
    assert client.get(TRAINING, HTTP_IF_NONE_MATCH=compressed["ETag"]).status_code == 200


def test_a_head_request_names_the_compressed_length(client, demo):
    compressed = client.get(TRAINING, **GZIP)

    head = client.head(TRAINING, **GZIP)

    assert head.status_code == 200
    assert head.content == b""
    assert head["Content-Encoding"] == "gzip"
    assert head["Content-Length"] == str(len(compressed.content))


def test_a_correction_stores_new_gzip_forms(client, demo, admin_user, django_capture_on_commit_callbacks):
    story = demo["agent-training-stack"]
    before = client.get(TRAINING, **GZIP)

    with django_capture_on_commit_callbacks(execute=True):
        story_add_correction(story=story, text="Fixed a figure.", user=admin_user)

    after = client.get(TRAINING, **GZIP)
    assert after["ETag"] != before["ETag"]
    assert "Fixed a figure." in gzip.decompress(after.content).decode()
    assert gzip.decompress(after.content) == client.get(TRAINING).content


def test_a_retracted_storys_compressed_forms_leave_the_cache_with_it(
    client, demo, admin_user, django_capture_on_commit_callbacks
):
    forms = [AGENTIC + form for form in STORY_FORMS]
    listings = [path for path in LISTINGS if not path.startswith("/search/")]  # search is not kept
    for path in [*forms, *listings]:  # kept, compressed
        assert client.get(path, **GZIP)["Content-Encoding"] == "gzip"

    with django_capture_on_commit_callbacks(execute=True):
        story_retract(story=demo["agentic-rl-production"], user=admin_user, reason="Sources withdrawn.")

    for path in forms:
        assert client.get(path, **GZIP).status_code == 410
    for path in listings:
        response = client.get(path, **GZIP)
        assert b"agentic-rl-production" not in gzip.decompress(response.content), path


@pytest.mark.parametrize("path", [path for path in PUBLIC_ROUTES if "/stories/" not in path])
def test_every_other_kept_page_is_compressed_once_when_it_is_kept(client, demo, path):
    plain = client.get(path)

    compressed = client.get(path, **GZIP)

    assert compressed.status_code == plain.status_code == 200
    if path.startswith("/search/"):  # not kept (one copy per query would churn the cache): sent as it is
        assert "Content-Encoding" not in compressed
        return
    assert compressed["Vary"] == plain["Vary"] == "Accept-Encoding"
    if len(plain.content) < 200:  # too short to gain, as Django's GZipMiddleware judges
        assert "Content-Encoding" not in compressed
        assert compressed.content == plain.content
        return
    assert compressed["Content-Encoding"] == "gzip"
    assert gzip.decompress(compressed.content) == plain.content
    assert compressed["ETag"] == gzip_etag(plain["ETag"])
    assert compressed["Content-Length"] == str(len(compressed.content))


def test_a_kept_page_is_not_compressed_again_on_each_request(client, demo, monkeypatch):
    client.get(NEWSROOM, **GZIP)  # kept, compressed
    calls = []
    monkeypatch.setattr("newsroom.pagecache.gzipped", lambda content: calls.append(content) or gzipped(content))

    for _ in range(3):
        assert client.get(NEWSROOM, **GZIP)["Content-Encoding"] == "gzip"

    assert calls == []


def test_versions_published_before_gzip_forms_were_stored_get_them_from_their_artifacts(demo):
    PublishedVersion.objects.update(page_html_gzip=b"", document_gzip=b"", markdown_gzip=b"")

    import_module("stories.migrations.0014_artifact_gzip").store_gzip(apps, None)

    for version in PublishedVersion.objects.all():
        for field in STORY_FORMS.values():
            compressed = bytes(getattr(version, field + "_gzip"))
            assert compressed == gzipped(getattr(version, field).encode())
            assert gzip.decompress(compressed) == getattr(version, field).encode()
