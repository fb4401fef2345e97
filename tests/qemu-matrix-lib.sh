# tests/qemu-matrix-lib.sh: the version matrix (README, "QEMU versions").
# The whole suite runs against the host's QEMU 7.2; the matrix tests
# (tests/integration/qemu-matrix-*.sh) run the core migration tests again
# against another QEMU, or across an upgrade pair, instead of carrying a
# copy of each: every test picks its QEMUs from QEMU_VERSION,
# QEMU_SRC_VERSION, QEMU_DST_VERSION and QEMU_MACHINE (tests/lib.sh).
# Sourced after tests/lib.sh.

# The core migration tests: pre-copy, tls: with post-copy and multifd,
# multifd, abort, post-copy recovery, re-attach, disks, post-copy under the
# adaptive controller; and what depends on the version: the pre-flight's
# TCG dirty-tracking warning and the capabilities negotiated.
MATRIX_CORE=(migrate-precopy.sh migrate-tls.sh migrate-multifd.sh
	migrate-abort.sh migrate-postcopy-recover.sh migrate-reattach.sh
	disk-migrate.sh converge-postcopy-adaptive.sh evict-check-tcg.sh
	check-capabilities.sh migrate-negotiate.sh)

# matrix_has VERSION: VERSION is in QEMU_VERSIONS.
matrix_has() {
	case " ${QEMU_VERSIONS:-} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# matrix_want VERSION...: every VERSION is in QEMU_VERSIONS, else the test
# ends as SKIP (exit 77) saying which was left out; each one wanted has its
# QEMU (a version listed whose root is missing fails, naming the command
# that makes it).
matrix_want() {
	local v
	for v in "$@"; do
		matrix_has "$v" || {
			echo "SKIP: QEMU $v is left out by QEMU_VERSIONS=\"${QEMU_VERSIONS:-}\""
			exit 77
		}
	done
	for v in "$@"; do
		"$BASH" "$top_srcdir/tests/qemu-wrap.sh" "$v" --version >/dev/null ||
			fail "QEMU $v is in QEMU_VERSIONS but cannot run (tests/qemu-roots.sh $v makes its root, as root)"
	done
}

# matrix_run LABEL TEST...: runs each integration TEST with the
# environment the caller exported; prints one line per test (with the
# accelerator its guests ran under, tests/lib.sh) and the tail of a failed
# one's output; fails at the end naming the tests that failed.
# Each TEST's output waits in the private $TMP (setup_tmp, once).
matrix_run() {
	local label=$1 t rc t0 failed=() out acc
	shift
	[ -n "$TMP" ] || setup_tmp
	out=$TMP/matrix-test.out
	test_accel_pick
	echo "accelerator: $TEST_ACCEL ($TEST_ACCEL_WHY)" >&2
	for t in "$@"; do
		t0=$SECONDS
		rc=0
		"$BASH" "$top_srcdir/tests/integration/$t" >"$out" 2>&1 || rc=$?
		acc=$(sed -n 's/^accelerator: //p' "$out" | head -n 1)
		acc=${acc:-none}
		if [ "$rc" -eq 0 ]; then
			echo "ok: $label: $t ($((SECONDS - t0)) s, ${acc%% *})"
		else
			echo "--- $label: $t exited $rc after $((SECONDS - t0)) s; its output:"
			tail -n 60 "$out"
			failed+=("$t")
		fi
	done
	[ ${#failed[@]} -eq 0 ] || fail "$label: ${failed[*]}"
}
