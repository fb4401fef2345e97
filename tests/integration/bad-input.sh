#!/usr/bin/env bash
# bad-input.sh (issue 38): everything a user can give qmigrate wrong, as a
# table (tests/bad-input/cases), run against one real QEMU that must come
# out of every case as it went in.  Each case asserts what a user sees:
# the exit status the README's table promises, one line on stderr that
# names the culprit, an end within CASE_BOUND seconds, and the VM
# untouched (still running, its migration status still "none").
. "$top_srcdir/tests/lib.sh"
setup_tmp
CASE_BOUND=${CASE_BOUND:-15}

start_memguest vm 16 0
VM=$TMP/vm.qmp
T=$TMP/scratch
F=$TMP/fixtures
mkdir -p "$T" "$F/long" "$F/ro" "$F/full"

# The fixtures the cases name.
: >"$F/empty.json"
printf '{"name":"a",\0"x":1}' >"$F/nul.json"
printf '\xff\xfe garbage {' >"$F/garbage.json"
printf '{\n  "selectors": {},\n  "selectors": {"vm": {"a": "b"}},\n  "name": "d"\n}\n' >"$F/dup.json"
printf '{"name":"n","migration":{"allowPostCopy":true,"allowPostCopy":false}}' >"$F/dup-nested.json"
printf 'name: a\nname: b\n' >"$F/dup.yaml"
printf '{"name":"t"} {"name":"u"}' >"$F/trailing.json"
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' ' ' >"$F/huge.json"
chmod 555 "$F/ro"
# Monitors that misbehave as no QEMU does (tests/bad-monitor.c: a fake,
# since real QEMU always greets and answers): $M/MODE.sock.  One of them
# is a socket left by a QEMU that died, in an exporter's --vm-dir.
M=$TMP/monitors
mkdir -p "$M" "$F/vmdir"
for mode in garbage silent greet-silent caps-silent greet-close close huge not-qmp; do
	bg_start "monitor-$mode" "$top_builddir/tests/bad-monitor" "$mode" "$M/$mode.sock"
	wait_for 10 "the $mode monitor" test -S "$M/$mode.sock"
done
"$top_builddir/tests/bad-monitor" stale "$F/vmdir/stale.qmp" >/dev/null

# TLS material, each --tls-dir wrong in one way (contrib/make-certs.sh).
make_pki src dst
bash "$top_srcdir/contrib/make-certs.sh" --expired "$TMP/pki" old >/dev/null
bash "$top_srcdir/contrib/make-certs.sh" "$TMP/pki2" other >/dev/null
tls_dir() {	# NAME: $F/tls-NAME, a copy of the good src directory
	mkdir -p "$F/tls-$1"
	cp "$TMP/pki/src/"*.pem "$F/tls-$1/"
	chmod 600 "$F/tls-$1/key.pem"
}
tls_dir ok
tls_dir nokey; rm "$F/tls-nokey/key.pem"
tls_dir nocert; rm "$F/tls-nocert/cert.pem"
tls_dir noca; rm "$F/tls-noca/ca.pem"
tls_dir keygarbage; echo garbage >"$F/tls-keygarbage/key.pem"
tls_dir certgarbage; echo garbage >"$F/tls-certgarbage/cert.pem"
tls_dir cagarbage; printf '\0\0\0' >"$F/tls-cagarbage/ca.pem"
tls_dir keyempty; : >"$F/tls-keyempty/key.pem"
tls_dir certempty; : >"$F/tls-certempty/cert.pem"
tls_dir keymode; chmod 644 "$F/tls-keymode/key.pem"
tls_dir keygroup; chmod 640 "$F/tls-keygroup/key.pem"
tls_dir mismatch; cp "$TMP/pki/dst/key.pem" "$F/tls-mismatch/key.pem"
tls_dir expired; cp "$TMP/pki/old/"{cert,key}.pem "$F/tls-expired/"
tls_dir keydir; rm "$F/tls-keydir/key.pem"; mkdir "$F/tls-keydir/key.pem"
tls_dir keyhuge; head -c 300000 /dev/urandom | base64 >"$F/tls-keyhuge/key.pem"
tls_dir othercert; cp "$TMP/pki2/other/"{cert,key}.pem "$F/tls-othercert/"
: >"$F/tls-file"

