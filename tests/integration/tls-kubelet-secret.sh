#!/usr/bin/env bash
# tls-kubelet-secret.sh: TLS from a Secret volume as kubelet lays it out
# (tests/k8s-volume.sh: key.pem -> ..data/key.pem, ..data -> ..VERSION),
# read by the proxy as the launcher pod's QEMU user (uid 107) reads it:
#  - with the pod's fsGroup (files root:107 0440, the process in group
#    107): it loads, and a transfer arrives intact;
#  - without fsGroup (root's 0400): refused, the line names the file and
#    says to set fsGroup;
#  - a key others may read (0444), or group-readable by a group that is
#    not the process's: refused;
#  - links that leave the directory (key.pem -> elsewhere without
#    kubelet's layout, ..data -> ../elsewhere): refused;
#  - a rotated Secret (a new ..data): the next process serves the new
#    certificate, without touching the one already running (which keeps
#    what it loaded: proxy/README.md says so);
#  - the exporter (--tls-dir) reports the seconds left on the certificate,
#    the rotated one at its next reading.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/proxy-lib.sh"
. "$top_srcdir/tests/k8s-volume.sh"
need_cmd setpriv
setup_tmp
chmod 0711 "$TMP"
make_pki source target target-new
pki=$TMP/pki
secret() {	# secret NAME: the KEY=FILE list of node NAME's Secret
	echo "ca.pem=$pki/$1/ca.pem cert.pem=$pki/$1/cert.pem key.pem=$pki/$1/key.pem"
}
as_qemu=(setpriv --reuid=107 --regid=107 --groups=107 --)
install -d -o 107 -g 107 -m 0750 "$TMP/run"

# refused NAME REGEX TLS-DIR [RUNNER...]: a target proxy on TLS-DIR exits 1
# within 10 s with one line matching REGEX.
refused() {
	local name=$1 re=$2 dir=$3 rc=0
	shift 3
	timeout 10 "$@" "$QMIGRATE" proxy target --listen tls:127.0.0.1:0 \
		--to "unix:$TMP/run/none.sock" --tls-dir "$dir" \
		>/dev/null 2>"$TMP/$name.err" || rc=$?
	[ "$rc" -eq 1 ] || fail "$name: exit $rc, expected 1: $(cat "$TMP/$name.err")"
	[ "$(wc -l <"$TMP/$name.err")" -eq 1 ] || fail "$name: not one line: $(cat "$TMP/$name.err")"
	grep -Eq -- "$re" "$TMP/$name.err" || fail "$name: $(cat "$TMP/$name.err"), expected /$re/"
	echo "ok: $name: $(cat "$TMP/$name.err")"
}

# 1. kubelet with fsGroup 107, read by uid 107: loads, carries a transfer.
# shellcheck disable=SC2046
k8s_volume "$TMP/tls" -m 0400 -g 107 $(secret target)
chmod 1777 "$TMP/tls"
[ -L "$TMP/tls/key.pem" ] && [ "$(stat -c %a "$TMP/tls/..data/key.pem")" = 440 ] ||
	fail "k8s_volume did not make kubelet's layout: $(ls -la "$TMP/tls" "$TMP/tls/..data/")"
bg_start sink "${as_qemu[@]}" "$PEER" sink "$TMP/run/sink.sock" "$TMP/run" 2
wait_for 10 "the sink" test -S "$TMP/run/sink.sock"
bg_start tgt "${as_qemu[@]}" "$QMIGRATE" -v proxy target --listen tls:127.0.0.1:0 \
	--to "unix:$TMP/run/sink.sock" --tls-dir "$TMP/tls"
wait_log "$TMP/tgt.err" 'target: listening on .*\(port [0-9]+\)' 10
port=$(sed -n 's/.*target: listening on .*(port \([0-9]*\)).*/\1/p' "$TMP/tgt.err" | head -n 1)
start_source src "$TMP/src.sock" "$port" --tls-dir "$pki/source" --tls-name target
"$PEER" send "$TMP/src.sock" first 1048576 >"$TMP/first.send" || fail "transfer through the Secret's TLS failed"
wait_for 10 "the first transfer at the sink" test -s "$TMP/run/0"
sent=$(awk '{ sub(/,$/, "", $4); print $3, $4 }' "$TMP/first.send")
got=$(awk '{ print $2, $3 }' "$TMP/run/0")
[ "$sent" = "$got" ] || fail "the sink got \"$got\", the sender sent \"$sent\""
echo "ok: uid 107 with fsGroup loads kubelet's layout (root:107 0440, links through ..data); 1 MiB arrived intact"

