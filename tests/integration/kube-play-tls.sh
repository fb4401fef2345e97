#!/usr/bin/env bash
# kube-play-tls.sh: the Kubernetes deployment of contrib/kubernetes/, run
# for real with podman 4.3's `kube play` (../shared/reference/runtimes-
# here.md): two nodes on this host (node-a, node-b: a directory each), on
# each a launcher pod of vm1 from launcher-pod.yaml (tests/kube-play.py
# says what a single host changes), each node's /run/qmigrate made by the
# node agent's init command from node-agent-daemonset.yaml, each node's
# certificate in kubelet's Secret layout (tests/k8s-volume.sh, fsGroup 107).
# The test is the node agent: it execs `qmigrate incoming --listen tls:`
# into the target's pod and `qmigrate migrate --to tls:` into the source's
# (podman exec, as `kubectl exec`), each pinning the other node's name.
# The memory guest arrives with every page intact; each node's status
# file, where the node's exporter reads it, says Succeeded.
# Skips, saying why, where podman cannot run containers (no podman, no
# runc: crun refuses this machine's hybrid cgroups, no catatonit, no
# PyYAML).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/k8s-volume.sh"
skip() {
	echo "SKIP: $*"
	exit 77
}
command -v podman >/dev/null || skip "no podman (apt-get install podman)"
command -v runc >/dev/null ||
	skip "no runc (apt-get install runc): podman's crun refuses hybrid cgroups here"
command -v catatonit >/dev/null || [ -x /usr/libexec/podman/catatonit ] ||
	skip "no catatonit (apt-get install catatonit): kube play builds its pause image from it"
python3 -c 'import yaml' 2>/dev/null || skip "no PyYAML (python3-yaml) for tests/kube-play.py"
need_file "$MEMGUEST_ELF" "memguest"
setup_tmp
chmod 0711 "$TMP"
kube=$top_srcdir/contrib/kubernetes
id=$$-$RANDOM
image=localhost/qmigrate-kube-test:$id
pods=()

# podman's limits must fit this machine's (no CAP_SYS_RESOURCE), and runc.
cat >"$TMP/containers.conf" <<EOC
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
EOC
export CONTAINERS_CONF=$TMP/containers.conf
kube_cleanup() {
	local p
	for p in "${pods[@]}"; do
		podman pod rm -f -t 0 "$p" >/dev/null 2>&1 || true
	done
	podman volume rm -f qmigrate-policies >/dev/null 2>&1 || true
	podman rmi -f "$image" >/dev/null 2>&1 || true
}
lib_on_exit kube_cleanup

# The image: this build's qmigrate, this host's QEMU and firmware, a shell
# and what the manifests run, with their libraries (no registry, no
# network).
img=$TMP/image
mkdir -p "$img/usr/bin" "$img/bin" "$img/usr/share" "$img/etc" "$img/lib64"
progs=("$QMIGRATE" "$(command -v qemu-system-x86_64)" /bin/dash)
for b in sleep cat ls install chown chmod id touch; do
	progs+=("$(command -v "$b")")
done
cp "$QMIGRATE" "$img/usr/bin/qmigrate"
for p in "${progs[@]:1}"; do
	cp "$p" "$img/usr/bin/"
done
ln -s /usr/bin/dash "$img/bin/sh"
for l in $(ldd "${progs[@]}" | awk '/=>/ { print $3 }' | sort -u); do
	mkdir -p "$img$(dirname "$l")"
	cp -L "$l" "$img$l"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$img/lib64/"
# QEMU's modules (TCG's accelerator is one in Debian's build), and theirs.
qmods=/usr/lib/x86_64-linux-gnu/qemu
if [ -d "$qmods" ]; then
	mkdir -p "$img$qmods"
	cp -L "$qmods"/accel-*.so "$img$qmods/"
	for l in $(ldd "$qmods"/accel-*.so | awk '/=>/ { print $3 }' | sort -u); do
		[ -e "$img$l" ] && continue
		mkdir -p "$img$(dirname "$l")"
		cp -L "$l" "$img$l"
	done
fi
cp -rL /usr/share/qemu /usr/share/seabios "$img/usr/share/"
printf 'root:x:0:0::/:/bin/sh\nqemu:x:107:107::/:/bin/sh\n' >"$img/etc/passwd"
printf 'root:x:0:\nqemu:x:107:\n' >"$img/etc/group"
tar -C "$img" -cf - . | podman import --quiet --change 'ENV PATH=/usr/bin:/bin' \
	--change 'CMD ["/bin/sh"]' - "$image" >/dev/null || fail "podman import of the test image"
podman run --rm --network none "$image" qmigrate --version >/dev/null 2>"$TMP/podman-run.err" ||
	skip "podman cannot run a container here: $(tail -n 1 "$TMP/podman-run.err")"

