/*
 * report.h: qmigrate report, a picture of one migration: the series read
 * from a status document and its --events lines (report-series.c), the
 * axes (report-axes.c), the SVG charts (report-svg.c) and the HTML page
 * around them (report-html.c).
 */
#ifndef REPORT_H
#define REPORT_H

#include <stddef.h>
#include <stdio.h>

struct json_object;

/* One progress sample, at elapsedSeconds t. */
struct report_point {
	double	t;
	double	remaining;	/* bytes */
	double	bandwidth;	/* bytes/s */
	double	dirty;		/* bytes/s */
	double	throttle;	/* percent */
};

/* A phase entered at t seconds after the start. */
struct report_phase {
	char	*name;
	double	 t;
};

/* A controller decision, with the figures that caused it (JSON text). */
struct report_decision {
	double	 t;
	char	*action;
	char	*reason;
	char	*figures;	/* NULL when the decision has none */
};

/* The most samples a report keeps: a longer run is thinned (every other). */
#define REPORT_MAX_POINTS	4096

struct report {
	struct report_point	*points;
	size_t			 npoints;
	struct report_phase	*phases;
	size_t			 nphases;
	struct report_decision	*decisions;
	size_t			 ndecisions;
	char			*uid, *final_phase, *failure;
	char			*source_version, *target_version;
	char			*sources;	/* JSON text, or NULL */
	int			 exit_code;	/* -1 when not ended */
	double			 downtime_ms;	/* -1 when not known */
	double			 t_end;		/* the last elapsedSeconds */
};

/* report-series.c */
void	 report_init(struct report *);
void	 report_free(struct report *);
void	 report_add_document(struct report *, struct json_object *doc);
int	 report_add_target_document(struct report *, const char *what,
	    struct json_object *doc, char **cause);
int	 report_read_events(struct report *, const char *path, char **cause);
int	 report_add_events(struct report *, const char *what, const char *buf,
	    size_t len, char **cause);

/* report-axes.c: a linear axis from 0 to max, in nticks+1 round ticks. */
struct report_axis {
	double	max;
	double	step;
	int	nticks;
};
void	 report_axis_nice(double max, struct report_axis *);
char	*report_format_value(double v, const char *unit);

/* report-svg.c */
enum report_series {
	REPORT_REMAINING,
	REPORT_BANDWIDTH,
	REPORT_DIRTY,
	REPORT_THROTTLE,
	REPORT_NSERIES,
};
extern const char *const report_series_color[REPORT_NSERIES];
void	 report_svg_chart(FILE *, const struct report *, enum report_series);

/* report-html.c */
void	 report_html_escape(FILE *, const char *);
void	 report_html_page(FILE *, const struct report *);

#endif
