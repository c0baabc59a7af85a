import os

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run
# there unless told the access is deliberate (pytest-django's live_server tests need it).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