make_pki node-a node-b
# node_up NODE: NODE's directories: its /run/qmigrate as the node agent's
# init container makes it (the manifest's command, its user and
# capabilities), its Secret as kubelet projects it with fsGroup 107, the
# VM's serial log.
node_up() {
	local n=$1 d=$TMP/$1 cmd
	mkdir -p "$d/run" "$d/log"
	chmod 0777 "$d/log"	# QEMU (uid 107) writes the serial file
	cmd=$(python3 -c 'import sys, yaml
d = next(yaml.safe_load_all(open(sys.argv[1])))
c = d["spec"]["template"]["spec"]["initContainers"][0]
print(c["command"][2])' "$kube/node-agent-daemonset.yaml") || fail "no init command"
	podman run --rm --network none --user 0 --cap-drop ALL --cap-add CHOWN,FSETID \
		--read-only -v "$d/run:/run/qmigrate" "$image" sh -c "$cmd" ||
		fail "$n: the node agent's init command failed: $cmd"
	k8s_volume "$d/tls" -m 0400 -g 107 ca.pem="$TMP/pki/$n/ca.pem" \
		cert.pem="$TMP/pki/$n/cert.pem" key.pem="$TMP/pki/$n/key.pem"
	chmod 1777 "$d/tls"
}
node_up node-a
node_up node-b
got=$(stat -c '%a %u:%g' "$TMP/node-a/run/vms")
[ "$got" = "2770 0:107" ] || fail "node-a's /run/qmigrate/vms is $got, expected 2770 0:107"

# launcher POD NODE [QEMU-ARGS...]: vm1's launcher pod on NODE, played.
mib=32
memguest_args "$mib" 20
launcher() {
	local pod=$1 n=$2 a args=()
	shift 2
	for a in "${MEMGUEST_ARGS[@]}" "$@"; do
		[ "$a" = "$MEMGUEST_ELF" ] && a=/guest/memguest.elf
		args+=("$a")
	done
	install -d -o 107 -g 107 -m 0700 "$TMP/$pod"
	python3 "$top_srcdir/tests/kube-play.py" "$kube/launcher-pod.yaml" \
		"$TMP/$pod.yaml" "$pod" "$n" "$image" "$TMP/$n/run" "$TMP/$pod" "$TMP/$n/tls" \
		"$(dirname "$MEMGUEST_ELF")" "$TMP/$n/log" "${args[@]}" ||
		fail "tests/kube-play.py $pod"
	pods+=("$pod")
	podman kube play --configmap "$kube/policies-configmap.yaml" \
		"$TMP/$pod.yaml" >"$TMP/$pod.play" 2>&1 ||
		fail "podman kube play $pod: $(cat "$TMP/$pod.play")"
	wait_for 30 "$pod's QEMU monitor for the exporter" test -S "$TMP/$n/run/vms/vm1.qmp"
}
launcher vm1-src node-a
launcher vm1-dst node-b -incoming defer
# guest_ready: the source's guest is up; a QEMU container that ended
# fails the test at once, with its log.
guest_ready() {
	local p st
	for p in vm1-src vm1-dst; do
		st=$(podman inspect -f '{{.State.Status}}' "$p-qemu" 2>&1)
		[ "$st" = running ] || fail "$p's QEMU container is $st: $(podman logs "$p-qemu" 2>&1 | tail -n 3)"
	done
	grep -q '^memguest: ready ' "$TMP/node-a/log/serial"
}
wait_for "$MEMGUEST_BOOT_TIMEOUT" "the guest on node-a" guest_ready
# The read-only roots hold: nothing but the mounts is writable.
podman exec vm1-src-qmigrate sh -c 'touch /x' 2>/dev/null &&
	fail "the qmigrate container's root is writable"
[ "$(podman exec vm1-src-qmigrate id -u)" = 107 ] || fail "qmigrate does not run as uid 107"

# The node agent: incoming on the target node, then migrate on the source.
port=$((20000 + RANDOM % 20000))
bg_start incoming podman exec vm1-dst-qmigrate qmigrate incoming \
	--qmp /run/vm/migrate.qmp --listen "tls:127.0.0.1:$port" --tls-name node-a \
	--status-file /run/qmigrate/vms/vm1.status
wait_log "$TMP/incoming.err" "listening for the source" 30
bg_start migrate podman exec vm1-src-qmigrate qmigrate migrate \
	--qmp /run/vm/migrate.qmp --to "tls:127.0.0.1:$port" --tls-name node-b \
	--slot-dir /run/qmigrate/slots --status-file /run/qmigrate/vms/vm1.status
expect_exit migrate 0 180
expect_exit incoming 0 60
for n in node-a node-b; do
	expect_status "$TMP/$n/run/vms/vm1.status" .phase Succeeded "$n's status file"
done
expect_status "$TMP/node-b/run/vms/vm1.status" .targetNode node-b "the target's status"
assert_memory_intact "$TMP/node-b/log/serial" "" $((mib * 256))
assert_no_corrupt "$TMP/node-a/log/serial"
echo "ok: two launcher pods (podman kube play) migrated vm1 over tls: from node-a to node-b, each side exec'd by the node agent, every page intact"
