#!/usr/bin/env bash
# proxy-migration.sh: the same migration over every transport an operator
# has, interleaved run by run, without and with multifd (4 channels):
#   unix     a plain unix socket between the two QEMUs (no encryption: the
#            floor), driven by QMP
#   native   QEMU's own TLS (tls-creds-x509, GnuTLS inside QEMU) over TCP,
#            what libvirt uses, driven by QMP
#   stunnel  a stunnel4 chain (unix -> TLS 1.3 over TCP -> unix), by QMP
#   relay    qmigrate's proxy pair without TLS (proxy source|target with
#            tcp:) between QEMUs driven by QMP exactly as for unix: what
#            the proxy's buffering alone changes
#   qmigrate qmigrate migrate --to tls: / incoming --listen tls: (its own
#            TLS proxy and its own migration settings)
# The guest is the memory guest (every page of its area non-zero, dirtying
# RATE MB/s).  The QMP-driven runs lift max-bandwidth as an operator would
# (0: unlimited, as qmigrate does) and keep QEMU's other defaults.  Total
# time and downtime come from the source QEMU's query-migrate; medians and
# spread.  Not a test: it prints figures and, with --write, replaces its
# section of bench/RESULTS.md.
#
# usage: [MODES="unix native ..."] bench/proxy-migration.sh [--write]
#        [BUILD-DIR] [MIB] [RATE] [RUNS]
# (default: all five, 256 MiB, 20 MB/s, 3 runs; BENCH_QUICK=1: 1 run)
set -euo pipefail
write=
if [ "${1:-}" = --write ]; then write=--write; shift; fi
build=${1:-}
[ $# -gt 0 ] && shift
. "$(dirname "$0")/bench-lib.sh"
bench_init $write ${build:+"$build"}
mib=${1:-256}
rate=${2:-20}
runs=${3:-3}
[ -n "${BENCH_QUICK:-}" ] && runs=1
# A migration that has not ended after this many seconds failed.
deadline=$((60 + mib / 2))
need_cmd stunnel4 openssl
bash "$top_srcdir/contrib/make-certs.sh" "$TMP/pki" source target >/dev/null
# QEMU's tls-creds-x509 wants its own file names in one directory per end.
mkdir -p "$TMP/qtls/client" "$TMP/qtls/server"
cp "$TMP/pki/source/ca.pem" "$TMP/qtls/client/ca-cert.pem"
cp "$TMP/pki/source/cert.pem" "$TMP/qtls/client/client-cert.pem"
cp "$TMP/pki/source/key.pem" "$TMP/qtls/client/client-key.pem"
cp "$TMP/pki/target/ca.pem" "$TMP/qtls/server/ca-cert.pem"
cp "$TMP/pki/target/cert.pem" "$TMP/qtls/server/server-cert.pem"
cp "$TMP/pki/target/key.pem" "$TMP/qtls/server/server-key.pem"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
port=$((30000 + RANDOM % 20000))

# mon NAME ARGS...: QMP on NAME's second monitor (qmigrate holds the first).
mon() {
	local n=$1
	shift
	"$QMIGRATE" qmp --qmp "$TMP/$n.mon" "$@"
}
mig_field() { mon "$1" query-migrate | jq -r "$2 // empty"; }
# mig_over NAME: the source's migration ended (bounded polling: the
# MIGRATION event is the monitor's, and qmigrate's runs hold it).
mig_over() {
	case $(mig_field "$1" .status) in
	completed | failed | cancelled) return 0 ;;
	esac
	return 1
}

# listening PORT: a TCP socket listens on 127.0.0.1:PORT (/proc/net/tcp).
listening() {
	grep -q "0100007F:$(printf '%04X' "$1") 00000000:0000 0A" /proc/net/tcp
}

# mig_within SECONDS NAME: waits (bounded polling) for NAME's migration
# to end; false if it did not within SECONDS.
mig_within() {
	local end=$((SECONDS + $1))
	while [ $SECONDS -lt $end ]; do
		mig_over "$2" && return 0
		sleep 0.2
	done
	return 1
}