# 2. Without fsGroup: root's 0400, which uid 107 cannot read.
# shellcheck disable=SC2046
k8s_volume "$TMP/nofsgroup" -m 0400 $(secret target)
refused no-fsgroup "--tls-dir $TMP/nofsgroup/\.\.[0-9_]+\.[0-9]+/ca\.pem: Permission denied \(in Kubernetes, set the pod's securityContext\.fsGroup" \
	"$TMP/nofsgroup" "${as_qemu[@]}"

# 3. Modes: others may read; a group that is not the process's.
# shellcheck disable=SC2046
k8s_volume "$TMP/world" -m 0444 $(secret target)
refused world-readable "key\.pem: mode 0444 lets group or others access the private key" "$TMP/world"
# shellcheck disable=SC2046
k8s_volume "$TMP/othergroup" -m 0400 -g 4242 $(secret target)
refused other-group "key\.pem: mode 0440 lets group 4242 read the private key, which is not a group of this process" \
	"$TMP/othergroup"

# 4. Links out of the directory.
mkdir "$TMP/outside" "$TMP/elsewhere"
cp "$pki/target/ca.pem" "$pki/target/cert.pem" "$TMP/outside/"
ln -s "$pki/target/key.pem" "$TMP/outside/key.pem"
refused link-out "outside/key\.pem: a symbolic link \(links are followed only in kubelet's layout, through \.\.data\)" \
	"$TMP/outside"
cp "$pki/target/"*.pem "$TMP/elsewhere/"
mkdir "$TMP/dotdot"
ln -s ../elsewhere "$TMP/dotdot/..data"
refused data-out 'dotdot/\.\.data: links to "\.\./elsewhere", outside the directory' "$TMP/dotdot"

# 5. Rotation: the Secret now holds target-new's certificate.  The next
# proxy serves it; the running one still serves what it loaded.
# shellcheck disable=SC2046
k8s_volume "$TMP/tls" -m 0400 -g 107 $(secret target-new)
bg_start tgt2 "${as_qemu[@]}" "$QMIGRATE" -v proxy target --listen tls:127.0.0.1:0 \
	--to "unix:$TMP/run/sink.sock" --tls-dir "$TMP/tls"
wait_log "$TMP/tgt2.err" 'target: listening on .*\(port [0-9]+\)' 10
port2=$(sed -n 's/.*target: listening on .*(port \([0-9]*\)).*/\1/p' "$TMP/tgt2.err" | head -n 1)
start_source src2 "$TMP/src2.sock" "$port2" --tls-dir "$pki/source" --tls-name target-new
"$PEER" send "$TMP/src2.sock" rotated 65536 >/dev/null || fail "the rotated Secret's certificate was not served"
start_source src3 "$TMP/src3.sock" "$port2" --tls-dir "$pki/source" --tls-name target
if "$PEER" send "$TMP/src3.sock" stale 65536 >/dev/null 2>&1; then
	fail "the next proxy still served the old certificate"
fi
echo "ok: after a rotation (new ..data) the next proxy serves the new certificate, not the old"

# 6. The exporter says when the node's certificate expires (seconds left),
# read through the same layout, and sees a rotation at its next scrape.
expiry() {	# expiry DIR: qmigrate_tls_certificate_expiry_seconds of DIR
	mkdir -p "$TMP/vms"
	"${as_qemu[@]}" "$QMIGRATE" exporter --once --vm-dir "$TMP/vms" --tls-dir "$1" \
		--node node-b 2>/dev/null |
		sed -n 's/^qmigrate_tls_certificate_expiry_seconds{node="node-b"} //p'
}
left=$(expiry "$TMP/tls")
[ -n "$left" ] && [ "$left" -gt $((364 * 86400)) ] && [ "$left" -le $((365 * 86400)) ] ||
	fail "the exporter says the certificate expires in \"$left\" s, expected about 365 days"
"$MAKE_CERTS" --days 10 "$pki" short-lived >/dev/null
# shellcheck disable=SC2046
k8s_volume "$TMP/tls" -m 0400 -g 107 $(secret short-lived)
left=$(expiry "$TMP/tls")
[ -n "$left" ] && [ "$left" -gt $((9 * 86400)) ] && [ "$left" -le $((10 * 86400)) ] ||
	fail "after a rotation to a 10-day certificate the exporter says \"$left\" s"
echo "ok: the exporter reports the certificate's seconds left ($left after a rotation to a 10-day one)"
