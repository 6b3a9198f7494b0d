"""Is the address `make run` is to serve on free? Run before anything is installed, so
a taken port fails at once, saying how to choose another (README, `make run`).

    python3 .ci/port_free.py 127.0.0.1:8000      # exit 0, silent: free
    python3 .ci/port_free.py [::1]:8000          # IPv6; a bare port means 127.0.0.1

It binds the address as the development server will (SO_REUSEADDR, so a connection
lingering in TIME_WAIT does not count as taken) and lets go at once. Standard library
only: it runs with the machine's python3, before the virtualenv exists.
"""

from __future__ import annotations

import errno
import socket
import sys


def parse(host: str) -> tuple[str, int]:
    """ADDRESS:PORT, [IPV6]:PORT or PORT, as `manage.py runserver` takes them."""
    address, _, port = host.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"HOST={host} is not ADDRESS:PORT (as 127.0.0.1:8000)")
    return address.strip("[]") or "127.0.0.1", int(port)


def taken(address: str, port: int) -> OSError | None:
    """Why the address cannot be bound, or None when it can."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError as error:
            return error
    return None


def free_after(address: str, port: int) -> int | None:
    """The first port after `port` that is free on `address`."""
    for candidate in range(port + 1, min(port + 100, 65536)):
        if taken(address, candidate) is None:
            return candidate
    return None


def main(argv: list[str]) -> int:
    host = argv[1] if len(argv) > 1 else "127.0.0.1:8000"
    try:
        address, port = parse(host)
    except ValueError as error:
        print(f"{error}. Run `make run HOST=127.0.0.1:8001`, say.", file=sys.stderr)
        return 2
    error = taken(address, port)
    if error is None:
        return 0
    shown = f"[{address}]" if ":" in address else address
    if error.errno == errno.EADDRINUSE:
        other = free_after(address, port) or port + 1
        print(
            f"Port {port} on {address} is taken: another server runs there (another "
            f"`make run`?). Stop it, or serve on another port: "
            f"make run HOST={shown}:{other}",
            file=sys.stderr,
        )
    elif error.errno == errno.EACCES:
        print(
            f"Port {port} needs administrator rights. Choose one above 1023: "
            f"make run HOST={shown}:8000",
            file=sys.stderr,
        )
    else:
        print(
            f"Cannot serve on {host}: {error.strerror}. Choose an address of this "
            f"machine: make run HOST=127.0.0.1:{port}",
            file=sys.stderr,
        )
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
