"""The MCP door under the production server: gunicorn with the Procfile's sync workers, each
request one exchange (no session, no stream held open), any worker answering any request."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.mcp.conftest import connect
from tests.ops.test_serve import free_port, wait_for

BASE_DIR = Path(__file__).resolve().parents[2]


def manage(environment: dict[str, str], *arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=BASE_DIR,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return done.stdout


def test_the_door_answers_under_gunicorn_sync_workers(tmp_path):
    port = free_port()
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("CELERY_", "DJANGO_", "PYTEST_")) and key not in ("DATABASE_URL", "REDIS_URL")
    }
    environment |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "EMBEDDED_SCHEDULER": "false",
        "ADD_EDITOR_PASSWORD": "x-unused-password",
    }
    manage(environment, "migrate", "--verbosity", "0")
    make_newsroom = "from newsroom.models import Newsroom; Newsroom.objects.create(slug='desk', title='Desk')"
    manage(environment, "shell", "--command", make_newsroom)
    manage(environment, "add_editor", "agent", "--newsroom", "desk", "--create")
    token = manage(environment, "create_api_token", "agent").split()[-1]
    log = tmp_path / "gunicorn.log"
    gunicorn = [str(Path(sys.executable).parent / "gunicorn"), "newsroom.wsgi", "--bind", f"127.0.0.1:{port}"]
    with log.open("wb") as output:
        process = subprocess.Popen(
            [*gunicorn, "--workers", "2", "--worker-class", "sync", "--timeout", "30"],
            cwd=BASE_DIR,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        status, _ = wait_for(f"http://127.0.0.1:{port}/healthz", process, log, seconds=60)
        assert status == 200, log.read_text()[-4000:]

        async def work(session):
            tools = await session.list_tools()
            found = [await session.call_tool("search_stories", {"query": "agent"}) for _ in range(4)]
            return tools, found, await session.call_tool("get_run", {"run_id": 1})

        tools, found, missing = connect(f"http://127.0.0.1:{port}/mcp/", token, work)
    finally:
        process.terminate()
        process.wait(timeout=30)

    assert len(tools.tools) == 6
    assert all(not result.is_error for result in found)
    assert found[0].structured_content == {"results": []}  # nothing is published in this database
    assert missing.is_error
    assert missing.structured_content["error"] == "not_found"
    assert "Traceback" not in log.read_text()