stunnel_conf() { # NAME ACCEPT CONNECT CLIENT DIR
	cat >"$TMP/$1.conf" <<CONF
foreground = yes
pid =
debug = 3
[$1]
client = $4
accept = $2
connect = $3
cert = $5/cert.pem
key = $5/key.pem
CAfile = $5/ca.pem
verifyChain = yes
sslVersionMin = TLSv1.3
CONF
	[ "$4" = yes ] && echo "checkIP = 127.0.0.1" >>"$TMP/$1.conf"
	[ -n "${STUNNEL_DEBUG:-}" ] && sed -i 's/^debug = 3/debug = 7/' "$TMP/$1.conf"
	return 0
}

# event_at NAME: the time (s) of the event the waiter NAME printed.
event_at() {
	jq -r 'if (.timestamp | type) == "number" then .timestamp
	    else .timestamp.seconds + .timestamp.microseconds / 1e6 end' \
	    "$TMP/$1.out" 2>/dev/null
}

# one_run MODE MULTIFD N: one migration; appends "TOTAL-MS DOWNTIME-MS
# PAUSE-MS" (or "failed") to $TMP/MODE.MULTIFD.  PAUSE is how long the
# guest did not run: from the source QEMU's STOP event to the target's
# RESUME (both stamped by QEMU from this host's clock): unlike QEMU's
# downtime, which the source measures, it includes what was still in

# event_within NAME SECONDS: the background event waiter NAME ended within
# SECONDS with status 0.  A missing event makes one run failed, not the
# benchmark (bg_wait fails the whole script).  Bounded polling: the
# waiter's exit signals nothing a shell can block on with a deadline.
event_within() {
	local i
	_lib_pid_of "$1"
	for i in $(seq $(($2 * 10))); do
		if _lib_gone "$_lib_pid"; then
			wait "$_lib_pid"
			return
		fi
		sleep 0.1
	done
	return 1
}

