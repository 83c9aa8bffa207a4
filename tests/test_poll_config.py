"""The room's poll service is on in every deployment, the same way (issue #31): the trial hub
and TLJH's snippet through deploy/poll/hub_config.py, Zero to JupyterHub in values.yaml. Each
gives every user the service's access, the group ``instructors`` the lecturer's scope, the
students' server tokens both scopes, and the kernels the service's URL -- and on Z2JH the
service file, its port and the network policies agree with each other."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from urllib.parse import urlparse

import yaml
from traitlets.config import PyFileConfigLoader

from hub_testing import fake_tljh_package

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
_spec = importlib.util.spec_from_file_location("poll_hub_config", DEPLOY / "poll" / "hub_config.py")
hub_config = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hub_config)
Z2JH = yaml.safe_load((DEPLOY / "z2jh" / "values.yaml").read_text())


def _load(path, monkeypatch, **env):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    return PyFileConfigLoader(path.name, path=str(path.parent)).load_config()


def _value(v, default):
    return v.get_value(default) if type(v).__name__ == "LazyConfigValue" else v


def _check(c, *, instructors):
    services = _value(c.JupyterHub.services, [])
    (poll,) = [s for s in services if s["name"] == "genviz-poll"]
    assert Path(poll["command"][1]).name == "genviz_poll.py" and poll["display"] is False
    assert any(a.startswith("--state-dir=") for a in poll["command"])
    roles = {r["name"]: r for r in _value(c.JupyterHub.load_roles, [])}
    assert roles["user"]["scopes"] == ["self", "access:services!service=genviz-poll"]
    assert roles["genviz-lecturer"]["groups"] == ["instructors"]
    assert "custom:genviz-poll:lecture" in roles["genviz-lecturer"]["scopes"]
    scopes = _value(c.JupyterHub.custom_scopes, {})
    assert "custom:genviz-poll:lecture" in scopes and scopes["custom:genviz-poll:lecture"]["description"]
    assert c.Spawner.server_token_scopes == hub_config.SERVER_TOKEN_SCOPES
    assert {"access:servers!server", "users:activity!user"} <= set(c.Spawner.server_token_scopes)
    env = _value(c.Spawner.environment, {})
    url = urlparse(env["GENVIZ_POLL_URL"])
    assert url.path == "/services/genviz-poll/"
    assert url.port == urlparse(poll["url"]).port
    groups = _value(c.JupyterHub.load_groups, {})
    assert groups.get("instructors", {}).get("users", []) == sorted(instructors)
    return poll


def test_the_trial_hub_runs_the_poll_service(tmp_path, monkeypatch):
    c = _load(DEPLOY / "jupyterhub_config.py", monkeypatch, HUB_PORT="18200",
              GENVIZ_HUB_HOME=str(tmp_path / "home"), GENVIZ_HUB_STATE=str(tmp_path / "state"))
    poll = _check(c, instructors={"instructor"})
    assert poll["url"] == "http://127.0.0.1:18203"  # HUB_PORT + 3, loopback
    assert poll["environment"]["GENVIZ_TRIAL_HUB"]  # stopped with the hub (run_hub.py)
    assert Path(poll["cwd"]).is_dir() and Path(poll["cwd"]).parent == tmp_path / "state"
    c = _load(DEPLOY / "jupyterhub_config.py", monkeypatch, GENVIZ_POLL_PORT="18299",
              GENVIZ_HUB_INSTRUCTORS="ada, bob")
    assert _check(c, instructors={"ada", "bob"})["url"].endswith(":18299")


def test_tljh_runs_the_poll_service_as_its_own_user(tmp_path, monkeypatch):
    fake, config = fake_tljh_package(tmp_path, "users:\n  allowed: [ada]\n  admin: [prof]\n")
    monkeypatch.syspath_prepend(str(fake))
    c = _load(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py", monkeypatch,
              FAKE_TLJH_CONFIG=str(config), GENVIZ_REPO=str(ROOT))
    poll = _check(c, instructors={"prof"})  # TLJH's admins run the votes
    assert poll["user"] == "genviz-poll" and poll["cwd"] == "/opt/tljh/state/genviz-poll"
    assert poll["url"] == "http://127.0.0.1:15011"
    script = (DEPLOY / "tljh" / "setup.sh").read_text()
    assert "useradd --system" in script and "genviz-poll" in script


def test_z2jh_states_the_same_settings():
    hub = Z2JH["hub"]
    config = hub["config"]
    assert config["KubeSpawner"]["server_token_scopes"] == hub_config.SERVER_TOKEN_SCOPES
    assert config["JupyterHub"]["custom_scopes"] == hub_config.CUSTOM_SCOPES
    roles = [{"name": name, **role} for name, role in hub["loadRoles"].items()]
    assert roles == hub_config.ROLES
    assert config["JupyterHub"]["load_groups"]["instructors"]["users"]


def test_z2jh_service_file_port_and_network_policies_agree():
    hub, su = Z2JH["hub"], Z2JH["singleuser"]
    poll = hub["services"]["genviz-poll"]
    url = urlparse(poll["url"])
    port = url.port
    script = poll["command"][1]
    assert poll["command"][0] == "python3" and "--ip=0.0.0.0" in poll["command"]
    assert any(a.startswith("--state-dir=/srv/jupyterhub/") for a in poll["command"])  # hub PVC
    # the file: mounted where the command runs it; its content given at install (--set-file)
    files = hub["extraFiles"]["genviz-poll"]
    assert files["mountPath"] == script and "stringData" not in files
    text = (DEPLOY / "z2jh" / "values.yaml").read_text()
    install = "--set-file hub.extraFiles.genviz-poll.stringData=deploy/poll/genviz_poll.py"
    assert install in text
    assert install in (ROOT / "docs" / "teach_a_class.md").read_text()
    # the port: on the hub's k8s Service, open to labelled pods, reachable from user pods
    assert {"name": "genviz-poll", "port": port, "targetPort": port} in hub["service"]["extraPorts"]
    (ingress,) = hub["networkPolicy"]["ingress"]
    assert ingress["ports"] == [{"port": port}]
    assert ingress["from"][0]["podSelector"]["matchLabels"] == {"hub.jupyter.org/network-access-hub": "true"}
    (egress,) = su["networkPolicy"]["egress"]
    assert egress["ports"] == [{"port": port}]
    assert egress["to"][0]["podSelector"]["matchLabels"]["component"] == "hub"
    kernel_url = urlparse(su["extraEnv"]["GENVIZ_POLL_URL"])
    assert (kernel_url.hostname, kernel_url.port, kernel_url.path) == \
        (url.hostname, port, "/services/genviz-poll/")


def _third_party_imports(path) -> set:
    """The top-level packages a file imports, less the standard library's."""
    import ast
    import sys

    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
    return modules - set(sys.stdlib_module_names)


