#!/usr/bin/env bash
# Random faults at random moments (issue 22): migrations of the memory
# guest with real QEMU, each with its setting and ONE fault drawn from a
# seeded generator, and after each the promise of the README's "What
# qmigrate promises when things break", checked as a user would:
#  - every qmigrate (migrate, a re-run, incoming, abort) exits within a
#    bound, and never by a signal (exit < 128);
#  - each status file parses, its phase agrees with the exit status (0:
#    Succeeded, else Failed) and its exitCode is that status;
#  - the guest runs in exactly one place, the one the exit status names:
#    0 the target; 3, 4, 5 the source (and the source QEMU's migration has
#    ended: it cannot move later); 6 nowhere, both QEMUs' migrations
#    paused (postcopy-paused) and the source stopped, recovered
#    by hand (migrate-recover, migrate resume: the README's operator
#    column), or with the target QEMU killed, lost, as the README says;
#    8 (outcome unknown): as the README tells the operator, migrate
#    again with the same --status-file (it re-attaches or closes the
#    record; on the QEMU's own monitor, not a relay's), SIGTERM to it,
#    and then the place its exit status names; 8 again only over tls:
#    with the source QEMU completed (no target left to ask: "read both
#    documents"), and then the target's exit status: 0, the guest runs
#    on the target only; else never on the source, at most one place;
#  - wherever it runs, its memory checker completes a full sweep that began
#    after the end with no CORRUPT page, ever.
#
# Each run draws: the transport (unix:, or tls: through qmigrate's proxy
# with a throwaway PKI from contrib/make-certs.sh), a local qcow2 disk to
# mirror or none, post-copy allowed or not, a bandwidth cap, the guest's
# write rate (1 MB/s converges; 20 may; 200 needs post-copy or ends at
# --timeout), and one fault at a random moment after migrate starts (0.2 s
# to what the migration would take unfaulted, 8 s for a guest that never
# converges):
#   term-migrate, int-migrate  SIGTERM / SIGINT to migrate
#   term-incoming              SIGTERM to incoming
#   kill-migrate               SIGKILL to migrate, then the same command
#                              again with the same --status-file
#   kill-dst                   the target QEMU killed (SIGKILL)
#   stop-src                   the source QEMU stopped (SIGSTOP) 2-6 s, a
#                              SIGTERM to migrate meanwhile, then SIGCONT;
#                              with FAULT_LONG=1 one in four stops lasts
#                              50 s, longer than any of qmigrate's waits:
#                              migrate must then exit while QEMU is still
#                              stopped (within 47 s of the SIGTERM)
#   cut-qmp                    migrate's QMP connection cut (SIGUSR1 to
#                              tests/qmp-relay, which stands between
#                              migrate and the monitor; see qmp-relay.c)
#   cut-link                   every connection between the two qmigrates
#                              (control, memory, disks) cut at once, by a
#                              tests/qmp-relay on the tls: port (this fault
#                              makes the run a tls: one); half the time the
#                              link stays down 30 s (new connections
#                              refused), longer than --recover-timeout 5
#   abort                      qmigrate abort --status-file
#   mon-src, mon-dst           a monitor that answers late, loses a
#                              command or drops (issue 30): a
#                              tests/qmp-relay in front of the source's
#                              (migrate's) or the target's (incoming's)
#                              QEMU monitor, which at the moment holds the
#                              next command 12 s (past qmigrate's 10 s
#                              command timeout; what follows it on that
#                              connection waits behind it), drops it (QEMU
#                              never answers it), or cuts the connection,
#                              half the time refusing new ones for 40 s
#                              (longer than the 30 s a side waits for its
#                              monitor); the action is drawn
#   ctl-link                   the control connection alone (tls:: this
#                              fault makes the run a tls: one): a
#                              tests/qmp-relay on the tls: port, acting on
#                              its first connection (the control one),
#                              holds what the source sends next 12 s, or
#                              cuts it, half the time refusing new
#                              connections for 40 s
#   none
#
# FAULT_RUNS (4) runs, run i with seed FAULT_SEED+i (FAULT_SEED: 1 in make
# check; the seed is printed with each run).  FAULT_SEED=N FAULT_RUNS=1
# draws run N's setting and fault again (its moment is as exact as a
# loaded machine's clock).  FAULT_KINDS (all of the above) restricts the
# faults drawn, FAULT_TRANSPORTS ("unix tls") and FAULT_DISKS (1: a third
# of the runs mirror a disk; 0: none) the settings.  A violation fails the
# test at once; FAULT_KEEP_GOING=1 counts them and goes on.  The last line
# sums up: runs, faults by kind, exit statuses, violations.
# tests/long/fault-random-long.sh runs it 100 times (make check-long).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
need_cmd openssl qemu-img qemu-io
setup_tmp

