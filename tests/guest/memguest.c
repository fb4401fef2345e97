/*
 * memguest.c: a bare-metal memory guest for migration tests.
 *
 * Booted by QEMU as a multiboot kernel (-kernel memguest.elf -append
 * "mib=64 rate=50").  It fills MIB MiB of memory from 2 MiB up, one
 * signature per 4 KiB page, then visits the pages round-robin forever:
 * each visit checks what it last wrote to the page and, when RATE > 0,
 * writes the page again with the next generation number.  Writing RATE
 * MB/s (10^6 bytes) of pages is what makes the guest "dirty" memory at a
 * known rate; a page that does not hold what was last written to it is a
 * migration bug and is reported on COM1.  With hot=H (percent) the writer
 * rewrites only the first H% of the pages, the guest's hot set; the rest
 * keeps what the fill wrote (the verifier still reads every page).
 *
 * Beside the writer, a verifier reads every word of every page, sweep
 * after sweep, as fast as the time the writer leaves allows, and reports
 * each completed sweep: that line is what lets a test say that every page
 * arrived intact, not a sample.
 *
 * No OS, no interrupts: the serial port is polled and the pace comes from
 * the TSC, calibrated once against the PIT.  Under TCG QEMU's TSC follows
 * host time, so guest seconds track wall-clock seconds while the VM runs.
 *
 * Serial lines (parsed by tests and benchmarks; keep them stable):
 *   memguest: ready mib=M rate=R pages=N [hot=H hot_pages=K]
 *   memguest: progress pass=P pages_checked=N paced_ms=T rate_mbs=R
 *   memguest: verified sweep=S pages=N corrupt=C ms=T
 *   memguest: CORRUPT page=I expected_gen=G found=...
 *   memguest: CORRUPT suppressed=N
 *   memguest: error ...
 */
#include <stddef.h>
#include <stdint.h>

#define PAGE_SIZE	4096u
#define PAGE_WORDS	(PAGE_SIZE / 4)
#define AREA_START	0x200000u	/* 2 MiB: above the image */
#define MARKER		0x474d454du	/* "MEMG" */
#define SLOTS		8u		/* stamps per page, one per 512 bytes */
#define SLOT_WORDS	(PAGE_WORDS / SLOTS)
#define WORD_STEP	0x01000193u
#define IDLE_PPS	2048u		/* pages/s verified when rate=0 */
#define MAX_RATE	1000000u	/* MB/s: effectively unthrottled */
#define CORRUPT_LINES	16u		/* CORRUPT lines per second at most */
#define VERIFY_BATCH	32u		/* pages verified per turn of the loop */

#define COM1		0x3f8

extern char	_end[];

static uint64_t	tsc_hz;
static uint32_t	seed = 0x5eed1234u;
/* tlbflush=0 leaves tcg_tlb_flush() out: the TCG dirty-tracking defect's
 * reproduction (tests/guest/tcg-dirty-repro.sh), never the tests. */
static uint32_t	tlbflush = 1;

static inline void
outb(uint16_t port, uint8_t v)
{
	__asm__ volatile ("outb %0, %1" : : "a" (v), "Nd" (port));
}

static inline uint8_t
inb(uint16_t port)
{
	uint8_t	v;

	__asm__ volatile ("inb %1, %0" : "=a" (v) : "Nd" (port));
	return v;
}

static inline uint64_t
rdtsc(void)
{
	uint32_t	lo, hi;

	__asm__ volatile ("rdtsc" : "=a" (lo), "=d" (hi));
	return ((uint64_t)hi << 32) | lo;
}

static void
halt_forever(void)
{
	for (;;)
		__asm__ volatile ("cli; hlt");
}

/* COM1 at 115200 8N1, FIFOs on, no interrupts. */
static void
serial_init(void)
{
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x80);
	outb(COM1 + 0, 0x01);
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03);
	outb(COM1 + 2, 0xc7);
	outb(COM1 + 4, 0x03);
}

static void
putch(char c)
{
	while ((inb(COM1 + 5) & 0x20) == 0)
		;
	outb(COM1, (uint8_t)c);
}

static void
puts_(const char *s)
{
	while (*s != '\0')
		putch(*s++);
}

