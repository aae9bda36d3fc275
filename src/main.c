/* main.c — the ulpbench command: parse options, run, report, exit. */
#include "cli.h"

int main(void)
{
	return 0;
}
