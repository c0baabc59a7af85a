import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_production_settings_pass_the_deploy_check():
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": "k" * 20 + "production-like-secret-with-enough-entropy-0123456789",
        "DJANGO_ALLOWED_HOSTS": "stress.example.org",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_database_url_selects_postgresql(monkeypatch):
    from config.settings.base import database_from_env

    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db.internal:5432/stress")
    assert database_from_env()["ENGINE"] == "django.db.backends.postgresql"
    monkeypatch.delenv("DATABASE_URL")
    sqlite = database_from_env()
    assert sqlite["ENGINE"] == "django.db.backends.sqlite3"
    assert "journal_mode=WAL" in sqlite["OPTIONS"]["init_command"]


def test_engine_never_imports_django():
    importing = re.compile(r"^\s*(import|from)\s+django\b", re.M)
    for path in (ROOT / "rules_engine").rglob("*.py"):
        assert not importing.search(path.read_text(encoding="utf-8")), path


SETTINGS_PROBE = """
import json, sys
sys.path.insert(0, "site")
import django
from django.conf import settings
django.setup()
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("PRAGMA journal_mode")
    mode = cursor.fetchone()[0]
    cursor.execute("PRAGMA busy_timeout")
    timeout = cursor.fetchone()[0]
database = settings.DATABASES["default"]
print(json.dumps({"options": database["OPTIONS"], "age": database["CONN_MAX_AGE"],
                  "mode": mode, "timeout": timeout}))
"""


@pytest.mark.parametrize("how", ["DATABASE_URL", "SQLITE_PATH"])
def test_every_sqlite_configuration_gets_the_same_tuning(tmp_path, how):
    """`DATABASE_URL=sqlite:///…` (the README offers it) is tuned like the default file (#25):
    WAL, IMMEDIATE transactions and a busy timeout, read from the production settings."""
    path = tmp_path / "site.sqlite3"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.production",
           "DJANGO_SECRET_KEY": "x" * 60, "DJANGO_ALLOWED_HOSTS": "stress.example.org"}
    env.pop("DATABASE_URL", None)
    env[how] = f"sqlite:///{path}" if how == "DATABASE_URL" else str(path)
    done = subprocess.run([sys.executable, "-c", SETTINGS_PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["options"]["transaction_mode"] == "IMMEDIATE"
    assert found["options"]["timeout"] == 5
    assert found["age"] == 600
    assert found["mode"] == "wal" and found["timeout"] == 5000


GC_PROBE = """
import gc, json
before = gc.get_threshold()
for module in ("config.asgi", "config.wsgi"):
    __import__(module)
print(json.dumps({"before": before, "after": gc.get_threshold(),
                  "frozen": gc.get_freeze_count()}))
"""


def test_a_server_process_freezes_what_it_loaded_and_collects_rarely():
    """Collector passes over everything loaded stopped every thread for 100-570 ms under load
    (config.garbage): a server process, ASGI or WSGI, freezes what it loaded at start-up."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.production",
           "DJANGO_SECRET_KEY": "x" * 60, "DJANGO_ALLOWED_HOSTS": "stress.example.org",
           "PYTHONPATH": f"{ROOT / 'site'}:{ROOT}"}
    done = subprocess.run([sys.executable, "-c", GC_PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    from config.garbage import THRESHOLDS

    assert found["before"][0] < THRESHOLDS[0]
    assert found["after"] == list(THRESHOLDS)
    assert found["frozen"] > 10_000  # Django, the rules engine, the site's modules