relay=$top_builddir/tests/qmp-relay
need_file "$relay" "tests/qmp-relay"
runs=${FAULT_RUNS:-4}
seed0=${FAULT_SEED:-1}
long=${FAULT_LONG:-0}
read -ra kinds <<<"${FAULT_KINDS:-term-migrate int-migrate term-incoming kill-migrate kill-dst stop-src cut-qmp abort none cut-link mon-src mon-dst ctl-link}"
read -ra transports <<<"${FAULT_TRANSPORTS:-unix tls}"
rates=(1 20 200)
# What a relay does to a monitor or the control connection (mon-src,
# mon-dst, ctl-link).
mon_acts=(hold drop cut)
disks=${FAULT_DISKS:-1}
keep_going=${FAULT_KEEP_GOING:-0}
MIB=32
# migrate's own deadline (--timeout): a guest that cannot converge and may
# not use post-copy is aborted then (exit 5).
MIG_TIMEOUT=20
# Bounds on the exits, in seconds: migrate from its start (the deadline,
# a 50 s stop, the cancel's and the monitor's 30 s bounds), incoming from
# migrate's end (a tls: target whose source is gone ends within ~40 s).
MIG_BOUND=150
IN_BOUND=60

make_pki src dst
# The tls: proxies' private directories, removed with $TMP (a SIGKILLed
# migrate cannot remove its own).
mkdir "$TMP/priv"
export TMPDIR=$TMP/priv
port_base=$((20000 + $$ % 20000))

violations=0
# What replays a run besides its seed: the draw depends on these lists.
replay=
[ -z "${FAULT_KINDS:-}" ] || replay+="FAULT_KINDS='$FAULT_KINDS' "
[ -z "${FAULT_TRANSPORTS:-}" ] || replay+="FAULT_TRANSPORTS='$FAULT_TRANSPORTS' "
[ -z "${FAULT_DISKS:-}" ] || replay+="FAULT_DISKS=$FAULT_DISKS "
[ "$long" = 0 ] || replay+="FAULT_LONG=1 "
declare -A by_kind=() by_exit=()

# violation MESSAGE: a broken promise in the current run.  Fails the test
# unless FAULT_KEEP_GOING=1 (then run_one returns after it).
violation() {
	violations=$((violations + 1))
	echo "VIOLATION (run $run, ${replay}FAULT_SEED=$seed FAULT_RUNS=1: $setting): $*" >&2
	# What the run's programs said (the moment may not replay exactly).
	for f in migrate.err again.err after8.err incoming.err src.err dst.err \
		relay.out drelay.out; do
		[ -s "$TMP/$PAIR$f" ] || continue
		echo "--- run $run: tail of $PAIR$f" >&2
		grep -v ' conn [0-9]* .*: forwarding$' "$TMP/$PAIR$f" | tail -n 8 >&2
		# A sanitizer's report: its head names the fault and where.
		if grep -q 'ERROR: AddressSanitizer\|runtime error' "$TMP/$PAIR$f"; then
			echo "--- run $run: the sanitizer's report in $PAIR$f" >&2
			grep -m1 -A 30 'ERROR: AddressSanitizer\|runtime error' "$TMP/$PAIR$f" >&2
		fi
	done
	[ "$keep_going" = 1 ] || fail "run $run (${replay}FAULT_SEED=$seed FAULT_RUNS=1): $*"
}

