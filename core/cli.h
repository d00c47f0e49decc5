/* cli.h - entry points of the sb subcommands. */
#ifndef SB_CLI_H
#define SB_CLI_H

int sb_cli_main(int argc, char **argv);

#endif
