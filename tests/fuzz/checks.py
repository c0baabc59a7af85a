"""What no response may do, whatever the request."""

from .transport import FuzzResponse

# No view of this site takes these; a page that answers them with a 2xx lacks a method check.
NEVER_SUCCESSFUL = frozenset({"PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"})
EVERY_RESPONSE = ("permissions-policy", "x-request-id", "x-content-type-options")


def problems(
    method: str, payloads: tuple[str, ...], response: FuzzResponse, declared: frozenset[str]
) -> list[str]:
    found = []
    if response.status >= 500:
        detail = f"\n{response.error}" if response.error else ""
        found.append(f"status {response.status}{detail}")
        return found
    if response.origin == "server":
        return found  # refused by the HTTP server itself (too long, malformed): Django never ran
    headers = "\n".join(f"{k}: {v}" for k, v in response.headers.items())
    for payload in payloads:
        if payload in response.body:
            found.append(f"the body reflects {payload!r} unescaped")
        if payload in headers:
            found.append(f"a header reflects {payload!r} unescaped")
    if response.status == 405 and "allow" not in response.headers:
        found.append("405 without an Allow header")
    if method in NEVER_SUCCESSFUL - declared and 200 <= response.status < 300:
        found.append(f"{method} answered {response.status} (no 405: the view names no methods)")
    for header in EVERY_RESPONSE:
        if header not in response.headers:
            found.append(f"no {header} header")
    if response.html and response.body and "content-security-policy" not in response.headers:
        found.append("an HTML response without Content-Security-Policy")
    if response.html and response.body and "x-frame-options" not in response.headers:
        found.append("an HTML response without X-Frame-Options")
    return found
