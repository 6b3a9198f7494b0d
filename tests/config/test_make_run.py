"""`make run` as a newcomer meets it (README): a taken port fails at once, before
anything is installed, saying how to choose another; the demo's account is short,
with the table-1 link and the logins last, and no line per Celery task."""

from __future__ import annotations

import logging
import re
import socket
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from tournament.ops.logs import tasks_quiet

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "port_free.py"


def _check(host: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), host],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_a_taken_port_fails_at_once_naming_another_to_choose():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        answer = _check(f"127.0.0.1:{port}")
    assert answer.returncode == 1
    assert f"Port {port} on 127.0.0.1 is taken" in answer.stderr
    other = re.search(r"make run HOST=127\.0\.0\.1:(\d+)$", answer.stderr.strip())
    assert other and int(other.group(1)) > port
    assert answer.stdout == ""


def test_a_free_port_passes_silently():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    answer = _check(f"127.0.0.1:{port}")
    assert (answer.returncode, answer.stdout, answer.stderr) == (0, "", "")


def test_a_host_that_is_not_an_address_and_port_says_the_form():
    answer = _check("localhost")
    assert answer.returncode == 2
    assert "HOST=localhost is not ADDRESS:PORT" in answer.stderr


def test_the_port_is_checked_before_the_virtualenv_is_installed():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run: port-free venv$", makefile, re.MULTILINE)
    recipe = re.search(r"^port-free:\n\t(.+)$", makefile, re.MULTILINE).group(1)
    assert recipe == "@$(PYTHON) .ci/port_free.py $(HOST)"  # no .venv needed
    readme = (ROOT / "README.md").read_text()
    assert "make run HOST=127.0.0.1:8001" in " ".join(readme.split())


def test_tasks_stay_quiet_while_errors_still_print(caplog):
    trace = logging.getLogger("celery.app.trace")
    with caplog.at_level(logging.INFO):
        with tasks_quiet():
            trace.info("Task tournament.sheet_copy_keep[1] succeeded in 0.04s: 1")
            trace.error("Task tournament.sheet_copy_keep[2] raised: boom")
        trace.info("after the demo")
    said = [r.getMessage() for r in caplog.records if r.name == trace.name]
    assert said == ["Task tournament.sheet_copy_keep[2] raised: boom", "after the demo"]


@pytest.mark.django_db
def test_the_demo_says_little_and_ends_with_the_link_and_the_logins(caplog):
    out = StringIO()
    with caplog.at_level(logging.INFO):
        call_command("demo", host="127.0.0.1:8019", stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) <= 12, lines
    assert not [r for r in caplog.records if "succeeded" in r.getMessage()]
    assert lines[-4] == "Demo logins (user / password / role):"
    assert [line.split()[:2] for line in lines[-3:]] == [
        ["organizer", "organizer-56"],
        ["scorer", "scorer-56"],
        ["captain", "captain-56"],
    ]
    assert re.fullmatch(
        r"Table \d+'s link, no login needed \(open it on a phone\): "
        r"http://127\.0\.0\.1:8019/l/[\w-]{20,}/",
        lines[-6],
    )
    # The link opens a sheet that still takes deals: a new user at a phone can enter
    # one at once (table 1's sheet of the demo is full, waiting for its captains).
    path = re.search(r"http://127\.0\.0\.1:8019(/l/\S+/)", lines[-6]).group(1)
    page = Client().get(path)
    assert page.status_code == 200
    assert 'id="deal-form"' in page.content.decode()
    again = StringIO()
    call_command("demo", host="8019", stdout=again)  # a bare port, as runserver's
    assert again.getvalue().splitlines()[-6] == lines[-6]  # the same link again
    assert "(loaded already)" in again.getvalue()
