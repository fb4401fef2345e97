#!/usr/bin/env bash
# qmigrate update and SIGTERM at many moments of the switchover (issue 37,
# the update window).  The new QEMU is started as the README shows (no
# -S): once the old QEMU's device state has reached it, it loads it and
# runs the guest whatever the old one does next, on the same memfd.  So
# once the old QEMU's vCPUs stopped for the switchover nothing may cancel
# it.  qmigrate gives the old QEMU pause-before-switchover: it waits in
# pre-switchover, where a cancel is safe, until qmigrate's migrate-continue,
# the point of no return.
#
# Held: a relay holds qmigrate's migrate-continue, SIGTERM meanwhile: the
# abort is refused and the update ends (0).  On b475dc5 there is no such
# hold point (no pause-before-switchover, no migrate-continue) and this
# part fails.
#
# Then each try boots its own pair and fires SIGTERM from a watcher on the
# old QEMU's second monitor at the first instant its query-migrate says
# the given status or a later one, or then the new QEMU's own word that
# it loaded the guest or runs it (cpr_signal_at: each moment is QEMU's
# word, never a delay): during the setup, at pre-switchover (the signal
# races qmigrate's migrate-continue: 0 and 5 are both right), in device,
# once the new QEMU loaded the device state or runs the guest, and after
# completion (past the point of no return: only 0 is right).  Every try checks that exactly one QEMU runs
# the guest and every page of it.  (On b475dc5 the natural window is a few
# us wide here: in about 40 such tries it was hit once, a new QEMU that had
# the device state while the old one was cancelled and ran on.)
. "$top_srcdir/tests/cpr-lib.sh"
matrix_want 10.0 11.1
setup_tmp

# _settled NAME: QEMU NAME is not loading a guest: it has exited (its
# load failed), runs (it loaded one), or waits with no stream (the update
# was cancelled before the old QEMU connected to it).
_settled() {
	local pid
	_lib_pid_of "$1"
	pid=$_lib_pid
	! kill -0 "$pid" 2>/dev/null && return 0
	! mon "$1" query-status 2>/dev/null | grep -q '"status": "inmigrate"' &&
		return 0
	! mon "$1" query-migrate 2>/dev/null | grep -q '"status": "active"'
}

# try N VERSION STATUS[+THEN][:disk]: one update of a fresh pair on QEMU
# VERSION, SIGTERM once the old QEMU said STATUS (and THEN, the new QEMU
# "loaded" the guest or "runs" it).
try() {
	local n=$1 rc=0 old=old$1 new=new$1 st=$TMP/u$1.status said
	local status then devices
	IFS=: read -r status devices <<<"$3"
	then=-
	[[ $status != *+* ]] || { then=${status#*+}; status=${status%%+*}; }
	export QEMU_SRC_VERSION=$2 QEMU_DST_VERSION=$2
	CPR_DEVICES=()
	[ -z "$devices" ] || cpr_devices
	cpr_start_old "$old" 32 20 "${CPR_DEVICES[@]}" \
		-qmp "unix:$TMP/$old.mon,server=on,wait=off"
	cpr_start_new "$new" 32 defer "${CPR_DEVICES[@]}" \
		-qmp "unix:$TMP/$new.mon,server=on,wait=off"
	cpr_signal_at "sig$n" "$old" "$status" "$then" TERM "$TMP/u$n.pid" "$new"
	bg_start "u$n" "$QMIGRATE" update --qmp "$TMP/$old.qmp" \
		--new-qmp "$TMP/$new.qmp" --to "unix:$TMP/$new.main" \
		--cpr "unix:$TMP/$new.cpr" --defer --status-file "$st"
	_lib_pid_of "u$n"
	echo "$_lib_pid" >"$TMP/u$n.pid"
	bg_wait "u$n" 90 || rc=$?
	bg_wait "sig$n" 30 || true
	said=$(grep -E '^(signalled|.* never came)' "$TMP/sig$n.out") ||
		fail "try $n: the watcher said nothing: $(cat "$TMP/sig$n.out" "$TMP/sig$n.err")"
	wait_for 15 "the new QEMU $new to exit or run (update exited $rc; $said)" \
		_settled "$new"
	case $rc in
	0)
		expect_status "$st" .phase Succeeded
		wait_guest_exit "$old" 10
		cpr_running "$new" || fail "try $n: exit 0 but the new QEMU: $(qmp "$new" query-status)"
		assert_memory_intact "$TMP/$new.serial" >/dev/null
		;;
	5)
		! grep -Eq 'after (device|completed) ' <<<"$said" ||
			fail "try $n: exit 5, $said (past the point of no return): $(tail -n 2 "$TMP/u$n.err")"
		expect_status "$st" .abortStatus Succeeded
		CPR_NEW=$new cpr_guest_on_old_named "$old"
		;;
	*)
		fail "try $n ($said): update exited $rc: $(tail -n 2 "$TMP/u$n.err")"
		;;
	esac
	assert_no_corrupt "$TMP/$old.serial"
	assert_no_corrupt "$TMP/$new.serial"
	echo "try $n: QEMU $2${devices:+ (a disk and a NIC)}, $said: exit $rc, the guest on $([ "$rc" = 0 ] && echo new || echo old) only, every page intact"
	kill_guest "$old"
	kill_guest "$new"
}