# exits_within NAME SECS: waits at most SECS for bg_start's NAME to exit
# and sets RC to its exit status; returns 1 if it still runs.
exits_within() {
	local pid t0 now
	_lib_pid_of "$1"
	pid=$_lib_pid
	t0=${EPOCHREALTIME//[!0-9]/}
	while kill -0 "$pid" 2>/dev/null; do
		now=${EPOCHREALTIME//[!0-9]/}
		[ $(((now - t0) / 1000000)) -lt "$2" ] || return 1
		sleep 0.1	# polling for the exit
	done
	RC=0
	wait "$pid" 2>/dev/null || RC=$?
}

# qstate NAME: QEMU NAME's run state (query-status on its second
# monitor), or "gone".
qstate() {
	local s
	_lib_pid_of "$1"
	if ! kill -0 "$_lib_pid" 2>/dev/null ||
		! s=$(timeout 10 "$QMIGRATE" qmp --qmp "$TMP/$1.mon" query-status 2>/dev/null | jq -r .status); then
		echo gone
		return
	fi
	echo "$s"
}

# qmig NAME: QEMU NAME's migration status, "none", or "gone".
qmig() {
	local s
	_lib_pid_of "$1"
	if ! kill -0 "$_lib_pid" 2>/dev/null ||
		! s=$(timeout 10 "$QMIGRATE" qmp --qmp "$TMP/$1.mon" query-migrate 2>/dev/null | jq -r '.status // "none"'); then
		echo gone
		return
	fi
	echo "$s"
}

# settled NAME: QEMU NAME's migration has ended (or never began).
settled() {
	case $(qmig "$1") in
	none | completed | failed | cancelled | gone) return 0 ;;
	esac
	return 1
}

# status_ok FILE RC WHO: FILE is a whole document agreeing with exit RC.
status_ok() {
	local phase code
	jq -e . "$1" >/dev/null 2>&1 || { echo "$2: the status file $1 does not parse: $(head -c 200 "$1")"; return 1; }
	phase=$(status_get "$1" .phase)
	code=$(status_get "$1" .exitCode)
	if [ "$2" -eq 0 ]; then
		[ "$phase" = Succeeded ] || { echo "$3 exit 0, phase $phase"; return 1; }
	else
		[ "$phase" = Failed ] || { echo "$3 exit $2, phase $phase"; return 1; }
	fi
	[ "$code" = "$2" ] || { echo "$3 exit $2, exitCode $code"; return 1; }
}

# sweep NAME: the guest of QEMU NAME completes a full sweep with no
# CORRUPT page (in a subshell: a failure is reported, not fatal).
sweep() {
	local out
	out=$( (assert_memory_intact "$TMP/$1.serial") 2>&1) || {
		violation "memory on $1: $out"
		return 1
	}
	echo "  $out"
}

# recover_by_hand: the README's operator column for exit 6: the target
# QEMU listens again, the source resumes to it; then the guest runs there.
recover_by_hand() {
	local src=${PAIR}src dst=${PAIR}dst n
	mon "$dst" migrate-recover "{\"uri\": \"unix:$TMP/${PAIR}rec.sock\"}" >/dev/null 2>&1 ||
		{ violation "exit 6: migrate-recover on the target refused ($(qmig "$dst"))"; return 1; }
	for ((n = 0; n < 100; n++)); do
		[ -S "$TMP/${PAIR}rec.sock" ] && break
		sleep 0.1	# polling for the socket
	done
	mon "$src" migrate "{\"uri\": \"unix:$TMP/${PAIR}rec.sock\", \"resume\": true}" >/dev/null 2>&1 ||
		{ violation "exit 6: migrate resume on the source refused ($(qmig "$src"))"; return 1; }
	for ((n = 0; n < 1200; n++)); do
		[ "$(qmig "$src")" = completed ] && [ "$(qstate "$dst")" = running ] && break
		sleep 0.1	# polling for the recovered migration's end
	done
	[ "$(qstate "$dst")" = running ] ||
		{ violation "exit 6: recovered by hand, the target is $(qstate "$dst")"; return 1; }
	echo "  recovered by hand"
}

# stop_pair: ends what the run started.
stop_pair() {
	local n
	for n in "${PAIR}src" "${PAIR}dst" "${PAIR}incoming" "${PAIR}migrate" \
		"${PAIR}again" "${PAIR}abort" "${PAIR}relay" "${PAIR}drelay" \
		"${PAIR}after8"; do
		started "$n" || continue
		_lib_pid_of "$n"
		disown "$_lib_pid" 2>/dev/null || true
		kill -CONT "$_lib_pid" 2>/dev/null || true
		kill -KILL "$_lib_pid" 2>/dev/null || true
		wait_for 10 "$n to exit" _lib_gone "$_lib_pid"
	done
	rm -f "$TMP/${PAIR}"*.qcow2
}

# started NAME: bg_start's NAME was started in this run.
started() {
	local i
	for i in "${_lib_names[@]}"; do
		[ "$i" = "$1" ] && return 0
	done
	return 1
}

# run_one RUN SEED: one migration, one fault, the invariants.
run_one() {
	local t0 now transport disk pc cap rate fault delay stop_s stop_long=0 link_down
	local src dst st policy to mig_to qmp_path rc rc_in fired=yes where
	local blk_s=() blk_d=() in_args=() mig_args=() pol mig mig_done=0
	local out n s_state d_state act='' refuse=0 relay_args=() after_args=()
	local dqmp
	run=$1 seed=$2
	RANDOM=$seed
	transport=${transports[RANDOM % ${#transports[@]}]}
	disk=0
	[ "$disks" = 1 ] && [ $((RANDOM % 3)) -eq 0 ] && disk=1
	pc=$((RANDOM % 2))
	cap=$((16 << (RANDOM % 3)))
	rate=${rates[RANDOM % 3]}
	fault=${kinds[RANDOM % ${#kinds[@]}]}
	[ "$fault" != cut-link ] && [ "$fault" != ctl-link ] || transport=tls
	# The moment: within what the migration would take unfaulted (the
	# disk and one and a half passes over the memory at the cap, half a
	# second of setup), twice that for a guest that post-copy finishes,
	# up to 8 s for one that never ends but by --timeout.
	delay=$((500 + (MIB + disk * 32) * 1500 / cap))
	if [ "$rate" -eq 200 ]; then
		# Post-copy ends it in about twice that; without, --timeout.
		[ "$pc" = 1 ] && delay=$((delay * 2)) || delay=8000
	fi
	delay=$((200 + RANDOM % delay))
	stop_s=$((2 + RANDOM % 5))
	if [ "$long" = 1 ] && [ $((RANDOM % 4)) -eq 0 ]; then
		stop_long=1
		stop_s=50
	fi
	link_down=0
	[ "$fault" != cut-link ] || link_down=$((RANDOM % 2 * 30))
	# A monitor or control fault: what the relay does at the moment.
	case $fault in
	mon-src | mon-dst)
		act=${mon_acts[RANDOM % 3]}
		[ "$act" != cut ] || refuse=$((RANDOM % 2 * 40)) ;;
	ctl-link)
		act=${mon_acts[RANDOM % 2 * 2]}
		[ "$act" != cut ] || refuse=$((RANDOM % 2 * 40)) ;;
	esac
	case $act in
	hold) relay_args=(--armed-by-usr2 --hold '"execute"' --hold-for 12) ;;
	drop) relay_args=(--armed-by-usr2 --drop '"execute"') ;;
	cut) relay_args=(--refuse-for "$refuse") ;;
	esac
	# The control connection's bytes are TLS: any of them is held.
	[ "$fault/$act" != ctl-link/hold ] || relay_args=(--armed-by-usr2 --hold '' --hold-for 12)
	[ "$fault" != ctl-link ] || relay_args+=(--only-conn 1)
	setting="$transport disk=$disk postcopy=$pc cap=${cap}Mi rate=$rate $fault at $delay ms"
	[ "$fault" = stop-src ] && setting+=" for $stop_s s"
	[ "$fault" = cut-link ] && setting+=", down $link_down s"
	[ -z "$act" ] || setting+=" ($act)"
	[ "$refuse" = 0 ] || setting+=", refused $refuse s"
	echo "run $run seed $seed: $setting"
	by_kind[$fault]=$((${by_kind[$fault]:-0} + 1))

	PAIR="r$run-"
	src=${PAIR}src dst=${PAIR}dst st=$TMP/${PAIR}src.status
	if [ "$disk" = 1 ]; then
		qemu-img create -q -f qcow2 "$TMP/$src.qcow2" 32M
		qemu-io -c "write -q -P 0x5a 0 8M" "$TMP/$src.qcow2" >/dev/null
		qemu-img create -q -f qcow2 "$TMP/$dst.qcow2" 32M
		# shellcheck disable=SC2054 # commas inside QEMU option values
		blk_s=(-blockdev "driver=qcow2,node-name=data,file.driver=file,file.filename=$TMP/$src.qcow2"
			-device virtio-blk-pci,drive=data,id=vdb)
		# shellcheck disable=SC2054
		blk_d=(-blockdev "driver=qcow2,node-name=data,file.driver=file,file.filename=$TMP/$dst.qcow2"
			-device virtio-blk-pci,drive=data,id=vdb)
	fi
	pol="\"bandwidthPerMigration\": \"${cap}Mi\", \"completionTimeoutPerGiB\": 8"
	[ "$pc" = 1 ] && pol+=", \"allowPostCopy\": true"
	[ "$disk" = 1 ] && pol+=", \"blockMigration\": \"auto\""
	mig_policy "${PAIR}policy" "{ $pol }"
	policy=$TMP/${PAIR}policy.json

	start_memguest "$src" "$MIB" "$rate" \
		-qmp "unix:$TMP/$src.mon,server=on,wait=off" "${blk_s[@]}"
	start_memguest_incoming "$dst" "$MIB" \
		-qmp "unix:$TMP/$dst.mon,server=on,wait=off" "${blk_d[@]}"

	if [ "$transport" = tls ]; then
		to=tls:127.0.0.1:$((port_base + run))
		in_args=(--listen "$to" --tls-dir "$TMP/pki/dst")
		mig_args=(--tls-dir "$TMP/pki/src" --tls-name dst)
	else
		to=unix:$TMP/${PAIR}mig.sock
		in_args=(--listen "$to" --policy "$policy")
	fi
	mig_to=$to
	dqmp=$TMP/$dst.qmp
	if [ "$fault" = mon-dst ]; then
		bg_start "${PAIR}drelay" "$relay" "${relay_args[@]}" \
			"$TMP/${PAIR}drelay.sock" "$TMP/$dst.qmp"
		wait_log "$TMP/${PAIR}drelay.out" '^ready' 10
		dqmp=$TMP/${PAIR}drelay.sock
	fi
	bg_start "${PAIR}incoming" "$QMIGRATE" incoming --qmp "$dqmp" \
		"${in_args[@]}" --status-file "$TMP/$dst.status" --recover-timeout 5
	if [ "$transport" = tls ]; then
		wait_log "$TMP/${PAIR}incoming.err" "listening for the source" 30
	else
		wait_for 30 "$dst prepared" status_is "$TMP/$dst.status" .phase TargetReady
	fi
	qmp_path=$TMP/$src.qmp
	if [ "$fault" = cut-qmp ] || [ "$fault" = mon-src ]; then
		bg_start "${PAIR}relay" "$relay" "${relay_args[@]}" \
			"$TMP/${PAIR}relay.sock" "$TMP/$src.qmp"
		wait_log "$TMP/${PAIR}relay.out" '^ready' 10
		qmp_path=$TMP/${PAIR}relay.sock
	elif [ "$fault" = cut-link ] || [ "$fault" = ctl-link ]; then
		mig_to=tls:127.0.0.1:$((port_base + 1000 + run))
		[ "$fault" = ctl-link ] || relay_args=(--refuse-for "$link_down")
		bg_start "${PAIR}relay" "$relay" "${relay_args[@]}" \
			"tcp:${mig_to#tls:}" "tcp:${to#tls:}"
		wait_log "$TMP/${PAIR}relay.out" '^ready' 10
	fi
	mig_args=(--qmp "$qmp_path" --to "$mig_to" --policy "$policy"
		--status-file "$st" --timeout "$MIG_TIMEOUT" --recover-timeout 5
		"${mig_args[@]}")
	t0=${EPOCHREALTIME//[!0-9]/}
	bg_start "${PAIR}migrate" "$QMIGRATE" migrate "${mig_args[@]}"
	while :; do
		now=${EPOCHREALTIME//[!0-9]/}
		[ $(((now - t0) / 1000)) -lt "$delay" ] || break
		sleep 0.05	# the seeded random moment of the fault is the test
	done

	mig=${PAIR}migrate
	case $fault in
	term-migrate) kill -TERM "$(guest_pid "$mig")" 2>/dev/null || fired=no ;;
	int-migrate) kill -INT "$(guest_pid "$mig")" 2>/dev/null || fired=no ;;
	term-incoming) kill -TERM "$(guest_pid "${PAIR}incoming")" 2>/dev/null || fired=no ;;
	kill-migrate)
		if kill -0 "$(guest_pid "$mig")" 2>/dev/null; then
			# Disowned: bash would report the kill on stderr.
			disown "$(guest_pid "$mig")" 2>/dev/null || true
			kill -KILL "$(guest_pid "$mig")" 2>/dev/null || true
			wait_for 10 "$mig gone" _lib_gone "$(guest_pid "$mig")"
			bg_start "${PAIR}again" "$QMIGRATE" migrate "${mig_args[@]}"
			mig=${PAIR}again
		else
			fired=no
		fi
		;;
	kill-dst)
		# Once QEMU completed, the target QEMU is the guest itself.
		if [ "$(qmig "$src")" = completed ]; then
			fired=no
		else
			kill_guest "$dst"
		fi
		;;
	stop-src)
		stop_guest "$src"	# the SIGTERM comes while QEMU is stopped
		kill -TERM "$(guest_pid "$mig")" 2>/dev/null || fired="no (migrate had ended)"
		if [ "$stop_long" = 1 ]; then
			exits_within "$mig" 47 || {
				kill -CONT "$(guest_pid "$src")" || true
				violation "migrate still runs 47 s after the SIGTERM, its source QEMU stopped"
				stop_pair
				return 0
			}
			mig_done=1
		else
			sleep "$((stop_s))"	# how long QEMU stays stopped is the test
		fi
		kill -CONT "$(guest_pid "$src")" || true
		;;
	cut-qmp | cut-link) kill -USR1 "$(guest_pid "${PAIR}relay")" ;;
	mon-src | mon-dst | ctl-link)
		n=${PAIR}relay
		[ "$fault" != mon-dst ] || n=${PAIR}drelay
		if [ "$act" = cut ]; then
			kill -USR1 "$(guest_pid "$n")"
		else
			kill -USR2 "$(guest_pid "$n")"
		fi
		;;
	abort)
		bg_start "${PAIR}abort" "$QMIGRATE" abort --status-file "$st"
		exits_within "${PAIR}abort" 60 || { violation "qmigrate abort still runs after 60 s"; stop_pair; return 0; }
		[ "$RC" -lt 128 ] || { violation "qmigrate abort killed by a signal (exit $RC)"; stop_pair; return 0; }
		;;
	none) ;;
	esac
	[ "$fired" = yes ] || echo "  (the fault found nothing to hit: $fired)"
	# The relay has taken the signal (its line) before anything is judged.
	case $fault/$act in
	mon-src/hold | mon-src/drop | ctl-link/hold) wait_log "$TMP/${PAIR}relay.out" '^armed' 10 ;;
	mon-dst/hold | mon-dst/drop) wait_log "$TMP/${PAIR}drelay.out" '^armed' 10 ;;
	esac

	# Every qmigrate exits within its bound, never by a signal.
	now=${EPOCHREALTIME//[!0-9]/}
	[ "$mig_done" = 1 ] || exits_within "$mig" $((MIG_BOUND - (now - t0) / 1000000)) ||
		{ violation "$mig still runs $MIG_BOUND s after it started"; stop_pair; return 0; }
	rc=$RC
	[ "$rc" -lt 128 ] || { violation "$mig killed by signal $((rc - 128))"; stop_pair; return 0; }
	by_exit[$rc]=$((${by_exit[$rc]:-0} + 1))
	if [ "$rc" -eq 8 ]; then
		# Outcome unknown: the README tells the operator to run
		# migrate again with the same --status-file, which
		# re-attaches (or closes the record); then an abort.  Its
		# exit status names the place (and ends what incoming waits
		# for).
		out=$(status_ok "$st" 8 "$mig") || { violation "$out"; stop_pair; return 0; }
		echo "  migrate exit 8; source $(qstate "$src") ($(qmig "$src")), target $(qstate "$dst"): migrate again"
		mig=${PAIR}after8
		# The operator looks at QEMU: its own monitor, not a relay's.
		after_args=("${mig_args[@]}")
		after_args[1]=$TMP/$src.qmp
		bg_start "$mig" "$QMIGRATE" migrate "${after_args[@]}"
		for ((n = 0; n < 300; n++)); do
			kill -0 "$(guest_pid "$mig")" 2>/dev/null || break
			[ "$(status_get "$st" .pid)" = "$(guest_pid "$mig")" ] && break
			sleep 0.1	# polling for the re-run's re-attach
		done
		kill -TERM "$(guest_pid "$mig")" 2>/dev/null || true
		exits_within "$mig" 90 ||
			{ violation "the re-run after exit 8 still runs 90 s after its SIGTERM"; stop_pair; return 0; }
		rc=$RC
		[ "$rc" -lt 128 ] || { violation "the re-run after exit 8 killed by signal $((rc - 128))"; stop_pair; return 0; }
		# Over tls: a source QEMU that completed while no qmigrate
		# watched leaves the re-run no target to ask (README: "8: read
		# both documents"): 8 again, and the target's document and
		# exit status, checked below, say where the guest is.
		if [ "$rc" -eq 8 ] && { [ "$transport" != tls ] || [ "$(qmig "$src")" != completed ]; }; then
			violation "the re-run after exit 8 exited 8 too (source QEMU $(qmig "$src"))"
			stop_pair
			return 0
		fi
		[ "$rc" -ne 8 ] || echo "  the re-run: 8 again (tls:, QEMU completed): the target's word decides"
	fi
	if ! exits_within "${PAIR}incoming" 10; then
		# A target that never heard from its source (tls: no control
		# connection came; unix: it has no channel to its source, which
		# failed) waits for one: its operator ends it.
		if { [ "$transport" = unix ] && [ "$rc" -ne 0 ]; } ||
			{ [ "$transport" = tls ] && ! grep -q 'control from' "$TMP/${PAIR}incoming.err"; }; then
			kill -TERM "$(guest_pid "${PAIR}incoming")" 2>/dev/null || true
		fi
		exits_within "${PAIR}incoming" "$IN_BOUND" ||
			{ violation "incoming still runs $((IN_BOUND + 10)) s after migrate exited $rc"; stop_pair; return 0; }
	fi
	rc_in=$RC
	[ "$rc_in" -lt 128 ] || { violation "incoming killed by signal $((rc_in - 128))"; stop_pair; return 0; }

	# The status files agree with the exit statuses.
	out=$(status_ok "$st" "$rc" "$mig") || { violation "$out"; stop_pair; return 0; }
	if [ -e "$TMP/$dst.status" ]; then
		out=$(status_ok "$TMP/$dst.status" "$rc_in" incoming) || { violation "$out"; stop_pair; return 0; }
	fi

	# Where the guest runs.
	case $rc in
	0) where=dst ;;
	3 | 4 | 5) where=src ;;
	8)
		# Only as above: the target says.  Its exit 0 (its document
		# Succeeded, checked above): the target; else not known on
		# both sides: the source's copy stays paused, the guest runs
		# in one place at most.
		[ "$rc_in" -eq 0 ] && where=dst || where=unknown
		by_exit[8-again]=$((${by_exit[8-again]:-0} + 1)) ;;
	6) where=none ;;
	*) violation "migrate exit $rc is none of 0, 3, 4, 5, 6, 8"; stop_pair; return 0 ;;
	esac
	s_state=$(qstate "$src") d_state=$(qstate "$dst")
	for n in "${PAIR}relay" "${PAIR}drelay"; do
		[ "$fault" != cut-qmp ] && started "$n" || continue
		echo "  $n: $(grep -E 'holding|released|dropped|cut|target:' "$TMP/$n.out" | tr '\n' ';') $(grep -c ': refused$' "$TMP/$n.out") refused"
	done
	echo "  migrate exit $rc, incoming exit $rc_in; source $s_state ($(qmig "$src")), target $d_state"
	# kill-dst reads the source's state and then kills: QEMU may complete
	# in between (FAULT_SEED=5011).  The target saw its QEMU hold the
	# guest before the kill: the guest died with the QEMU that had it
	# (the node agent's doing, not a migration's), nothing left to judge.
	if [ "$fault" = kill-dst ] && [ "$rc" -eq 0 ] &&
		grep -q 'gone after the guest arrived' "$TMP/${PAIR}incoming.err"; then
		echo "  (the kill came after the target QEMU had the guest: the guest died with it; not judged)"
		stop_pair
		return 0
	fi
	case $where in
	src)
		[ "$s_state" = running ] && [ "$d_state" != running ] ||
			{ violation "exit $rc: the guest should run on the source only: source $s_state, target $d_state"; stop_pair; return 0; }
		settled "$src" ||
			{ violation "exit $rc: the source QEMU still migrates ($(qmig "$src"))"; stop_pair; return 0; }
		# A completed source QEMU runs the guest again only when the
		# target could not load it (README: the confirm phase, exit 4),
		# and the target must then not run it (checked above).
		[ "$(qmig "$src")" != completed ] || [ "$rc" = 4 ] ||
			{ violation "exit $rc: the source QEMU completed the migration"; stop_pair; return 0; }
		sweep "$src" || { stop_pair; return 0; }
		;;
	dst)
		[ "$d_state" = running ] && [ "$s_state" != running ] ||
			{ violation "exit $rc, incoming $rc_in: the guest should run on the target only: source $s_state, target $d_state"; stop_pair; return 0; }
		sweep "$dst" || { stop_pair; return 0; }
		;;
	unknown)
		[ "$s_state" != running ] ||
			{ violation "exit 8 twice, incoming $rc_in: the source runs its copy again: source $s_state, target $d_state"; stop_pair; return 0; }
		if [ "$d_state" = running ]; then
			sweep "$dst" || { stop_pair; return 0; }
		else
			assert_no_corrupt "$TMP/$src.serial"
			assert_no_corrupt "$TMP/$dst.serial"
		fi
		;;
	none)
		# Both paused in post-copy: the source stopped, and the
		# target's migration paused (its run state stays "running":
		# its vCPUs wait for the pages the source still holds).
		[ "$s_state" != running ] && [ "$(qmig "$src")" = postcopy-paused ] ||
			{ violation "exit 6: the source is $s_state, its migration $(qmig "$src")"; stop_pair; return 0; }
		[ "$d_state" = gone ] || [ "$(qmig "$dst")" = postcopy-paused ] ||
			{ violation "exit 6: the target's migration is $(qmig "$dst")"; stop_pair; return 0; }
		if [ "$d_state" = gone ]; then
			# The pages written since the switch died with the
			# target: nothing to sweep (the README's "accept the loss").
			assert_no_corrupt "$TMP/$src.serial"
			assert_no_corrupt "$TMP/$dst.serial"
			echo "  the target QEMU is gone: the guest is lost, as exit 6 says"
		else
			recover_by_hand || { stop_pair; return 0; }
			sweep "$dst" || { stop_pair; return 0; }
		fi
		;;
	esac
	stop_pair
}

for ((i = 0; i < runs; i++)); do
	run_one "$i" $((seed0 + i))
done
PAIR=
summary="runs $runs, seeds $seed0-$((seed0 + runs - 1)); faults:"
for k in "${!by_kind[@]}"; do
	summary+=" $k=${by_kind[$k]}"
done
summary+="; migrate exits:"
for k in "${!by_exit[@]}"; do
	summary+=" $k:${by_exit[$k]}"
done
summary+="; violations: $violations"
echo "$summary"
[ "$violations" -eq 0 ] || fail "$violations violations of the promise"
echo "ok: every fault left the guest where the exit status says, intact"
