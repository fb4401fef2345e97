/*
 * quantity.c: Kubernetes quantities ("217Ki", "1.5Gi", "500M", "1e9",
 * "64") as KubeVirt's bandwidthPerMigration takes them.
 *
 * The grammar is Kubernetes' (resource.Quantity): a signed decimal number,
 * then a binary suffix (Ki Mi Gi Ti Pi Ei, powers of 1024), a decimal one
 * (n u m "" k M G T P E, powers of 1000) or an exponent (e3, E-2).  Like
 * Quantity.Value(), a fraction of a unit is rounded up: "1.5" is 2, "500m"
 * is 1.  The arithmetic is exact (128-bit), so no value is off by a
 * rounding error at a boundary.
 */
#include <stdint.h>
#include <string.h>

#include "qmigrate.h"
#include "policy.h"

/* More significant digits than this are refused rather than rounded. */
#define QUANTITY_MAX_DIGITS	18
#define QUANTITY_MAX_LEN	64

typedef unsigned __int128 u128;

/* The suffix's power of ten and power of two; -1 when s is not one. */
static int
quantity_suffix(const char *s, int *exp10, int *exp2)
{
	static const struct {
		const char	*name;
		int		 exp10;
		int		 exp2;
	} suffixes[] = {
		{ "", 0, 0 }, { "n", -9, 0 }, { "u", -6, 0 }, { "m", -3, 0 },
		{ "k", 3, 0 }, { "M", 6, 0 }, { "G", 9, 0 }, { "T", 12, 0 },
		{ "P", 15, 0 }, { "E", 18, 0 },
		{ "Ki", 0, 10 }, { "Mi", 0, 20 }, { "Gi", 0, 30 },
		{ "Ti", 0, 40 }, { "Pi", 0, 50 }, { "Ei", 0, 60 },
	};
	const char	*p;
	long		 e = 0;
	int		 neg = 0;
	size_t		 i;

	for (i = 0; i < NITEMS(suffixes); i++) {
		if (strcmp(s, suffixes[i].name) == 0) {
			*exp10 = suffixes[i].exp10;
			*exp2 = suffixes[i].exp2;
			return 0;
		}
	}
	/* An exponent: e or E, an optional sign, digits. */
	if (*s != 'e' && *s != 'E')
		return -1;
	p = s + 1;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if (*p == '\0')
		return -1;
	for (; *p != '\0'; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		if ((e = e * 10 + (*p - '0')) > 1000)
			return -1;
	}
	*exp10 = neg ? -(int)e : (int)e;
	*exp2 = 0;
	return 0;
}

/*
 * Parses s as a Kubernetes quantity times 10^scale, at most max: 0 with
 * *out set (a fraction of a unit rounded up, *inexact then 1), -1 (not a
 * quantity, more than 18 significant digits, or over max) or -2 (below
 * zero).
 */
static int
quantity_scaled(const char *s, int scale, uint64_t max, uint64_t *out,
    int *inexact)
{
	char		 digits[QUANTITY_MAX_LEN + 1];
	size_t		 n = 0, nfrac = 0, i;
	const char	*p = s;
	int		 seen = 0, exp10, exp2, point = 0;
	u128		 v = 0, pow;

	*inexact = 0;
	if (strlen(s) > QUANTITY_MAX_LEN)
		return -1;
	if (*p == '+')
		p++;
	else if (*p == '-') {
		/* "-0" is zero; anything below is refused. */
		p++;
		for (i = 0; p[i] == '0' || p[i] == '.'; i++)
			;
		if (p[i] >= '1' && p[i] <= '9')
			return -2;
	}
	for (; (*p >= '0' && *p <= '9') || (*p == '.' && !point); p++) {
		if (*p == '.') {
			point = 1;
			continue;
		}
		seen = 1;
		/* Leading zeros carry nothing. */
		if (n == 0 && *p == '0') {
			if (point)
				nfrac++;
			continue;
		}
		digits[n++] = *p;
		if (point)
			nfrac++;
	}
	if (!seen || quantity_suffix(p, &exp10, &exp2) != 0)
		return -1;
	/* Trailing zeros move into the exponent. */
	while (n > 0 && digits[n - 1] == '0') {
		n--;
		if (nfrac > 0)
			nfrac--;
		else
			exp10++;
	}
	if (n > QUANTITY_MAX_DIGITS)
		return -1;
	for (i = 0; i < n; i++)
		v = v * 10 + (u128)(digits[i] - '0');
	if (v == 0) {
		*out = 0;
		return 0;
	}
	v <<= exp2;			/* < 10^18 * 2^60 < 2^120 */
	exp10 -= (int)nfrac;
	exp10 += scale;
	if (exp10 >= 0) {
		for (; exp10 > 0; exp10--) {
			v *= 10;
			if (v > max)
				return -1;
		}
	} else if (exp10 < -38) {
		v = 1;			/* a positive fraction of one unit */
		*inexact = 1;
	} else {
		for (pow = 1; exp10 < 0; exp10++)
			pow *= 10;
		*inexact = v % pow != 0;
		v = v / pow + (v % pow != 0);
	}
	if (v > max)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/*
 * Parses s as a Kubernetes quantity of at most max units.  Returns 0 with
 * *out set, or -1 (not a quantity, negative, more than 18 significant
 * digits, or over max).
 */
int
quantity_parse(const char *s, uint64_t max, uint64_t *out)
{
	int inexact;

	return quantity_scaled(s, 0, max, out, &inexact) == 0 ? 0 : -1;
}

/*
 * Parses s as a Kubernetes quantity in thousandths ("0.4" is 400, "1" is
 * 1000), as KubeVirt's admission reads the stall detector's factors (at
 * most 3 decimal places).  Returns 0 with *milli set, -1 (not a
 * quantity, or over max_milli), -2 (below zero) or -3 (more than 3
 * decimal places).
 */
int
quantity_parse_milli(const char *s, uint64_t max_milli, uint64_t *milli)
{
	int inexact, rc;

	if ((rc = quantity_scaled(s, 3, max_milli, milli, &inexact)) != 0)
		return rc;
	return inexact ? -3 : 0;
}
