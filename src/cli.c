/* cli.c — (to be written) */
