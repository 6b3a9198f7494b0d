"""A Redis server of a test's own, on a free port of 127.0.0.1, for the tests that stop
Redis: the machine's shared one is never stopped. Nothing is kept on disk."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time

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

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
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
        while not self.answers():
            assert self.process.poll() is None, "redis-server stopped at its start"
            assert time.monotonic() < deadline, "redis-server did not answer"
            time.sleep(0.05)

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
