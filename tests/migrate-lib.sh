# tests/migrate-lib.sh: what the migration driver's tests share; sourced
# after tests/lib.sh.
#
# A pair is two memguests with identical machines: src (running) and dst
# (-incoming defer).  Each also gets a second QMP monitor, NAME.mon, because
# a QMP socket serves one client at a time and qmigrate holds NAME.qmp.
#
# A test that needs a second pair sets PAIR to a name prefix (PAIR=b-: guests
# b-src and b-dst, processes b-incoming and b-migrate, b-src.status, ...);
# every function below uses the pair PAIR names (empty: the first pair).
PAIR=

need_cmd jq

# mig_policy NAME MIGRATION-JSON: writes $TMP/NAME.json, a policy that
# applies to every VM with the given migration section.
mig_policy() {
	printf '{ "name": "%s", "migration": %s }\n' "$1" "$2" >"$TMP/$1.json"
}

# mig_start_pair MIB RATE: boots src and dst.
mig_start_pair() {
	start_memguest "${PAIR}src" "$1" "$2" \
		-qmp "unix:$TMP/${PAIR}src.mon,server=on,wait=off"
	start_memguest_incoming "${PAIR}dst" "$1" \
		-qmp "unix:$TMP/${PAIR}dst.mon,server=on,wait=off"
}

# mig_incoming [ARGS...]: qmigrate incoming for dst, in the background
# (name "incoming"), status in $TMP/dst.status.
mig_incoming() {
	bg_start "${PAIR}incoming" "$QMIGRATE" incoming \
		--qmp "$TMP/${PAIR}dst.qmp" --listen "unix:$TMP/${PAIR}mig.sock" \
		--status-file "$TMP/${PAIR}dst.status" "$@"
	wait_for 30 "${PAIR}dst prepared" \
		status_is "$TMP/${PAIR}dst.status" .phase TargetReady
}

# mig_migrate [ARGS...]: qmigrate migrate for src, in the background (name
# "migrate"), status in $TMP/src.status and event lines in migrate.out.
mig_migrate() {
	bg_start "${PAIR}migrate" "$QMIGRATE" migrate \
		--qmp "$TMP/${PAIR}src.qmp" --to "unix:$TMP/${PAIR}mig.sock" \
		--status-file "$TMP/${PAIR}src.status" --events "$@"
}

# mig_orphan: a migration that never converges (a busy guest under 20
# MiB/s, policy $TMP/stuck.json: the kubevirt controller would wait 150 s)
# whose qmigrate migrate is SIGKILLed once 4 MiB have moved: QEMU migrates
# on alone, as after a crash, and $TMP/${PAIR}src.status holds what the
# killed qmigrate last wrote.
mig_orphan() {
	mig_policy stuck '{ "bandwidthPerMigration": "20Mi", "convergence": "kubevirt" }'
	mig_start_pair 64 200
	mig_incoming --policy "$TMP/stuck.json"
	mig_migrate --policy "$TMP/stuck.json"
	wait_for 30 "4 MiB migrated" eval \
		'[ "$(status_get "$TMP/${PAIR}src.status" .progress.dataProcessed)" -ge 4194304 ] 2>/dev/null'
	kill -KILL "$(guest_pid "${PAIR}migrate")"
	wait_for 10 "the first qmigrate gone" _lib_gone "$(guest_pid "${PAIR}migrate")"
}

# status_get FILE JQ-PATH: prints a value of a status document.
status_get() {
	jq -r "$2" "$1" 2>/dev/null
}

# status_is FILE JQ-PATH VALUE: true when the document says so.
status_is() {
	[ "$(status_get "$1" "$2")" = "$3" ]
}

# mon NAME COMMAND [JSON]: QMP through the second monitor.
mon() {
	local name=$1
	shift
	"$QMIGRATE" qmp --qmp "$TMP/$name.mon" "$@"
}

# qemu_mig_status NAME: QEMU's migration status (query-migrate) via .mon.
qemu_mig_status() {
	mon "$1" query-migrate | jq -r '.status // "none"'
}

# run_state NAME: QEMU's run state (running, paused, postmigrate, ...).
run_state() {
	mon "$1" query-status | jq -r .status
}

# expect_exit NAME CODE TIMEOUT: the background command NAME ends with CODE.
expect_exit() {
	local rc=0
	bg_wait "$1" "$3" || rc=$?
	[ "$rc" -eq "$2" ] || {
		cat "$TMP/$1.err" >&2
		fail "$1 exited $rc, expected $2"
	}
}

# assert_moved: the guest runs on dst with every page intact (a full sweep
# after the call: call it once the migration has ended); src is done and
# reported nothing corrupt before it left.
assert_moved() {
	local src=${PAIR}src dst=${PAIR}dst
	[ "$(run_state $dst)" = running ] || fail "$dst is $(run_state $dst), not running"
	[ "$(run_state $src)" = postmigrate ] || fail "$src is $(run_state $src), not postmigrate"
	assert_memory_intact "$TMP/$dst.serial"
	assert_no_corrupt "$TMP/$src.serial"
}

# assert_stayed: the guest still runs on src with every page intact (a
# full sweep after the call: call it once the migration has ended).
assert_stayed() {
	local src=${PAIR}src
	[ "$(run_state $src)" = running ] || fail "$src is $(run_state $src), not running"
	assert_memory_intact "$TMP/$src.serial"
}

# decisions FILE: the controller's actions, space separated.
decisions() {
	status_get "$1" '[.decisions[].action] | join(" ")'
}
