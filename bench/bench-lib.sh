# bench/bench-lib.sh: what the benchmark scripts share; sourced by
# bench/convergence.sh, bench/qmigrate-cost.sh and bench/drain.sh.
#
#	bench_init "$@"       parses [--write] [BUILD-DIR], sources tests/lib.sh
#
# BUILD-DIR is a build WITHOUT sanitizers (default ./build): ASan doubles
# the RSS and CPU figures.  It needs qmigrate and tests/guest/memguest.elf
# (make bench builds both).  Benchmarks are not tests: they print figures
# and, with --write, replace their own section of bench/RESULTS.md.

bench_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bench_write=0

# bench_init [--write] [BUILD-DIR]: sets top_srcdir, top_builddir, QMIGRATE,
# sources tests/lib.sh and makes $TMP (cleaned up on exit).
bench_init() {
	if [ "${1:-}" = --write ]; then
		bench_write=1
		shift
	fi
	top_srcdir=$bench_top
	top_builddir=$(cd "${1:-$bench_top/build}" && pwd)
	QMIGRATE=$top_builddir/qmigrate
	export top_srcdir top_builddir QMIGRATE
	# shellcheck source=../tests/lib.sh
	. "$bench_top/tests/lib.sh"
	need_cmd jq awk qemu-system-x86_64
	[ -x "$QMIGRATE" ] || fail "qmigrate not built in $top_builddir"
	need_file "$MEMGUEST_ELF" "memguest (make tests/guest/memguest.elf)"
	if nm "$QMIGRATE" 2>/dev/null | grep -q __asan_init; then
		fail "$QMIGRATE is built with sanitizers: benchmark a plain build"
	fi
	setup_tmp
}

# bench_need_pkg CMD PACKAGE: installs Debian's PACKAGE when CMD is missing.
bench_need_pkg() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "bench: installing $2 (for $1)" >&2
	apt-get install -y -q "$2" >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "$2" >/dev/null 2>&1; } ||
		fail "$1 missing and apt-get install $2 failed"
}

# bench_machine: one line describing this machine, for RESULTS.md.
bench_machine() {
	local model cores qemu
	model=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1)
	cores=$(nproc)
	qemu=$(qemu-system-x86_64 --version | head -n 1)
	printf '%s, %s cores, %s, load average %s' "$model" "$cores" "$qemu" \
		"$(cut -d' ' -f1-3 /proc/loadavg)"
}

# bench_rev: the commit measured.
bench_rev() {
	git -C "$bench_top" rev-parse --short HEAD 2>/dev/null || echo '?'
}

# now_ms: wall clock in milliseconds.
now_ms() {
	local t=${EPOCHREALTIME/./}
	echo $((t / 1000))
}

# median N...: the median (lower middle for an even count).
median() {
	printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

# spread N...: "min-max" (one value: itself).
spread() {
	printf '%s\n' "$@" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 }
		END { if (lo == hi) print lo; else print lo "-" hi }'
}

# bench_section NAME FILE: replaces the section NAME of bench/RESULTS.md
# (between "<!-- bench:NAME begin -->" and "<!-- bench:NAME end -->") with
# FILE's contents, or appends it; other sections are kept as they are.
bench_section() {
	local name=$1 file=$2 res=$bench_top/bench/RESULTS.md b e
	b="<!-- bench:$name begin -->"
	e="<!-- bench:$name end -->"
	if grep -qF "$b" "$res"; then
		awk -v b="$b" -v e="$e" -v f="$file" '
			$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
			$0 == e { skip = 0 }
			!skip' "$res" >"$res.new"
		mv "$res.new" "$res"
	else
		{ printf '\n%s\n' "$b"; cat "$file"; printf '%s\n' "$e"; } >>"$res"
	fi
}

# serial_stamps NAME: from now on, $TMP/NAME.stamps gets every progress line
# of guest NAME's serial file prefixed by the wall time it appeared
# ("SECONDS.MICROS PASS PAGES_CHECKED"); ends with the guest's QEMU.
serial_stamps() {
	local name=$1 pid
	pid=$(guest_pid "$name")
	bg_start "$name-stamps" bash -c '
		tail --pid="$1" -s 0.1 -F -n +1 "$2" 2>/dev/null |
		while IFS= read -r l; do
			case $l in
			"memguest: progress "*)
				l=${l#*pass=}
				printf "%s %s %s\n" "$EPOCHREALTIME" "${l%% *}" \
				    "$(sed "s/.*pages_checked=\([0-9]*\).*/\1/" <<<"$l")"
				;;
			esac
		done' stamps "$pid" "$TMP/$name.serial"
	# bg_start writes NAME-stamps.out
}

# stamps_file NAME: the progress stamps of guest NAME.
stamps_file() {
	echo "$TMP/$1-stamps.out"
}

# work_rate T0 T1 NAME...: the guest's pages checked per second between
# wall times T0 and T1 (seconds), from the stamps of the guests NAME...
# (source then target: the counter lives in guest memory and moves with
# it).  From the last progress line at or before T0 to the last at or
# before T1 (or, when none came in between, the first after T1).  Prints
# "RATE SECONDS PAGES".
work_rate() {
	local t0=$1 t1=$2
	shift 2
	local n f files=()
	for n in "$@"; do
		f=$(stamps_file "$n")
		[ -e "$f" ] && files+=("$f")
	done
	sort -g "${files[@]}" | awk -v t0="$t0" -v t1="$t1" '
		$1 <= t0 { at = $1; ap = $3; next }
		$1 <= t1 { bt = $1; bp = $3; next }
		!after { ct = $1; cp = $3; after = 1 }
		END {
			if (at == "") { print "0 0 0"; exit }
			if (bt == "" || bt - at < 0.5) { bt = ct; bp = cp }
			if (bt == "" || bt <= at) { print "0 0 0"; exit }
			printf "%.1f %.2f %d\n", (bp - ap) / (bt - at), bt - at, bp - ap
		}'
}
