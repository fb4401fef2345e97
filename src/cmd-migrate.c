/*
 * cmd-migrate.c: qmigrate migrate: drive the source side of a migration.
 */
#include "qmigrate.h"

static int
cmd_migrate_exec(int argc, char **argv)
{
	struct mig_options	o;
	int			rc;

	if ((rc = mig_options_parse(argc, argv, &cmd_migrate_entry, &o, 1)))
		return rc;
	rc = mig_source_run(&o);
	mig_options_free(&o);
	return rc;
}

const struct cmd_entry cmd_migrate_entry = {
	"migrate",
	"--qmp PATH --to URI [--policy PATH] [--label K=V]... "
	"[--status-file F] [--events]",
	"Migrates the guest of the source QEMU at --qmp PATH to URI:\n"
	"  unix:PATH       QEMU's incoming socket (or a proxy's)\n"
	"  tcp:HOST:PORT   plaintext: refused unless the policy sets disableTLS\n"
	"  tls:HOST:PORT   through the TLS proxy of a `qmigrate incoming`\n"
	"\n"
	"  --policy PATH        policy file or directory (default: KubeVirt's\n"
	"                       defaults): qmigrate's JSON policies, KubeVirt's\n"
	"                       MigrationPolicy, KubeVirt and Namespace objects\n"
	"  --label K=V, --labels-file F   the VM's labels\n"
	"  --namespace-label K=V, --namespace-labels-file F   its namespace's\n"
	"                       (or the Namespace manifest of the --vmi's)\n"
	"  --vmi FILE           a VirtualMachineInstance or VirtualMachine\n"
	"                       manifest: labels, namespace (policies/README.md)\n"
	"  --convergence C      adaptive (default) or kubevirt: overrides the policy\n"
	"  --status-file F      the status document, rewritten atomically\n"
	"  --events             one JSON line on stdout per change and sample\n"
	"  --timeout S          abort (migrate_cancel) if not done in S s (none)\n"
	"  --recover-timeout S  how long to recover a broken post-copy (120)\n"
	"  --tls-dir DIR, --tls-name N, --tls12   TLS for tls: URIs\n"
	"  --slot-dir DIR, --max-parallel N   wait (phase Pending) for one of N\n"
	"                       node-wide migration slots in DIR (flock'd files;\n"
	"                       default " SLOT_DEFAULT_DIR ", 2)\n"
	"  --nbd unix:PATH|tcp:HOST:PORT   the target's NBD server for disks\n"
	"                       the policy's blockMigration copies (default:\n"
	"                       unix:PATH.nbd, tcp:HOST:PORT+1)\n"
	"\n"
	"Exit status: 0 completed, 1 usage, 2 not live-migratable, 3 control\n"
	"plane, 4 data plane (guest still on the source), 5 aborted (guest\n"
	"still on the source), 6 post-copy failed and not recovered.\n"
	"SIGINT/SIGTERM or `qmigrate abort --status-file F` abort a migration\n"
	"that has not reached post-copy.\n",
	cmd_migrate_exec,
};
