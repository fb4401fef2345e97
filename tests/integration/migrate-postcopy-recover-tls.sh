#!/usr/bin/env bash
# Post-copy over tls: whose data connection between the two qmigrates'
# proxies is cut (both ends of that TCP connection destroyed, `ss -K`: each
# proxy sees its socket fail, the pair closes, each QEMU sees its stream
# break and stops in postcopy-paused), recovered through the proxies: the
# target's migrate-recover and the source's migrate resume through a new
# data connection, and the guest arrives with every page intact.
#  1. The main stream's data connection alone (the engine enables
#     postcopy-preempt, whose channel is a second data connection: QEMU
#     closes it too): the control connection and its session stay; the
#     resume's connections are new data connections of the same session,
#     numbered after the cut ones.
#  2. Every data connection and the control connection together: the
#     session's control connection is gone on both sides; the source's
#     resume question opens a new control connection of the same session
#     (the target lets it replace the one it holds, if the cut has not
#     reached it), answered ready, and the resume's data connection goes
#     through it.
# (fault-link-postcopy.sh: the network down instead, the data connection
# declared dead after 10 s; migrate-postcopy-recover.sh: over unix:.)
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp
need_cmd ss
mig_tls

# 10 MiB/s, a guest dirtying 200 MB/s: post-copy, and it lasts (64 MiB).
mig_policy busy '{ "bandwidthPerMigration": "10Mi", "allowPostCopy": true }'

# data_conns: the data connections PAIR's target proxy forwarded, one a
# line as "SEQ PORT" (the source port), in the order forwarded.
data_conns() {
	sed -n 's/.* conn \([0-9]*\) from 127\.0\.0\.1:\([0-9]*\): forwarding.*/\1 \2/p' \
		"$TMP/${PAIR}incoming.err"
}

# data_ports: their ports alone.
data_ports() {
	data_conns | cut -d' ' -f2
}

# control_ports: the same for the control connections it opened.
control_ports() {
	sed -n 's/.* control from 127\.0\.0\.1:\([0-9]*\): open.*/\1/p' \
		"$TMP/${PAIR}incoming.err"
}

# conn_up PORT: the connection from source port PORT to the target's
# TLS port is established (both of its ends are on this host).
conn_up() {
	[ -n "$(ss -tnH state established "( sport = :$1 and dport = :$TLS_PORT )")" ]
}

# cut_conn PORT...: destroys, at once, both ends of the connection from
# each source port PORT to the target's TLS port, and checks that they
# are gone.
cut_conn() {
	local p f=
	for p in "$@"; do
		conn_up "$p" || fail "no established connection from port $p to $TLS_PORT"
		f="$f${f:+ or }( sport = :$p and dport = :$TLS_PORT ) or ( sport = :$TLS_PORT and dport = :$p )"
	done
	ss -tnK state established "( $f )" >/dev/null
	for p in "$@"; do
		! conn_up "$p" || fail "the connection from port $p is still up after ss -K"
	done
}

# broken_then_recovered: PAIR's qmigrates both exit 0 within their bounds,
# the source noted the stream broken, both noted the recovery, and the
# guest runs on the target with every page intact.
broken_then_recovered() {
	local f
	expect_exit "${PAIR}migrate" 0 120
	expect_exit "${PAIR}incoming" 0 60
	assert_moved
	status_get "$TMP/${PAIR}src.status" '.notes[]' | grep -q 'post-copy stream broken' ||
		fail "${PAIR}src notes do not say the stream broke: $(status_get "$TMP/${PAIR}src.status" .notes)"
	for f in src dst; do
		status_get "$TMP/$PAIR$f.status" '.notes[]' | grep -q 'post-copy recovered' ||
			fail "$PAIR$f notes do not say post-copy recovered: $(status_get "$TMP/$PAIR$f.status" .notes)"
	done
	expect_status "$TMP/${PAIR}src.status" .mode PostCopy "post-copy"
}

# start PAIR: a busy pair migrating over tls:, in post-copy for a few MiB.
start() {
	PAIR=$1-
	mig_start_pair 64 200
	mig_tls_incoming "" "" --recover-timeout 40
	mig_tls_migrate "${PAIR}migrate" "$TMP/${PAIR}src.qmp" \
		--policy "$TMP/busy.json" --recover-timeout 40
	wait_for 60 "${PAIR}src in post-copy" _mig_in_postcopy
	D0=$(data_conns | wc -l)
	[ "$D0" -ge 1 ] || fail "no data connection forwarded in post-copy"
	[ "$(data_conns | cut -d" " -f1 | sort -n | paste -sd" ")" = "$(seq 0 $((D0 - 1)) | paste -sd" ")" ] ||
		fail "the data connections are not numbered 0..$((D0 - 1)): $(data_conns | tr '\n' ',')"
	[ "$(control_ports | wc -l)" -eq 1 ] ||
		fail "expected one control connection before the cut: $(control_ports | tr '\n' ' ')"
}

# 1. The data connection alone.
start a
d0=$(data_conns | awk '$1 == 0 { print $2 }')
c0=$(control_ports)
cut_conn "$d0"
broken_then_recovered
# resumed: the connections after the first D0 are the resume's, numbered
# on from D0 in the same session.
resumed() {
	data_conns | tail -n +$((D0 + 1))
}
[ "$(resumed | wc -l)" -ge 1 ] ||
	fail "the resume came on no new data connection: $(data_conns | tr '\n' ',')"
[ "$(resumed | cut -d' ' -f1 | sort -n | head -n 1)" -eq "$D0" ] ||
	fail "the resume's data connections are not numbered on from $D0: $(data_conns | tr '\n' ',')"
[ "$(control_ports)" = "$c0" ] ||
	fail "the control connection was replaced, not kept: $(control_ports | tr '\n' ' ')"
echo "ok: the main stream's data connection cut in post-copy: recovered on $(resumed | wc -l) new data connection(s) of the same session, after $D0 ($(last_progress "$TMP/a-dst.serial"))"

# 2. The data connection and the control connection together.
start b
d0=$(data_ports)
c0=$(control_ports)
s0=$(sed -n 's/.*session \([0-9a-f]*\) control from .*: open.*/\1/p' "$TMP/b-incoming.err")
cut_conn $d0 "$c0"
broken_then_recovered
[ "$(resumed | wc -l)" -ge 1 ] ||
	fail "the resume came on no new data connection: $(data_conns | tr '\n' ',')"
[ "$(control_ports | wc -l)" -eq 2 ] ||
	fail "expected the resume's question on a second control connection: $(control_ports | tr '\n' ' ')"
s=$(sed -n 's/.*session \([0-9a-f]*\) control from .*: open.*/\1/p' "$TMP/b-incoming.err" | sort -u)
[ "$s" = "$s0" ] || fail "the second control connection is of another session: $s (was $s0)"
echo "ok: the data and control connections cut in post-copy: recovered through a new control connection of the same session ($(last_progress "$TMP/b-dst.serial"))"
