#!/usr/bin/env bash
# contrib/deb-test.sh: the Debian package, from a clean clone to a live
# migration with the installed binary.  Run it from a build tree:
#
#	make check-deb
#
# 1. git clone of the source tree's HEAD (committed work only).
# 2. dpkg-buildpackage -us -uc (the binary package of -b, and the source
#    package for lintian) in a throwaway build chroot (mmdebstrap
#    --variant=buildd plus the Build-Depends), as an unprivileged user with
#    no network but loopback, as a Debian buildd builds: the package's
#    dh_auto_test runs there, the real-QEMU tests reported SKIP
#    (--disable-qemu-tests, README).
# 3. lintian on both packages: no error, and no warning that debian/ does
#    not override.
# 4. The .deb installed into a throwaway root (mmdebstrap --variant=apt,
#    plus systemd and man-db for systemd-analyze): qmigrate --version, the
#    files and modes of the package, policy check and explain of the
#    installed example policies (both shapes), bash completion, the
#    exporter's unit (systemd-analyze verify clean, not enabled), and an
#    operator's files in /etc/qmigrate kept through a reinstall and a
#    removal; the group qmigrate and /run/qmigrate/vms (sysusers.d,
#    tmpfiles.d).
# 5. A live migration between two real QEMUs on this host (the memory guest
#    of tests/guest), driven by the installed qmigrate inside the root over
#    TLS, the source's certificate in the installed /etc/qmigrate/tls; the
#    guest's memory is checked on the target.
# 6. The same root booted with systemd as PID 1 (systemd-nspawn -b, no
#    host systemd: --register=no --keep-unit, nsenter for systemctl, as
#    ../shared/reference/runtimes-here.md shows): qmigrate-exporter.service
#    started with systemctl under every hardening line of the unit, up and
#    not restarting, and this host's Prometheus scrapes its /metrics.  Only
#    the port is changed, by a drop-in (9788 may be taken on this host: the
#    container shares its network).
#
# Needs root, a Debian mirror (DEB_TEST_MIRROR, default deb.debian.org),
# about 1 GB in DEB_TEST_TMPDIR (default /var/tmp: /tmp may be a small
# tmpfs) and 10 minutes.  KEEP_TMP=1 keeps the roots.
set -eu -o pipefail

# Every mount below lives in a private mount namespace: none outlives us.
if [ -z "${DEB_TEST_NS:-}" ]; then
	[ "$(id -u)" -eq 0 ] || { echo "FAIL: deb-test.sh needs root (mmdebstrap, chroot, mounts)" >&2; exit 1; }
	DEB_TEST_NS=1 exec unshare --mount --propagation private "$BASH" "$0" "$@"
fi

. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd git mmdebstrap lintian chroot unshare ip openssl "$QEMU"
need_file "$MEMGUEST_ELF" "memguest"
git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1 ||
	fail "$top_srcdir is not a git checkout: the package is built from a clean clone of it"
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
mirror=(${DEB_TEST_MIRROR:+"$DEB_TEST_MIRROR"})
TMPDIR=${DEB_TEST_TMPDIR:-/var/tmp}
setup_tmp
# The clone and the build chroot hold the source tree's own documents
# (fuzz corpus, traces), not this test's; the build's tests checked theirs.
status_schema_prune "$TMP/src" "$TMP/build-root"

# Mounts are undone before lib.sh removes $TMP; if one stays, $TMP stays.
_mounts=()
lib_on_exit deb_umount
deb_umount() {
	local m left
	for m in "${_mounts[@]}"; do
		umount -l "$m" 2>/dev/null || true
	done
	left=$(findmnt -rn -o TARGET | grep -F "$TMP/") || true
	if [ -n "$left" ]; then
		echo "deb-test.sh: mounts under $TMP remain, keeping it:" $left >&2
		KEEP_TMP=1
	fi
}
# mount_in ROOT: /proc inside ROOT (qmigrate and the tests read it).
mount_in() {
	mount -t proc proc "$1/proc"
	_mounts+=("$1/proc")
}

# step TEXT: one line per step, so a failure says where it happened.
step() {
	echo "== $*"
}

