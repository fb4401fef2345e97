#!/usr/bin/env bash
# Per-run settings on the command line, over the policy (issue 39 item 3):
# what a user passes to migrate and incoming is what both QEMUs are set to
# and what the status document reports, with where each value came from
# (flag, policy by name, default), as KubeVirt's migrationConfiguration.
# b475dc5 has none of these flags: its migrate exits 1 at the first one.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/migrate-lib.sh"
setup_tmp

# expect_config FILE JQ WANT: the status document's value.
expect_config() {
	local got
	got=$(status_get "$1" "$2")
	[ "$got" = "$3" ] || fail "$(basename "$1"): $2 is \"$got\", expected \"$3\""
}
# qemu_param NAME PARAM / qemu_cap NAME CAP: what the QEMU itself holds.
qemu_param() {
	mon "$1" query-migrate-parameters | jq -r ".\"$2\""
}
qemu_cap() {
	mon "$1" query-migrate-capabilities | jq -r ".[] | select(.capability == \"$2\") | .state"
}

# 1. Flags over a policy that says otherwise: the policy allows post-copy,
#    caps at 64 MiB/s and has no multifd; the flags forbid post-copy, cap
#    at 32 MiB/s, ask for 2 multifd channels, a 400 ms downtime ceiling,
#    20 s per GiB and the throttle.  Over unix: both sides take the same.
mig_policy fast '{ "bandwidthPerMigration": "64Mi", "allowPostCopy": true,
	"progressTimeout": 120 }'
flags=(--policy "$TMP/fast.json" --bandwidth 32Mi --no-postcopy --multifd 2
	--max-downtime 400 --completion-timeout-per-gib 20 --auto-converge)
mig_start_pair 64 20
mig_incoming "${flags[@]}"
mig_migrate "${flags[@]}"
expect_moved 90 60
for side in src dst; do
	st=$TMP/$side.status
	expect_config "$st" .migrationPolicyName fast
	expect_config "$st" .migrationConfiguration.bandwidthPerMigration 33554432
	expect_config "$st" .migrationConfiguration.allowPostCopy false
	expect_config "$st" .migrationConfiguration.parallelMigrationThreads 2
	expect_config "$st" .migrationConfiguration.maxDowntimeMs 400
	expect_config "$st" .migrationConfiguration.completionTimeoutPerGiB 20
	expect_config "$st" .migrationConfiguration.allowAutoConverge true
	expect_config "$st" .migrationConfiguration.progressTimeout 120
	expect_config "$st" .migrationConfiguration.sources.bandwidthPerMigration "flag --bandwidth"
	expect_config "$st" .migrationConfiguration.sources.allowPostCopy "flag --no-postcopy"
	expect_config "$st" .migrationConfiguration.sources.parallelMigrationThreads "flag --multifd"
	expect_config "$st" .migrationConfiguration.sources.maxDowntimeMs "flag --max-downtime"
	expect_config "$st" .migrationConfiguration.sources.completionTimeoutPerGiB "flag --completion-timeout-per-gib"
	expect_config "$st" .migrationConfiguration.sources.allowAutoConverge "flag --auto-converge"
	expect_config "$st" .migrationConfiguration.sources.progressTimeout "policy fast"
	# --no-postcopy leaves the disruption the policy's (it follows its
	# allowPostCopy: KubeVirt's rule).
	expect_config "$st" .migrationConfiguration.sources.allowWorkloadDisruption "policy fast"
	expect_config "$st" .migrationConfiguration.sources.disableTLS default
	# What the QEMU was told.
	[ "$(qemu_cap "$side" postcopy-ram)" = false ] || fail "$side QEMU: postcopy-ram on despite --no-postcopy"
	[ "$(qemu_cap "$side" multifd)" = true ] || fail "$side QEMU: multifd off despite --multifd 2"
	[ "$(qemu_param "$side" multifd-channels)" = 2 ] ||
		fail "$side QEMU: multifd-channels $(qemu_param "$side" multifd-channels), expected 2"
done
[ "$(qemu_param src max-bandwidth)" = 33554432 ] ||
	fail "source QEMU: max-bandwidth $(qemu_param src max-bandwidth), expected 33554432 (--bandwidth 32Mi)"
expect_config "$TMP/src.status" .migrationConfiguration.controller.maxDowntimeMs 400
echo "ok: the flags won over the policy on both QEMUs and in both documents"

# 2. --postcopy with no policy: post-copy and workload disruption allowed by
#    the flag, everything else KubeVirt's default, maxDowntimeMs its 900.
PAIR=b-
mig_start_pair 64 20
mig_incoming --postcopy
mig_migrate --postcopy
expect_moved 90 60
for side in b-src b-dst; do
	st=$TMP/$side.status
	expect_config "$st" .migrationConfiguration.allowPostCopy true
	expect_config "$st" .migrationConfiguration.allowWorkloadDisruption true
	expect_config "$st" .migrationConfiguration.sources.allowPostCopy "flag --postcopy"
	expect_config "$st" .migrationConfiguration.sources.allowWorkloadDisruption "flag --postcopy"
	expect_config "$st" .migrationConfiguration.maxDowntimeMs 900
	expect_config "$st" .migrationConfiguration.sources.maxDowntimeMs default
	expect_config "$st" .migrationConfiguration.completionTimeoutPerGiB 150
	expect_config "$st" .migrationConfiguration.sources.bandwidthPerMigration default
	[ "$(qemu_cap "$side" postcopy-ram)" = true ] || fail "$side QEMU: postcopy-ram off despite --postcopy"
done
echo "ok: --postcopy alone allowed post-copy on both QEMUs; the rest KubeVirt's defaults (maxDowntimeMs 900)"

# 3. A contradiction is a usage error naming both flags; nothing touched.
PAIR=c-
start_memguest c-src 16 1 -qmp "unix:$TMP/c-src.mon,server=on,wait=off"
rc=0
"$QMIGRATE" migrate --qmp "$TMP/c-src.qmp" --to "unix:$TMP/none.sock" \
	--postcopy --no-postcopy 2>"$TMP/both.err" || rc=$?
[ "$rc" = 1 ] || fail "--postcopy --no-postcopy: exit $rc, expected 1"
grep -q -- '--postcopy and --no-postcopy' "$TMP/both.err" ||
	fail "--postcopy --no-postcopy: $(cat "$TMP/both.err")"
[ "$(grep -c . "$TMP/both.err")" = 1 ] || fail "more than one line: $(cat "$TMP/both.err")"
[ "$(run_state c-src)" = running ] || fail "c-src is $(run_state c-src) after a usage error"
echo "ok: --postcopy with --no-postcopy refused in one line, the guest untouched"
