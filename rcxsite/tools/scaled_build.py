"""The frontend that `make run-scaled` serves, built once and rebuilt only when it would differ.

A restart of run-scaled (after a crash, a host reboot or a settings change that only the
backend reads) reuses the build when its inputs are the same: the source files, the
pins, Reflex's version and the settings the pages are compiled with.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from rcxsite.core.client_builds import build_path_prefix

ROOT = Path(__file__).resolve().parents[2]
# A build's id: the start of the digest of its inputs.
BUILD_ID_LENGTH = 16
WEB_DIR = ROOT / ".run" / "web"
STATIC_ROOT = WEB_DIR / "build" / "client"

_SOURCES = (
    "rcxsite",
    "assets",
    "components_js",
    "rxconfig.py",
    "reflex.lock",
    "requirements.txt",
    "pyproject.toml",
)
_GENERATED = {"__pycache__", "external", "node_modules"}
# Settings only the running backend reads: they never change what is compiled, and
# secrets must not flow into a file on disk, even hashed.
_RUNTIME_ONLY = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "DATA_DIR",
    "OUTBOX_DIR",
    "TRUSTED_PROXY_HOPS",
    "RATE_LIMIT_KEY_PREFIX",
    "SMTP_",
    "MAIL_",
    "ARGON2_",
    "_LIMIT",
    "_LIMITS",
    "HEADER_SESSION_MINUTES",
    "SALES_EMAIL",
    "CALLS_EMAIL",
    "TRUSTED_PROXIES",
    "_PER_CLIENT",
    "WEBSOCKET_OPENS_PER_MINUTE",
    "API_REQUESTS_PER_SECOND",
    "API_BURST",
    "TAB_STATE_MINUTES",
    "CLOSED_TAB_STATE_SECONDS",
    # Where the backend keeps tabs' states (each test site has its own), and where the
    # build is: one build serves hosts that unpack it into folders of their own.
    "REFLEX_STATES_WORKDIR",
    "REFLEX_WEB_WORKDIR",
    # What differs between the hosts serving one build, or names the build itself.
    "PORT",
    "JOB_RUNNERS",
    "BIND_HOST",
    "HOST_NAME",
    "LB_UPSTREAMS",
    "FILE_STORE",
    "BUILD_ID",
    "LOG_FILE",
)


_SECRET_LIKE = ("SECRET", "PASSWORD", "TOKEN", "_KEY", "DB_URL", "REDIS")


class BuildError(Exception):
    """The frontend build failed; its output was already printed."""


def _source_files() -> Iterator[Path]:
    for name in _SOURCES:
        path = ROOT / name
        if path.is_file():
            yield path
        elif path.is_dir():
            yield from sorted(
                file
                for file in path.rglob("*")
                if file.is_file()
                and not _GENERATED & set(file.relative_to(ROOT).parts)
                and file.suffix != ".pyc"
            )


def source_bytes(file: Path) -> bytes:
    """A file as a build depends on it; a JSON file by its data: Reflex writes
    reflex.lock/package.json on one line and bun indented, and either may rewrite it in the
    middle of a run without changing a dependency."""
    data = file.read_bytes()
    if file.suffix == ".json":
        try:
            return json.dumps(json.loads(data), sort_keys=True).encode()
        except ValueError:
            pass
    return data


def _compiled_with(env: Mapping[str, str]) -> list[tuple[str, str]]:
    """The settings (from `.env`, then the environment, as Settings reads them) and Reflex
    variables a build may depend on, minus what only the backend reads and anything
    secret-like: a secret must not reach a file on disk, even hashed."""
    from dotenv import dotenv_values

    from rcxsite.platform.settings import PROJECT_ROOT, Settings

    values = {
        name.upper(): value for name, value in dotenv_values(PROJECT_ROOT / ".env").items() if value
    }
    values.update(env)
    settings = {name.upper() for name in Settings.model_fields}
    return sorted(
        (name, value)
        for name, value in values.items()
        if (name in settings or name.startswith(("REFLEX_", "VITE_")))
        and not any(name.startswith(part) or name.endswith(part) for part in _RUNTIME_ONLY)
        and not any(part in name for part in _SECRET_LIKE)
    )


def build_inputs(env: Mapping[str, str]) -> str:
    """A digest of everything the compiled frontend depends on."""
    from importlib.metadata import version

    digest = hashlib.sha256(f"reflex {version('reflex')}\n".encode())
    for file in _source_files():
        digest.update(f"{file.relative_to(ROOT)}\n".encode())
        digest.update(hashlib.sha256(source_bytes(file)).digest())
    for name, value in _compiled_with(env):
        digest.update(f"{name}={value}\n".encode())
    return digest.hexdigest()


def build_frontend(env: dict[str, str], web_dir: Path = WEB_DIR) -> Path:
    """Exports the production frontend into `web_dir` (.run/web; a `make run` build in .web
    is left alone), unless the build there was made from the same inputs; returns the
    folder nginx serves."""
    static_root, stamp = web_dir / "build" / "client", web_dir / "build-inputs.sha256"
    env = {**env, "REFLEX_WEB_WORKDIR": str(web_dir)}
    inputs = build_inputs(env)
    if (
        (static_root / "index.html").exists()
        and stamp.exists()
        and stamp.read_text().strip() == inputs
    ):
        print(
            "The frontend is built from these sources and settings already; reusing it.", flush=True
        )
        return static_root
    stamp.unlink(missing_ok=True)
    if env.get("REFLEX_API_URL"):
        # The page's calls to the workers name its build (rcxsite/web/client_build.py).
        env["REFLEX_API_URL"] = env["REFLEX_API_URL"].rstrip("/") + build_path_prefix(
            inputs[:BUILD_ID_LENGTH]
        )
    # The build process counts nothing: it must not write into the workers' metrics.
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    result = subprocess.run(
        [sys.executable, "-m", "reflex", "export", "--frontend-only", "--no-zip", "--env", "prod"],
        cwd=ROOT,
        env=env,
    )
    if result.returncode != 0:
        raise BuildError(f"Building the frontend failed (exit code {result.returncode})")
    stamp.write_text(inputs + "\n")
    return static_root
