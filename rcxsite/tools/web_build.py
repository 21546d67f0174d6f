"""`make build`: the front end every host serves, built once into one versioned file.

    make build SITE_URL=https://www.rcx.example   # dist/rcx-web-<build id>.tar.gz
    WEB_BUILD=dist/rcx-web-<build id>.tar.gz make run-scaled   # on each host

Hosts that built for themselves could get different chunk names behind one balancer (a
page from one host asking another for a file it never made). The file holds the static
front end (`build/client/`) and its build id: the digest of what it was compiled from
(rcxsite/tools/scaled_build.py), the same on every host that unpacks it. Workers are told
the id (`BUILD_ID`), and the tabs' states in Redis are kept under it
(rcxsite/state/build_keys.py), so two versions never read each other's pickles.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tarfile
import tempfile
from pathlib import Path

from rcxsite.tools.scaled_build import (
    BUILD_ID_LENGTH,
    ROOT,
    WEB_DIR,
    BuildError,
    build_frontend,
)

# WEB_BUILD_DIST moves where `make build` writes (the tests: a folder of their own).
DIST = Path(os.environ.get("WEB_BUILD_DIST") or ROOT / "dist")
BUILDS = ROOT / ".run" / "builds"
ID_FILE = "BUILD_ID"
STAMP = "build-inputs.sha256"
CLIENT = Path("build") / "client"
ID_LENGTH = BUILD_ID_LENGTH


class ArtifactError(Exception):
    """A build file that is not one `make build` made; said in the operator's words."""


def build_id_of(web_dir: Path) -> str:
    """The id of the build in `web_dir` (the start of its inputs' digest)."""
    stamp = web_dir / STAMP
    if not stamp.exists():
        raise ArtifactError(f"{web_dir} holds no finished build (no {STAMP})")
    return stamp.read_text().strip()[:ID_LENGTH]


def pack(web_dir: Path, dist: Path = DIST) -> Path:
    """`web_dir`'s finished build as `dist/rcx-web-<id>.tar.gz` (written aside, then
    renamed: a host never finds half a file)."""
    build_id = build_id_of(web_dir)
    client = web_dir / CLIENT
    if not (client / "index.html").exists():
        raise ArtifactError(f"{client} holds no built pages")
    dist.mkdir(parents=True, exist_ok=True)
    target = dist / f"rcx-web-{build_id}.tar.gz"
    with (
        tempfile.NamedTemporaryFile(dir=dist, suffix=".partial", delete=False) as partial,
        tarfile.open(fileobj=partial, mode="w:gz") as archive,
    ):
        for name, text in ((ID_FILE, build_id), (STAMP, (web_dir / STAMP).read_text())):
            content = (text.strip() + "\n").encode()
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(content), 0o644
            archive.addfile(info, io.BytesIO(content))
        archive.add(client, arcname=str(CLIENT))
    os.replace(partial.name, target)
    return target


def _whole(web_dir: Path, build_id: str) -> bool:
    return (web_dir / CLIENT / "index.html").exists() and (
        (web_dir / STAMP).exists() and build_id_of(web_dir) == build_id
    )


def unpack(artifact: Path, builds: Path = BUILDS) -> tuple[str, Path]:
    """(build id, web folder) of `artifact`, unpacked once into `builds/<id>/`."""
    if not artifact.is_file():
        raise ArtifactError(f"WEB_BUILD: {artifact} does not exist")
    try:
        with tarfile.open(artifact, mode="r:gz") as archive:
            id_member = archive.extractfile(ID_FILE)
            if id_member is None:
                raise KeyError(ID_FILE)
            build_id = id_member.read().decode().strip()
            if len(build_id) != ID_LENGTH or not all(c in "0123456789abcdef" for c in build_id):
                raise ArtifactError(f"WEB_BUILD: {artifact} names no build id")
            web_dir = builds / build_id
            if _whole(web_dir, build_id):
                return build_id, web_dir
            builds.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(dir=builds, prefix=".unpacking-"))
            # mkdtemp makes it 0700; nginx's workers (another user) read the pages in it.
            staging.chmod(0o755)
            try:
                # "data": no links out, no absolute paths, no device files.
                archive.extractall(staging, filter="data")
                if build_id_of(staging) != build_id or not (staging / CLIENT).is_dir():
                    raise ArtifactError(f"WEB_BUILD: {artifact} is not a whole build")
                try:
                    staging.rename(web_dir)
                except OSError:
                    # Another start unpacked it meanwhile (or left half of it): a whole one
                    # is kept, served as it may be by a running nginx; half of one goes.
                    if not _whole(web_dir, build_id):
                        shutil.rmtree(web_dir, ignore_errors=True)
                        staging.rename(web_dir)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    except (tarfile.TarError, KeyError, OSError, EOFError) as problem:
        raise ArtifactError(
            f"WEB_BUILD: {artifact} is not a build `make build` made ({problem})"
        ) from None
    return build_id, web_dir


def main() -> int:
    from rcxsite.tools.run_scaled import scaled_env

    port = int(os.environ.get("PORT", "3000"))
    env = scaled_env(dict(os.environ), port=port)
    web_dir = Path(os.environ.get("SCALED_WEB_DIR") or WEB_DIR)
    try:
        build_frontend(env, web_dir=web_dir)
        artifact = pack(web_dir)
    except (BuildError, ArtifactError) as problem:
        print(f"build: {problem}", file=sys.stderr, flush=True)
        return 2
    print(f"Built {artifact} (build {build_id_of(web_dir)}) for {env['SITE_URL']}", flush=True)
    print(f"On each host: WEB_BUILD={artifact} make run-scaled", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