# 1. A clean clone.
step "clone $(git -C "$top_srcdir" rev-parse --short HEAD) of $top_srcdir"
git clone -q "$top_srcdir" "$TMP/src"
version=$(cd "$TMP/src" && dpkg-parsechangelog -SVersion)
upstream=${version%-*}
configure_version=$(sed -n 's/^AC_INIT(\[qmigrate\], \[\([^]]*\)\].*/\1/p' "$TMP/src/configure.ac")
[ "$upstream" = "$configure_version" ] ||
	fail "debian/changelog is at $version but configure.ac at $configure_version: add a changelog entry"

# 2. The build chroot: build-essential, the Build-Depends, a user.
step "build chroot ($suite, buildd variant, Build-Depends)"
broot=$TMP/build-root
export DEB_TEST_SRC=$TMP/src
mmdebstrap --quiet --variant=buildd \
	--customize-hook='mkdir "$1/build" && cp -a "$DEB_TEST_SRC" "$1/build/qmigrate"' \
	--customize-hook='chroot "$1" apt-get -q -y --no-install-recommends build-dep /build/qmigrate' \
	--customize-hook='chroot "$1" useradd --create-home builder && chroot "$1" chown -R builder: /build' \
	"$suite" "$broot" "${mirror[@]}" >"$TMP/build-root.log" 2>&1 ||
	fail "mmdebstrap of the build chroot failed: $(tail -n 20 "$TMP/build-root.log")"

step "dpkg-buildpackage -us -uc as an unprivileged user, loopback only"
mount_in "$broot"
unshare --net -- sh -c 'ip link set lo up && exec chroot --userspec=builder:builder "$1" \
	env -i HOME=/home/builder PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
	sh -c "cd /build/qmigrate && dpkg-buildpackage -us -uc"' sh "$broot" \
	>"$TMP/build.log" 2>&1 || {
	# The failed tests' logs (dh_auto_test prints test-suite.log), or the end.
	grep -A 60 -E '^(FAIL|ERROR): ' "$TMP/build.log" >&2 ||
		tail -n 40 "$TMP/build.log" >&2 || true
	fail "the package build failed (above)"
}
grep -E '^# (TOTAL|PASS|SKIP|FAIL|ERROR|XPASS):' "$TMP/build.log" | sed 's/^/   dh_auto_test /'
grep -q '^# PASS: *[1-9]' "$TMP/build.log" || fail "dh_auto_test ran no test (build.log)"
deb=$broot/build/qmigrate_${version}_$(dpkg --print-architecture).deb
changes=$broot/build/qmigrate_${version}_$(dpkg --print-architecture).changes
need_file "$deb" "the built package"

# 3. lintian: errors and unexplained warnings fail; the rest is shown.
step "lintian"
lintian --display-info --fail-on error,warning "$changes" >"$TMP/lintian.out" 2>&1 ||
	fail "lintian: $(cat "$TMP/lintian.out")"
sed 's/^/   /' "$TMP/lintian.out"
echo "   lintian: no error, no unexplained warning"

# 4. The installed package.
step "install root ($suite, apt variant, systemd, man-db, $(basename "$deb"))"
root=$TMP/root
mmdebstrap --quiet --variant=apt \
	--hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
	--include=systemd,man-db --include="$deb" \
	"$suite" "$root" "${mirror[@]}" >"$TMP/root.log" 2>&1 ||
	fail "mmdebstrap of the install root failed: $(tail -n 20 "$TMP/root.log")"
mount_in "$root"
in_root() {
	chroot "$root" "$@"
}

got=$(in_root qmigrate --version)
[ "$got" = "qmigrate $upstream" ] || fail "qmigrate --version said \"$got\", expected \"qmigrate $upstream\""
echo "   $got"

for f in /usr/bin/qmigrate /usr/share/man/man1/qmigrate.1.gz \
	/usr/share/man/man5/qmigrate-status.5.gz /usr/share/man/man5/qmigrate-policy.5.gz \
	/usr/share/man/man7/qmigrate-metrics.7.gz /usr/share/qmigrate/qmigrate-status.schema.json \
	/usr/share/bash-completion/completions/qmigrate \
	/lib/systemd/system/qmigrate-exporter.service \
	/usr/share/doc/qmigrate/examples/make-certs.sh \
	/usr/share/doc/qmigrate/examples/prometheus-alerts.yml \
	/usr/share/doc/qmigrate/examples/kubernetes/node-agent-daemonset.yaml \
	/usr/lib/sysusers.d/qmigrate.conf /usr/lib/tmpfiles.d/qmigrate.conf; do
	in_root dpkg -S "$f" >/dev/null 2>&1 || fail "$f is not in the package"
