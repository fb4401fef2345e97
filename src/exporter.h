/*
 * exporter.h: the Prometheus exporter (exporter.c) behind `qmigrate
 * exporter`: persistent QMP connections refreshed on a timer, a tiny HTTP
 * server for GET /metrics, and a node-exporter textfile.
 */
#ifndef EXPORTER_H
#define EXPORTER_H

#include <stddef.h>

/* One --vm NAME=QMP_PATH[,qga=PATH][,status=FILE]. */
struct exporter_vm_spec {
	char	*name;
	char	*qmp;
	char	*qga;		/* NULL: no agent */
	char	*status;	/* NULL: no status file */
};

struct exporter_options {
	const char		*listen;	/* ADDR:PORT, or NULL */
	struct exporter_vm_spec	*vms;
	size_t			 nvms;
	const char		*textfile_dir;	/* or NULL */
	double			 interval;	/* seconds between refreshes */
	double			 vm_timeout;	/* seconds a refresh may take */
	int			 once;
};

/* Limits of the HTTP side. */
#define EXPORTER_MAX_REQUEST	8192
#define EXPORTER_REQUEST_TIMEOUT 5.0
#define EXPORTER_MAX_CLIENTS	64

int	 exporter_vm_spec_parse(const char *arg, struct exporter_vm_spec *,
	    char **cause);
void	 exporter_vm_spec_free(struct exporter_vm_spec *);
int	 exporter_run(const struct exporter_options *);
/* A label value escaped for the text format (\\, \", \n); malloc'd. */
char	*prom_escape_label(const char *value);

#endif
