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
# A monitor socket left by a QEMU that died: bound, then nobody listens.
mkdir -p "$F/vmdir"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$F/vmdir/stale.qmp"
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
	re=${re//\$T/$T} re=${re//\$F/$F} re=${re//\$VM/$VM}
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