static void
putu(uint64_t v)
{
	char	buf[21];
	int	i = 0;

	do {
		buf[i++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (i > 0)
		putch(buf[--i]);
}

static void
putx(uint32_t v)
{
	static const char	digits[] = "0123456789abcdef";
	int			i;

	puts_("0x");
	for (i = 28; i >= 0; i -= 4)
		putch(digits[(v >> i) & 0xf]);
}

/* Field "key=" followed by an unsigned decimal value. */
static void
putkv(const char *key, uint64_t v)
{
	puts_(key);
	putch('=');
	putu(v);
}

/*
 * One PIT channel 2 one-shot of COUNT ticks (1.193182 MHz), gated through
 * port 0x61, measured in TSC ticks.
 */
static uint64_t
pit_measure(uint16_t count)
{
	uint64_t	t0, t1;
	uint8_t		v;

	v = inb(0x61);
	outb(0x61, (uint8_t)((v & ~0x02) | 0x01));	/* gate on, speaker off */
	outb(0x43, 0xb0);			/* ch2, lo/hi, mode 0, binary */
	outb(0x42, (uint8_t)(count & 0xff));
	outb(0x42, (uint8_t)(count >> 8));
	t0 = rdtsc();
	while ((inb(0x61) & 0x20) == 0)
		;
	t1 = rdtsc();
	return t1 - t0;
}

/*
 * TSC frequency from the median of five 50 ms PIT one-shots: the host may
 * deschedule the vCPU thread during one of them.
 */
static uint64_t
calibrate_tsc(void)
{
	const uint16_t	count = 59659;	/* 50 ms */
	uint64_t	m[5], t;
	int		i, j;

	for (i = 0; i < 5; i++)
		m[i] = pit_measure(count);
	for (i = 1; i < 5; i++)
		for (j = i; j > 0 && m[j - 1] > m[j]; j--) {
			t = m[j];
			m[j] = m[j - 1];
			m[j - 1] = t;
		}
	return m[2] * 1193182u / count;
}

/* Parses "key=NUMBER" out of the multiboot command line. */
static int
cmdline_get(const char *cmdline, const char *key, uint32_t *out)
{
	const char	*p = cmdline, *k;
	uint64_t	 v;

	while (*p != '\0') {
		while (*p == ' ')
			p++;
		for (k = key; *k != '\0' && *p == *k; k++, p++)
			;
		if (*k == '\0' && *p == '=') {
			p++;
			if (*p < '0' || *p > '9')
				return -1;
			for (v = 0; *p >= '0' && *p <= '9'; p++) {
				v = v * 10 + (uint64_t)(*p - '0');
				if (v > 0xffffffffu)
					return -1;
			}
			if (*p != '\0' && *p != ' ')
				return -1;
			*out = (uint32_t)v;
			return 0;
		}
		while (*p != '\0' && *p != ' ')
			p++;
	}
	return 1;
}

static inline uint32_t
mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

/* First word of page INDEX's static pattern; word k is base + k * STEP. */
static inline uint32_t
page_base(uint32_t index)
{
	return mix32(index * 0x9e3779b1u ^ seed);
}

static inline uint32_t
stamp_check(uint32_t index, uint32_t gen, uint32_t slot)
{
	return mix32(index ^ (gen * 0x85ebca6bu) ^ (slot << 24) ^ seed);
}

static inline volatile uint32_t *
page_ptr(uint32_t index)
{
	return (volatile uint32_t *)(uintptr_t)(AREA_START + index * PAGE_SIZE);
}

/* Stamp slot s: MARKER, index, generation, check word. */
static void
page_stamp(uint32_t index, uint32_t gen)
{
	volatile uint32_t	*p = page_ptr(index);
	uint32_t		 s;

	for (s = 0; s < SLOTS; s++) {
		p[s * SLOT_WORDS + 0] = MARKER;
		p[s * SLOT_WORDS + 1] = index;
		p[s * SLOT_WORDS + 2] = gen;
		p[s * SLOT_WORDS + 3] = stamp_check(index, gen, s);
	}
}

/* Writes the whole page: static pattern everywhere, then the stamps. */
static void
page_fill(uint32_t index, uint32_t gen)
{
	volatile uint32_t	*p = page_ptr(index);
	uint32_t		 k, w = page_base(index);

	for (k = 0; k < PAGE_WORDS; k++, w += WORD_STEP)
		p[k] = w;
	page_stamp(index, gen);
}

static uint32_t	corrupt_lines, corrupt_suppressed;
static uint32_t	corrupt_pages;	/* found since the current sweep began */

static void
report_corrupt(uint32_t index, uint32_t gen, const char *what,
    uint32_t offset, uint32_t found, uint32_t expected)
{
	corrupt_pages++;
	if (corrupt_lines >= CORRUPT_LINES) {
		corrupt_suppressed++;
		return;
	}
	corrupt_lines++;
	puts_("memguest: CORRUPT ");
	putkv("page", index);
	putch(' ');
	putkv("expected_gen", gen);
	puts_(" found=");
	puts_(what);
	putch(':');
	putx(found);
	puts_(" expected=");
	putx(expected);
	putch(' ');
	putkv("offset", offset);
	puts_("\n");
}

/* Checks the 8 stamps of page INDEX against generation GEN; 0 if they match. */
static int
stamps_check(uint32_t index, uint32_t gen)
{
	volatile uint32_t	*p = page_ptr(index);
	uint32_t		 s, o, v;

	for (s = 0; s < SLOTS; s++) {
		o = s * SLOT_WORDS;
		if ((v = p[o]) != MARKER) {
			report_corrupt(index, gen, "marker", o * 4, v, MARKER);
			return -1;
		}
		if ((v = p[o + 1]) != index) {
			report_corrupt(index, gen, "index", o * 4 + 4, v, index);
			return -1;
		}
		if ((v = p[o + 2]) != gen) {
			report_corrupt(index, gen, "gen", o * 4 + 8, v, gen);
			return -1;
		}
		if ((v = p[o + 3]) != stamp_check(index, gen, s)) {
			report_corrupt(index, gen, "check", o * 4 + 12, v,
			    stamp_check(index, gen, s));
			return -1;
		}
	}
	return 0;
}

/*
 * Checks the static words of chunks FIRST to LAST - 1 of page INDEX (GEN
 * only for the report); 0 if they match.  The words are folded into one
 * difference and only a page that differs is searched again for the first
 * bad word: the common case is a tight read loop.
 */
static int
words_check(uint32_t index, uint32_t gen, uint32_t first, uint32_t last)
{
	volatile uint32_t	*p = page_ptr(index);
	uint32_t		 base = page_base(index), c, k, w, diff = 0;

	for (c = first; c < last; c++) {
		w = base + (c * SLOT_WORDS + 4) * WORD_STEP;
		for (k = c * SLOT_WORDS + 4; k < (c + 1) * SLOT_WORDS;
		    k++, w += WORD_STEP)
			diff |= p[k] ^ w;
	}
	if (diff == 0)
		return 0;
	for (c = first; c < last; c++) {
		w = base + (c * SLOT_WORDS + 4) * WORD_STEP;
		for (k = c * SLOT_WORDS + 4; k < (c + 1) * SLOT_WORDS;
		    k++, w += WORD_STEP)
			if (p[k] != w) {
				report_corrupt(index, gen, "word", k * 4, p[k],
				    w);
				return -1;
			}
	}
	/* Wrong on the first read, right on the second: memory changing
	 * under the guest, corrupt all the same. */
	report_corrupt(index, gen, "unstable", first * SLOT_WORDS * 4, diff, 0);
	return -1;
}

/*
 * The writer's check of page INDEX against generation GEN: all stamps, and
 * the static words of one 512-byte chunk (CHUNK), which keeps a visit cheap
 * enough for high dirty rates (the verifier reads the rest).  Returns 0 if
 * it matches.
 */
static int
page_check(uint32_t index, uint32_t gen, uint32_t chunk)
{
	if (stamps_check(index, gen) != 0)
		return -1;
	return words_check(index, gen, chunk, chunk + 1);
}

/* The verifier's check of page INDEX: every word.  Returns 0 if it matches. */
static int
page_verify(uint32_t index, uint32_t gen)
{
	if (stamps_check(index, gen) != 0)
		return -1;
	return words_check(index, gen, 0, SLOTS);
}

/*
 * Flushes QEMU TCG's software TLB by toggling CR0.WP (meaningless without
 * paging; any change of CR0's PG, WP or PE flushes it).  Why: QEMU 7.2 under
 * TCG stops tracking writes to a page for migration once that page's TLB
 * entry is marked dirty, and a dirty-bitmap sync does not reset it, so a
 * page written through a resident entry (this loop's stack) can reach the
 * target stale.  Measured here with a bare QMP script and no qmigrate: 17
 * CORRUPT pages on the target after a stop-and-finish pre-copy; none with
 * this flush before every batch.  The flush makes each batch's first write
 * to the stack page go through QEMU's slow path, which marks it dirty.
 */
static inline void
tcg_tlb_flush(void)
{
	uint32_t cr0;

	if (!tlbflush)
		return;
	__asm__ volatile ("mov %%cr0, %0" : "=r" (cr0));
	__asm__ volatile ("mov %0, %%cr0" : : "r" (cr0 ^ (1u << 16)));
	__asm__ volatile ("mov %0, %%cr0" : : "r" (cr0));
}

static uint32_t	verify_index, verify_sweep = 1;
static uint64_t	verify_start;

/*
 * One turn of the verifier: the next VERIFY_BATCH pages of the current
 * sweep, every word, each against the generation the writer left it at
 * (in pass PASS the writer, now at page WINDEX, has rewritten the pages
 * below WINDEX with generation PASS; it never rewrites the pages from
 * HOT_PAGES up, nor any when RATE is 0).  A corrupt
 * page is reported and repaired as the writer does, so one corruption gives
 * one report.  A completed sweep prints its verified line and ends the
 * turn: the sweeps run back to back, so that line also marks the start of
 * the next sweep.
 */
static void
verify_turn(uint32_t pages, uint32_t hot_pages, uint32_t rate, uint32_t pass,
    uint32_t windex)
{
	uint32_t	n, gen;
	uint64_t	now;

	for (n = 0; n < VERIFY_BATCH; n++) {
		/* Pages above the hot set keep the fill's generation 0. */
		gen = rate == 0 || verify_index >= hot_pages ? 0 :
		    verify_index < windex ? pass : pass - 1;
		if (page_verify(verify_index, gen) != 0) {
			tcg_tlb_flush();
			page_fill(verify_index, gen);
		}
		if (++verify_index < pages)
			continue;
		now = rdtsc();
		puts_("memguest: verified ");
		putkv("sweep", verify_sweep);
		putch(' ');
		putkv("pages", pages);
		putch(' ');
		putkv("corrupt", corrupt_pages);
		putch(' ');
		putkv("ms", (now - verify_start) * 1000u / tsc_hz);
		puts_("\n");
		verify_index = 0;
		verify_sweep++;
		verify_start = now;
		corrupt_pages = 0;
		return;
	}
}

void	memguest_main(uint32_t, const uint32_t *);

void
memguest_main(uint32_t magic, const uint32_t *mbi)
{
	const char	*cmdline = "";
	uint32_t	 mib = 32, rate = 0, hot = 100, hot_pages;
	uint32_t	 mem_top, pages, index, pass, gen;
	uint32_t	 batch;
	uint64_t	 pps, now, epoch, elapsed, epoch_pages;
	uint64_t	 pace_start, pace_done, behind, paced_since;
	uint64_t	 checked = 0, dirtied, us;

	serial_init();
	if (magic != 0x2badb002u) {
		puts_("memguest: error not booted by a multiboot loader\n");
		halt_forever();
	}
	if (mbi[0] & (1u << 2))
		cmdline = (const char *)(uintptr_t)mbi[4];
	if (cmdline_get(cmdline, "mib", &mib) < 0 ||
	    cmdline_get(cmdline, "rate", &rate) < 0 ||
	    cmdline_get(cmdline, "hot", &hot) < 0 ||
	    cmdline_get(cmdline, "seed", &seed) < 0 ||
	    cmdline_get(cmdline, "tlbflush", &tlbflush) < 0) {
		puts_("memguest: error bad command line: ");
		puts_(cmdline);
		puts_("\n");
		halt_forever();
	}
	if ((uintptr_t)_end > AREA_START ||
	    (uintptr_t)mbi + 64 > AREA_START ||
	    (uintptr_t)cmdline + 256 > AREA_START) {
		puts_("memguest: error image or multiboot info above 2 MiB\n");
		halt_forever();
	}
	if ((mbi[0] & 1u) == 0) {
		puts_("memguest: error no memory size from the loader\n");
		halt_forever();
	}
	/* mem_upper: KiB of contiguous memory from 1 MiB up. */
	mem_top = 0x100000u + mbi[2] * 1024u;
	if (mib == 0 || mib > 3072 ||
	    AREA_START + mib * 0x100000u > mem_top) {
		puts_("memguest: error ");
		putkv("mib", mib);
		puts_(" does not fit: ");
		putkv("usable_mib", (mem_top - AREA_START) >> 20);
		puts_(" above 2 MiB\n");
		halt_forever();
	}
	if (rate > MAX_RATE)
		rate = MAX_RATE;
	if (hot == 0 || hot > 100) {
		puts_("memguest: error ");
		putkv("hot", hot);
		puts_(": expected a percentage of the pages from 1 to 100\n");
		halt_forever();
	}

	tsc_hz = calibrate_tsc();
	pages = mib * (0x100000u / PAGE_SIZE);
	hot_pages = (uint32_t)((uint64_t)pages * hot / 100);
	if (hot_pages == 0)
		hot_pages = 1;
	for (index = 0; index < pages; index++)
		page_fill(index, 0);

	puts_("memguest: ready ");
	putkv("mib", mib);
	putch(' ');
	putkv("rate", rate);
	putch(' ');
	putkv("pages", pages);
	if (hot != 100) {
		puts_(" ");
		putkv("hot", hot);
		puts_(" ");
		putkv("hot_pages", hot_pages);
	}
	puts_("\n");

	/* Pages per second: written when rate > 0, only verified at 0. */
	pps = rate != 0 ? (uint64_t)rate * 1000000u / PAGE_SIZE : IDLE_PPS;
	if (pps == 0)
		pps = 1;
	pass = 1;
	index = 0;
	epoch = pace_start = verify_start = paced_since = rdtsc();
	epoch_pages = pace_done = 0;
	for (;;) {
		now = rdtsc();
		elapsed = now - epoch;
		if (elapsed >= tsc_hz) {
			/* Bytes per microsecond is MB/s. */
			dirtied = rate != 0 ? epoch_pages * PAGE_SIZE : 0;
			puts_("memguest: progress ");
			putkv("pass", pass);
			putch(' ');
			putkv("pages_checked", checked);
			putch(' ');
			/* The guest's time since its pace began: the pace
			   allows at most that many seconds of pages, however
			   late a starved vCPU writes this line. */
			putkv("paced_ms", (now - paced_since) * 1000u / tsc_hz);
			putch(' ');
			us = elapsed * 1000000u / tsc_hz;
			putkv("rate_mbs", (dirtied + us / 2) / us);
			puts_("\n");
			if (corrupt_suppressed != 0) {
				puts_("memguest: CORRUPT ");
				putkv("suppressed", corrupt_suppressed);
				puts_("\n");
			}
			corrupt_lines = corrupt_suppressed = 0;
			epoch = now;
			epoch_pages = 0;
			/*
			 * Rebase the pace, keeping up to one second of debt: a
			 * vCPU that was throttled or descheduled catches up,
			 * so the average rate stays RATE whenever the guest
			 * can do it at all.
			 */
			if (now - pace_start >= 4 * tsc_hz) {
				/* Stalled for seconds; also avoids overflow. */
				behind = pps;
			} else {
				behind = (now - pace_start) * pps / tsc_hz;
				behind = behind > pace_done ?
				    behind - pace_done : 0;
				if (behind > pps)
					behind = pps;
			}
			pace_start = now - behind * tsc_hz / pps;
			pace_done = 0;
			continue;
		}
		/* A bounded batch, so that a guest behind its pace still
		 * reports every second. */
		tcg_tlb_flush();
		for (batch = 0; batch < 256 &&
		    pace_done < (now - pace_start) * pps / tsc_hz; batch++) {
			/* Pass P expects generation P-1 and writes P. */
			gen = rate != 0 ? pass - 1 : 0;
			if (page_check(index, gen, (index + pass) % SLOTS) != 0)
				page_fill(index, rate != 0 ? pass : 0);
			else if (rate != 0)
				page_stamp(index, pass);
			checked++;
			epoch_pages++;
			pace_done++;
			if (++index == hot_pages) {
				index = 0;
				pass++;
			}
		}
		/*
		 * The verifier gets every turn: all the time the writer's pace
		 * leaves, and 32 pages per batch of 256 when the writer is
		 * behind (a starved vCPU, or an unreachable rate): about a
		 * sixth of its time, so that a sweep still ends within seconds.
		 */
		verify_turn(pages, hot_pages, rate, pass, index);
	}
}
