/* metrics.c — (to be written) */
