"""A Redis server of a run's own on a unix socket in a folder the caller owns: the fan-out
tests restart one under two server processes; `make bench` runs the tables benchmark over
one."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path


class PrivateRedis:
    def __init__(self, folder: Path) -> None:
        self.sock = folder / "redis.sock"
        self.url = f"unix://{self.sock}"
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", "0", "--unixsocket", str(self.sock),
             "--unixsocketperm", "700", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while not self.sock.exists():
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None
