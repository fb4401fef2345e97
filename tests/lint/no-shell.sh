#!/usr/bin/env bash
# Lint: qmigrate runs no shell and no other program.  Paths and names from
# policies, inventories and peers are data, never a command line: the C
# sources of src/, qmp/, proxy/ and policies/ call no system(), popen(),
# exec*() of a program or shell, posix_spawn(), and name no /bin/sh.  The
# one exec allowed is drain.c re-running qmigrate itself
# (execv("/proc/self/exe", ...)) for each migration of a drain.  Calls are
# written name( (STYLE.md), so prose such as "file system (%s)" is no hit.
set -eu -o pipefail
: "${top_srcdir:?top_srcdir not set: run the test through make check}"

cd "$top_srcdir"
dirs=(src qmp proxy policies)
files=$(find "${dirs[@]}" -name '*.[ch]' 2>/dev/null | sort)
[ -n "$files" ] || { echo "FAIL: no C sources under ${dirs[*]}" >&2; exit 1; }
bad='\b(system|popen|execl|execlp|execle|execvp|execvpe|execve|fexecve|posix_spawnp?|wordexp)\(|/bin/(ba|da)?sh\b|"sh",'
# shellcheck disable=SC2086 # one word per file name (no spaces in the tree)
hits=$(grep -nE "$bad" $files || true)
# execv() only of ourselves.
# shellcheck disable=SC2086
hits+=$(grep -nE '\bexecv\(' $files | grep -v 'execv("/proc/self/exe"' || true)
if [ -n "$hits" ]; then
	echo "FAIL: qmigrate must not run a shell or another program:" >&2
	echo "$hits" >&2
	exit 1
fi
echo "ok: $(echo "$files" | wc -l) sources under ${dirs[*]}: no system(), popen(), exec of a shell or program"
