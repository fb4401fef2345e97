#!/usr/bin/env bash
# observe-prometheus.sh: Debian's real Prometheus scrapes `qmigrate
# exporter --vm-dir` (every 0.5 s, rules evaluated every 0.5 s) on a node
# of three VMs, and everything is asserted through Prometheus' HTTP API:
#
#  - VMs come and go: the Linux guest appears after the exporter started,
#    the target QEMU that an abort kills leaves, a new one comes back;
#  - CPU (process and per vCPU), memory (size, balloon, QEMU's RSS, the
#    guest's view), block, network (a tap NIC fed 5 packets), guest agent
#    (up, OS) and migration series exist for the VMs that have them;
#  - during a migration throttled to 4 MiB/s, data_remaining falls and
#    the node counts one running migration;
#  - the abort of that migration raises failures_total{plane="abort"} on
#    the source and {plane="data"} on the target, and fires the shipped
#    QmigrateMigrationFailed alert; a migration to a target that does not
#    listen raises {plane="control"};
#  - the next migration ends with the phase Succeeded; the phase
#    transition histogram has each phase of both migrations once;
#  - every exposition passes promtool check metrics (those the test takes)
#    and Prometheus' parser (all the others); the shipped rules load and
#    evaluate without error.
#
# Polling of Prometheus' API is bounded (wait_for): nothing signals a new
# sample.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
. "$top_srcdir/tests/observe-lib.sh"
need_cmd "$QEMU" prometheus ip
[ -x "$QMIGRATE" ] || fail "qmigrate not built: $QMIGRATE"
setup_tmp

VMS=$TMP/vms		# the exporter's --vm-dir
mkdir "$VMS"
TAP=qmp$$s		# src's tap (QEMU creates it, and deletes it on exit)
MAC=52:54:00:9a:00:01
# The memory guests' machine: a tap NIC (rtl8139 takes frames even without
# a driver), a read-only drive (nothing to copy) and a balloon, on both
# sides of the migration.
devs=(-device virtio-balloon -drive if=none,id=disk0,driver=null-co,read-only=on
	-device virtio-blk-pci,drive=disk0 -device "rtl8139,netdev=hn0,id=nic0,mac=$MAC")
start_memguest src 24 1 -qmp "unix:$VMS/src.qmp,server=on,wait=off" \
	-qmp "unix:$TMP/src.mon,server=on,wait=off" "${devs[@]}" \
	-netdev "tap,id=hn0,ifname=$TAP,script=no,downscript=no"
start_memguest_incoming dst 24 -qmp "unix:$VMS/dst.qmp,server=on,wait=off" \
	-qmp "unix:$TMP/dst.mon,server=on,wait=off" "${devs[@]}" \
	-netdev "user,id=hn0"

bg_start exp "$QMIGRATE" exporter --listen 127.0.0.1:0 --vm-dir "$VMS" \
	--node node-a --namespace tests --interval 0.5 --vm-timeout 2
wait_log "$TMP/exp.err" 'listening on 127\.0\.0\.1:[0-9]+$' 10
port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$TMP/exp.err")
URL=http://127.0.0.1:$port/metrics

# The Linux guest comes: its monitor and agent appear in the directory.
# It boots while Prometheus starts (start_linux_guest would wait for it).
need_file "$LINUX_KERNEL" "Linux guest kernel"
need_file "$LINUX_INITRD" "Linux guest initramfs"
linux_guest_args lg
_lib_qemu lg "${LINUX_ARGS[@]}" -qmp "unix:$VMS/lg.qmp,server=on,wait=off"
ln -s "$TMP/lg.qga" "$VMS/lg.qga"

# scrape FILE: one exposition, checked by promtool (and prom-lint).
n_scrapes=0
scrape() {
	curl -sS -f --max-time 4 -o "$1" "$URL" || fail "scrape of $URL failed"
	prom_check "$1"
	n_scrapes=$((n_scrapes + 1))
}

# Prometheus on a free port: the kernel does not pick one for it.  The
# rules are the shipped ones (a path relative to the config would not be).
cp "$top_srcdir/contrib/prometheus-alerts.yml" "$TMP/"
cat >"$TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 500ms
  scrape_timeout: 400ms
  evaluation_interval: 500ms
rule_files:
  - $TMP/prometheus-alerts.yml
scrape_configs:
  - job_name: qmigrate
    static_configs:
      - targets: ['127.0.0.1:$port']
