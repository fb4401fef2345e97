/*
 * report-escape.c: text into the report's HTML and SVG, escaped.  Its own
 * file because both the page (report-html.c) and the charts
 * (report-svg.c) write text, and the page draws the charts.
 */
#include <stdio.h>

#include "report.h"

/* Writes s with HTML's five special characters escaped; NULL as "". */
void
report_html_escape(FILE *f, const char *s)
{
	for (; s != NULL && *s != '\0'; s++)
		switch (*s) {
		case '&':	fputs("&amp;", f); break;
		case '<':	fputs("&lt;", f); break;
		case '>':	fputs("&gt;", f); break;
		case '"':	fputs("&quot;", f); break;
		case '\'':	fputs("&#39;", f); break;
		default:	fputc(*s, f);
		}
}
