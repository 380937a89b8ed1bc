"""The floor bench's five targets, counted in instructions per request instead of timed.

wrk's rates on a shared two-core machine swing by a fifth from one run to the next, more than
most changes to a request's work (``bench/floor.py`` takes medians of alternating rounds and
still moves by 0.03 from run to run). valgrind's callgrind counts the instructions a process
runs, which come out the same within about 1% whatever else the machine is doing. Each target
is served in process, its WSGI application called directly as ``bench/pages.py`` does: 100
requests with counting off, then ``--requests`` counted (``callgrind_control`` turns counting on
and off around them). What the kernel (the network, system calls), PostgreSQL and Redis do is
not counted: this is the web process's own work, the part the project's code decides.

    .venv/bin/python bench/instructions.py                  # 400 counted requests per target
    .venv/bin/python bench/instructions.py --requests 1000
    .venv/bin/python bench/instructions.py --accept-encoding ''   # requests that take no gzip

Each request carries a browser's Accept-Encoding unless told otherwise, as in the floor bench.

It needs valgrind (Debian's package), PostgreSQL on 127.0.0.1:5432 (database ``newsroom_floor``,
made anew, as the floor bench makes it) and Redis on 127.0.0.1:6379.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
BASE_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BENCH_DIR))
import floor  # noqa: E402
from common import postgres_available, redis_available  # noqa: E402

from bench import pages  # noqa: E402

WARM_UP = 100
# name -> (settings module's stack or None for the project, page cache, path)
TARGETS = {
    "no middleware": ("none", "on", pages.HELLO),
    "stock stack": ("stock", "on", pages.HELLO),
    "project hello": (None, "on", pages.HELLO),
    "story cached": (None, "on", pages.STORY),
    "story cold": (None, "off", pages.STORY),
}


def serve(target: str, requests: int, accept_encoding: str) -> None:
    """In the child, under valgrind: the target's application, warmed up, then ``requests``
    counted requests."""
    stack, _, url_path = TARGETS[target]
    if stack is None:
        app = pages.wsgi_app()
    else:
        from django.core.wsgi import get_wsgi_application

        app = get_wsgi_application()

    for _ in range(WARM_UP):
        pages.get(app, url_path, accept_encoding=accept_encoding)
    control = ["callgrind_control", "--instr=on", str(os.getpid())]
    subprocess.run(control, check=True, capture_output=True)
    for _ in range(requests):
        pages.get(app, url_path, accept_encoding=accept_encoding)
    control[1] = "--instr=off"
    subprocess.run(control, check=True, capture_output=True)


def count(target: str, env: dict[str, str], requests: int, accept_encoding: str) -> int:
    """Instructions per counted request of one target, from callgrind's own tally."""
    stack, cache, _ = TARGETS[target]
    child_env = (env if stack is None else floor.stack_environment(env, stack)) | {"BENCH_PAGE_CACHE": cache}
    with tempfile.TemporaryDirectory(prefix="bench-instructions-") as scratch:
        report = Path(scratch) / "valgrind.txt"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--log-file={report}",
            f"--callgrind-out-file={Path(scratch) / 'callgrind.out'}",
            sys.executable,
            str(Path(__file__).resolve()),
            "--serve",
            target,
            "--requests",
            str(requests),
            f"--accept-encoding={accept_encoding}",
        ]
        # The site's request lines go to the child's stderr: into a file nobody reads here.
        with (Path(scratch) / "site.log").open("wb") as site_log:
            subprocess.run(command, cwd=BASE_DIR, env=child_env, check=True, stdout=site_log, stderr=site_log)
        collected = re.search(r"Collected : (\d+)", report.read_text())
        if collected is None:
            raise RuntimeError(f"callgrind counted nothing for {target}:\n{report.read_text()}")
        # The counted stretch also holds the two callgrind_control calls' fork and wait in this
        # process: a few thousand instructions, spread over the requests.
        return int(collected.group(1)) // requests


def run(requests: int, accept_encoding: str) -> dict[str, Any]:
    env = floor.environment()
    floor.prepare(env)
    try:
        counts = {target: count(target, env, requests, accept_encoding) for target in TARGETS}
    finally:
        pages._delete_keys(env["CACHE_KEY_PREFIX"], url=floor.REDIS_URL)  # the cached page's keys
    return {"requests": requests, "counts": counts}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--accept-encoding", default=pages.BROWSER_ACCEPT_ENCODING)
    parser.add_argument("--serve", choices=TARGETS, help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.requests, args.accept_encoding)
        return 0
    if not (shutil.which("valgrind") and postgres_available() and redis_available()):
        print("instructions  needs valgrind, PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379: not run")
        return 0
    result = run(args.requests, args.accept_encoding)
    counts = result["counts"]
    print(
        f"instructions  per request, in process under callgrind, {result['requests']} counted after {WARM_UP}; "
        "production settings, PostgreSQL, Redis cache, JSON logs (the kernel's, PostgreSQL's and Redis's work "
        f"not counted); Accept-Encoding: {args.accept_encoding or '(none)'}"
    )
    for target, instructions in counts.items():
        print(f"instructions  {target:15s} {instructions:>10,}")
    stock, bare = counts["stock stack"], counts["no middleware"]
    print(f"instructions  project hello - stock stack   = {counts['project hello'] - stock:>+10,}")
    print(f"instructions  story cached - no middleware  = {counts['story cached'] - bare:>+10,}")
    print(f"instructions  story cold - no middleware    = {counts['story cold'] - bare:>+10,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
