"""Client errors in production (#25): a wrong Host header, an oversized form or body are one
WARNING line with the request id, no traceback (a wrong Host went through logging's last
resort, 930 bytes of traceback; oversized forms logged at ERROR with one); and the answers
Django gives before any view (the HTTPS redirect, the bad-Host 400) carry the same security
headers as every page."""

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
answers = {
    "bad-host": client.get("/en/", secure=True, HTTP_HOST="evil.example"),
    "bad-host-crafted": client.get("/en/", secure=True, HTTP_HOST="evil\\tINFO forged"),
    "too-many-fields": client.post("/en/class/", "&".join(f"f{n}=1" for n in range(1500)),
                                   content_type="application/x-www-form-urlencoded",
                                   secure=True),
    "too-big": client.post("/en/class/", "x=" + "a" * 3_000_000,
                           content_type="application/x-www-form-urlencoded", secure=True),
    "redirect": client.get("/en/"),
}
print(json.dumps({name: {"status": r.status_code, "headers": dict(r.headers)}
                  for name, r in answers.items()}))
"""


def run_in_production() -> tuple[dict, str]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "tests.site.boom_settings",
        "DJANGO_SECRET_KEY": "k" * 20 + "production-like-secret-with-enough-entropy-0123456789",
        "DJANGO_ALLOWED_HOSTS": "testserver",
    }
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def test_client_errors_are_one_warning_line_with_the_request_id():
    answers, stderr = run_in_production()
    assert "Traceback" not in stderr and " ERROR " not in stderr, stderr
    for name in ("bad-host", "bad-host-crafted", "too-many-fields", "too-big"):
        assert answers[name]["status"] == 400, name
        request_id = answers[name]["headers"]["X-Request-ID"]
        lines = [line for line in stderr.splitlines() if f"[{request_id}]" in line]
        warnings = [line for line in lines if " WARNING django.security" in line]
        assert len(warnings) == 1, (name, lines)
        assert len(lines) == 2  # the warning and the access line
    # what the client put in the Host header cannot start a line of its own
    assert not re.search(r"^INFO forged", stderr, re.M)
    assert "evil\\\\tINFO forged" in stderr or "evil\\tINFO forged" in stderr


def test_early_answers_carry_the_security_headers():
    answers, _stderr = run_in_production()
    redirect = answers["redirect"]
    assert redirect["status"] == 301
    assert "camera=()" in redirect["headers"]["Permissions-Policy"]
    for name in ("bad-host", "too-big"):
        headers = answers[name]["headers"]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], name
        assert headers["X-Frame-Options"] == "DENY", name
        assert "camera=()" in headers["Permissions-Policy"], name
