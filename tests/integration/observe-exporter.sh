#!/usr/bin/env bash
# observe-exporter.sh: qmigrate exporter and qmigrate watch during a live
# memguest migration throttled to 4 MiB/s (64 MiB take ~16 s): the scrapes
# show data_remaining falling and the phase Running, then Succeeded, and
# the guest runs on the target with every page intact; a VM
# whose QMP socket hangs (a fake peer: see tests/observe-hang-peer.c) does
# not slow a scrape down and is reported down and stale; every scrape
# passes promtool check metrics and the strict format check
# (tests/observe-lib.sh).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/observe-lib.sh"
need_cmd "$QEMU"
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
HANG=$top_builddir/tests/observe-hang-peer
need_file "$HANG" "observe-hang-peer"
setup_tmp

# A monitor serves one client: the exporter and watch get their own.
start_memguest src 64 0 \
	-qmp "unix:$TMP/src.exp,server=on,wait=off" \
	-qmp "unix:$TMP/src.watch,server=on,wait=off"
start_memguest_incoming dst 64 -qmp "unix:$TMP/dst.exp,server=on,wait=off"
qmp dst migrate-incoming "{\"uri\":\"unix:$TMP/mig.sock\"}" >/dev/null

bg_start hang "$HANG" "$TMP/hang.sock"
wait_log "$TMP/hang.out" '^ready$' 10

hung='hung"\vm'
bg_start exp "$QMIGRATE" exporter --listen 127.0.0.1:0 --interval 0.5 \
	--vm-timeout 1 \
	--vm "src=$TMP/src.exp,status=$TMP/mig.status" \
	--vm "dst=$TMP/dst.exp" --vm "$hung=$TMP/hang.sock"
wait_log "$TMP/exp.err" 'listening on 127\.0\.0\.1:[0-9]+$' 10
port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$TMP/exp.err")
URL=http://127.0.0.1:$port/metrics

