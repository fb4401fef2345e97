/*
 * report-svg.c: one inline SVG chart per series, over the migration's
 * time: the phases as bands behind the line, each decision a dashed mark
 * with its number (the table under the charts gives its figures, and the
 * mark's <title> too, for a pointer).  Classes and data-series attributes
 * name the parts so that a test can find them in the page.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qmigrate.h"
#include "report.h"

#define W	960
#define H	190
#define X0	80.0
#define X1	940.0
#define Y0	24.0
#define Y1	160.0

/* Saturated, far from the bands' greys and the marks' orange. */
const char *const report_series_color[REPORT_NSERIES] = {
	"#1f5fd0", "#129a3a", "#d0202a", "#8a3cc8",
};
static const char *const series_name[REPORT_NSERIES] = {
	"remaining", "bandwidth", "dirty-rate", "throttle",
};
static const char *const series_title[REPORT_NSERIES] = {
	"Remaining", "Bandwidth", "Dirty rate", "Throttle",
};
static const char *const series_unit[REPORT_NSERIES] = {
	"B", "B/s", "B/s", "%",
};
static const char *const band_fill[2] = { "#eef0f3", "#dfe3e8" };

static double
value(const struct report_point *p, enum report_series s)
{
	switch (s) {
	case REPORT_REMAINING:	return p->remaining;
	case REPORT_BANDWIDTH:	return p->bandwidth;
	case REPORT_DIRTY:	return p->dirty;
	default:		return p->throttle;
	}
}

static double
xpos(const struct report_axis *ax, double t)
{
	return X0 + (X1 - X0) * (t / ax->max);
}

static double
ypos(const struct report_axis *ay, double v)
{
	return Y1 - (Y1 - Y0) * (v / ay->max);
}

/* About how wide a phase's label is at font-size 10, per character. */
#define LABEL_CHAR_PX	6.0

/*
 * The phases as bands, each named in its <title>; a band is labelled
 * where its label fits in it and clears the label before (the last band,
 * the end, always), so that short phases at the start do not print
 * over each other.
 */
static void
bands(FILE *f, const struct report *r, const struct report_axis *ax)
{
	size_t	i;
	double	a, b, w, clear = 0;

	for (i = 0; i < r->nphases; i++) {
		a = xpos(ax, r->phases[i].t);
		b = i + 1 < r->nphases ? xpos(ax, r->phases[i + 1].t) :
		    xpos(ax, r->t_end);
		if (b - a < 0.5)
			b = a + 0.5;
		fprintf(f, "<rect class=\"phase\" x=\"%.1f\" y=\"%.0f\" "
		    "width=\"%.1f\" height=\"%.0f\" fill=\"%s\"><title>",
		    a, Y0, b - a, Y1 - Y0, band_fill[i % 2]);
		report_html_escape(f, r->phases[i].name);
		fputs("</title></rect>\n", f);
		w = LABEL_CHAR_PX * (double)strlen(r->phases[i].name) + 4;
		if (a < clear || (b - a < w && i + 1 < r->nphases))
			continue;
		fprintf(f, "<text class=\"phase-label\" x=\"%.1f\" "
		    "y=\"%.0f\" font-size=\"10\" fill=\"#555\">", a + 2,
		    Y0 - 4);
		report_html_escape(f, r->phases[i].name);
		fputs("</text>\n", f);
		clear = a + w;
	}
}

static void
axes(FILE *f, const struct report_axis *ax, const struct report_axis *ay,
    enum report_series s)
{
	char	*label;
	int	 i;

	fprintf(f, "<g class=\"axes\" font-size=\"10\" fill=\"#333\">\n"
	    "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" "
	    "stroke=\"#333\"/>\n<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" "
	    "y2=\"%.0f\" stroke=\"#333\"/>\n", X0, Y1, X1, Y1, X0, Y0, X0, Y1);
	for (i = 0; i <= ay->nticks; i++) {
		double v = ay->step * i, y = ypos(ay, v);

		label = report_format_value(v, series_unit[s]);
		fprintf(f, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">"
		    "%s</text>\n", X0 - 4, y + 3, label);
		free(label);
	}
	for (i = 0; i <= ax->nticks; i++) {
		double v = ax->step * i, x = xpos(ax, v);

		label = report_format_value(v, "s");
		fprintf(f, "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">"
		    "%s</text>\n", x, Y1 + 14, label);
		free(label);
	}
	fputs("</g>\n", f);
}

/*
 * Each decision's mark: a dashed line, 2 px and crisp, so that it is drawn
 * in its full colour wherever it falls.  Antialiased at 1.5 px, a mark on
 * a whole pixel's edge (x = 500.0) was two columns at 75%, a pale line:
 * Chromium drew 27 pixels of its colour there, 316 at 500.1 to 500.9.
 */
static void
marks(FILE *f, const struct report *r, const struct report_axis *ax)
{
	size_t	i;
	double	x;

	for (i = 0; i < r->ndecisions; i++) {
		const struct report_decision *d = &r->decisions[i];

		x = xpos(ax, d->t);
		fprintf(f, "<g class=\"decision\" data-action=\"");
		report_html_escape(f, d->action);
		fprintf(f, "\"><title>%zu. ", i + 1);
		report_html_escape(f, d->action);
		fputs(": ", f);
		report_html_escape(f, d->reason);
		if (d->figures != NULL) {
			fputs(" ", f);
			report_html_escape(f, d->figures);
		}
		fprintf(f, "</title><line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" "
		    "y2=\"%.0f\" stroke=\"#f08a00\" stroke-width=\"2\" "
		    "shape-rendering=\"crispEdges\" stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%.0f\" "
		    "font-size=\"10\" fill=\"#b35f00\">%zu</text></g>\n",
		    x, Y0, x, Y1, x + 2, Y0 + 10, i + 1);
	}
}

/* The chart of series s over r's time, as an <svg> element. */
void
report_svg_chart(FILE *f, const struct report *r, enum report_series s)
{
	struct report_axis	 ax, ay;
	double			 top = 0;
	size_t			 i;

	for (i = 0; i < r->npoints; i++)
		if (value(&r->points[i], s) > top)
			top = value(&r->points[i], s);
	report_axis_nice(s == REPORT_THROTTLE ? 100 : top, &ay);
	report_axis_nice(r->t_end, &ax);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
	    "data-series=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
	    "%d\" font-family=\"sans-serif\">\n<text x=\"4\" y=\"14\" "
	    "font-size=\"13\" font-weight=\"bold\" fill=\"%s\">%s</text>\n",
	    series_name[s], W, H, W, H, report_series_color[s],
	    series_title[s]);
	bands(f, r, &ax);
	axes(f, &ax, &ay, s);
	fprintf(f, "<path class=\"series\" data-series=\"%s\" "
	    "data-points=\"%zu\" fill=\"none\" stroke=\"%s\" "
	    "stroke-width=\"2.5\" stroke-linejoin=\"round\" d=\"",
	    series_name[s], r->npoints, report_series_color[s]);
	for (i = 0; i < r->npoints; i++)
		fprintf(f, "%s%.1f %.1f", i == 0 ? "M" : " L",
		    xpos(&ax, r->points[i].t),
		    ypos(&ay, value(&r->points[i], s)));
	fputs("\"/>\n", f);
	marks(f, r, &ax);
	fputs("</svg>\n", f);
}