done
# mode_is PATH MODE: PATH in the root is a root-owned directory of MODE.
mode_is() {
	local got
	got=$(stat -c '%F %a %U:%G' "$root$1")
	[ "$got" = "directory $2 root:root" ] || fail "$1 is \"$got\", expected directory $2 root:root"
}
in_root getent group qmigrate >/dev/null || fail "the package made no group qmigrate (sysusers.d)"
mode_is /etc/qmigrate/policies.d 755
mode_is /etc/qmigrate/tls 700
[ -z "$(in_root dpkg-query -W -f='${Conffiles}' qmigrate)" ] ||
	fail "the package ships conffiles; this test expects /etc/qmigrate to hold only the operator's files"
in_root man -w qmigrate >/dev/null || fail "man cannot find qmigrate(1)"
in_root bash -c '. /usr/share/bash-completion/completions/qmigrate && complete -p qmigrate' \
	>/dev/null || fail "the bash completion registers nothing for qmigrate"

# same_as_source ARGS...: the installed qmigrate, run in the installed
# examples directory, says exactly what this build's qmigrate says in the
# clone (where the examples are policies/...), and succeeds.
same_as_source() {
	local want got
	want=$(cd "$TMP/src" && "$top_builddir/qmigrate" "$@" 2>&1) ||
		fail "qmigrate $* in the source tree: $want"
	got=$(in_root sh -c 'cd /usr/share/doc/qmigrate/examples && exec qmigrate "$@"' \
		sh "$@" 2>&1) || fail "installed qmigrate $*: $got"
	[ "$got" = "$want" ] || fail "installed qmigrate $* said \"$got\", the source tree's \"$want\""
	echo "   $*: $(head -n 1 <<<"$got")"
}
same_as_source policy check policies
same_as_source policy check policies/kubevirt
same_as_source policy explain --policy policies/kubevirt --vmi policies/vmi/database.yaml

in_root systemd-analyze verify /lib/systemd/system/qmigrate-exporter.service \
	>"$TMP/verify.out" 2>&1 || fail "systemd-analyze verify: $(cat "$TMP/verify.out")"
[ ! -s "$TMP/verify.out" ] || fail "systemd-analyze verify is not clean: $(cat "$TMP/verify.out")"
got=$(in_root systemctl is-enabled qmigrate-exporter.service 2>&1) || true
[ "$got" = disabled ] || fail "qmigrate-exporter.service is \"$got\", expected disabled until configured"
echo "   qmigrate-exporter.service: systemd-analyze verify clean, $got"
# An upgrade must not leave an operator's running exporter stopped.  No
# systemd runs in the root, so the maintainer scripts are read instead: no
# stop before unpacking (preinst), a try-restart after it (postinst).
info=$root/var/lib/dpkg/info
! grep -qs 'deb-systemd-invoke stop' "$info/qmigrate.preinst" ||
	fail "qmigrate.preinst stops the exporter on upgrade: $(cat "$info/qmigrate.preinst")"
grep -q "deb-systemd-invoke try-restart 'qmigrate-exporter.service'" "$info/qmigrate.postinst" ||
	fail "qmigrate.postinst does not restart a running exporter after an upgrade"
echo "   qmigrate-exporter.service: an upgrade restarts it if it runs, never stops it for good"