EOF
prom_ready() {
	curl -sf --max-time 2 "$PROM/-/ready" >/dev/null
}
_prom_up_or_gone() {
	prom_ready && return 0
	_lib_pid_of "prometheus$1"
	! kill -0 "$_lib_pid" 2>/dev/null
}
for try in 1 2 3 4 5; do
	pport=$((20000 + (RANDOM % 30000)))
	PROM=http://127.0.0.1:$pport
	bg_start "prometheus$try" prometheus --config.file="$TMP/prometheus.yml" \
		--storage.tsdb.path="$TMP/tsdb$try" --web.listen-address="127.0.0.1:$pport" \
		--log.level=debug
	wait_for 60 "Prometheus to start" _prom_up_or_gone "$try"
	prom_ready && break
	grep -q "address already in use" "$TMP/prometheus$try.err" ||
		fail "prometheus did not start: $(tail -n 5 "$TMP/prometheus$try.err")"
done
prom_ready || fail "no free port for prometheus after 5 tries"

# q EXPR: the value of the one series EXPR selects, or nothing.
q() {
	curl -sf --max-time 5 --get --data-urlencode "query=$1" \
		"$PROM/api/v1/query" |
		jq -r 'if (.data.result | length) == 1 then .data.result[0].value[1] else empty end'
}
# is EXPR VALUE: Prometheus has EXPR at VALUE now.
is() {
	[ "$(q "$1")" = "$2" ]
}
# series NAME LABELS: Prometheus has at least one series NAME{LABELS}.
series() {
	[ "$(q "count($1{$2})")" != "" ]
}
# holds EXPR: EXPR (a comparison) selects something.
holds() {
	[ "$(q "count($1)")" != "" ]
}

wait_for 30 "Prometheus to see src, dst and lg up" eval \
	'is "qmigrate_vm_up{name=\"src\",namespace=\"tests\",node=\"node-a\"}" 1 &&
	 is "qmigrate_vm_up{name=\"dst\"}" 1 && is "qmigrate_vm_up{name=\"lg\"}" 1'
scrape "$TMP/m0"


# Five frames for src's NIC, through its tap (no address clashes: a /30
# private to this run, IPv6 off).
sysctl -qw "net.ipv6.conf.$TAP.disable_ipv6=1"
ip link set "$TAP" up
net=10.213.$(($$ % 250 + 1))
ip addr add "$net.1/30" dev "$TAP"
ip neigh replace "$net.2" lladdr "$MAC" dev "$TAP"
for i in 1 2 3 4 5; do
	echo "frame $i" >"/dev/udp/$net.2/9"
done
wait_for 10 "5 packets received by src's NIC" eval \
	'[ "$(q "qmigrate_vm_network_receive_packets_total{name=\"src\",interface=\"nic0\"}")" -ge 5 ]'

# Every layer's series, for the VMs that have that layer (lg has no drive).
curl -sf --get --data-urlencode 'query=count by (__name__, name)
	({__name__=~"qmigrate_.*", namespace="tests", node="node-a"})' \
	"$PROM/api/v1/query" | jq -r '.data.result[].metric |
	"\(.name) \(.__name__)"' >"$TMP/series" || fail "query of all series failed"
for s in qmigrate_vm_cpu_usage_seconds_total qmigrate_vm_vcpu_seconds_total \
	qmigrate_vm_vcpu_delay_seconds_total qmigrate_vm_vcpus \
	qmigrate_vm_memory_domain_bytes qmigrate_vm_memory_resident_bytes \
	qmigrate_vm_info qmigrate_migration_failures_total \
	qmigrate_vm_storage_read_traffic_bytes_total \
	qmigrate_vm_storage_iops_write_total; do
	for vm in src dst lg; do
		[ "$vm" = lg ] && [[ $s == *storage* ]] && continue
		grep -qx "$vm $s" "$TMP/series" ||
			fail "Prometheus has no $s for $vm"
	done
done
holds 'qmigrate_vm_vcpu_seconds_total{name="src",id="0"} > 0' ||
	fail "src's vCPU 0 used no CPU time"
is 'qmigrate_vm_memory_actual_balloon_bytes{name="src"}' $(((24 + 64) << 20)) ||
	fail "src's balloon: $(q 'qmigrate_vm_memory_actual_balloon_bytes{name="src"}')"
series qmigrate_vm_vnic_info "name=\"src\",interface=\"nic0\",mac=\"$MAC\",tap=\"$TAP\"" ||
	fail "no vnic_info for src's tap NIC"
