"""Write deploy/z2jh/schema_keys.txt: the key paths the Zero to JupyterHub chart accepts.

``python deploy/z2jh/extract_schema_keys.py values.schema.yaml COMMIT`` reads the chart's JSON
schema (``jupyterhub/values.schema.yaml`` of github.com/jupyterhub/zero-to-jupyterhub-k8s,
BSD-3-Clause) and lists every key path it defines, one a line. A path ending in ``.*`` is an
object whose keys are free (``additionalProperties`` allowed: hub.config, extraEnv, ...).
tests/test_deploy.py checks every key of deploy/z2jh/values.yaml against the list, so a typo or
a key the chart does not know fails here, not at ``helm upgrade``. Only key names are kept
(facts about the chart's interface); re-run this with a newer chart to move to it.
"""

import sys

import yaml


def key_paths(node, prefix=""):
    if not isinstance(node, dict):
        return
    props = node.get("properties") or {}
    types = node.get("type", "object")
    is_object = "object" in (types if isinstance(types, list) else [types])
    if prefix and is_object and (node.get("additionalProperties", True) is not False
                                 or node.get("patternProperties")):
        yield f"{prefix}.*"
    for name, sub in props.items():
        path = f"{prefix}.{name}" if prefix else name
        yield path
        yield from key_paths(sub, path)
    for sub in node.get("anyOf", []) + node.get("oneOf", []):
        yield from key_paths({**sub, "additionalProperties": sub.get("additionalProperties", False)}
                             if "properties" in sub else {}, prefix)


def main(schema_path, commit):
    schema = yaml.safe_load(open(schema_path))
    paths = sorted(set(key_paths(schema)))
    header = ["# Key paths of the Zero to JupyterHub Helm chart's values.schema.yaml",
              f"# (github.com/jupyterhub/zero-to-jupyterhub-k8s, jupyterhub/values.schema.yaml at {commit},",
              "# BSD-3-Clause), extracted by deploy/z2jh/extract_schema_keys.py. '.*' = free-form keys."]
    with open(__file__.rsplit("/", 1)[0] + "/schema_keys.txt", "w") as f:
        f.write("\n".join(header + paths) + "\n")
    print(f"{len(paths)} key paths")


if __name__ == "__main__":
    main(*sys.argv[1:3])
