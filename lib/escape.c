/*
 * escape.c: a peer's bytes made safe for a one-line message, for every
 * part that logs what a peer sent (QEMU's replies, the other side's
 * control messages).
 */
#include <stdio.h>
#include <string.h>

#include "common.h"

char *
escape_bytes(const char *bytes, size_t len, size_t max)
{
	size_t		 n = len < max ? len : max, i, o = 0;
	char		*s;
	unsigned char	 c;

	s = xmalloc(n * 4 + 4);
	for (i = 0; i < n; i++) {
		c = (unsigned char)bytes[i];
		if (c == '\\') {
			s[o++] = '\\';
			s[o++] = '\\';
		} else if (c >= 0x20 && c < 0x7f)
			s[o++] = (char)c;
		else
			o += (size_t)snprintf(s + o, 5, "\\x%02x", c);
	}
	if (len > max) {
		memcpy(s + o, "...", 3);
		o += 3;
	}
	s[o] = '\0';
	return s;
}
