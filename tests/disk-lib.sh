# tests/disk-lib.sh: what the local-disk migration tests share; sourced
# after tests/lib.sh and tests/migrate-lib.sh.
#
# The memguest never touches its disk, so the tests write the data
# themselves: a pattern into the source image before QEMU starts
# (qemu-io), and writes through the source's virtio-blk device while the
# mirror runs (HMP qemu-io -d, which goes through the same block layer as
# the guest, so the mirror sees it).  After the migration both QEMUs quit
# (flushing their images) and the images are compared.

need_cmd qemu-img
need_cmd qemu-io

# disk_pair MIB RATE SRC-SIZE DST-SIZE: boots src and dst (migrate-lib.sh's
# pair, named after PAIR) each with a qcow2 data disk: node "data" on
# virtio-blk device "vdb"; the source's has 0x5a in its first
# DISK_DATA_MIB MiB (16 unless set), the target's is empty.
disk_pair() {
	local s=$TMP/${PAIR}src d=$TMP/${PAIR}dst
	qemu-img create -q -f qcow2 "$s.qcow2" "$3"
	qemu-io -c "write -q -P 0x5a 0 ${DISK_DATA_MIB:-16}M" "$s.qcow2" >/dev/null
	qemu-img create -q -f qcow2 "$d.qcow2" "$4"
	start_memguest "${PAIR}src" "$1" "$2" \
		-qmp "unix:$s.mon,server=on,wait=off" \
		-blockdev "driver=qcow2,node-name=data,file.driver=file,file.filename=$s.qcow2" \
		-device virtio-blk-pci,drive=data,id=vdb
	start_memguest_incoming "${PAIR}dst" "$1" \
		-qmp "unix:$d.mon,server=on,wait=off" \
		-blockdev "driver=qcow2,node-name=data,file.driver=file,file.filename=$d.qcow2" \
		-device virtio-blk-pci,drive=data,id=vdb
}

# mirroring: the source's status shows the disk's mirror job.
mirroring() {
	[ "$(status_get "$TMP/${PAIR}src.status" '.progress.disks["qm-mirror-data"].disk')" = data ]
}

# hmp_write OFFSET-MIB LEN-MIB PATTERN: a write by the source's disk device
# (through the guest's own BlockBackend).  HMP qemu-io prints its result on
# QEMU's stdout (src.err), not in the reply.
hmp_write() {
	local out
	out=$(mon src human-monitor-command \
		"{\"command-line\": \"qemu-io -d /machine/peripheral/vdb/virtio-backend \\\"write -P $3 $1M $2M\\\"\"}")
	case $out in
	*rror*) fail "qemu-io write on the source: $out" ;;
	esac
	wait_for 30 "the source's write at $1 MiB" grep -q \
		"^wrote $(($2 * 1048576))/$(($2 * 1048576)) bytes at offset $(($1 * 1048576))" "$TMP/src.err"
}

# assert_no_disk_jobs NAME: no mirror job and no NBD node is left in QEMU.
assert_no_disk_jobs() {
	[ "$(mon "$1" query-block-jobs | jq length)" = 0 ] ||
		fail "$1 still runs block jobs: $(mon "$1" query-block-jobs)"
	if mon "$1" query-named-block-nodes | jq -r '.[]["node-name"]' | grep -q '^qm-nbd-'; then
		fail "$1 still has an NBD client node"
	fi
}

# quit_guest NAME: QEMU quits cleanly (its images flushed and closed).
quit_guest() {
	mon "$1" quit >/dev/null || true
	wait_guest_exit "$1" 30
}

# disk_mirror_slow: the pair with 64 MiB disks migrating them at 1 MiB/s
# (policy $TMP/disks.json): the 16 MiB of data take far longer than a test
# waits; returns once the source's mirror job runs.
disk_mirror_slow() {
	disk_pair 64 50 64M 64M
	mig_policy disks '{ "blockMigration": "auto", "bandwidthPerMigration": "1Mi" }'
	mig_incoming --policy "$TMP/disks.json"
	mig_migrate --policy "$TMP/disks.json"
	wait_for 30 "the source's mirror job" mirroring
}

# assert_disk_kept PLANE: the migration failed in PLANE before the source
# QEMU sent any memory, and left no disk job or NBD node there: the guest
# runs on on the source, intact.
assert_disk_kept() {
	expect_status "$TMP/src.status" .failurePlane "$1"
	expect_qemu_mig src "$1 failure" none
	assert_no_disk_jobs src
	assert_stayed
}

# assert_no_exports: the target exports no disk and its NBD socket is gone.
assert_no_exports() {
	[ "$(mon dst query-block-exports | jq length)" = 0 ] || fail "target still exports disks"
	[ ! -e "$TMP/mig.sock.nbd" ] || fail "NBD socket left on the target"
}

# disk_target_stop: SIGTERM to the target's qmigrate incoming: it exits 5
# and leaves no export behind.
disk_target_stop() {
	kill -TERM "$(guest_pid incoming)"
	expect_exit incoming 5 30
	assert_no_exports
}

