"""Bad input is refused with the JSON path and the reason, a failing exit, and nothing written."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from stories import desk
from stories.models import Story
from stories.services import story_add_correction, story_retract

from .helpers import SEEDS, row_counts, run_command, seed, variant

# The seeds carry site-wide texts; the site must know their versions before an import.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seed_site_texts")]

BASE_DIR = Path(__file__).resolve().parents[2]


def refused(tmp_path, content, *, name="story.json"):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    before = row_counts()
    run = run_command("import_desk", str(path))
    assert not run.ok
    assert "0 imported" in run.error
    assert row_counts() == before, "a refused import must write nothing"
    return run.stderr


def without(document, *path):
    *parents, last = path
    target = document
    for key in parents:
        target = target[key]
    del target[last]
    return document


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"{not json", "$: not JSON: Expecting property name enclosed in double quotes at line 1, column 2"),
        (b"\xff\xfe\x00", "$: not UTF-8 text"),
        (b'{"a": NaN}', "$: not JSON: NaN is not a JSON number"),
        (variant(seed(), schema="hangingcontext.desk/2"), "schema: must be 'hangingcontext.desk/1', not"),
        (without(seed(), "headline"), "headline: is required"),
        (without(seed(), "labels", "trust"), "labels.trust: is required"),
        (variant(seed(), id=81), "id: must be a string, not a number"),
        (variant(seed(), slug=""), "slug: must be lower-case letters and digits"),
        (variant(seed(), slug="a/b"), "slug: must be lower-case letters and digits joined by single hyphens"),
        (variant(seed(), slug="two words"), "slug: must be lower-case letters"),
        (variant(seed(), published_at="2026-02-30T00:00:00Z"), "published_at: '2026-02-30T00:00:00Z' is not a real"),
        (variant(seed(), published_at="yesterday"), "published_at: must be a UTC time like 2026-10-16T00:39:10Z"),
        (variant(seed(), edition="2026-13-01T00"), "edition: '2026-13-01T00' does not name a real hour"),
        (variant(seed(), extra_key=1), "extra_key: is not a desk/1 key"),
        (variant(seed(), headline="nul\u0000byte"), "headline: must not contain U+0000 NULL"),
        (variant(seed(), source_count=3), "source_count: is 3 but the cites name this many manifests: 4"),
        (variant(seed(), labels={"trust": "rumoured"}), "labels.trust: must be one of reported, confirmed"),
        (["a", "list"], "$: must be an object, not an array"),
    ],
)
def test_it_refuses_bad_documents_naming_the_path_and_reason(tmp_path, content, expected):
    assert expected in refused(tmp_path, content)


def test_it_refuses_claim_ids_that_are_not_a_list(tmp_path):
    document = seed()
    document["key_facts"][1]["cites"][0]["claim_ids"] = "1792067413473386496"
    assert "key_facts[1].cites[0].claim_ids: must be an array, not a string" in refused(tmp_path, document)


def test_it_refuses_a_cite_with_no_manifest_id(tmp_path):
    document = seed()
    del document["sections"][2]["paragraphs"][1]["cites"][0]["manifest_id"]
    assert "sections[2].paragraphs[1].cites[0].manifest_id: is required" in refused(tmp_path, document)


def test_it_refuses_a_numeric_claim_id(tmp_path):
    document = seed()
    document["key_facts"][0]["cites"][0]["claim_ids"][2] = 1792067413478197406
    assert "key_facts[0].cites[0].claim_ids[2]: must be a string, not a number" in refused(tmp_path, document)


def test_it_refuses_a_slug_taken_on_the_same_date_by_another_story(tmp_path):
    assert run_command("import_desk", str(SEEDS / "agent-training-stack.json")).ok
    copy = variant(seed(), id="9999")
    stderr = refused(tmp_path, copy)
    assert "slug: 'agent-training-stack' is already used on 2026-10-16 by story 81" in stderr
    assert not Story.objects.filter(desk_id=9999).exists()


# Published as an archive would be: these tests are about what an import refuses afterwards.
UNCHECKED = ("--unchecked", "--reason", "test: an archive migration")


def test_it_refuses_to_import_a_retracted_story_again(tmp_path, admin_user):
    assert run_command("import_desk", str(SEEDS / "agent-training-stack.json"), *UNCHECKED).ok
    story_retract(story=Story.objects.get(desk_id=81), user=admin_user, reason="Sources withdrawn.")

    stderr = refused(tmp_path, seed())

    assert "id: story 81 was retracted; a retracted story is not imported again" in stderr
    assert Story.objects.get(desk_id=81).status == Story.Status.RETRACTED


def test_a_reimport_keeps_every_correction_readers_were_shown(tmp_path, admin_user):
    assert run_command("import_desk", str(SEEDS / "agent-training-stack.json"), *UNCHECKED).ok
    story = Story.objects.get(desk_id=81)
    story_add_correction(story=story, text="A name was misspelt.", user=admin_user)

    stderr = refused(tmp_path, seed())  # the seed as first imported, without the correction

    assert "corrections: leaves out 1 of the story's corrections (the first of 20" in stderr
    assert "corrections are never edited away" in stderr
    # The story's own export carries the correction; a re-import may append another.
    document = desk.export_story(Story.objects.with_parts().get(pk=story.pk))
    document["corrections"].append({"published_at": "2030-01-01T00:00:00Z", "text": "A date was wrong."})
    path = tmp_path / "corrected.json"
    path.write_text(json.dumps(document))
    assert run_command("import_desk", str(path)).ok
    assert list(story.corrections.values_list("text", flat=True)) == ["A name was misspelt.", "A date was wrong."]


def test_it_refuses_a_50_mb_file_without_parsing_it(tmp_path):
    document = seed()
    document["dek"] = "x" * (50 * 1024 * 1024)
    assert "$: the document is over 5,242,880 bytes, the limit for one document" in refused(tmp_path, document)


def test_it_refuses_an_oversized_line_of_a_json_lines_file(tmp_path):
    small = json.dumps(variant(seed(), id="5", slug="small"))
    big = json.dumps(variant(seed(), id="6", slug="big", dek="x" * (6 * 1024 * 1024)))
    path = tmp_path / "mixed.jsonl"
    path.write_text(small + "\n" + big + "\n")
    run = run_command("import_desk", str(path))
    assert f"{path}:2: $: the document is {len(big) + 1:,} bytes; the limit is 5,242,880" in run.stderr
    assert run.error == "1 imported (1 created, 0 updated, 0 unchanged), 1 failed"


def test_it_refuses_deeply_nested_garbage(tmp_path):
    assert "$: the document is nested too deeply" in refused(tmp_path, b"[" * 100_000 + b"]" * 100_000)


def test_it_refuses_deep_nesting_inside_a_story(tmp_path):
    document = seed()
    document["dek"] = json.loads("[" * 50 + "]" * 50)
    assert "dek: must be a string, not an array" in refused(tmp_path, document)


def test_a_folder_with_one_bad_file_imports_the_nine_good_ones(tmp_path):
    for number in range(10):
        document = variant(seed(), id=str(1000 + number), slug=f"story-{number}")
        if number == 6:
            document["sections"][0]["heading"] = 42
        (tmp_path / f"story-{number:02d}.json").write_text(json.dumps(document))
    run = run_command("import_desk", str(tmp_path))
    assert not run.ok
    assert run.error == "9 imported (9 created, 0 updated, 0 unchanged), 1 failed"
    assert f"{tmp_path / 'story-06.json'}: sections[0].heading: must be a string, not a number" in run.stderr
    assert sorted(Story.objects.values_list("desk_id", flat=True)) == [1000 + n for n in range(10) if n != 6]


def test_a_json_lines_file_reports_the_bad_line_and_imports_the_rest(tmp_path):
    lines = [json.dumps(variant(seed(), id=str(2000 + n), slug=f"line-{n}")) for n in range(3)]
    lines[1] = lines[1].replace('"hangingcontext.desk/1"', '"nope"')
    path = tmp_path / "stories.jsonl"
    path.write_text("\n".join(lines) + "\n")
    run = run_command("import_desk", str(path))
    assert not run.ok
    assert f"{path}:2: schema: must be 'hangingcontext.desk/1'" in run.stderr
    assert sorted(Story.objects.values_list("desk_id", flat=True)) == [2000, 2002]


def test_a_missing_file_is_reported(tmp_path):
    run = run_command("import_desk", str(tmp_path / "nope.json"))
    assert not run.ok
    assert "nope.json: $: cannot read: No such file or directory" in run.stderr


def test_the_command_exits_non_zero_on_bad_input(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "hangingcontext.desk/1"}')
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REDIS_URL": ""}
    manage = [sys.executable, str(BASE_DIR / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=BASE_DIR)
    result = subprocess.run([*manage, "import_desk", str(bad)], env=env, capture_output=True, text=True, cwd=BASE_DIR)
    assert result.returncode == 1
    assert "headline: is required" in result.stderr
    assert "Traceback" not in result.stderr