series qmigrate_vm_network_transmit_bytes_total 'name="src",interface="nic0"' ||
	fail "no transmit counter for src's NIC"
series qmigrate_vm_network_receive_bytes_total 'name="dst"' &&
	fail "dst's NIC has no tap, yet it has network counters"
wait_for "$LINUX_BOOT_TIMEOUT" "Linux guest lg ready" \
	_lib_log_ready lg '^qmguest: ready'
wait_for 30 "Prometheus to see lg's agent" is 'qmigrate_guest_agent_up{name="lg"}' 1
is 'qmigrate_exporter_vms{node="node-a"}' 3 || fail "exporter_vms not 3"
# The agent's parts may come a round after guest-sync on a loaded machine.
wait_for 10 "lg's OS and online memory from its agent" eval \
	'is "qmigrate_guest_os_info{name=\"lg\",guest_os_id=\"qmguest\",guest_os_machine=\"x86_64\"}" 1 &&
	 is "qmigrate_guest_memory_online_bytes{name=\"lg\"}" 268435456'
series qmigrate_guest_agent_up 'name="src"' &&
	fail "src has no agent socket, yet it has qmigrate_guest_agent_up"
scrape "$TMP/m1"

# 1. A migration at 4 MiB/s: data_remaining falls; then it is aborted.
mig_policy slow '{ "bandwidthPerMigration": "4Mi" }'
bg_start incoming "$QMIGRATE" incoming --qmp "$TMP/dst.qmp" \
	--listen "unix:$TMP/mig.sock" --status-file "$VMS/dst.status" \
	--policy "$TMP/slow.json"
wait_for 30 "dst prepared" status_is "$VMS/dst.status" .phase TargetReady
bg_start migrate "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "unix:$TMP/mig.sock" --status-file "$VMS/src.status" \
	--policy "$TMP/slow.json"
first=
remaining_falls() {
	local r
	is 'qmigrate_migration_phase{name="src",phase="Running"}' 1 || return 1
	r=$(q 'qmigrate_migration_data_remaining_bytes{name="src"}')
	[ -n "$r" ] && [ "$r" != 0 ] || return 1
	if [ -z "$first" ]; then
		first=$r
		return 1
	fi
	awk -v a="$first" -v b="$r" 'BEGIN { exit !(b < a) }'
}
wait_for 30 "data_remaining of src to fall in Prometheus" remaining_falls
is 'qmigrate_migrations_in_running_phase{node="node-a"}' 1 ||
	fail "the node does not count one running migration"
series qmigrate_migration_memory_transfer_rate_bytes_per_second 'name="src"' ||
	fail "no memory transfer rate for src"
series qmigrate_migration_start_time_seconds 'name="src"' ||
	fail "no start time for src"
scrape "$TMP/m2"
"$QMIGRATE" abort --status-file "$VMS/src.status" >"$TMP/abort.out" 2>&1 ||
	fail "abort failed: $(cat "$TMP/abort.out")"
expect_exit migrate 5 30
expect_exit incoming 4 30
wait_guest_exit dst 10
assert_memory_intact "$TMP/src.serial"
wait_for 15 "failures_total{plane=abort} of src and {plane=data} of dst" eval \
	'is "qmigrate_migration_failures_total{name=\"src\",plane=\"abort\",role=\"source\"}" 1 &&
	 is "qmigrate_migration_failures_total{name=\"dst\",plane=\"data\",role=\"target\"}" 1'
is 'qmigrate_migration_failures_total{name="src",plane="data",role="source"}' 0 ||
	fail "the abort was also counted as a data-plane failure of src"
# The operator's abort pages nobody: no QmigrateMigrationFailed for it
# (src, plane="abort") nor for the target it cut (dst, role="target");
# checked below, once a later failure shows the rules were evaluated.
is 'qmigrate_migration_failed{name="src"}' 1 || fail "migration_failed of src not 1"
scrape "$TMP/m3"

# The aborted target's QEMU is gone; a new one comes under the same name.
[ -S "$VMS/dst.qmp" ] && rm "$VMS/dst.qmp"	# QEMU leaves it on exit(1)
wait_for 10 "dst to leave" is 'qmigrate_exporter_vms{node="node-a"}' 2
start_memguest_incoming dst2 24 -qmp "unix:$VMS/dst.qmp,server=on,wait=off" \
	-qmp "unix:$TMP/dst2.mon,server=on,wait=off" "${devs[@]}" \
	-netdev "user,id=hn0"
