"""Send planned requests, check every response, and keep the figures."""

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from .checks import problems
from .plans import Planned
from .transport import FuzzRequest, FuzzResponse

Send = Callable[[FuzzRequest], FuzzResponse]


@dataclass(frozen=True)
class Finding:
    label: str
    request: str
    problems: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.label}\n  {self.request}\n  " + "\n  ".join(self.problems)


@dataclass
class Tally:
    requests: int = 0
    seconds: float = 0.0
    statuses: Counter = field(default_factory=Counter)
    routes: Counter = field(default_factory=Counter)
    methods: Counter = field(default_factory=Counter)
    origins: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    slowest: list[tuple[float, str]] = field(default_factory=list)

    def send(self, send: Send, planned: Planned) -> FuzzResponse:
        started = time.perf_counter()
        response = send(planned.request)
        elapsed = time.perf_counter() - started
        self.requests += 1
        self.seconds += elapsed
        self.statuses[response.status] += 1
        self.routes[planned.label.split(" ", 1)[0]] += 1
        self.methods[planned.request.method] += 1
        self.origins[response.origin] += 1
        self.slowest = sorted(
            [*self.slowest, (elapsed * 1000, planned.request.describe(120))], reverse=True
        )[:5]
        found = problems(planned.request.method, planned.payloads, response, planned.declared)
        if found:
            self.findings.append(
                Finding(planned.label, planned.request.describe(), tuple(found))
            )
        return response

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)

    def summary(self) -> str:
        lines = [
            f"requests: {self.requests} in {self.seconds:.1f} s "
            f"({self.requests / max(self.seconds, 1e-9):.0f}/s)",
            "statuses: " + ", ".join(f"{s}: {n}" for s, n in sorted(self.statuses.items())),
            f"responses >= 500: {self.server_errors}",
            f"findings: {len(self.findings)}",
            "methods: " + ", ".join(f"{m}: {n}" for m, n in self.methods.most_common()),
            "routes: " + ", ".join(f"{r}: {n}" for r, n in self.routes.most_common()),
        ]
        if self.origins.get("server"):
            lines.append(f"refused by the HTTP server before Django: {self.origins['server']}")
        lines.append("slowest: " + "; ".join(f"{ms:.0f} ms {what}" for ms, what in self.slowest))
        return "\n".join(lines)