# The operator's files: a policy (the shipped default, as an operator
# starts) and the node's TLS identity, which the source side of the
# migration below reads from the default --tls-dir.
sh "$root/usr/share/doc/qmigrate/examples/make-certs.sh" "$TMP/pki" src dst >/dev/null
cp "$TMP/pki/src/ca.pem" "$TMP/pki/src/cert.pem" "$TMP/pki/src/key.pem" "$root/etc/qmigrate/tls/"
cp "$root/usr/share/doc/qmigrate/examples/policies/default.json" "$root/etc/qmigrate/policies.d/"
sums() {
	(cd "$root/etc/qmigrate" && sha256sum policies.d/* tls/*)
}
before=$(sums)
cp "$deb" "$root/tmp/"
in_root dpkg -i "/tmp/$(basename "$deb")" >"$TMP/dpkg.log" 2>&1 || fail "reinstall: $(cat "$TMP/dpkg.log")"
[ "$(sums)" = "$before" ] || fail "a reinstall changed the operator's files in /etc/qmigrate"
mode_is /etc/qmigrate/tls 700
in_root dpkg -r qmigrate >"$TMP/dpkg.log" 2>&1 || fail "remove: $(cat "$TMP/dpkg.log")"
[ ! -e "$root/usr/bin/qmigrate" ] || fail "dpkg -r left /usr/bin/qmigrate"
[ "$(sums)" = "$before" ] || fail "dpkg -r touched the operator's files in /etc/qmigrate"
in_root dpkg -i "/tmp/$(basename "$deb")" >"$TMP/dpkg.log" 2>&1 || fail "install again: $(cat "$TMP/dpkg.log")"
[ "$(sums)" = "$before" ] || fail "installing again changed the operator's files in /etc/qmigrate"
echo "   /etc/qmigrate: the operator's files kept through reinstall, removal and install"

# 5. A live migration by the installed binary.  QEMU runs on this host,
# qmigrate inside the root, which sees $TMP (the sockets) at the same path.
step "live migration: two real QEMUs, the installed qmigrate, TLS"
mkdir -p "$root$TMP"
mount --bind "$TMP" "$root$TMP"
_mounts=("$root$TMP" "${_mounts[@]}")
# TMPDIR: qmigrate makes the private directory of QEMU's proxy socket
# there, which QEMU on this host must see at the same path.
printf '#!/bin/sh\nexec chroot "%s" env TMPDIR="%s" /usr/bin/qmigrate "$@"\n' \
	"$root" "$TMP" >"$TMP/qmigrate-in-root"
chmod +x "$TMP/qmigrate-in-root"
QMIGRATE=$TMP/qmigrate-in-root

mig_start_pair 64 20
port=$((20000 + RANDOM % 20000))
bg_start incoming "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
	--status-file "$TMP/dst.status"
wait_for 30 "the target listening" grep -q "listening for the source" "$TMP/incoming.err"
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" --to "tls:127.0.0.1:$port" \
	--tls-name dst --policy /etc/qmigrate/policies.d --status-file "$TMP/src.status"
expect_exit migrate 0 120
expect_exit incoming 0 60
status_is "$TMP/src.status" .phase Succeeded || fail "source status: $(cat "$TMP/src.status")"
status_is "$TMP/dst.status" .phase Succeeded || fail "target status: $(cat "$TMP/dst.status")"
assert_moved
echo "   migrated over TLS; every page intact on the target ($(last_progress "$TMP/dst.serial"))"

# 6. systemd as PID 1 in the root, the exporter's unit for real.
step "systemd-nspawn -b: qmigrate-exporter.service started by systemctl, scraped by Prometheus"
need_cmd systemd-nspawn nsenter prometheus curl
for m in "$root$TMP" "$root/proc"; do
	umount "$m" || fail "cannot unmount $m before booting the root"
done
# Only these two: the build root's /proc stays in the list, unmounted at
# the exit (forgetting it left $TMP, ~900 MB, behind on every run).
_mounts=("$broot/proc")
xport=$((20000 + RANDOM % 20000))
mkdir -p "$root/etc/systemd/system/qmigrate-exporter.service.d"
printf '[Service]\nExecStart=\nExecStart=/usr/bin/qmigrate exporter --listen 127.0.0.1:%s --vm-dir /run/qmigrate/vms --node %%H\n' \
	"$xport" >"$root/etc/systemd/system/qmigrate-exporter.service.d/port.conf"
machine=qmt-deb-$$
setsid systemd-nspawn -q -D "$root" -M "$machine" -b --console=pipe \
	--register=no --keep-unit </dev/null >"$TMP/nspawn.log" 2>&1 &
nspawn_pid=$!
leader=
nspawn_stop() {
	if [ -n "$leader" ]; then nsenter -t "$leader" -a systemctl poweroff 2>/dev/null || true; fi
	timeout 20 tail --pid="$nspawn_pid" -f /dev/null 2>/dev/null ||
		kill -KILL "$nspawn_pid" 2>/dev/null || true
	rmdir "/run/systemd/nspawn/propagate/$machine" 2>/dev/null || true
}
lib_on_exit nspawn_stop
nspawn_leader() {
	leader=$(pgrep -P "$nspawn_pid" -x systemd) && [ -n "$leader" ]
}
wait_for 30 "systemd to start in the root" nspawn_leader
in_boot() {
	nsenter -t "$leader" -a "$@"
}
booted() {
	local st
	st=$(in_boot systemctl is-system-running 2>/dev/null) || true
	[ "$st" = running ] || [ "$st" = degraded ]
}
wait_for 60 "the root to finish booting" booted
gid=$(in_boot getent group qmigrate | cut -d: -f3)
got=$(stat -c '%a %u:%g' "/proc/$leader/root/run/qmigrate/vms" 2>&1) || true
[ "$got" = "2770 0:$gid" ] || fail "/run/qmigrate/vms in the booted root: $got, expected 2770 root:qmigrate (0:$gid)"
in_boot systemctl start qmigrate-exporter.service ||
	fail "systemctl start: $(in_boot journalctl -o cat -u qmigrate-exporter.service | tail -n 5)"
exporter_up() {
	curl -sf --max-time 2 "http://127.0.0.1:$xport/metrics" >"$TMP/exporter.metrics"
}
wait_for 20 "the exporter's /metrics" exporter_up
grep -q '^qmigrate_exporter_vms{node="' "$TMP/exporter.metrics" ||
	fail "no qmigrate_exporter_vms in /metrics: $(head -n 5 "$TMP/exporter.metrics")"
cat >"$TMP/prometheus.yml" <<EOP
global: { scrape_interval: 1s, evaluation_interval: 1s }
scrape_configs:
  - job_name: qmigrate
    static_configs: [ { targets: ["127.0.0.1:$xport"] } ]
EOP
pport=$((xport + 1))
bg_start prometheus prometheus --config.file="$TMP/prometheus.yml" \
	--storage.tsdb.path="$TMP/prom-data" --web.listen-address="127.0.0.1:$pport"
prom_has() {
	curl -sf --max-time 2 --get --data-urlencode 'query=qmigrate_exporter_vms' \
		"http://127.0.0.1:$pport/api/v1/query" |
		jq -e '.data.result | length == 1' >/dev/null
}
wait_for 60 "Prometheus to scrape the exporter" prom_has
up=$(curl -sf --get --data-urlencode 'query=up{job="qmigrate"}' \
	"http://127.0.0.1:$pport/api/v1/query" | jq -r '.data.result[0].value[1]')
[ "$up" = 1 ] || fail "Prometheus: up{job=qmigrate} is $up"
state=
for p in ActiveState SubState NRestarts ExecMainStatus; do
	state+="$p=$(in_boot systemctl show -P "$p" qmigrate-exporter.service) "
done
[ "$state" = "ActiveState=active SubState=running NRestarts=0 ExecMainStatus=0 " ] ||
	fail "qmigrate-exporter.service: $state"
mainpid=$(in_boot systemctl show -P MainPID qmigrate-exporter.service)
sandbox=$(in_boot grep -E '^(CapBnd|NoNewPrivs|Seccomp):' "/proc/$mainpid/status" | tr -s '\t\n' '  ')
case $sandbox in
*"CapBnd: 0000000000000000"*"NoNewPrivs: 1"*"Seccomp: 2"*) ;;
*) fail "the exporter runs without its sandbox: $sandbox" ;;
esac
echo "   qmigrate-exporter.service: $state; $sandbox; Prometheus: up=1"
# SIGRTMIN+4 is systemd's own poweroff request (systemd(1), SIGNALS):
# systemctl poweroff asks logind over D-Bus first, which the root lacks,
# and printed "Failed to connect to bus" before falling back.
kill -s SIGRTMIN+4 "$leader" || true
timeout 30 tail --pid="$nspawn_pid" -f /dev/null || fail "the root did not power off"
leader=
echo "ok: $(basename "$deb") builds in a chroot, is lintian-clean, installs, migrates a guest, and its exporter runs under systemd"

