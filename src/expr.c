/* expr.c — (to be written) */
