# tests/cpr-lib.sh: in-place updates by cpr-transfer (`qmigrate update`):
# the memory guest on an old QEMU, a new QEMU started as a node agent
# would (the same arguments, plus a main -incoming and a cpr channel), and
# qmigrate moving the guest between them.  A test sources only this file
# (it sources tests/lib.sh, migrate-lib.sh and qemu-matrix-lib.sh, each
# where nothing has yet) and calls cpr_test_begin.
#
# Both QEMUs: the guest's RAM in a shared memfd backend and aux-ram-share
# (QEMU refuses cpr-transfer otherwise).  The old one is QEMU_SRC_VERSION's,
# the new one QEMU_DST_VERSION's, on QEMU_MACHINE.

# A benchmark (bench/cpr-update.sh) has sourced lib.sh, its $TMP made:
# sourcing lib.sh again would forget it.
declare -F setup_tmp >/dev/null || . "$top_srcdir/tests/lib.sh"
declare -F mig_start_pair >/dev/null || . "$top_srcdir/tests/migrate-lib.sh"
declare -F matrix_want >/dev/null || . "$top_srcdir/tests/qemu-matrix-lib.sh"

# cpr_test_begin OLD [NEW [MACHINE]]: an update test's start: QEMU OLD and
# NEW (default OLD) wanted (else the test is skipped, saying which is left
# out), the old QEMU OLD's and the new one NEW's, on MACHINE if given (else
# QEMU_MACHINE's default); the test's own $TMP, removed at its exit.
cpr_test_begin() {
	local old=$1 new=${2:-$1}
	if [ "$new" = "$old" ]; then
		matrix_want "$old"
	else
		matrix_want "$old" "$new"
	fi
	export QEMU_SRC_VERSION=$old QEMU_DST_VERSION=$new
	[ -z "${3:-}" ] || export QEMU_MACHINE=$3
	setup_tmp
}

# cpr_ram_args MIB: sets CPR_RAM_ARGS, the options both QEMUs add to the
# memory guest's for a guest of MIB MiB (its machine has MIB + 64).
cpr_ram_args() {
	# shellcheck disable=SC2054 # commas inside QEMU option values
	CPR_RAM_ARGS=(-object "memory-backend-memfd,id=ram0,size=$(($1 + 64))M,share=on"
		-machine memory-backend=ram0,aux-ram-share=on)
}

# cpr_start_old NAME MIB RATE [QEMU-ARGS...]: the memory guest on the old
# QEMU, ready.
cpr_start_old() {
	local name=$1 mib=$2 rate=$3
	shift 3
	cpr_ram_args "$mib"
	start_memguest "$name" "$mib" "$rate" "${CPR_RAM_ARGS[@]}" "$@"
}

_cpr_listening() {
	_lib_guest_up "$1"
	[ -S "$TMP/$1.cpr" ]
}

# cpr_start_new NAME MIB INCOMING [QEMU-ARGS...]: the new QEMU, as the node
# agent starts it: the old one's arguments plus -incoming INCOMING (defer,
# or unix:$TMP/NAME.main) and the cpr channel $TMP/NAME.cpr.  Returns once
# the cpr socket listens: its monitor ($TMP/NAME.qmp) appears only after
# the old QEMU's migrate, so nothing here waits for it.
cpr_start_new() {
	local name=$1 mib=$2 incoming=$3 rate=${MEMGUEST_RATE:-0}
	shift 3
	_lib_check_name "$name"
	memguest_args "$mib" "$rate"
	cpr_ram_args "$mib"
	qemu_cmd "$QEMU_DST_VERSION"
	"${QEMU_CMD[@]}" -name "$name" \
		-qmp "unix:$TMP/$name.qmp,server=on,wait=off" \
		-serial "file:$TMP/$name.serial" \
		-pidfile "$TMP/$name.pid" \
		"${MEMGUEST_ARGS[@]}" "${CPR_RAM_ARGS[@]}" "$@" \
		-incoming "$incoming" \
		-incoming '{"channel-type":"cpr","addr":{"transport":"socket","type":"unix","path":"'"$TMP/$name.cpr"'"}}' \
		</dev/null >"$TMP/$name.err" 2>&1 &
	_lib_pids+=("$!")
	_lib_names+=("$name")
	disown "$!"
	_lib_pages["$TMP/$name.serial"]=$((mib * 256))
	wait_for 30 "the cpr channel of $name" _cpr_listening "$name"
}

