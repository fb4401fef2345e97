#!/usr/bin/env bash
# SIGTERM to `qmigrate incoming` during pre-copy (issue 14, defect 2: it
# exited 5 with abortStatus Succeeded, "before the guest arrived", while the
# migration went on and completed: an abort reported that never happened).
# 1, 2. Over unix: and tcp: the target cannot stop the stream: the abort is
#    refused (abortStatus Failed, a note saying to abort on the source),
#    and incoming goes on reporting the real outcome: the migration
#    completes, both exit 0, phase Succeeded, the guest runs on the target.
# 3. Over tls: the target cuts the stream and tells the source over the
#    control channel: the source cancels and keeps its guest; both exit 5
#    and report the same outcome; the guest runs on the source.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl
setup_tmp

# abort_refused HOW: the target's status says the abort failed; fails at
# once if incoming exited instead.
abort_refused() {
	local dst=$TMP/${PAIR}dst.status rc=0
	[ "$(status_get "$dst" .abortStatus)" = Failed ] && return 0
	if _lib_gone "$(guest_pid "${PAIR}incoming")"; then
		bg_wait "${PAIR}incoming" 1 || rc=$?
		fail "$1: incoming exited $rc on SIGTERM (abortStatus $(status_get "$dst" .abortStatus): $(status_get "$dst" .failureReason)) while the migration went on ($(qemu_mig_status "${PAIR}src"))"
	fi
	return 1
}

# refused_then_moved HOW: SIGTERM to PAIR's incoming in pre-copy is
# refused and the migration completes.
refused_then_moved() {
	local dst=$TMP/${PAIR}dst.status
	wait_for 30 "$1: 4 MiB migrated" moved_mib 4
	kill -TERM "$(guest_pid "${PAIR}incoming")"
	[ "$(qemu_mig_status "${PAIR}src")" = active ] ||
		fail "$1: the migration was $(qemu_mig_status "${PAIR}src") at the SIGTERM: test proves nothing"
	wait_for 10 "$1: the target's answer to the abort" abort_refused "$1"
	[ "$(status_get "$dst" .abortRequested)" = true ] ||
		fail "$1: target abortRequested $(status_get "$dst" .abortRequested)"
	status_get "$dst" '.notes[]' | grep -i abort | grep -qi source ||
		fail "$1: no note tells to abort on the source: $(status_get "$dst" .notes)"
	expect_exit "${PAIR}migrate" 0 120
	expect_exit "${PAIR}incoming" 0 60
	[ "$(status_get "$dst" .phase)" = Succeeded ] ||
		fail "$1: target phase $(status_get "$dst" .phase)"
	[ "$(status_get "$dst" .exitCode)" = 0 ] ||
		fail "$1: target exitCode $(status_get "$dst" .exitCode)"
	[ "$(status_get "$dst" .abortStatus)" = Failed ] ||
		fail "$1: target abortStatus $(status_get "$dst" .abortStatus) at the end"
	assert_moved
	echo "ok: $1: the target refused the abort; the guest arrived"
}

# 1. unix: (8 MiB/s, a lightly busy guest: ~8 s of pre-copy that converges).
mig_policy slow '{ "bandwidthPerMigration": "8Mi" }'
mig_start_pair 64 2
mig_incoming --policy "$TMP/slow.json"
mig_migrate --policy "$TMP/slow.json"
refused_then_moved unix

# 2. tcp: (plaintext: the policy says disableTLS).
PAIR=t-
port=$((20000 + RANDOM % 20000))
mig_policy plain '{ "bandwidthPerMigration": "8Mi", "disableTLS": true }'
mig_start_pair 64 2
bg_start t-incoming "$QMIGRATE" incoming --qmp "$TMP/t-dst.qmp" \
	--listen "tcp:127.0.0.1:$port" --policy "$TMP/plain.json" \
	--status-file "$TMP/t-dst.status"
wait_for 30 "t-dst prepared" status_is "$TMP/t-dst.status" .phase TargetReady
bg_start t-migrate "$QMIGRATE" migrate --qmp "$TMP/t-src.qmp" \
	--to "tcp:127.0.0.1:$port" --policy "$TMP/plain.json" \
	--status-file "$TMP/t-src.status" --events
refused_then_moved tcp

# 3. tls: a guest that cannot converge (200 MB/s under 20 MiB/s, kubevirt
# waits 150 s), so only the abort ends it.
PAIR=s-
make_pki src dst
port=$((port + 1))
mig_policy stuck '{ "bandwidthPerMigration": "20Mi", "convergence": "kubevirt" }'
mig_start_pair 64 200
bg_start s-incoming "$QMIGRATE" incoming --qmp "$TMP/s-dst.qmp" \
	--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/dst" \
	--status-file "$TMP/s-dst.status"
wait_for 30 "s-incoming listening" grep -q "listening for the source" "$TMP/s-incoming.err"
bg_start s-migrate "$QMIGRATE" migrate --qmp "$TMP/s-src.qmp" \
	--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/src" --tls-name dst \
	--policy "$TMP/stuck.json" --status-file "$TMP/s-src.status" --events
wait_for 30 "tls: 8 MiB migrated" moved_mib 8
kill -TERM "$(guest_pid s-incoming)"
expect_exit s-migrate 5 60
expect_exit s-incoming 5 60
src=$TMP/s-src.status dst=$TMP/s-dst.status
expect_qemu_cancelled s-src "tls"
for f in "$src" "$dst"; do
	[ "$(status_get "$f" .phase)" = Failed ] || fail "tls: $f: phase $(status_get "$f" .phase)"
	[ "$(status_get "$f" .exitCode)" = 5 ] || fail "tls: $f: exitCode $(status_get "$f" .exitCode)"
done
[ "$(status_get "$dst" .abortStatus)" = Succeeded ] ||
	fail "tls: target abortStatus $(status_get "$dst" .abortStatus)"
[ "$(status_get "$src" .failurePlane)" = "$(status_get "$dst" .failurePlane)" ] ||
	fail "tls: the two sides disagree: source plane $(status_get "$src" .failurePlane), target $(status_get "$dst" .failurePlane)"
status_get "$src" .failureReason | grep -qi target ||
	fail "tls: the source's failureReason does not say the target aborted: $(status_get "$src" .failureReason)"
assert_stayed
echo "ok: tls: the target's abort cancelled the migration on both sides: $(status_get "$src" .failureReason)"