def test_the_service_file_runs_in_the_hub_image_with_what_jupyterhub_brings():
    """The chart runs the file with the hub image's python3: it may import only the standard
    library, tornado and jupyterhub (no genviz, no third-party package)."""
    assert _third_party_imports(DEPLOY / "poll" / "genviz_poll.py") == {"tornado", "jupyterhub"}
    assert os.access(DEPLOY / "poll" / "genviz_poll.py", os.R_OK)


def test_the_lecture_page_is_configured_alike_everywhere(tmp_path, monkeypatch):
    """Issue #37: the service is the phones' OAuth client (no confirmation page, tokens that
    reach only the service) on the trial hub, TLJH and Z2JH; the trial hub tells the
    lecturer's panel the page's address; Z2JH mounts the page's files beside the service."""
    c = _load(DEPLOY / "jupyterhub_config.py", monkeypatch, HUB_PORT="18200",
              GENVIZ_HUB_HOME=str(tmp_path / "home"), GENVIZ_HUB_STATE=str(tmp_path / "state"))
    fake, config = fake_tljh_package(tmp_path, "users:\n  allowed: [ada]\n  admin: [prof]\n")
    monkeypatch.syspath_prepend(str(fake))
    tljh = _load(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py", monkeypatch,
                 FAKE_TLJH_CONFIG=str(config), GENVIZ_REPO=str(ROOT))
    z2jh = Z2JH["hub"]["services"]["genviz-poll"]
    for poll in (_check(c, instructors={"instructor"}), _check(tljh, instructors={"prof"}), z2jh):
        assert poll["oauth_no_confirm"] is True
        assert poll["oauth_client_allowed_scopes"] == ["access:services!service=genviz-poll"]
    assert _value(c.Spawner.environment, {})["GENVIZ_LECTURE_URL"] == \
        "http://127.0.0.1:18200/services/genviz-poll/lecture/"
    # Z2JH: every file the service reads, mounted where lecture.py looks for it
    files = Z2JH["hub"]["extraFiles"]
    service_dir = Path(files["genviz-poll"]["mountPath"]).parent
    page = {"genviz-lecture": "lecture.py", "genviz-lecture-html": "lecture_page/index.html",
            "genviz-lecture-css": "lecture_page/lecture.css",
            "genviz-lecture-js": "lecture_page/lecture.js"}
    text = (DEPLOY / "z2jh" / "values.yaml").read_text()
    for key, rel in page.items():
        assert files[key]["mountPath"] == str(service_dir / rel)
        assert (DEPLOY / "poll" / rel).is_file()
        assert f"--set-file hub.extraFiles.{key}.stringData=deploy/poll/{rel}" in text
    # the bundle (several MB: over a Secret's 1 MB, so not an extraFile): postBuild builds it
    # into the image, an init container copies it to a volume the hub mounts where the
    # service's GENVIZ_LECTURE_BUNDLE points
    assert "genviz-lecture-bundle" not in files
    hub = Z2JH["hub"]
    (init,) = [c for c in hub["initContainers"] if c["name"] == "genviz-lecture-bundle"]
    assert init["image"] == hub["extraContainers"][0]["image"]  # the students' image
    (copy_to,) = [m["mountPath"] for m in init["volumeMounts"] if m["name"] == "genviz-lecture"]
    built = "$(python -c 'import sys; print(sys.prefix)')/share/genviz/lecture_bundle.json"
    assert f'cp "{built}" {copy_to}/' == init["command"][-1]
    assert f'--out "{built}"' in (ROOT / "postBuild").read_text()
    (mount,) = [m for m in hub["extraVolumeMounts"] if m["name"] == "genviz-lecture"]
    assert {"name": "genviz-lecture", "emptyDir": {}} in hub["extraVolumes"]
    assert z2jh["environment"]["GENVIZ_LECTURE_BUNDLE"] == \
        f"{mount['mountPath']}/lecture_bundle.json" and mount["readOnly"] is True
    assert 'BUNDLE_NAME = "lecture_bundle.json"' in (DEPLOY / "poll" / "lecture.py").read_text()


