"""One build for every host: `make build` packs the front end and its build id into one
file, each host unpacks the same one (and refuses a file made from other sources or page
settings), and the tabs' states in Redis are kept under the build, so two versions never
read each other's (rcxsite/tools/web_build.py, rcxsite/tools/run_scaled.py,
rcxsite/state/build_keys.py)."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest
from reflex.istate.manager.token import BaseStateToken
from reflex.state import State

from rcxsite.state.build_keys import keep_states_per_build
from rcxsite.tools import run_scaled
from rcxsite.tools.scaled_build import build_inputs, source_bytes
from rcxsite.tools.web_build import ArtifactError, build_id_of, pack, unpack
from tests.support.fixtures import Configure, configure

__all__ = ["configure"]

PAGE = "<html><body>RCX</body></html>"


def _web_dir(root: Path, stamp: str) -> Path:
    client = root / "build" / "client"
    (client / "assets").mkdir(parents=True)
    (client / "index.html").write_text(PAGE)
    (client / "assets" / "app-3f9a.js").write_text("console.log(1)")
    (root / "build-inputs.sha256").write_text(stamp + "\n")
    return root


def test_a_build_is_packed_once_and_unpacked_the_same_on_each_host(tmp_path: Path) -> None:
    web = _web_dir(tmp_path / "web", "ab12" * 16)
    artifact = pack(web, dist=tmp_path / "dist")
    assert artifact.name == "rcx-web-ab12ab12ab12ab12.tar.gz"
    assert [p.name for p in (tmp_path / "dist").iterdir()] == [artifact.name]  # no partial

    for host in ("app1", "app2"):
        build_id, unpacked = unpack(artifact, builds=tmp_path / host / "builds")
        assert build_id == "ab12ab12ab12ab12" == build_id_of(unpacked)
        assert unpacked == tmp_path / host / "builds" / build_id
        assert unpacked.stat().st_mode & 0o005 == 0o005  # nginx's workers read it
        assert (unpacked / "build/client/index.html").read_text() == PAGE
        assert (unpacked / "build/client/assets/app-3f9a.js").exists()
    # A host that has it unpacked already keeps it (a file added there stays).
    (unpacked / "kept").write_text("")
    assert unpack(artifact, builds=tmp_path / "app2" / "builds")[1] == unpacked
    assert (unpacked / "kept").exists()


def _tar(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return path


@pytest.mark.parametrize(
    ("members", "said"),
    [
        ({"build/client/index.html": b"x"}, "is not a build `make build` made"),
        ({"BUILD_ID": b"../../etc\n"}, "names no build id"),
        (
            {"BUILD_ID": b"ab12ab12ab12ab12\n", "../outside.txt": b"x"},
            "is not a build `make build` made",
        ),
        ({"BUILD_ID": b"ab12ab12ab12ab12\n"}, "holds no finished build"),
    ],
)
def test_a_file_that_is_no_build_is_refused_in_words(
    tmp_path: Path, members: dict[str, bytes], said: str
) -> None:
    artifact = _tar(tmp_path / "odd.tar.gz", members)
    with pytest.raises(ArtifactError, match=said):
        unpack(artifact, builds=tmp_path / "builds")
    assert not (tmp_path / "outside.txt").exists()
    (tmp_path / "plain.tar.gz").write_text("not gzip")
    with pytest.raises(ArtifactError, match="is not a build"):
        unpack(tmp_path / "plain.tar.gz", builds=tmp_path / "builds")


def test_a_host_serves_the_build_only_if_it_was_made_from_what_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(run_scaled, "RUN_DIR", tmp_path / "run")
    monkeypatch.setattr(run_scaled, "BUILDS_DIR", tmp_path / "builds")
    env = run_scaled.scaled_env({"SITE_URL": "https://rcx.example"}, port=3000)

    made_here = pack(_web_dir(tmp_path / "here", build_inputs(env)), dist=tmp_path / "dist")
    served = run_scaled._front_end({**env, "WEB_BUILD": str(made_here)})
    assert served.name == "client" and (served / "index.html").read_text() == PAGE

    env_of_host = {**env, "WEB_BUILD": str(made_here), "BIND_HOST": "10.0.0.3"}
    run_scaled._front_end(env_of_host)  # a host's own address is no page setting
    assert env_of_host["BUILD_ID"] == build_inputs(env)[:16]
    assert env_of_host["REFLEX_WEB_WORKDIR"].endswith(env_of_host["BUILD_ID"])

    elsewhere = {**env, "SITE_URL": "https://staging.rcx.example", "WEB_BUILD": str(made_here)}
    with pytest.raises(run_scaled.SetupError, match="built from other sources or page settings"):
        run_scaled._front_end(elsewhere)
    with pytest.raises(run_scaled.SetupError, match="does not exist"):
        run_scaled._front_end({**env, "WEB_BUILD": str(tmp_path / "missing.tar.gz")})


def test_tabs_states_are_kept_under_the_build(configure: Configure) -> None:
    keep_states_per_build()  # as the app does in every worker
    token = BaseStateToken(ident="tab-1", cls=State)
    configure(build_id="")
    assert str(token) == f"tab-1_{State.get_full_name()}"  # one process: Reflex's own
    configure(build_id="ab12ab12ab12ab12")
    old_build = str(token)
    configure(build_id="cd34cd34cd34cd34")
    assert old_build == f"ab12ab12ab12ab12:tab-1_{State.get_full_name()}"
    assert str(token) == f"cd34cd34cd34cd34:tab-1_{State.get_full_name()}" != old_build


def test_a_package_json_counts_by_its_data_not_its_layout(tmp_path: Path) -> None:
    # Reflex writes reflex.lock/package.json on one line, bun indented: the same build.
    one_line, indented = tmp_path / "a.json", tmp_path / "b.json"
    data = {"name": "reflex", "dependencies": {"react": "19.3.1", "react-dropzone": "17.0.0"}}
    one_line.write_text(json.dumps(data))
    indented.write_text(json.dumps(data, indent=2) + "\n")
    assert source_bytes(one_line) == source_bytes(indented)
    changed = tmp_path / "c.json"
    changed.write_text(json.dumps({**data, "dependencies": {"react": "19.3.2"}}))
    assert source_bytes(changed) != source_bytes(one_line)
