/*
 * test-args.c: the option tables every command declares, parsed by
 * args_parse() (args.c): spellings getopt_long took (--name VALUE,
 * --name=VALUE, unambiguous prefixes), checked values, required and
 * repeated options, arguments, and the usage and --help text generated
 * from the same table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "qmigrate.h"

static const struct args_option group[] = {
	{ .name = "label", .type = ARGS_STRING, .value = "K=V",
	    .flags = ARGS_REPEAT, .help = "a label" },
	{ .name = "labels-file", .type = ARGS_STRING, .value = "F",
	    .help = "labels" },
	{ .name = NULL }
};

static const struct args_option options[] = {
	{ .name = "qmp", .type = ARGS_STRING, .value = "PATH",
	    .flags = ARGS_REQUIRED, .help = "the monitor socket" },
	{ .include = group },
	{ .name = "timeout", .type = ARGS_SECONDS, .value = "S", .min = 0.5,
	    .help = "give up after S seconds" },
	{ .name = "max-parallel", .type = ARGS_COUNT, .value = "N", .min = 1,
	    .max = 64, .help = "slots" },
	{ .name = "json", .type = ARGS_FLAG, .help = "JSON output" },
	{ .name = NULL }
};

static const struct args_spec spec = { options, 0, 1, "[PART]", NULL };

/* Parses the words of line (space separated) as argv after "cmd". */
static struct args *
parse(const char *line, char **cause)
{
	static char	 buf[512];
	static char	*argv[32];
	int		 argc = 0;
	char		*w, *save;

	snprintf(buf, sizeof buf, "%s", line);
	argv[argc++] = (char *)"cmd";
	for (w = strtok_r(buf, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	*cause = NULL;
	return args_parse(&spec, argc, argv, cause);
}

static void
expect_error(const char *line, const char *want)
{
	struct args	*a;
	char		*cause;

	if ((a = parse(line, &cause)) != NULL)
		fail_msg("accepted: %s", line);
	if (strcmp(cause, want) != 0)
		fail_msg("%s\n got: %s\nwant: %s", line, cause, want);
	free(cause);
}

static void
test_parse(void **state)
{
	struct args	*a;
	const char	*value;
	char		*cause;

	(void)state;
	a = parse("--qmp /q --label a=1 --timeout=2.5 --label b=2 --json "
	    "--max-parallel 3 info", &cause);
	assert_non_null(a);
	assert_string_equal(args_get(a, "qmp"), "/q");
	/* The last of a repeatable one; all of them in order. */
	assert_string_equal(args_get(a, "label"), "b=2");
	assert_non_null(args_option_at(a, 5, NULL));
	assert_null(args_option_at(a, 6, NULL));
	(void)args_option_at(a, 1, &value);
	assert_string_equal(value, "a=1");
	assert_string_equal(args_option_at(a, 3, NULL), "label");
	assert_true(args_has(a, "json"));
	assert_false(args_has(a, "labels-file"));
	assert_null(args_get(a, "labels-file"));
	assert_true(args_number(a, "timeout", 9) == 2.5);
	assert_true(args_number(a, "max-parallel", 9) == 3);
	assert_true(args_number(a, "nothing", 9) == 9);
	assert_int_equal(args_count(a), 1);
	assert_string_equal(args_string(a, 0), "info");
	args_free(a);

	/* Unambiguous prefixes, as getopt_long took them; "--" ends options. */
	a = parse("--q /q --labels /l --max 2 -- --json", &cause);
	assert_non_null(a);
	assert_string_equal(args_get(a, "labels-file"), "/l");
	assert_false(args_has(a, "json"));
	assert_string_equal(args_string(a, 0), "--json");
	args_free(a);
	/* An exact name wins over the longer one it prefixes. */
	a = parse("--qmp /q --label x=y", &cause);
	assert_non_null(a);
	assert_string_equal(args_get(a, "label"), "x=y");
	args_free(a);
}

static void
test_errors(void **state)
{
	(void)state;
	expect_error("", "--qmp PATH is required");
	expect_error("--qmp /q --colour red", "unknown option --colour");
	expect_error("--qmp /q -x", "unknown option -x");
	expect_error("--qmp /q --l a=b", "ambiguous option --l");
	expect_error("--qmp /q --qmp /r", "--qmp: given twice");
	expect_error("--qmp", "--qmp needs a value (PATH)");
	expect_error("--qmp /q --json=yes", "--json takes no value");
	expect_error("--qmp /q --timeout soon",
	    "--timeout: expected seconds (0.5 or more), got \"soon\"");
	expect_error("--qmp /q --timeout 0.1",
	    "--timeout: expected seconds (0.5 or more), got \"0.1\"");
	expect_error("--qmp /q --max-parallel 65",
	    "--max-parallel: expected 1 to 64, got \"65\"");
	expect_error("--qmp /q --max-parallel -1",
	    "--max-parallel: expected 1 to 64, got \"-1\"");
	expect_error("--qmp /q a b", "unexpected argument \"b\"");
}

static void
test_usage_and_help(void **state)
{
	char	*u;
	FILE	*f;
	char	*buf = NULL;
	size_t	 len = 0;

	(void)state;
	u = args_usage(&spec, 0);
	assert_string_equal(u, "--qmp PATH [options] [PART]");
	free(u);
	u = args_usage(&spec, 1);
	assert_string_equal(u, "--qmp PATH [--label K=V]... [--labels-file F] "
	    "[--timeout S] [--max-parallel N] [--json] [PART]");
	free(u);

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	args_print_options(f, &spec);
	fclose(f);
	assert_string_equal(buf,
	    "  --qmp PATH            the monitor socket\n"
	    "  --label K=V           a label\n"
	    "  --labels-file F       labels\n"
	    "  --timeout S           give up after S seconds\n"
	    "  --max-parallel N      slots\n"
	    "  --json                JSON output\n");
	free(buf);
}

/* Every command's table parses its own --help-documented options. */
static void
test_commands(void **state)
{
	const struct cmd_entry **c;
	const struct cmd_entry *const *sub;
	char *u;

	(void)state;
	for (c = cmd_table; *c != NULL; c++) {
		if ((*c)->subs != NULL) {
			for (sub = (*c)->subs; *sub != NULL; sub++) {
				assert_non_null((*sub)->exec);
				assert_non_null((*sub)->help);
				/* --help ends with the exit statuses. */
				assert_non_null((*sub)->exits);
				assert_int_equal(strncmp((*sub)->exits,
				    "Exit status", 11), 0);
				u = args_usage(&(*sub)->args, 1);
				free(u);
			}
			continue;
		}
		assert_non_null((*c)->exec);
		assert_non_null((*c)->help);
		assert_non_null((*c)->exits);
		assert_int_equal(strncmp((*c)->exits, "Exit status", 11), 0);
		u = args_usage(&(*c)->args, 1);
		free(u);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_usage_and_help),
		cmocka_unit_test(test_commands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
