"""An import killed part way is resumed by running the same command again.

A real ``import_desk`` process, on a database of its own, is killed (SIGKILL: nothing of it
gets to clean up) as soon as its first story's line comes out; the same command is then run
again on the same folder. The stories the first run reported published stay exactly as they
were, the one it was cut off in is finished, and the rest are imported.
"""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from .helpers import seed

BASE_DIR = Path(__file__).resolve().parents[2]
STORIES = 30
REASON = "archive migration, checked at the old site"
STATE = (
    "import json; from stories.models import Story; print(json.dumps({str(s.desk_id): "
    "[s.status, s.revisions.count(), s.live_version.rendered_at.isoformat() if s.is_public else None] "
    "for s in Story.objects.filter(desk_id__gte=900000)}))"
)


def archive(folder: Path) -> list[str]:
    """``STORIES`` documents like the seed, each with an id and address of its own."""
    folder.mkdir()
    base = seed()
    ids = []
    for number in range(STORIES):
        document = json.loads(json.dumps(base))
        document["id"] = str(900000 + number)
        document["slug"] = f"resumed-story-{number:02d}"
        document["url"] = base["url"].replace(base["slug"], document["slug"])
        document["headline"] = f"{base['headline']} ({number})"
        (folder / f"{number:02d}.json").write_text(json.dumps(document))
        ids.append(document["id"])
    return ids


def test_an_import_killed_mid_run_finishes_when_run_again(tmp_path):
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REDIS_URL": ""}
    # Through a pipe, as to a log file, Python buffers output: lines come out as they happen
    # only because the command flushes each.
    env.pop("PYTHONUNBUFFERED", None)
    manage = [sys.executable, str(BASE_DIR / "manage.py")]
    for step in (["migrate", "-v0"], ["load_demo"]):
        subprocess.run([*manage, *step], env=env, check=True, cwd=BASE_DIR, capture_output=True)
    ids = archive(tmp_path / "archive")

    def state() -> dict[str, list]:
        """Each imported story's status, revision count and live version's rendering time."""
        shell = [*manage, "shell", "--no-imports", "-c", STATE]
        return json.loads(subprocess.run(shell, env=env, cwd=BASE_DIR, capture_output=True, text=True).stdout)

    command = [*manage, "import_desk", str(tmp_path / "archive"), "--unchecked", "--reason", REASON]

    first = subprocess.Popen(command, env=env, cwd=BASE_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = first.stdout.readline()
    first.send_signal(signal.SIGKILL)
    rest, _ = first.communicate(timeout=60)
    assert first.returncode == -signal.SIGKILL
    done_first = [entry.split("\t") for entry in (line + rest).splitlines()]
    assert done_first
    assert all(entry[2:] == ["created", "published"] for entry in done_first), done_first
    assert len(done_first) < STORIES, "the first run finished before it was killed: nothing was tested"
    published_first = {entry[0] for entry in done_first}
    before = state()

    again = subprocess.run(command, env=env, cwd=BASE_DIR, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    lines = again.stdout.splitlines()
    said = {entry.split("\t")[0]: entry.split("\t")[2:] for entry in lines[:-1]}
    assert list(said) == ids
    for desk_id in published_first:
        assert said[desk_id] == ["unchanged", "published"]
    for desk_id in set(ids) - published_first:
        # Created now, or (the one the kill cut off after its import committed) finished now.
        expected = "updated" if desk_id in before else "created"
        assert said[desk_id] == [expected, "published"]
    unchanged = len(published_first)
    assert lines[-1] == (
        f"{STORIES} imported ({STORIES - unchanged - (len(before) - unchanged)} created, "
        f"{len(before) - unchanged} updated, {unchanged} unchanged), 0 failed"
    )

    after = state()
    assert set(after) == set(ids)
    assert all(status == "published" for status, _, _ in after.values())
    for desk_id in published_first:
        # The same live version (rendered once) and no revision saying it was updated.
        assert after[desk_id] == before[desk_id]
