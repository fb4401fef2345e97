# tests/cpr-exec-lib.sh: in-place updates by cpr-exec (`qmigrate update
# --mode exec`, QEMU 11.1): the memory guest on one QEMU process that execs
# its new command line.  A test sources only this file (it sources
# tests/cpr-lib.sh, which sources what it needs) and calls
# cpr_exec_test_begin.
#
# The console is `-chardev file,...,append=on`: the new QEMU would truncate
# a `-serial file:` one, and the sweeps before the exec would be lost.
# Under the suite's roots the new command line's paths are those inside the
# root (/usr/bin/qemu-system-x86_64); $TMP and the build tree are bound in
# at the same paths (tests/qemu-wrap.sh).

# A benchmark (bench/cpr-update.sh) may have sourced cpr-lib.sh already.
declare -F cpr_test_begin >/dev/null || . "$top_srcdir/tests/cpr-lib.sh"

# cpr_exec_test_begin: cpr-exec is QEMU 11.1's (the first with mode
# cpr-exec); its guests boot the pc machine; the test's own $TMP.
cpr_exec_test_begin() {
	cpr_test_begin 11.1 11.1 pc
}

# cpr_exec_args NAME MIB RATE [QEMU-ARGS...]: sets CPR_EXEC_ARGS, the QEMU
# arguments of guest NAME (the same before and after the exec), with a disk
# and a NIC (none with CPR_EXEC_BARE=1), and QEMU-ARGS.
cpr_exec_args() {
	local name=$1 mib=$2 rate=$3
	shift 3
	memguest_args "$mib" "$rate"
	cpr_ram_args "$mib"
	CPR_DEVICES=()
	[ -n "${CPR_EXEC_BARE:-}" ] || cpr_devices
	# shellcheck disable=SC2054 # commas inside QEMU option values
	CPR_EXEC_ARGS=(-name "$name" "${MEMGUEST_ARGS[@]}" "${CPR_RAM_ARGS[@]}" "${CPR_DEVICES[@]}"
		-chardev "file,id=con0,path=$TMP/$name.serial,append=on" -serial chardev:con0
		-qmp "unix:$TMP/$name.qmp,server=on,wait=off"
		-pidfile "$TMP/$name.pid" "$@")
}

# cpr_exec_start NAME MIB RATE [QEMU-ARGS...]: the memory guest on
# QEMU_SRC_VERSION, ready.
cpr_exec_start() {
	local name=$1 mib=$2 rate=$3
	shift 3
	_lib_check_name "$name"
	need_file "$MEMGUEST_ELF" "memguest"
	cpr_exec_args "$name" "$mib" "$rate" "$@"
	qemu_cmd "$QEMU_SRC_VERSION"
	"${QEMU_CMD[@]}" "${CPR_EXEC_ARGS[@]}" </dev/null >"$TMP/$name.err" 2>&1 &
	_lib_pids+=("$!")
	_lib_names+=("$name")
	disown "$!"
	CPR_EXEC_PID=$!
	_lib_pages["$TMP/$name.serial"]=$((mib * 256))
	MEMGUEST_RATE=$rate
	wait_for 30 "QMP socket of $name" _lib_qmp_ready "$name"
	wait_for "$MEMGUEST_BOOT_TIMEOUT" "memguest $name ready" \
		_lib_log_ready "$name" '^memguest: ready '
}

# cpr_exec_command FILE BINARY: writes the new command line of the guest
# last started (CPR_EXEC_ARGS) to FILE, one argument a line: BINARY, the
# same arguments, -incoming file:$TMP/vm.state.
cpr_exec_command() {
	printf '%s\n' "$2" "${CPR_EXEC_ARGS[@]}" -incoming "file:$TMP/vm.state" >"$1"
}