def test_the_lecture_page_runs_in_the_hub_image_too():
    assert _third_party_imports(DEPLOY / "poll" / "lecture.py") == {"tornado", "jupyterhub"}


# --- the lecture bundle: one rule for every deployment (#37 item 1) ------------------------------

def test_every_deployment_points_the_service_at_the_installed_bundle(tmp_path, monkeypatch):
    """The service reads ``GENVIZ_LECTURE_BUNDLE``; every hub configuration sets it to the file
    postBuild installs in the students' environment, ``<prefix>/share/genviz/
    lecture_bundle.json`` (``hub_config.installed_bundle``), and the build writes there by
    default: the trial hub its venv's (``make lecture-bundle``), TLJH the user environment's
    (setup.sh runs postBuild there), Z2JH the hub's copy of the image's file."""
    from file_modules import load_file

    built = "$(python -c 'import sys; print(sys.prefix)')/share/genviz/lecture_bundle.json"
    post_build = (ROOT / "postBuild").read_text()
    assert f'--out "{built}"' in post_build  # an environment's own prefix
    # the trial hub: this venv's installed bundle, which the build writes by default
    monkeypatch.delenv("GENVIZ_LECTURE_BUNDLE", raising=False)
    c = _load(DEPLOY / "jupyterhub_config.py", monkeypatch, HUB_PORT="18200",
              GENVIZ_HUB_HOME=str(tmp_path / "home"), GENVIZ_HUB_STATE=str(tmp_path / "state"))
    installed = str(Path(sys.prefix) / "share" / "genviz" / "lecture_bundle.json")
    assert hub_config.installed_bundle(sys.prefix) == installed
    assert _check(c, instructors={"instructor"})["environment"]["GENVIZ_LECTURE_BUNDLE"] == installed
    lecture_bundle = load_file(DEPLOY / "poll" / "lecture_bundle.py", "lecture_bundle_for_rule")
    assert str(lecture_bundle.default_out()) == installed
    makefile = (ROOT / "Makefile").read_text()
    assert "lecture_bundle.py build --out $(VENV)/share/genviz/lecture_bundle.json" in makefile
    # ... and a hub given another file (the hub tests: their own state's) reads that one
    c = _load(DEPLOY / "jupyterhub_config.py", monkeypatch, GENVIZ_LECTURE_BUNDLE="/x/b.json")
    assert _check(c, instructors={"instructor"})["environment"]["GENVIZ_LECTURE_BUNDLE"] == "/x/b.json"
    # TLJH: the user environment's, where setup.sh runs postBuild (and checks the file)
    fake, config = fake_tljh_package(tmp_path, "users:\n  allowed: [ada]\n  admin: [prof]\n")
    monkeypatch.syspath_prepend(str(fake))
    tljh = _load(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py", monkeypatch,
                 FAKE_TLJH_CONFIG=str(config), GENVIZ_REPO=str(ROOT))
    poll = _check(tljh, instructors={"prof"})
    assert poll["environment"]["GENVIZ_LECTURE_BUNDLE"] == \
        "/opt/tljh/user/share/genviz/lecture_bundle.json"
    setup = (DEPLOY / "tljh" / "setup.sh").read_text()
    assert 'USER_ENV="${TLJH_USER_ENV:-/opt/tljh/user}"' in setup
    assert 'PATH="$USER_ENV/bin:$PATH" bash postBuild' in setup
    assert 'BUNDLE="$USER_ENV/share/genviz/lecture_bundle.json"' in setup
    assert setup.index("bash postBuild") < setup.index('test -f "$BUNDLE"')
    # Z2JH: the hub's copy of the image's installed bundle (values.yaml's init container)
    hub = Z2JH["hub"]
    (init,) = [x for x in hub["initContainers"] if x["name"] == "genviz-lecture-bundle"]
    assert init["command"][-1].startswith(f'cp "{built}" ')
    copy_dir = init["command"][-1].split()[-1].rstrip("/")
    (mount,) = [m for m in hub["extraVolumeMounts"] if m["name"] == "genviz-lecture"]
    (copied,) = [m for m in init["volumeMounts"] if m["name"] == "genviz-lecture"]
    assert copied["mountPath"] == copy_dir
    assert hub["services"]["genviz-poll"]["environment"]["GENVIZ_LECTURE_BUNDLE"] == \
        f"{mount['mountPath']}/lecture_bundle.json"
    # the docs no longer ask for a copy into the service's state directory
    docs = (ROOT / "docs" / "teach_a_class.md").read_text()
    assert "state/poll/lecture_bundle.json" not in docs
    assert "genviz-poll/lecture_bundle.json" not in docs and "make lecture-bundle" in docs