# flight between the two QEMUs when the source stopped.
one_run() {
	local mode=$1 mf=$2 s=s-$1-$2-$3 d=d-$1-$2-$3 caps uri st out sm dm
	local params='{"max-bandwidth":0}'
	port=$((port + 1))
	start_memguest "$s" "$mib" "$rate" \
		-qmp "unix:$TMP/$s.mon,server=on,wait=off"
	start_memguest_incoming "$d" "$mib" \
		-qmp "unix:$TMP/$d.mon,server=on,wait=off"
	# The monitor qmigrate does not hold (QMP: the one we do not use).
	sm=$s.qmp dm=$d.qmp
	[ "$mode" = qmigrate ] && sm=$s.mon dm=$d.mon
	bg_start "$s-stop" "$QMIGRATE" qmp --qmp "$TMP/$sm" --timeout \
		$((deadline + 60)) --wait-event STOP query-status
	bg_start "$d-resume" "$QMIGRATE" qmp --qmp "$TMP/$dm" --timeout \
		$((deadline + 60)) --wait-event RESUME query-status
	if [ "$mode" = qmigrate ]; then
		printf '{ "name": "bench", "migration": { "parallelMigrationThreads": %s } }\n' \
			"$([ "$mf" = multifd ] && echo 4 || echo 0)" >"$TMP/bench.json"
		bg_start "$d-in" "$QMIGRATE" incoming --qmp "$TMP/$d.qmp" \
			--listen "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/target" \
			--status-file "$TMP/$d.status"
		wait_for 60 "$d listening" grep -q "listening for the source" \
			"$TMP/$d-in.err"
		bg_start "$s-mig" "$QMIGRATE" migrate --qmp "$TMP/$s.qmp" \
			--to "tls:127.0.0.1:$port" --tls-dir "$TMP/pki/source" \
			--tls-name target --policy "$TMP/bench.json" \
			--status-file "$TMP/$s.status" --timeout "$deadline"
		bg_wait "$s-mig" $((deadline + 60)) || true
		bg_wait "$d-in" 60 || true
		cp "$TMP/$s.status" "$TMP/last-qmigrate.$mf.status" 2>/dev/null || true
	else
		if [ "$mf" = multifd ]; then
			caps='{"capabilities":[{"capability":"multifd","state":true}]}'
			mon "$s" migrate-set-capabilities "$caps" >/dev/null
			mon "$d" migrate-set-capabilities "$caps" >/dev/null
			mon "$s" migrate-set-parameters '{"multifd-channels":4}' >/dev/null
			mon "$d" migrate-set-parameters '{"multifd-channels":4}' >/dev/null
		fi
		case $mode in
		unix)
			mon "$d" migrate-incoming '{"uri":"unix:'"$TMP/$d.in"'"}' >/dev/null
			uri=unix:$TMP/$d.in
			;;
		native)
			mon "$d" object-add '{"qom-type":"tls-creds-x509","id":"tls0","dir":"'"$TMP/qtls/server"'","endpoint":"server","verify-peer":true}' >/dev/null
			mon "$s" object-add '{"qom-type":"tls-creds-x509","id":"tls0","dir":"'"$TMP/qtls/client"'","endpoint":"client","verify-peer":true}' >/dev/null
			mon "$d" migrate-set-parameters '{"tls-creds":"tls0"}' >/dev/null
			params='{"max-bandwidth":0,"tls-creds":"tls0","tls-hostname":"target"}'
			mon "$d" migrate-incoming '{"uri":"tcp:127.0.0.1:'"$port"'"}' >/dev/null
			uri=tcp:127.0.0.1:$port
			;;
		relay)
			mon "$d" migrate-incoming '{"uri":"unix:'"$TMP/$d.in"'"}' >/dev/null
			bg_start "$d-re" "$QMIGRATE" -q proxy target \
				--listen "tcp:127.0.0.1:$port" --to "unix:$TMP/$d.in"
			wait_for 30 "relay on port $port" listening "$port"
			bg_start "$s-re" "$QMIGRATE" -q proxy source \
				--listen "unix:$TMP/$s.rl" --to "tcp:127.0.0.1:$port"
			wait_for 30 "relay's socket" test -S "$TMP/$s.rl"
			uri=unix:$TMP/$s.rl
			;;
		stunnel)
			mon "$d" migrate-incoming '{"uri":"unix:'"$TMP/$d.in"'"}' >/dev/null
			stunnel_conf "$d-st" "127.0.0.1:$port" "$TMP/$d.in" no "$TMP/pki/target"
			stunnel_conf "$s-st" "$TMP/$s.st" "127.0.0.1:$port" yes "$TMP/pki/source"
			bg_start "$d-st" stunnel4 "$TMP/$d-st.conf"
			bg_start "$s-st" stunnel4 "$TMP/$s-st.conf"
			wait_for 30 "stunnel on port $port" listening "$port"
			wait_for 30 "stunnel's socket" test -S "$TMP/$s.st"
			uri=unix:$TMP/$s.st
			;;
		esac
		mon "$s" migrate-set-parameters "$params" >/dev/null
		mon "$s" migrate '{"uri":"'"$uri"'"}' >/dev/null
		# A stream broken by a proxy can leave the source waiting for
		# ever: past the deadline the run is cancelled and failed.
		if ! mig_within "$deadline" "$s"; then
			mon "$s" migrate_cancel >/dev/null || true
			echo "$mode $mf run $3: no end after $deadline s: cancelled" >&2
		fi
	fi
	st=$(mig_field "$s" .status)
	if [ "$st" = completed ] && event_within "$s-stop" 30 &&
	    event_within "$d-resume" 30; then
		out="$(mig_field "$s" '."total-time"') $(mig_field "$s" .downtime)"
		out="$out $(awk -v a="$(event_at "$s-stop")" \
		    -v b="$(event_at "$d-resume")" \
		    'BEGIN { printf "%.0f", (b - a) * 1000 }')"
	else
		out=failed
	fi
	echo "$out" >>"$TMP/$mode.$mf"
	echo "$mode $mf run $3: $out" >&2
	kill_guest "$s"
	kill_guest "$d"
	if [ "$mode" = stunnel ] || [ "$mode" = relay ]; then
		for p in "$d-${mode:0:2}" "$s-${mode:0:2}"; do
			_lib_pid_of "$p"
			kill "$_lib_pid" 2>/dev/null || true
		done
	fi
}