# cpr_running NAME: QEMU NAME runs its guest (query-status).
cpr_running() {
	qmp "$1" query-status | grep -q '"status": "running"'
}

# cpr_devices: sets CPR_DEVICES, a qcow2 disk ($TMP/disk.qcow2, made here)
# on virtio-blk and a NIC of model CPR_NIC (default virtio-net-pci; user
# networking), for both QEMUs: their device state moves, the image stays
# where it is.
CPR_NIC=virtio-net-pci
cpr_devices() {
	need_cmd qemu-img
	rm -f "$TMP/disk.qcow2"
	qemu-img create -q -f qcow2 "$TMP/disk.qcow2" 64M ||
		fail "qemu-img create $TMP/disk.qcow2 failed"
	# shellcheck disable=SC2054 # commas inside QEMU option values
	CPR_DEVICES=(-drive "file=$TMP/disk.qcow2,format=qcow2,if=none,id=disk0"
		-device virtio-blk-pci,drive=disk0
		-netdev user,id=net0 -device "$CPR_NIC,netdev=net0")
}

# cpr_update_run: the whole update of a busy 64 MiB memory guest with a
# qcow2 disk and a NIC, from the old QEMU to a new one started with
# -incoming defer: qmigrate exits 0 with mode CprTransfer, the guest runs
# on the new QEMU with every page intact, the old QEMU is gone, and the
# pause, the bytes and the whole time are printed.
cpr_update_run() {
	local t0 t1 st down bytes phases
	st=$TMP/update.status
	cpr_devices
	cpr_start_old old 64 20 "${CPR_DEVICES[@]}"
	cpr_start_new new 64 defer "${CPR_DEVICES[@]}"
	t0=${EPOCHREALTIME//[!0-9]/}
	run_qmigrate 0 update --qmp "$TMP/old.qmp" --new-qmp "$TMP/new.qmp" \
		--to "unix:$TMP/new.main" --cpr "unix:$TMP/new.cpr" --defer \
		--status-file "$st" --events
	t1=${EPOCHREALTIME//[!0-9]/}
	expect_status "$st" .phase Succeeded
	expect_status "$st" .mode CprTransfer
	expect_status "$st" .completed true
	phases=$(jq -r 'select(.event == "phase") | .status.phase' "$TMP/out" | tr '\n' ' ')
	[ "$phases" = "Running Succeeded " ] || fail "phase events: $phases"
	down=$(status_get "$st" .progress.downtimeMs)
	bytes=$(status_get "$st" .progress.dataProcessed)
	[[ $down =~ ^[0-9]+$ ]] || fail "no downtime reported: $down"
	[ "$bytes" -lt $((1024 * 1024)) ] || fail "$bytes bytes sent: the RAM was copied?"
	# The old QEMU was told quit; the guest is the new one's.
	wait_guest_exit old 10
	cpr_running new || fail "the new QEMU does not run the guest: $(qmp new query-status)"
	assert_memory_intact "$TMP/new.serial"
	assert_no_corrupt "$TMP/old.serial"
	qmp new query-block | grep -q '"file": "'"$TMP/disk.qcow2"'"' ||
		fail "the new QEMU has not the disk: $(qmp new query-block)"
	# The exporter reads the document as any migration's.
	"$QMIGRATE" exporter --once --vm "vm1=$TMP/new.qmp,status=$st" >"$TMP/metrics" 2>"$TMP/metrics.err" ||
		fail "exporter --once: $(cat "$TMP/metrics.err")"
	grep -Eq '^qmigrate_migration_mode\{.*mode="CprTransfer"\} 1$' "$TMP/metrics" ||
		fail "no CprTransfer mode in the metrics: $(grep qmigrate_migration_mode "$TMP/metrics")"
	echo "ok: update QEMU ${QEMU_SRC_VERSION:-host} -> ${QEMU_DST_VERSION:-host} ($QEMU_MACHINE, a qcow2 disk and $CPR_NIC): paused ${down} ms, ${bytes} bytes sent, $(((t1 - t0) / 1000)) ms from start to the old QEMU gone"
}

# cpr_pair MIB RATE: the old QEMU (old, ready) and the new one (new,
# -incoming defer), each with a second monitor NAME.mon for the test (the
# new one's appears with its first, after the old QEMU's migrate).
cpr_pair() {
	cpr_start_old old "$1" "$2" -qmp "unix:$TMP/old.mon,server=on,wait=off"
	cpr_start_new new "$1" defer -qmp "unix:$TMP/new.mon,server=on,wait=off"
}

# The new QEMU cpr_update drives (a new QEMU takes one cpr channel only:
# a second update needs another).
CPR_NEW=new

# cpr_update NAME [ARGS...]: qmigrate update of old to $CPR_NEW in the
# background as NAME, status in $TMP/update.status, events in NAME.out.
cpr_update() {
	local name=$1 n=$TMP/$CPR_NEW
	shift
	bg_start "$name" "$QMIGRATE" update --qmp "$TMP/old.qmp" \
		--new-qmp "$n.qmp" --to "unix:$n.main" --cpr "unix:$n.cpr" \
		--status-file "$TMP/update.status" --events "$@"
}

_cpr_held() {
	status_is "$TMP/update.status" .phase Running &&
		[ -S "$TMP/$CPR_NEW.mon" ] &&
		mon old query-migrate | grep -q '"status": "setup"'
}

# cpr_update_held NAME: an update held before switchover, as long as the
# test wants: the new QEMU waits with -incoming defer but qmigrate is not
# told (no --defer), so it gives it no migrate-incoming and the old QEMU
# waits in setup for the new one to take its cpr channel.  Real QEMU has
# no other way to stop an update of 110 KB for long.  Returns once qmigrate
# is attached to both and the old QEMU waits.
cpr_update_held() {
	cpr_update "$@"
	wait_for 60 "an update held before switchover" _cpr_held
}

# cpr_guest_on_old: the guest runs on the old QEMU, intact, and not on the
# new one.
cpr_guest_on_old() {
	mon old query-status | grep -q '"status": "running"' ||
		fail "the old QEMU does not run the guest: $(mon old query-status)"
	if [ -S "$TMP/$CPR_NEW.mon" ] &&
		kill -0 "$(guest_pid "$CPR_NEW")" 2>/dev/null; then
		! mon "$CPR_NEW" query-status | grep -q '"status": "running"' ||
			fail "the new QEMU runs the guest too"
	fi
	assert_memory_intact "$TMP/old.serial"
}

# cpr_signal_at NAME OLD STATUS THEN SIGNAL PIDFILE [NEW]: in the
# background as NAME, a watcher on the old QEMU's second monitor
# ($TMP/OLD.mon) that asks query-migrate back to back (a round trip is a
# fraction of a ms; the old QEMU's switchover lasts a few) and sends
# SIGNAL to the pid in PIDFILE at the first instant an answer says STATUS
# or a later one (setup, active, pre-switchover, device, completed: a
# status that lasts a ms may fall between two answers), or a MIGRATION
# event read between answers says so.  An answer is the better moment (the
# event can come while QEMU's main loop is held, an answer only when it
# runs, as qmigrate's commands then would), but cpr-exec's device and
# completed last a few ms before the exec ends this monitor: on a loaded
# machine the watcher is not scheduled in them, and only the event,
# already in the socket's buffer, still says they came.  THEN ("-" for
# none) is a later moment the new QEMU tells on its own second monitor
# ($TMP/NEW.mon): "loaded", its query-migrate or a MIGRATION event says
# completed (it has the device state); "runs", its query-status says
# running or a RESUME event came (it runs the guest).  Each moment is
# QEMU's word, never a delay.  It prints "ready" once connected, then
# "signalled after SEEN" (SEEN "device (event)" when an event told it,
# "device, then the new QEMU loaded it" for THEN), or "STATUS never came:
# ..." if the migration failed or was cancelled before, or qmigrate had
# already exited.  120 s at most.
cpr_signal_at() {
	need_cmd python3
	bg_start "$1" python3 -c '
import json, os, signal, socket, sys, time
path, want, then, sig, pidfile = sys.argv[1:6]
newpath = sys.argv[6] if len(sys.argv) > 6 else None
deadline = time.monotonic() + 120
def monitor(p):
    s = socket.socket(socket.AF_UNIX)
    s.connect(p)
    s.settimeout(5)
    f = s.makefile("rwb", buffering=0)
    f.readline()
    events = []
    def ask(cmd):
        f.write(json.dumps({"execute": cmd}).encode() + b"\n")
        while True:
            msg = json.loads(f.readline())
            if "event" not in msg:
                return msg.get("return", {})
            events.append((msg["event"], msg.get("data", {}).get("status")))
    ask("qmp_capabilities")
    return ask, events
ask, events = monitor(path)
order = ["setup", "active", "pre-switchover", "device", "completed"]
def reached(status):
    return status in order and order.index(status) >= order.index(want)
def fire(seen):
    try:
        os.kill(int(open(pidfile).read()), getattr(signal, "SIG" + sig))
        print("signalled after %s" % seen, flush=True)
    except ProcessLookupError:
        print("%s never came: qmigrate had exited after %s" % (want, seen),
            flush=True)
    sys.exit(0)
def new_said():
    # THEN on the new QEMU: its answers, or its events between them.
    nask, nevents = None, []
    while time.monotonic() < deadline:
        if nask is None:
            try:
                nask, nevents = monitor(newpath)
            except OSError:
                continue	# its monitor not there yet: connect again
        try:
            if then == "loaded":
                ok = nask("query-migrate").get("status") == "completed"
                ok = ok or ("MIGRATION", "completed") in nevents
            else:
                ok = nask("query-status").get("status") == "running"
                ok = ok or any(e == "RESUME" for e, _ in nevents)
        except (OSError, ValueError):
            print("%s never came: the new QEMU monitor ended" % then,
                flush=True)
            sys.exit(0)
        if ok:
            return
    print("%s never came within 120 s" % then, flush=True)
    sys.exit(0)
def signal_at(seen):
    if then == "-":
        fire(seen)
    new_said()
    fire("%s, then the new QEMU %s" % (seen,
        "loaded it" if then == "loaded" else "ran the guest"))
print("ready", flush=True)
last = "none"
# An exec ends this monitor (cpr-exec): its connection may close, or stay
# open unserved; either way no answer says the status wanted.
while time.monotonic() < deadline:
    try:
        last = ask("query-migrate").get("status", "none")
    except (OSError, ValueError):
        said = [st for e, st in events if e == "MIGRATION" and reached(st)]
        if said:
            signal_at(said[0] + " (event)")
        print("%s never came: the monitor ended after %s" % (want, last),
            flush=True)
        sys.exit(0)
    if reached(last):
        signal_at(last)
    said = [st for e, st in events if e == "MIGRATION" and reached(st)]
    if said:
        signal_at(said[0] + " (event)")
    if last in ("failed", "cancelled"):
        break
print("%s never came: last %s" % (want, last), flush=True)
' "$TMP/$2.mon" "$3" "$4" "$5" "$6" ${7:+"$TMP/$7.mon"}
	wait_log "$TMP/$1.out" '^ready' 10
}
