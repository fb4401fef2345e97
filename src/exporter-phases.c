/*
 * exporter-phases.c: the histogram
 * qmigrate_migration_phase_transition_time_from_creation_seconds, as
 * KubeVirt's kubevirt_vmi_migration_phase_transition_time_from_creation_
 * seconds: for each migration a VM's status file shows, the seconds from its
 * creation (the status document's startTimestamp, when it entered
 * Pending) to each phase it entered (phaseTransitionTimestamps), observed
 * once per migration and phase in a histogram by phase, with KubeVirt's
 * buckets.
 */
#include <stdio.h>
#include <string.h>

#include "qmigrate.h"
#include "observe.h"

/* The phases observed: KubeVirt's VMIM phases that qmigrate enters. */
const char *const phase_hist_phases[PHASE_HIST_PHASES] = { "Pending",
    "PreparingTarget", "TargetReady", "Running", "Succeeded", "Failed" };

/* KubeVirt's PhaseTransitionTimeBuckets(), seconds. */
const double phase_hist_le[PHASE_HIST_BUCKETS] = { 0.5, 1, 2, 5, 10, 20,
    30, 40, 50, 60, 90, 120, 180, 300, 600, 1200, 1800, 3600 };

/*
 * Observes the phases of m (a status document's migration) not yet
 * observed for its uid; a new uid starts over.  With observe 0 (the
 * document the exporter found when it started, already counted by
 * whoever ran before) they are only marked as seen.
 */
void
phase_hist_update(struct phase_hist *h, const struct snap_migration *m,
    int observe)
{
	size_t	i, j;
	double	v;

	if (!m->have || m->uid[0] == '\0')
		return;
	if (strcmp(h->uid, m->uid) != 0) {
		snprintf(h->uid, sizeof h->uid, "%s", m->uid);
		h->observed = 0;
	}
	for (i = 0; i < PHASE_HIST_PHASES; i++) {
		if (!m->phase_time[i].have || (h->observed & (1U << i)))
			continue;
		h->observed |= 1U << i;
		if (!observe)
			continue;
		v = m->phase_time[i].v < 0 ? 0 : m->phase_time[i].v;
		for (j = 0; j < PHASE_HIST_BUCKETS; j++)
			if (v <= phase_hist_le[j])
				h->bucket[i][j]++;
		h->count[i]++;
		h->sum[i] += v;
	}
}