modes=${MODES:-unix relay native stunnel qmigrate}
for i in $(seq "$runs"); do
	for mf in single multifd; do
		for mode in $modes; do
			one_run "$mode" "$mf" "$i"
		done
	done
done

# cell MODE MF FIELD: "median (min-max)" of the runs that completed, and
# how many failed.
cell() {
	local v fails
	v=$(awk -v f="$3" '$1 != "failed" { print $f }' "$TMP/$1.$2")
	fails=$(grep -c failed "$TMP/$1.$2" || true)
	if [ -z "$v" ]; then
		echo "all $fails failed"
		return
	fi
	# shellcheck disable=SC2086
	printf '%s (%s)%s' "$(median $v)" "$(spread $v)" \
		"$([ "$fails" -gt 0 ] && echo ", $fails failed")"
}
label() {
	case $1 in
	unix) echo "plain unix socket (no TLS)" ;;
	native) echo "QEMU native TLS (tls-creds-x509, TCP)" ;;
	stunnel) echo "stunnel4 chain (TLS 1.3)" ;;
	relay) echo "qmigrate proxy, no TLS (tcp:), QMP as unix" ;;
	qmigrate) echo "qmigrate tls:" ;;
	esac
}
rows() {
	local mode
	for mode in $modes; do
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' \
			"$(label "$mode")" "$(cell "$mode" single 1)" \
			"$(cell "$mode" single 2)" "$(cell "$mode" single 3)" \
			"$(cell "$mode" multifd 1)" "$(cell "$mode" multifd 2)" \
			"$(cell "$mode" multifd 3)"
	done
}
qm_config() {
	local f=$TMP/last-qmigrate.$1.status
	[ -e "$f" ] || { echo "(no status)"; return; }
	jq -r '"configuration \(.migrationConfiguration.qemu // .migrationConfiguration | tostring); decisions: \([.decisions[]? | "\(.action) (\(.reason // "" | .[0:120]))"] | if length == 0 then "none" else join("; ") end)"' "$f"
}

# A run that failed is a figure (stunnel reorders multifd channels); no
# run at all that ended is a broken benchmark, never a report.
grep -hqv '^failed' "$TMP"/*.single "$TMP"/*.multifd 2>/dev/null ||
	fail "no migration of any transport ended: nothing to report (logs in $TMP)"

report=$(cat <<REPORT
## Migration over each transport

bench/proxy-migration.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(bench_rev).

memguest $mib MiB (every page of its area non-zero) dirtying $rate MB/s,
$runs runs of each case, interleaved; median (min-max) in ms.  total and
downtime: the source QEMU's query-migrate; pause: how long the guest did
not run, from the source QEMU's STOP event to the target QEMU's RESUME
(what the guest sees; QEMU's downtime ends when the source has written
its last byte, not when the target has it).  The QMP-driven cases lift
max-bandwidth (0, unlimited, as qmigrate) and keep QEMU's other defaults
(downtime-limit 300 ms).  Multifd: 4 channels.
Machine: $(bench_machine) at the end; $load0 at the start.

| transport | total | downtime | pause | total, multifd | downtime, multifd | pause, multifd |
|---|---:|---:|---:|---:|---:|---:|
$(rows)

qmigrate's last run without multifd: $(qm_config single).
With multifd: $(qm_config multifd).
REPORT
)
echo "$report"
if [ -n "$write" ]; then
	printf '%s\n' "$report" >"$TMP/report.md"
	bench_section proxy-migration "$TMP/report.md"
fi
