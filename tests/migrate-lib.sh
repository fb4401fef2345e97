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
# It talks to the monitor $MIG_QMP if set (a relay's), else src.qmp.
mig_migrate() {
	bg_start "${PAIR}migrate" "$QMIGRATE" migrate \
		--qmp "${MIG_QMP:-$TMP/${PAIR}src.qmp}" --to "unix:$TMP/${PAIR}mig.sock" \
		--status-file "$TMP/${PAIR}src.status" --events "$@"
}

# mig_tls: what a pair migrating over tls: needs: a throwaway PKI for src
# and dst ($TMP/pki), TLS_PORT a random base port, and TMPDIR a private
# directory ($TMP/priv, for the QEMU-side sockets qmigrate makes there).
mig_tls() {
	need_cmd openssl
	make_pki src dst
	TLS_PORT=$((20000 + RANDOM % 20000))
	mkdir "$TMP/priv"
	export TMPDIR=$TMP/priv
}

# mig_tls_incoming [NAME [DST [ARGS...]]]: qmigrate incoming for QEMU DST
# (default PAIR's dst) in the background as NAME (default PAIR's
# incoming), listening with TLS on the next TLS_PORT, status in
# $TMP/DST.status; returns once it listens.
mig_tls_incoming() {
	local name=${1:-${PAIR}incoming} dst=${2:-${PAIR}dst}
	shift $(($# < 2 ? $# : 2))
	TLS_PORT=$((TLS_PORT + 1))
	bg_start "$name" "$QMIGRATE" incoming --qmp "$TMP/$dst.qmp" \
		--listen "tls:127.0.0.1:$TLS_PORT" --tls-dir "$TMP/pki/dst" \
		--status-file "$TMP/$dst.status" "$@"
	wait_log "$TMP/$name.err" "listening for the source" 30
}

# mig_tls_migrate NAME QMP [ARGS...]: qmigrate migrate as NAME through the
# monitor socket QMP, to the last mig_tls_incoming over TLS, status in
# $TMP/${PAIR}src.status and event lines in NAME.out.
mig_tls_migrate() {
	local name=$1 qmp=$2
	shift 2
	bg_start "$name" "$QMIGRATE" migrate --qmp "$qmp" \
		--to "tls:127.0.0.1:$TLS_PORT" --tls-dir "$TMP/pki/src" --tls-name dst \
		--status-file "$TMP/${PAIR}src.status" --events "$@"
}

# mig_relay [ARGS...]: tests/qmp-relay (ARGS: its options) in front of
# PAIR's source monitor, as $TMP/${PAIR}relay.sock, in the background
# (name "relay"); returns once it listens.  It connects to the monitor
# for each client it accepts, so it may start before the source QEMU.
mig_relay() {
	local relay=$top_builddir/tests/qmp-relay
	need_file "$relay" "tests/qmp-relay"
	bg_start "${PAIR}relay" "$relay" "$@" "$TMP/${PAIR}relay.sock" "$TMP/${PAIR}src.qmp"
	wait_log "$TMP/${PAIR}relay.out" '^ready' 10
}

# _mig_paused: PAIR's migrate decided to pause and QEMU is paused.
_mig_paused() {
	decisions "$TMP/${PAIR}src.status" | grep -qw pause &&
		[ "$(run_state "${PAIR}src")" = paused ]
}

# mig_pause: a migration the controller pauses: a guest dirtying 200 MB/s
# at 8 MiB/s under the kubevirt controller with allowWorkloadDisruption
# (policy $TMP/pause.json), which pauses it after its acceptable time; the
# paused guest's last pass then takes seconds (a window for the test).
# Returns once the controller has paused the guest.
mig_pause() {
	mig_policy pause '{ "bandwidthPerMigration": "8Mi", "allowWorkloadDisruption": true,
	"completionTimeoutPerGiB": 8, "convergence": "kubevirt" }'
	mig_start_pair 64 200
	mig_incoming --policy "$TMP/pause.json"
	mig_migrate --policy "$TMP/pause.json"
	wait_for 90 "the controller's pause" _mig_paused
}

# expect_resumed CODE TIMEOUT: PAIR's migrate exits CODE (not by a
# signal) within TIMEOUT s, and the source runs the guest the moment it is
# gone (migrate resumed it before it exited).
expect_resumed() {
	local rc=0 state
	bg_wait "${PAIR}migrate" "$2" || rc=$?
	state=$(run_state "${PAIR}src")
	[ "$rc" -lt 128 ] || fail "migrate killed by signal $((rc - 128)) with the source $state"
	[ "$state" = running ] || fail "the source is $state when migrate exited $rc"
	[ "$rc" -eq "$1" ] || fail "exit $rc, expected $1: $(tail -n 3 "$TMP/${PAIR}migrate.err")"
}

# moved_mib N: the source of PAIR has moved N MiB (its status says so).
moved_mib() {
	local done
	done=$(status_get "$TMP/${PAIR}src.status" .progress.dataProcessed)
	[ "${done:-0}" -ge $(($1 * 1024 * 1024)) ] 2>/dev/null
}

# mig_stuck [ARGS...]: a migration that never converges (a busy guest
# under 20 MiB/s, policy $TMP/stuck.json: the kubevirt controller would
# wait 150 s); ARGS go to migrate.
mig_stuck() {
	mig_policy stuck '{ "bandwidthPerMigration": "20Mi", "convergence": "kubevirt" }'
	mig_start_pair 64 200
	mig_incoming --policy "$TMP/stuck.json"
	mig_migrate --policy "$TMP/stuck.json" "$@"
}

# mig_orphan: a stuck migration (mig_stuck) whose qmigrate migrate is
# SIGKILLed once 4 MiB have moved: QEMU migrates on alone, as after a
# crash, and $TMP/${PAIR}src.status holds what the killed qmigrate last
# wrote.
mig_orphan() {
	mig_stuck
	wait_for 30 "4 MiB migrated" moved_mib 4
	kill -KILL "$(guest_pid "${PAIR}migrate")"
	wait_for 10 "the first qmigrate gone" _lib_gone "$(guest_pid "${PAIR}migrate")"
}

# _mig_in_postcopy: PAIR's source QEMU has been in post-copy for a few MiB.
_mig_in_postcopy() {
	local st=$TMP/${PAIR}src.status
	status_is "$st" .progress.qemuStatus postcopy-active &&
		[ "$(status_get "$st" .progress.postCopyRequests)" -gt 0 ]
}

# mig_postcopy_busy [ARGS...]: a busy guest (200 MB/s) migrating at 10
# MiB/s with post-copy allowed (policy $TMP/busy.json; ARGS go to
# migrate); returns once the source has been in post-copy for a few MiB.
# 64 MiB: post-copy lasts ~10 s, time to break it.
mig_postcopy_busy() {
	mig_policy busy '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true }'
	mig_start_pair 64 200
	mig_incoming --policy "$TMP/busy.json"
	mig_migrate --policy "$TMP/busy.json" "$@"
	wait_for 60 "${PAIR}src in post-copy" _mig_in_postcopy
}

# status_get FILE JQ-PATH: prints a value of a status document.
status_get() {
	jq -r "$2" "$1" 2>/dev/null
}

# status_is FILE JQ-PATH VALUE: true when the document says so.
status_is() {
	[ "$(status_get "$1" "$2")" = "$3" ]
}

# expect_status FILE JQ-PATH VALUE [WHAT]: the status document FILE says
# VALUE at JQ-PATH, else the test fails naming WHAT (default: FILE), the
# path and what the document says there.
expect_status() {
	local got
	got=$(status_get "$1" "$2")
	[ "$got" = "$3" ] || fail "${4:-$1}: $2 is $got, expected $3"
}

# expect_failed FILE CODE PLANE [WHAT]: the status document FILE tells a
# failed migration: phase Failed, exitCode CODE and, unless PLANE is "-",
# failurePlane PLANE.
expect_failed() {
	expect_status "$1" .phase Failed "${4:-}"
	expect_status "$1" .exitCode "$2" "${4:-}"
	[ "$3" = - ] || expect_status "$1" .failurePlane "$3" "${4:-}"
}

# expect_qemu_mig NAME WHAT STATE...: QEMU NAME's migration status
# (qemu_mig_status) is one of STATE..., else the test fails naming WHAT.
expect_qemu_mig() {
	local name=$1 what=$2 st
	shift 2
	st=$(qemu_mig_status "$name")
	[[ " $* " == *" $st "* ]] ||
		fail "$what: the $name QEMU's migration is $st, expected one of: $*"
}

# expect_qemu_cancelled NAME WHAT: a cancel in pre-copy ended QEMU NAME's
# migration, the guest still its own.  QEMU says "cancelled", or "failed":
# migrate_fd_cancel shuts the return path's socket, which is the stream's
# too, before it sets "cancelling", and a migration thread writing at that
# instant fails first ("Unable to write to socket: Broken pipe"; seen on
# 7.2, 1 cancel in 20, return-path on; CI of 2026-12-07).  qmigrate reads
# both as the abort done.
expect_qemu_cancelled() {
	expect_qemu_mig "$1" "$2" cancelled failed
}

# _mig_qemu_ended NAME: QEMU NAME's migration has ended, one way or another.
_mig_qemu_ended() {
	case $(qemu_mig_status "$1") in
	completed | failed | cancelled) true ;;
	*) false ;;
	esac
}