# assert_image_holds IMAGE WHAT PATTERN OFFSET LEN...: each (PATTERN,
# OFFSET, LEN) triple reads back from qcow2 IMAGE (qemu-io read -P; sizes
# as qemu-io writes them, e.g. 16M), else the test fails naming WHAT.
assert_image_holds() {
	local image=$1 what=$2 reads=()
	shift 2
	while [ $# -ge 3 ]; do
		reads+=(-c "read -q -P $1 $2 $3")
		shift 3
	done
	qemu-io "${reads[@]}" "$image" >"$TMP/verify.out" 2>&1
	if grep -q "Pattern verification failed" "$TMP/verify.out"; then
		fail "$what: $(cat "$TMP/verify.out")"
	fi
}

# assert_write_missed: after a mirror that ended before the guest's disk
# device wrote 1 MiB of 0xa5 at 20M (hmp_write 20 1 0xa5), both QEMUs quit:
# the source's image holds the write over disk_pair's 0x5a, the target's
# holds disk_pair's 0x5a and not the write (what an 8 was about).
assert_write_missed() {
	quit_guest src
	quit_guest dst
	assert_image_holds "$TMP/src.qcow2" "the source's image" 0xa5 20M 1M 0x5a 0 16M
	assert_image_holds "$TMP/dst.qcow2" "the target's image" 0x5a 0 16M
	qemu-io -c "read -q -P 0xa5 20M 1M" "$TMP/dst.qcow2" >"$TMP/dst-read.out" 2>&1 || true
	grep -q "Pattern verification failed" "$TMP/dst-read.out" ||
		fail "the target's image holds the write made after the mirror ended: $(cat "$TMP/dst-read.out")"
}

# no_disk_jobs NAME: QEMU NAME runs no block job.
no_disk_jobs() {
	[ "$(mon "$1" query-block-jobs | jq length)" = 0 ]
}

# assert_stalled_copy_ended STOPPED-AT: the target QEMU was stopped (at
# date +%s STOPPED-AT) while the disk was mirrored: migrate exits 4 (data
# plane) within progressTimeout (10 s) and 20 s, naming progressTimeout,
# no memory sent, the guest running on the source, intact.  Either QEMU
# ended the mirror job (nothing left on the source) or, as QEMU 7.2 does
# when writes of the job wait on the stopped peer's full socket (yank does
# not wake them), the job outlives its forced cancel: then migrate says
# so, naming the job, the NBD node and what ends them.  Sets
# disk_outcome: "ended" or "job-kept".  The target is left stopped
# (end_stalled_target).
assert_stalled_copy_ended() {
	local took notes
	expect_exit migrate 4 60
	took=$(($(date +%s) - $1))
	echo "migrate exited 4 ${took} s after the target QEMU stopped: $(status_get "$TMP/src.status" .failureReason)"
	[ "$took" -le 30 ] ||
		fail "the stalled copy ended ${took} s after the stall, progressTimeout is 10 s"
	status_get "$TMP/src.status" .failureReason | grep -q 'no progress for .* (progressTimeout)' ||
		fail "failure does not name progressTimeout: $(status_get "$TMP/src.status" .failureReason)"
	expect_status "$TMP/src.status" .failurePlane data
	expect_qemu_mig src "data failure" none
	assert_stayed
	notes=$(status_get "$TMP/src.status" '.notes | join("\n")')
	if no_disk_jobs src; then
		disk_outcome=ended
		[[ $notes != *"still runs"* ]] ||
			fail "no job is left, yet migrate says one is: $notes"
		assert_no_disk_jobs src
	else
		disk_outcome=job-kept
		echo "the mirror job outlived its forced cancel: $notes"
		grep -qxF "disks: mirror job qm-mirror-data still runs 10 s after its forced cancel: its NBD writes to unix:$TMP/mig.sock.nbd hang (yank cannot end them); it ends when that connection breaks (the target QEMU discarded); a retry is refused until then, and removes its NBD node qm-nbd-data after" <<<"$notes" ||
			fail "a mirror job is left on the source, and migrate does not say so: $(mon src query-block-jobs) (notes: $notes)"
	fi
}

# end_stalled_target: the node agent's cleanup of the stopped target
# (SIGKILL ends a stopped QEMU); a mirror job the source kept
# (assert_stalled_copy_ended's job-kept) ends with that connection.
end_stalled_target() {
	kill_guest dst KILL
	bg_wait incoming 30 || true
	[ "$disk_outcome" != job-kept ] ||
		wait_for 30 "the source's mirror job to end with the target QEMU" no_disk_jobs src
}

# disk_target NAME: a fresh target QEMU NAME (64 MiB memguest, an empty
# 64 MiB qcow2 disk as disk_pair's) and its qmigrate incoming, process
# NAME-incoming, listening on unix:$TMP/NAME.sock, status NAME.status,
# with policy $TMP/POLICY.json ($2).
disk_target() {
	qemu-img create -q -f qcow2 "$TMP/$1.qcow2" 64M
	start_memguest_incoming "$1" 64 \
		-qmp "unix:$TMP/$1.mon,server=on,wait=off" \
		-blockdev "driver=qcow2,node-name=data,file.driver=file,file.filename=$TMP/$1.qcow2" \
		-device virtio-blk-pci,drive=data,id=vdb
	bg_start "$1-incoming" "$QMIGRATE" incoming --qmp "$TMP/$1.qmp" \
		--listen "unix:$TMP/$1.sock" --status-file "$TMP/$1.status" \
		--policy "$TMP/$2.json"
	wait_for 30 "$1 prepared" status_is "$TMP/$1.status" .phase TargetReady
}

# disk_retry NAME TARGET POLICY: qmigrate migrate of src again, process
# NAME, status $TMP/NAME.status, to disk_target TARGET.
disk_retry() {
	bg_start "$1" "$QMIGRATE" migrate --qmp "$TMP/src.qmp" \
		--to "unix:$TMP/$2.sock" --status-file "$TMP/$1.status" \
		--policy "$TMP/$3.json" --events
}
