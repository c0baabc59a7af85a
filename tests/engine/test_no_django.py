"""The engine must run without Django: no module imports it, and importing never loads it."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "rules_engine"


def test_no_engine_module_imports_django():
    offenders = []
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            if any(n == "django" or n.startswith("django.") for n in names):
                offenders.append(str(path))
    assert offenders == []


def test_importing_the_whole_engine_loads_no_django():
    code = (
        "import sys, pkgutil, importlib, rules_engine\n"
        "for m in pkgutil.walk_packages(rules_engine.__path__, 'rules_engine.'):\n"
        "    if m.name != 'rules_engine.__main__':\n"
        "        importlib.import_module(m.name)\n"
        "assert not any(k == 'django' or k.startswith('django.') for k in sys.modules), 'django'\n"
    )
    root = ENGINE.parent
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)