wait_for 15 "dst to come back" is 'qmigrate_vm_up{name="dst"}' 1

# 2. The next migration succeeds.
bg_start incoming2 "$QMIGRATE" incoming --qmp "$TMP/dst2.qmp" \
	--listen "unix:$TMP/mig2.sock" --status-file "$VMS/dst.status"
wait_for 30 "dst2 prepared" status_is "$VMS/dst.status" .phase TargetReady
bg_start migrate2 "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
	--to "unix:$TMP/mig2.sock" --status-file "$VMS/src.status"
expect_exit migrate2 0 60
expect_exit incoming2 0 30
assert_memory_intact "$TMP/dst2.serial"
wait_for 10 "the phase of src to end Succeeded" eval \
	'is "qmigrate_migration_phase{name=\"src\",phase=\"Succeeded\"}" 1 &&
	 is "qmigrate_migration_succeeded{name=\"src\"}" 1 &&
	 is "qmigrate_migration_phase{name=\"dst\",phase=\"Succeeded\"}" 1'
holds 'qmigrate_migration_end_time_seconds{name="src"} - qmigrate_migration_start_time_seconds{name="src"} >= 0' ||
	fail "src's end time not after its start"
is 'qmigrate_migrations_in_running_phase{node="node-a"}' 0 || fail "a migration still counted running"
is 'qmigrate_migration_failures_total{name="src",plane="abort",role="source"}' 1 ||
	fail "a success changed src's failure count"
# KubeVirt's phase transition histogram: each phase of both migrations of
# src observed once (the aborted one: Pending to Failed; this one: Pending
# to Succeeded), seconds from the migration's start.
h=qmigrate_migration_phase_transition_time_from_creation_seconds
is "${h}_count{name=\"src\",phase=\"Running\"}" 2 &&
is "${h}_count{name=\"src\",phase=\"Succeeded\"}" 1 &&
is "${h}_count{name=\"src\",phase=\"Failed\"}" 1 ||
	fail "src's phase transition histogram: $(q "${h}_count{name=\"src\"}")"
holds "${h}_bucket{name=\"src\",phase=\"Succeeded\",le=\"+Inf\"} == 1" ||
	fail "no +Inf bucket of Succeeded for src"
scrape "$TMP/m4"

# 3. The guest, now on dst2, to a target nobody listens on: control plane.
rc=0
"$QMIGRATE" migrate --qmp "$TMP/dst2.qmp" --to "unix:$TMP/nobody.sock" \
	--status-file "$VMS/dst.status" >/dev/null 2>"$TMP/fail.err" || rc=$?
[ "$rc" -eq 3 ] || fail "migration to nobody: exit $rc, expected 3"
wait_for 10 "failures_total{plane=control} of dst" is \
	'qmigrate_migration_failures_total{name="dst",plane="control",role="source"}' 1
wait_for 10 "the QmigrateMigrationFailed alert to fire for dst's control plane" is \
	'ALERTS{alertname="QmigrateMigrationFailed",alertstate="firing",name="dst",plane="control",role="source"}' 1
is 'count(ALERTS{alertname="QmigrateMigrationFailed"})' 1 ||
	fail "the operator's abort paged: $(q 'ALERTS{alertname="QmigrateMigrationFailed"}')"
scrape "$TMP/m5"

# Prometheus could read every exposition, every rule evaluated cleanly.
# A scrape may time out on a starved machine (0.4 s; CI runs QEMUs on 2
# cores); any other failure is the exporter's (a format Prometheus
# rejects, a refused or broken connection).
bad=$(grep 'msg="Scrape failed"' "$TMP"/prometheus*.err |
	grep -v 'context deadline exceeded' | head -n 3) || true
[ -z "$bad" ] || fail "Prometheus could not scrape the exporter: $bad"
timeouts=$(grep -c 'msg="Scrape failed"' "$TMP"/prometheus*.err) || true
curl -sf "$PROM/api/v1/rules" | jq -e '[.data.groups[] | select(.name == "qmigrate") |
	.rules[]] | length == 10 and all(.health == "ok")' >/dev/null ||
	fail "rules: $(curl -sf "$PROM/api/v1/rules" | jq -c '[.data.groups[].rules[] | {name, health, lastError}]')"
echo "PASS: Prometheus followed 3 VMs through an abort, a success and a failure ($n_scrapes expositions checked by promtool, ${timeouts:-0} scrapes timed out)"