# assert_one_place WHAT TIMEOUT: once QEMU's own migration of PAIR's src has
# ended (within TIMEOUT s: nobody drives it), the guest runs in exactly one
# of src and dst (a dst that is gone counts as not running) with every
# page intact there; sets PLACES to "SRC-STATE/DST-STATE".
assert_one_place() {
	local s d
	wait_for "$2" "the ${PAIR}src QEMU's migration to end" _mig_qemu_ended "${PAIR}src"
	s=$(run_state "${PAIR}src")
	d=$(mon "${PAIR}dst" query-status 2>/dev/null | jq -r .status || echo gone)
	if [ "$s" = running ] && [ "$d" != running ]; then
		assert_memory_intact "$TMP/${PAIR}src.serial"
	elif [ "$d" = running ] && [ "$s" != running ]; then
		assert_memory_intact "$TMP/${PAIR}dst.serial"
	else
		fail "$1: the guest is not in exactly one place: source $s, target $d"
	fi
	PLACES=$s/$d
}

# migrate_on_pty PTY-ARGS... -- ARGS...: PAIR's migrate over unix:
# (status file $TMP/${PAIR}src.status, and ARGS) in the background as
# ${PAIR}migrate, on the terminal tests/pty-stderr.py PTY-ARGS makes.
migrate_on_pty() {
	local pty=()
	while [ "$#" -gt 0 ] && [ "$1" != -- ]; do
		pty+=("$1")
		shift
	done
	[ "$#" -gt 0 ] || fail "migrate_on_pty: no -- after the terminal's arguments"
	shift
	bg_start "${PAIR}migrate" python3 "$top_srcdir/tests/pty-stderr.py" "${pty[@]}" -- \
		"$QMIGRATE" migrate --qmp "$TMP/${PAIR}src.qmp" \
		--to "unix:$TMP/${PAIR}mig.sock" --status-file "$TMP/${PAIR}src.status" "$@"
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

# expect_moved TIMEOUT-SOURCE TIMEOUT-TARGET: PAIR's migrate and incoming
# both exit 0 within their timeouts, and the guest moved (assert_moved).
expect_moved() {
	expect_exit "${PAIR}migrate" 0 "$1"
	expect_exit "${PAIR}incoming" 0 "$2"
	assert_moved
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
