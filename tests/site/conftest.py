import pytest


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    """Every test renders its pages afresh (settings and patches differ between tests)."""
    from core import pagecache

    pagecache.clear()
    yield
    pagecache.clear()
