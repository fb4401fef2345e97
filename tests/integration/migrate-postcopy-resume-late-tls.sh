#!/usr/bin/env bash
# Post-copy over tls:, its stream cut (every data connection between the
# proxies destroyed, ss -K), and the session's control connection cut too
# after the target answered the resume ready but before the source QEMU's
# migrate resume connects (a tests/qmp-relay in front of the source's
# monitor holds that command 6 s; the cut comes while it is held).  The
# resume's connections then reach the source proxy with no session at
# all.  The proxy closes them at once (proxy_rule_data_arrives), QEMU
# pauses again (postcopy-paused), and qmigrate asks the target again on a
# new control connection of the same session, answered ready, and
# resumes: both exit 0, the guest on the target with every page intact.
# Before the fix the proxy held them for a session that never came: QEMU
# stayed in postcopy-recover, migrate exited 8 after --recover-timeout and
# 30 s more, incoming 6, the guest paused on both sides.
# QEMU 10.0 and 11.1 (tests/qemu-matrix-lib.sh): a 7.2 source whose resume
# connection closes before the target's answer stays in postcopy-recover
# for good (its return path's failure is not handled there), held or
# closed.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/qemu-matrix-lib.sh"
matrix_want 10.0 11.1
setup_tmp
need_cmd ss
mig_tls
RELAY=$top_builddir/tests/qmp-relay
need_file "$RELAY" "tests/qmp-relay"

# 10 MiB/s, a guest of 256 MiB dirtying 200 MB/s: post-copy, long enough
# to be cut (the preempt channel's pages are not capped).
mig_policy busy '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true }'

# ports WHAT: the source ports of PAIR's target proxy's forwarded data
# connections (WHAT data) or opened control connections (WHAT control).
ports() {
	case $1 in
	data) sed -n 's/.* conn [0-9]* from 127\.0\.0\.1:\([0-9]*\): forwarding.*/\1/p' \
		"$TMP/${PAIR}incoming.err" ;;
	control) sed -n 's/.* control from 127\.0\.0\.1:\([0-9]*\): open.*/\1/p' \
		"$TMP/${PAIR}incoming.err" ;;
	esac
}

# cut_conn PORT...: destroys, at once, both ends of the connection from
# each source port PORT to the target's TLS port.
cut_conn() {
	local p f=
	for p in "$@"; do
		f="$f${f:+ or }( sport = :$p and dport = :$TLS_PORT ) or ( sport = :$TLS_PORT and dport = :$p )"
	done
	ss -tnK state established "( $f )" >/dev/null
	for p in "$@"; do
		[ -z "$(ss -tnH state established "( sport = :$p and dport = :$TLS_PORT )")" ] ||
			fail "the connection from port $p is still up after ss -K"
	done
}

for v in 10.0 11.1; do
	export QEMU_SRC_VERSION=$v QEMU_DST_VERSION=$v
	PAIR=v${v//./}-
	mig_start_pair 256 200
	bg_start "${PAIR}relay" "$RELAY" --hold '"resume"' --hold-for 6 \
		"$TMP/${PAIR}relay.sock" "$TMP/${PAIR}src.qmp"
	wait_log "$TMP/${PAIR}relay.out" '^ready' 10
	mig_tls_incoming "" "" --recover-timeout 40
	mig_tls_migrate "${PAIR}migrate" "$TMP/${PAIR}relay.sock" \
		--policy "$TMP/busy.json" --recover-timeout 40
	# The preempt channel, the session's second data connection, opens
	# as post-copy starts.
	wait_log "$TMP/${PAIR}incoming.err" ' conn 1 from .*: forwarding' 120
	# A cut before QEMU says postcopy-active falls in postcopy_start,
	# which fails the migration outright (no recovery to resume): this
	# test is about the resume, so it cuts only once post-copy runs.
	wait_for 60 "the source QEMU in postcopy-active" status_is \
		"$TMP/${PAIR}src.status" .progress.qemuStatus postcopy-active
	# shellcheck disable=SC2046 # one port a word
	cut_conn $(ports data)
	wait_log "$TMP/${PAIR}relay.out" 'holding a command' 30
	cut_conn "$(ports control)"
	expect_exit "${PAIR}migrate" 0 120
	expect_exit "${PAIR}incoming" 0 60
	assert_moved
	grep -q 'qemu connection [0-9]*: closed: no session to carry it' "$TMP/${PAIR}migrate.err" ||
		fail "$v: the resume's connection was not closed for want of a session: $(grep 'qemu connection' "$TMP/${PAIR}migrate.err")"
	[ "$(ports control | wc -l)" -eq 2 ] ||
		fail "$v: expected the resume asked again on a second control connection: $(ports control | tr '\n' ' ')"
	[ "$(sed -n 's/.*session \([0-9a-f]*\) control from .*: open.*/\1/p' \
		"$TMP/${PAIR}incoming.err" | sort -u | wc -l)" -eq 1 ] ||
		fail "$v: the second control connection is of another session"
	for f in src dst; do
		status_get "$TMP/$PAIR$f.status" '.notes[]' | grep -q 'post-copy recovered' ||
			fail "$v: $PAIR$f notes do not say post-copy recovered: $(status_get "$TMP/$PAIR$f.status" .notes)"
	done
	echo "ok: QEMU $v: the resume's connections with no session closed at once, the resume asked again and recovered ($(last_progress "$TMP/${PAIR}dst.serial"))"
done
