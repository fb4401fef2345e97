/*
 * report-axes.c: the report's axes: a round top and step for a series'
 * largest value (1, 2 or 5 times a power of ten, 4 to 8 ticks), and values
 * written with units a person reads (MiB, MB/s, %).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qmigrate.h"
#include "report.h"

void
report_axis_nice(double max, struct report_axis *a)
{
	static const double	 mult[] = { 1, 2, 5 };
	double			 p, step;
	int			 i;

	if (!(max > 0) || !isfinite(max))
		max = 1;
	p = pow(10, floor(log10(max / 8)));
	for (;;) {
		for (i = 0; i < 3; i++) {
			step = mult[i] * p;
			if (ceil(max / step) <= 8) {
				a->step = step;
				a->nticks = (int)ceil(max / step);
				if (a->nticks < 1)
					a->nticks = 1;
				a->max = a->step * a->nticks;
				return;
			}
		}
		p *= 10;
	}
}

/*
 * v in unit ("B": bytes as KiB/MiB/GiB, "B/s": bytes a second as MB/s,
 * "%", "s"), malloc'd.
 */
char *
report_format_value(double v, const char *unit)
{
	static const char *const bin[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	char	*out;
	int	 i = 0;

	if (strcmp(unit, "B") == 0) {
		while (fabs(v) >= 1024 && i < 4) {
			v /= 1024;
			i++;
		}
		xasprintf(&out, "%.*f %s", v == floor(v) ? 0 : 1, v, bin[i]);
	} else if (strcmp(unit, "B/s") == 0)
		xasprintf(&out, "%.*f MB/s", v / 1e6 < 10 &&
		    v != 0 ? 1 : 0, v / 1e6);
	else if (strcmp(unit, "%") == 0)
		xasprintf(&out, "%.0f%%", v);
	else
		xasprintf(&out, "%.*f s", v == floor(v) ? 0 : 1, v);
	return out;
}