# The old QEMU of a try, running the guest alone (cpr_guest_on_old's
# checks, for a pair not named old/new).
cpr_guest_on_old_named() {
	mon "$1" query-status | grep -q '"status": "running"' ||
		fail "the old QEMU $1 does not run the guest: $(mon "$1" query-status)"
	if kill -0 "$(guest_pid "$CPR_NEW")" 2>/dev/null; then
		! mon "$CPR_NEW" query-status | grep -q '"status": "running"' ||
			fail "both QEMUs run the guest: $1 and $CPR_NEW"
	fi
	assert_memory_intact "$TMP/$1.serial" >/dev/null
}

# Held past the point of no return: a relay in front of the old QEMU's
# monitor holds qmigrate's migrate-continue 3 s (a real QEMU cannot be made
# to; it keeps the old QEMU waiting in pre-switchover, its vCPUs stopped),
# and SIGTERM comes meanwhile: refused, the update ends (0).
relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"
export QEMU_SRC_VERSION=10.0 QEMU_DST_VERSION=10.0
cpr_start_old oldh 32 20 -qmp "unix:$TMP/oldh.mon,server=on,wait=off"
cpr_start_new newh 32 defer -qmp "unix:$TMP/newh.mon,server=on,wait=off"
bg_start relayh "$relay" --hold '"migrate-continue"' --hold-for 3 \
	"$TMP/relayh.sock" "$TMP/oldh.qmp"
wait_log "$TMP/relayh.out" '^ready' 10
bg_start uh "$QMIGRATE" update --qmp "$TMP/relayh.sock" \
	--new-qmp "$TMP/newh.qmp" --to "unix:$TMP/newh.main" \
	--cpr "unix:$TMP/newh.cpr" --defer --status-file "$TMP/uh.status"
wait_log "$TMP/relayh.out" 'holding' 60
mon oldh query-migrate | grep -q '"status": "pre-switchover"' ||
	fail "held: the old QEMU: $(mon oldh query-migrate)"
_lib_pid_of uh
kill -TERM "$_lib_pid"
expect_exit uh 0 60
expect_status "$TMP/uh.status" .phase Succeeded
expect_status "$TMP/uh.status" .abortStatus Failed
expect_status "$TMP/uh.status" .abortRequested true
status_get "$TMP/uh.status" '.notes[]' | grep -q "abort refused: the old QEMU stopped the guest for the switchover" ||
	fail "held: no note: $(status_get "$TMP/uh.status" .notes)"
wait_guest_exit oldh 10
cpr_running newh || fail "held: the new QEMU: $(mon newh query-status)"
assert_memory_intact "$TMP/newh.serial" >/dev/null
assert_no_corrupt "$TMP/oldh.serial"
echo "held: SIGTERM while migrate-continue was on its way: refused, exit 0, the guest on the new QEMU only, every page intact"
kill_guest newh

# Each moment is STATUS[+THEN][:disk] (disk: a qcow2 disk and a NIC on
# both QEMUs: their device state and the image, with its lock, move too).
n=0
for moment in device device+loaded device+runs device:disk \
	device+loaded:disk device+runs:disk pre-switchover pre-switchover:disk \
	setup completed; do
	n=$((n + 1))
	try "$n" 10.0 "$moment"
done
for moment in device device+runs device+loaded:disk pre-switchover; do
	n=$((n + 1))
	try "$n" 11.1 "$moment"
done
echo "ok: SIGTERM at $n moments of the switchover: the guest in one place, every page intact"
