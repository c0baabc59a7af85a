"""Production logs a 500 to stderr: traceback, request path and request id, with the same
id on the access line, in the X-Request-ID header and on the page the visitor sees."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import json, sys
sys.path[:0] = [".", "site"]
import django
django.setup()
from django.test import Client
client = Client(raise_request_exception=False)
failed = client.get("/boom/?who=tester", secure=True)
fine = client.get("/en/", secure=True)
print(json.dumps({
    "status": failed.status_code, "id": failed["X-Request-ID"], "page": failed.content.decode(),
    "fine_status": fine.status_code, "fine_id": fine["X-Request-ID"],
}))
"""


def run_in_production() -> tuple[dict, str]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "tests.site.boom_settings",
        "DJANGO_SECRET_KEY": "k" * 20 + "production-like-secret-with-enough-entropy-0123456789",
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def test_a_500_is_logged_with_traceback_path_and_request_id():
    result, stderr = run_in_production()
    request_id = result["id"]
    assert result["status"] == 500
    assert re.fullmatch(r"[0-9a-f]{32}", request_id)
    error = re.search(
        rf"^\S+ \S+ ERROR django\.request \[{request_id}\] Internal Server Error: /boom/$",
        stderr, re.M,
    )
    assert error, stderr
    after = stderr[error.end():]
    assert "Traceback (most recent call last)" in after
    assert "RuntimeError: forced failure for the logging test" in after
    assert re.search(
        rf"^\S+ \S+ INFO stress\.access \[{request_id}\] GET /boom/\?who=tester 500 [0-9.]+ms$",
        stderr, re.M,
    ), stderr


def test_the_visitor_sees_the_reference_and_other_requests_log_their_own_id():
    result, stderr = run_in_production()
    assert f"<code>{result['id']}</code>" in result["page"]
    assert result["fine_status"] == 200
    assert result["fine_id"] != result["id"]
    assert re.search(
        rf"INFO stress\.access \[{result['fine_id']}\] GET /en/ 200 ", stderr
    ), stderr
    # A page that works logs nothing but its access line.
    assert "WARNING" not in stderr and stderr.count("ERROR") == 1
