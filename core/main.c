/* main.c - the sb command (subcommands in core/cmd_*.c). */
#include "cli.h"

int main(int argc, char **argv)
{
	return sb_cli_main(argc, argv);
}
