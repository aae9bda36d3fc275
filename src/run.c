/* run.c — (to be written) */