def test_tljh_gives_the_lecturers_panel_the_hubs_public_address(tmp_path, monkeypatch):
    """TLJH has no public_url setting: with https by Let's Encrypt the snippet derives the
    address from its first domain (GENVIZ_LECTURE_URL, the panel's QR code); without, nothing
    is set and the panel falls back to the hub's own c.JupyterHub.public_url, if an admin sets
    it (JUPYTERHUB_PUBLIC_HUB_URL, genviz/widgets/_lecture_link.py)."""
    fake, config = fake_tljh_package(tmp_path, "users:\n  allowed: [ada]\nhttps:\n  enabled: true\n"
                                               "  letsencrypt:\n    domains: [hub.example.edu]\n")
    monkeypatch.syspath_prepend(str(fake))
    tljh = _load(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py", monkeypatch,
                 FAKE_TLJH_CONFIG=str(config), GENVIZ_REPO=str(ROOT))
    assert _value(tljh.Spawner.environment, {})["GENVIZ_LECTURE_URL"] == \
        "https://hub.example.edu/services/genviz-poll/lecture/"
    config.write_text("users:\n  allowed: [ada]\n")
    tljh = _load(DEPLOY / "tljh" / "jupyterhub_config.d" / "genviz.py", monkeypatch,
                 FAKE_TLJH_CONFIG=str(config), GENVIZ_REPO=str(ROOT))
    assert "GENVIZ_LECTURE_URL" not in _value(tljh.Spawner.environment, {})


def test_the_trial_hubs_start_message_says_whether_the_bundle_is_there(tmp_path):
    from file_modules import load_file

    run_hub = load_file(DEPLOY / "run_hub.py", "run_hub_for_bundle_note")
    missing = run_hub.bundle_note({"GENVIZ_LECTURE_BUNDLE": str(tmp_path / "b.json")})
    assert f"no lecture bundle at {tmp_path / 'b.json'}" in missing
    assert "letters only" in missing and "make lecture-bundle" in missing
    (tmp_path / "b.json").write_text("{}")
    there = run_hub.bundle_note({"GENVIZ_LECTURE_BUNDLE": str(tmp_path / "b.json")})
    assert str(tmp_path / "b.json") in there and "no lecture bundle" not in there