# Documents of the other kinds: VMIs, labels, inventories, status files.
printf '{"a":1' >"$F/trunc.json"
printf '[1,2,3]' >"$F/array.json"
printf 'null' >"$F/null.json"
printf '{"name":"x","selectors":"notanobject"}' >"$F/p-wrongtype.json"
printf '{"name":"x","frobnicate":1}' >"$F/p-unknown.json"
printf '{"name":"x","migration":{"bandwidthPerMigration":"fast"}}' >"$F/p-badbw.json"
printf '{"name":"x","migration":{"completionTimeoutPerGiB":-1}}' >"$F/p-neg.json"
printf '{"name":"x","migration":{"allowPostCopy":"yes"}}' >"$F/p-boolstr.json"
printf '{"name":"x","migration":{"progressTimeout":1e999}}' >"$F/p-inf.json"
printf '{"name":"","migration":{}}' >"$F/p-noname.json"
printf 'name: [unclosed\n' >"$F/p-yamlbad.yaml"
printf 'apiVersion: kubevirt.io/v1\nkind: VirtualMachineInstance\nmetadata: [1]\n' >"$F/vmi-badmeta.yaml"
printf 'kind: Pod\napiVersion: v1\n' >"$F/vmi-wrongkind.yaml"
printf '{"app": 5}' >"$F/labels-num.json"
printf '[]' >"$F/inv-empty.json"
printf '[{"name":"a"}]' >"$F/inv-noqmp.json"
printf '[{"name":"a","qmp":"/x","to":"unix:/y"},{"name":"a","qmp":"/x2","to":"unix:/y2"}]' >"$F/inv-dupname.json"
printf '{"not":"array"}' >"$F/inv-obj.json"
printf '{"phase":"Running"}' >"$F/st-minimal.json"
printf 'garbage' >"$F/st-garbage.json"
printf '{"phase":"Running","pid":1,"role":"source"}' >"$F/st-stranger.json"
# Damaged on purpose: the exit's schema check leaves these out.
status_schema_exempt "$F"/st-*.json "$F"/*.json
cp "$F/huge.json" "$F/st-huge.json"
head -c $((5 * 1024 * 1024)) /dev/zero | tr '\0' ' ' >"$F/st-huge.json"
mount -t tmpfs -o size=64k qmigrate-bad-input "$F/full" ||
	fail "cannot mount a tmpfs for the full-disk case (root is needed)"
lib_on_exit "umount '$F/full'"
dd if=/dev/zero of="$F/full/fill" bs=4k count=64 2>/dev/null || true

vm_untouched() {
	local rs ms
	rs=$(qmp vm query-status | jq -r .status)
	ms=$(qmp vm query-migrate | jq -r '.status // "none"')
	[ "$rs" = running ] && [ "$ms" = none ] ||
		{ echo "the VM was touched: run state $rs, migration $ms"; return 1; }
}

n=0 failed=0
while IFS=$'\t' read -r name want re args; do
	maxlines=1
	case $want in *+*) maxlines=${want#*+} want=${want%+*} ;; esac
	case $name in '' | '#'*) continue ;; esac
	n=$((n + 1))
	eval "set -- $args"
	re=${re//\$T/$T} re=${re//\$F/$F} re=${re//\$VM/$VM} re=${re//\$M/$M}
	start=$(date +%s%N)
	rc=0
	# A user who runs the wrong thing as root still must not get hurt:
	# read-only cases run as nobody where a directory's mode is the point.
	case $name in
	status-read-only) runner=(setpriv --reuid=65534 --regid=65534 --clear-groups) ;;
	*) runner=() ;;
	esac
	timeout -s KILL "$CASE_BOUND" "${runner[@]}" "$QMIGRATE" "$@" \
		>"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	why=
	lines=$(grep -c '' "$TMP/err" || true)
	if [ "$rc" -eq 137 ]; then
		why="did not end within $CASE_BOUND s"
	elif [ "$rc" -ne "$want" ]; then
		why="exit $rc, expected $want"
	elif [ "$lines" -lt 1 ] || [ "$lines" -gt "$maxlines" ]; then
		why="$lines lines on stderr, expected one"
	elif ! grep -Eq -- "$re" "$TMP/err"; then
		why="stderr does not match: $re"
	elif ! why=$(vm_untouched); then
		:
	else
		why=
	fi
	if [ -n "$why" ]; then
		failed=$((failed + 1))
		echo "FAIL $name: $why"
		sed 's/^/	stderr: /' "$TMP/err" | head -n 5
	else
		echo "ok   $name (exit $rc, ${ms} ms)"
	fi
done <"$top_srcdir/tests/bad-input/cases"

echo "$((n - failed)) passed, $failed failed"
[ "$n" -ge 1 ] || fail "no case ran"
[ "$failed" -eq 0 ]
