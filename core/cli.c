/* cli.c - dispatch of the sb subcommands. */
#include "cli.h"
#include "dag.h"
#include "registry.h"

#include <stdio.h>
#include <string.h>

static int cmd_list(int argc, char **argv)
{
	int n, i;
	const struct sb_dag_policy *const *p = sb_dag_policies(&n);
	(void)argc; (void)argv;
	for (i = 0; i < n; i++)
		printf("dag  %-14s %s\n", p[i]->name, p[i]->desc);
	return 0;
}

int sb_cli_main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "list") == 0)
		return cmd_list(argc - 1, argv + 1);
	fprintf(stderr, "usage: sb list\n");
	return 2;
}
