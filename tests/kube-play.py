#!/usr/bin/env python3
"""tests/kube-play.py: contrib/kubernetes/launcher-pod.yaml made playable by
podman 4.3's `kube play` on one host standing for one node, for
tests/integration/kube-play-tls.sh.  Everything the manifest decides is
kept: both containers, their users and groups, read-only roots, dropped
capabilities, the pod's own /run/vm (emptyDir) and TMPDIR, the node's
/run/qmigrate (hostPath), the policies (ConfigMap).  What changes, and why:
  - the pod's name and image (the test's, built from this build);
  - the Secret becomes a hostPath of the test's kubelet-layout directory
    (tests/k8s-volume.sh): podman 4.3 writes Secret volumes as plain 0644
    files, still base64-encoded, with no ..data (runtimes-here.md);
  - the node's hostPath points at this "node"'s directory;
  - the pod's emptyDir becomes a hostPath of its own (POD_DIR, uid 107
    0700, as kubelet's emptyDir is the pod's alone): podman 4.3 plays an
    emptyDir as a volume named after it, which two pods of one host share
    (the second QEMU's migrate.qmp replaced the first's);
  - hostNetwork: the two pods talk over the host's loopback (the test's
    network has no pod IPs); ports go (podman refuses them there);
  - nodeName goes (one host), and the env of fieldRefs becomes plain
    values (podman 4.3 knows only a few fieldPaths); restartPolicy stays;
  - QEMU runs the memory guest instead of the disk VM: the manifest's own
    -qmp monitors are kept, the machine options are the test's, the disk
    (a PVC) goes, the serial port goes to a file the test reads.
usage: kube-play.py MANIFEST OUT POD NODE IMAGE NODE_DIR POD_DIR TLS_DIR GUEST_DIR LOG_DIR QEMU_ARG...
"""
import sys
import yaml

(src, out, pod, node, image, node_dir, pod_dir, tls_dir, guest_dir,
 log_dir) = sys.argv[1:11]
machine = sys.argv[11:]
fields = {"spec.nodeName": node, "metadata.name": pod}
with open(src) as f:
    doc = yaml.safe_load(f)
spec = doc["spec"]
doc["metadata"]["name"] = pod
spec.pop("nodeName", None)
spec["hostNetwork"] = True
vols = {v["name"]: v for v in spec["volumes"]}
vols["node"]["hostPath"]["path"] = node_dir
del vols["vm"]["emptyDir"]
vols["vm"]["hostPath"] = {"path": pod_dir, "type": "Directory"}
del vols["tls"]["secret"]
vols["tls"]["hostPath"] = {"path": tls_dir, "type": "Directory"}
del vols["disk"]
spec["volumes"] = [v for v in spec["volumes"] if v["name"] != "disk"]
spec["volumes"] += [
    {"name": "guest", "hostPath": {"path": guest_dir, "type": "Directory"}},
    {"name": "log", "hostPath": {"path": log_dir, "type": "Directory"}},
]
for c in spec["containers"]:
    c["image"] = image
    c.pop("ports", None)
    for e in c.get("env", []):
        if "valueFrom" in e:
            e["value"] = fields[e.pop("valueFrom")["fieldRef"]["fieldPath"]]
    c["volumeMounts"] = [m for m in c["volumeMounts"] if m["name"] != "disk"]
    if c["name"] == "qemu":
        args, keep = c["args"], []
        for i, a in enumerate(args):
            if a == "-qmp":
                keep += [a, args[i + 1]]
        c["args"] = machine + ["-serial", "file:/var/log/vm/serial"] + keep
        c["volumeMounts"] += [
            {"name": "guest", "mountPath": "/guest", "readOnly": True},
            {"name": "log", "mountPath": "/var/log/vm"},
        ]
with open(out, "w") as f:
    yaml.safe_dump(doc, f, sort_keys=False)