# scrape FILE: one scrape into FILE; fails if it takes 2 s or more (the
# hung VM must not hold it up) or does not pass the format check.
scrape() {
	local start took
	start=${EPOCHREALTIME//[!0-9]/}
	curl -sS -f --max-time 4 -o "$1" "$URL" || fail "scrape of $URL failed"
	took=$(( (${EPOCHREALTIME//[!0-9]/} - start) / 1000 ))
	[ "$took" -lt 2000 ] || fail "a scrape took $took ms"
	prom_check "$1"
}

# Both real VMs up and fresh; the hung one down and stale, label escaped.
vms_settled() {
	scrape "$TMP/m0"
	[ "$(metric "$TMP/m0" 'qmigrate_vm_up{name="src"}')" = 1 ] &&
	[ "$(metric "$TMP/m0" 'qmigrate_vm_stale{name="dst"}')" = 0 ] &&
	[ "$(metric "$TMP/m0" 'qmigrate_vm_up{name="hung\"\\vm"}')" = 0 ] &&
	[ "$(metric "$TMP/m0" 'qmigrate_vm_stale{name="hung\"\\vm"}')" = 1 ]
}
wait_for 20 "the exporter to see src and dst up, the hung VM down" vms_settled
[ "$(metric "$TMP/m0" 'qmigrate_vm_memory_domain_bytes{name="src"}')" = $(((64 + 64) * 1048576)) ] ||
	fail "memory of src: $(grep memory_bytes "$TMP/m0")"
[ "$(metric "$TMP/m0" 'qmigrate_vm_vcpus{name="src"}')" = 1 ] || fail "vcpus of src"

cat >"$TMP/pol.json" <<'POL'
{ "name": "slow", "selector": { "labels": {} },
  "migration": { "bandwidthPerMigration": "4Mi" } }
POL
bg_start mig "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "unix:$TMP/mig.sock" --policy "$TMP/pol.json" \
	--status-file "$TMP/mig.status"
bg_start watch "$QMIGRATE" watch --qmp "$TMP/src.watch" \
	--status-file "$TMP/mig.status" --interval 0.5

# data_remaining of src, seen twice, falling, and a transfer rate above
# 0 in some scrape while it runs.  The rate is QEMU's mbps, the last
# 100 ms period's: one period can send nothing (the 4Mi limit's budget
# spent, the migration thread starved under TCG on a loaded machine: a
# full run once scraped 0 there), so no single scrape must show it.
first= falls= bw_seen=
remaining_falls() {
	local r bw
	scrape "$TMP/m1"
	r=$(metric "$TMP/m1" 'qmigrate_migration_data_remaining_bytes{name="src"}')
	[ -n "$r" ] && [ "$r" != 0 ] || return 1
	[ "$(metric "$TMP/m1" 'qmigrate_migration_phase{name="src",phase="Running"}')" = 1 ] ||
		return 1
	bw=$(metric "$TMP/m1" 'qmigrate_migration_memory_transfer_rate_bytes_per_second{name="src"}')
	echo "scrape: data_remaining $r, transfer rate $bw"
	awk -v b="$bw" 'BEGIN { exit !(b > 0) }' && bw_seen=1
	if [ -z "$first" ]; then
		first=$r
	elif awk -v a="$first" -v b="$r" 'BEGIN { exit !(b < a) }'; then
		falls=1
	fi
	[ -n "$falls" ] && [ -n "$bw_seen" ]
}
wait_for 30 "data_remaining of src to fall and its transfer rate to show during the migration" remaining_falls
[ "$(metric "$TMP/m1" 'qmigrate_migration_mode{name="src",mode="PreCopy"}')" = 1 ] ||
	fail "mode of src not PreCopy: $(grep migration_mode "$TMP/m1")"

rc=0
bg_wait mig 120 || rc=$?
[ "$rc" -eq 0 ] || fail "migration failed: exit $rc: $(tail -n 3 "$TMP/mig.err")"
assert_memory_intact "$TMP/dst.serial"
succeeded() {
	scrape "$TMP/m2"
	[ "$(metric "$TMP/m2" 'qmigrate_migration_phase{name="src",phase="Succeeded"}')" = 1 ]
}
wait_for 10 "phase Succeeded for src" succeeded
[ "$(metric "$TMP/m2" 'qmigrate_migration_failures_total{name="src",plane="data",role="source"}')" = 0 ] ||
	fail "failures counted for a good migration"

rc=0
bg_wait watch 15 || rc=$?
[ "$rc" -eq 0 ] || fail "watch exited $rc: $(tail -n 3 "$TMP/watch.err")"
grep -Eq '^phase=Running mode=PreCopy qemu=active progress=[0-9.]+% ' \
	"$TMP/watch.out" || fail "watch showed no running line: $(head -n 3 "$TMP/watch.out")"
tail -n 1 "$TMP/watch.out" | grep -Eq '^phase=Succeeded .*progress=100\.0%' ||
	fail "watch's last line: $(tail -n 1 "$TMP/watch.out")"

# Anything but GET /metrics.
code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/")
[ "$code" = 404 ] || fail "GET / answered $code, expected 404"
code=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$URL")
[ "$code" = 405 ] || fail "POST /metrics answered $code, expected 405"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 9000 /dev/zero | tr '\0' a)" "$URL")
[ "$code" = 431 ] || fail "a 9 KB request head answered $code, expected 431"

# The textfile, once, for node-exporter (on dst's first monitor: the
# running exporter holds dst.exp).
mkdir "$TMP/tf"
"$QMIGRATE" exporter --once --textfile "$TMP/tf" --vm "dst=$TMP/dst.qmp" ||
	fail "exporter --once failed"
prom_check "$TMP/tf/qmigrate.prom"
grep -qx 'qmigrate_vm_up{name="dst"} 1' "$TMP/tf/qmigrate.prom" ||
	fail "textfile: dst not up: $(head -n 20 "$TMP/tf/qmigrate.prom")"
echo "PASS: exporter follows a live migration, a hung VM does not block scrapes"
