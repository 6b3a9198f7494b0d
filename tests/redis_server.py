"""A Redis server of a test's own, on a free port of 127.0.0.1, for the tests that stop
Redis: the machine's shared one is never stopped. Nothing is kept on disk."""

from __future__ import annotations

import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable

NOTHING_KEPT = ["--save", "", "--appendonly", "no"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisServer:
    """`start()`, `stop()` (SIGKILL, as a container dying) and `start()` again on the
    same port, `freeze()` and `thaw()` (SIGSTOP, SIGCONT: it accepts connections and
    answers nothing); `url(db)` reaches it. `options`: more of redis-server's
    command line (`--maxmemory 4mb`), after the defaults, so they win."""

    def __init__(self, options: list[str] | None = None) -> None:
        self.port = free_port()
        self.options = list(options or [])
        self.process: subprocess.Popen | None = None
        self.started = False

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        """Run redis-server on this port and wait until it answers. Another test's
        server may have taken the port since `free_port` released it (two test
        processes can be given the same one): then this one cannot bind, and the
        other would answer in its place and be stopped under this test. So the
        answer must come from this process; if it does not, a fresh port is tried.
        A server restarted (`stop()`, `start()`) keeps its port."""
        for _ in range(5):
            if self._run():
                self.started = True
                return
            assert not self.started, "redis-server could not have its port again"
            if self.process is not None and self.process.poll() is None:
                self.process.kill()
                self.process.wait(timeout=10)
            self.process = None
            self.port = free_port()
        raise AssertionError("redis-server found no free port of its own")

    def _run(self) -> bool:
        command = shutil.which("redis-server")
        assert command, "redis-server is missing: the Redis tests need it"
        self.process = subprocess.Popen(
            [
                command,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                *NOTHING_KEPT,
                *self.options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while self.answering_pid() != self.process.pid:
            if self.process.poll() is not None:
                return False  # it could not bind: the port is another's
            assert time.monotonic() < deadline, "redis-server did not answer"
            time.sleep(0.05)
        return True

    def answering_pid(self) -> int | None:
        """The process id of the Redis answering on this port, None if none does."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"INFO server\r\n")
                said = b""
                while b"process_id:" not in said or not said.endswith(b"\r\n"):
                    part = s.recv(65536)
                    if not part:
                        break
                    said += part
        except OSError:
            return None
        found = re.search(rb"process_id:(\d+)", said)
        return int(found.group(1)) if found else None

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def freeze(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None


def celery_on(broker_url: str, monkeypatch, settings) -> Callable[[], None]:
    """The site's Celery sending to `broker_url` for this test, not eagerly; returns
    `forget`, which drops the pooled connections (call it again after the test, once
    the server is stopped, so that the next test makes its own)."""
    from celery import current_app

    from tournament.config.celery import app

    # The site's shared tasks go through the current app: if a test made another
    # app current, they would send by its connections, not these.
    assert current_app._get_current_object() is app, "another Celery app is current"

    def forget() -> None:
        app._pool = None
        app.amqp._producer_pool = None

    # Celery takes $CELERY_BROKER_URL before its own setting.
    monkeypatch.setenv("CELERY_BROKER_URL", broker_url)
    monkeypatch.setitem(app.conf, "task_always_eager", False)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    forget()
    return forget
