"""The address a request came from, as the limits on joining a class and on admin logins
count it.

Behind a proxy every request arrives from the proxy's address, so all clients would share
one count: CLIENT_IP_HEADER names the header the trusted proxy writes the client's address
in (e.g. X-Real-IP; DJANGO_CLIENT_IP_HEADER in production). Without it, REMOTE_ADDR. A
header a client could write itself must not be named here.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_ip(request: HttpRequest, *args: object) -> str:
    """The client's address (an IPv6 address stands for its /64: one machine's range);
    "unknown" when none can be read. Extra arguments: django-axes passes the credentials."""
    header = getattr(settings, "CLIENT_IP_HEADER", "")
    raw = request.headers.get(header, "") if header else request.META.get("REMOTE_ADDR", "")
    raw = raw.split(",")[-1].strip()  # a list: the last entry is the one the proxy added
    try:
        address = ipaddress.ip_address(raw)
    except ValueError:
        return "unknown"
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)
