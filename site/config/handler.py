"""Django's ASGI handler, closing a page's database connections when the page is done.

Under ASGI, Django serves each request in a thread of its own, created for it and ended after
it, so a connection kept for CONN_MAX_AGE is never used again: it stayed open until the
garbage collector found it (a database connection holds reference cycles), and was closed
inside a collector pass, with every thread stopped. Closing it in the request's own thread, as
the response ends, does the same work where it costs no one else anything. (The live sockets'
database work runs on asgiref's one long-lived thread, whose connection is kept.)
"""

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.db import connections


class PageHandler(ASGIHandler):
    async def handle(self, scope, receive, send) -> None:
        try:
            await super().handle(scope, receive, send)
        finally:
            # Thread-sensitive: the request's own thread, which holds its connections.
            await sync_to_async(connections.close_all)()
